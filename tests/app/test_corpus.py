"""`tabletape corpus check`: an archive judged as a whole, baselines, the cache, Dask."""

from __future__ import annotations

import glob
import json
import os
import shutil

import msgspec
import pytest

from tabletape import engine
from tabletape.app import corpus
from tabletape.tape import log

DECK = os.path.abspath("replays/decks/cards-of-war-tank-9.json")


@pytest.fixture
def logs(tmp_path, monkeypatch):
    """A copy of the bundled replays (30 logs, 4 games), and a cache of our own."""
    monkeypatch.setenv("TABLETAPE_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "logs"
    for game in ("cards-of-war", "global-domination", "liberation", "battlecards-pacific"):
        shutil.copytree(f"replays/{game}", out / game)
    return out


N = len(glob.glob("replays/*/*.jsonl"))


def check_json(run, *args):
    r = run("corpus", "check", *args, "--json")
    return r.exit_code, json.loads(r.stdout)


def test_every_game_declares_its_rules_version_in_its_changelog():
    for rs in engine.all_games():
        assert rs.version in rs.changelog, rs.id
        for rules in rs.changelog.values():
            assert set(rules) <= set(rs.catalogue()), rs.id


def test_a_changed_result_names_the_rules_changed_since_its_version(monkeypatch):
    cow = type(engine.get("cards-of-war"))
    monkeypatch.setattr(cow, "changelog", {"1.0": {}, "1.1": {"cow.kill.type-match": "x"},
                                           "1.10": {"cow.turn.order": "y"}})
    assert corpus.rules_changed_since("cards-of-war", "1.0") == ["cow.kill.type-match",
                                                                 "cow.turn.order"]
    assert corpus.rules_changed_since("cards-of-war", "1.2") == ["cow.turn.order"]
    assert corpus.rules_changed_since("cards-of-war", "1.10") == []
    old = corpus.Entry(game="cards-of-war", rules_version="1.1", events=3, verdict="valid")
    new = corpus.Entry(game="cards-of-war", rules_version="1.1", events=3, verdict="invalid",
                       illegal=[(2, "cow.turn.order")])
    change = corpus.difference("a.jsonl", old, new)
    # judged by its own version both times: no rule change is involved (issue 35)
    assert change is not None and change.rules_changed == [] and change.first_seq == 2
    # judged by another version: the rules changed since its own are named
    change = corpus.difference("a.jsonl", old, msgspec.structs.replace(new, judged_by="1.10"))
    assert change is not None and change.rules_changed == ["cow.turn.order"]
    assert change.first_seq == 2


def test_check_summarises_by_game_and_rules_version(run, logs):
    kill = logs / "cards-of-war" / "kill-dispute.jsonl"
    cut = logs / "cards-of-war" / "cut-at-the-kill.jsonl"  # ends on its illegal KILL
    cut.write_bytes(b"".join(kill.read_bytes().splitlines(keepends=True)[:22]))
    code, report = check_json(run, logs, "--jobs", "1")
    results = [engine.replay(p) for p in glob.glob(f"{logs}/*/*.jsonl")]
    bad = sum(not r.ok for r in results)  # as `validate` says
    assert code == (1 if bad else 0)
    assert report["total"] == {"logs": N + 1, "events": sum(r.events for r in results),
                               "valid": N + 1 - bad, "invalid": bad, "broken": 0}
    assert report["by_game"]["cards-of-war"]["invalid"] >= 1
    assert report["logs"][os.path.relpath(cut)]["illegal"] == [[21, "cow.kill.type-match"]]
    assert report["logs"][os.path.relpath(cut)]["verdict"] == "invalid"
    assert set(report["by_version"]) == {f"{e['game']} {e['rules_version']}"
                                         for e in report["logs"].values()}  # as recorded
    kill = report["logs"][os.path.relpath(kill)]
    assert kill["verdict"] == "valid"  # the illegal kill was undone (a ruling, then a fix)
    assert kill["illegal"] == [[21, "cow.kill.type-match"]]
    sim = report["logs"][os.path.relpath(logs / "cards-of-war/sim-normal.jsonl")]
    result = engine.replay(str(logs / "cards-of-war/sim-normal.jsonl"))
    assert result.ruleset is not None
    o = result.ruleset.outcome(result.state)
    assert o is not None
    assert (sim["winners"], sim["scores"]) == (list(o.winners), o.scores)
    assert sim["events"] == result.events
    assert len(corpus.decode_counts(sim["moves"])) == result.events


def test_a_broken_log_is_reported_not_raised(run, logs):
    bad = logs / "cards-of-war" / "kill-dispute.jsonl"
    data = bad.read_bytes().splitlines(keepends=True)
    bad.write_bytes(b"".join(data[:5] + data[6:]))  # a line gone: the chain breaks
    (logs / "notes.jsonl").write_bytes(b'{"type":"game_started","game":"chess","format":1}\n')
    code, report = check_json(run, logs, "--no-cache")
    entries = {os.path.basename(k): v for k, v in report["logs"].items()}
    assert entries["kill-dispute.jsonl"]["verdict"] == "broken"
    assert entries["kill-dispute.jsonl"]["error_seq"] == 5
    assert entries["notes.jsonl"]["verdict"] == "broken"
    assert "unknown game" in entries["notes.jsonl"]["error"]
    assert report["total"]["broken"] == 2 and code == 1
    torn = logs / "liberation" / "sim-2-players.jsonl"
    torn.write_bytes(torn.read_bytes()[:-1])  # the last newline gone: a torn write
    (logs / "empty.jsonl").write_bytes(b"")
    code, report = check_json(run, logs, "--no-cache")
    entries = {os.path.basename(k): v for k, v in report["logs"].items()}
    assert entries["empty.jsonl"] == {"game": None, "rules_version": None, "events": 0,
                                      "verdict": "broken", "error": "empty file: no header line"}
    # A baseline names the log its own way: the reason does not repeat the path.
    assert "repair <log>" in entries["sim-2-players.jsonl"]["error"]
    assert report["total"]["broken"] == 4


def test_the_maintainers_round_trip(run, logs):
    base = logs / "baseline.json"
    assert run("corpus", "check", logs, "--baseline", base, "--update").exit_code == 0
    r = run("corpus", "check", logs, "--baseline", base)
    assert r.exit_code == 0 and f"all {N} logs match the baseline" in r.stdout
    # A proposed card value: which games change, how, and from which seq?
    r = run("corpus", "check", logs, "--baseline", base, "--components", f"cards-of-war={DECK}")
    assert r.exit_code == 1
    code, report = check_json(run, logs, "--baseline", base,
                              "--components", f"cards-of-war={DECK}")
    changed = {c["log"]: c for c in report["changes"]}
    assert f"{len(changed)} of {N} logs differ from the baseline" in r.stdout
    assert changed and all(k.startswith("cards-of-war/") for k in changed)
    for name, c in changed.items():  # each named with the first seq judged differently
        assert c["kind"] == "changed" and c["aspects"] and "what" not in c
        aspects = {a["aspect"]: a for a in c["aspects"]}
        old, new = json.loads(base.read_text())["logs"][name], report["logs"][name]
        if old.get("illegal") != new.get("illegal"):
            diff = {tuple(i) for i in old.get("illegal", [])} ^ \
                {tuple(i) for i in new.get("illegal", [])}
            assert aspects["illegal"]["seq"] == min(diff)[0]
        if not old.get("illegal") and new.get("illegal"):
            seq, rule = new["illegal"][0]
            assert aspects["verdict"] == {"aspect": "verdict", "before": "valid",
                                          "after": "invalid"}
            assert aspects["illegal"] == {"aspect": "illegal", "seq": seq, "after": [seq, rule],
                                          "rules": [rule]}
        # Legal moves: the exact seq, not a block of them.
        a, b = corpus.decode_counts(old["moves"]), corpus.decode_counts(new["moves"])
        seq = next(i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)
        assert aspects["legal"] == {"aspect": "legal", "seq": seq + 1, "before": a[seq],
                                    "after": b[seq]}  # the counts after seq: seq + 1's choices
        assert f"the events legal as seq {seq + 1} first differ ({a[seq]} -> {b[seq]} of them)" \
            in r.stdout
        if old.get("winners") != new.get("winners"):
            assert aspects["outcome"]["seq"] == old["over_at"]
            assert aspects["outcome"]["before"] == {"winners": old["winners"],
                                                    "scores": old["scores"]}
        assert c["first_seq"] == min(a["seq"] for a in c["aspects"] if "seq" in a)
        assert f"{name}: the judgement first differs at seq {c['first_seq']}" in r.stdout
        look = f"tabletape explain {os.path.relpath(logs / name)} {c['first_seq']}"
        assert c["look"] == look and f"look closer: {look}" in r.stdout
    # Accepting it: the baseline now holds the new results.
    assert run("corpus", "check", logs, "--baseline", base, "--update",
               "--components", f"cards-of-war={DECK}").exit_code == 0
    assert run("corpus", "check", logs, "--baseline", base,
               "--components", f"cards-of-war={DECK}").exit_code == 0
    assert run("corpus", "check", logs, "--baseline", base).exit_code == 1


def test_the_baseline_is_deterministic_sorted_one_log_per_line(logs):
    base = str(logs / "baseline.json")
    a = corpus.check([str(logs)], root=str(logs), jobs=2)
    corpus.write_baseline(base, a.entries)
    first = open(base, "rb").read()
    b = corpus.check([str(logs / "liberation"), str(logs)], root=str(logs), jobs=1)
    corpus.write_baseline(base, dict(reversed(b.entries.items())))
    assert open(base, "rb").read() == first
    lines = first.decode().splitlines()
    names = [json.loads("{" + ln.rstrip(",") + "}").popitem()[0] for ln in lines[3:-2]]
    assert names == sorted(a.entries) and len(names) == N
    assert json.loads(first)["logs"]["liberation/disputed-play.jsonl"]["illegal"][0] == \
        [14, "lib.turn.order"]
    assert corpus.read_baseline(base) == a.entries


def test_a_log_added_or_removed_is_reported(run, logs):
    base = logs / "baseline.json"
    run("corpus", "check", logs, "--baseline", base, "--update")
    shutil.copy(logs / "liberation/sim-2-players.jsonl", logs / "liberation/new.jsonl")
    os.unlink(logs / "cards-of-war/sim-normal.jsonl")
    code, report = check_json(run, logs, "--baseline", base)
    assert code == 1
    assert [(c["log"], c["kind"]) for c in report["changes"]] == [
        ("cards-of-war/sim-normal.jsonl", "removed"), ("liberation/new.jsonl", "added")]


def test_an_unchanged_archive_comes_from_the_cache(logs, tmp_path):
    cache = str(tmp_path / "c")
    first = corpus.check([str(logs)], root=str(logs), cache_dir=cache)
    assert first.cached == 0
    again = corpus.check([str(logs)], root=str(logs), cache_dir=cache)
    assert again.cached == N and again.entries == first.entries
    # A log that grew is judged again; the others still come from the cache.
    sim = str(logs / "cards-of-war/sim-normal.jsonl")
    from tabletape.tape.events import Note
    rs = engine.get("cards-of-war")
    log.append(sim, [Note(text="after the game")], rs.codec,
               expect=log.read_tail(os.open(sim, os.O_RDONLY)))
    third = corpus.check([str(logs)], root=str(logs), cache_dir=cache)
    assert third.cached == N - 1
    assert third.entries["cards-of-war/sim-normal.jsonl"].events == \
        first.entries["cards-of-war/sim-normal.jsonl"].events + 1


def test_a_log_is_hashed_before_judging_only_when_the_cache_holds_one_of_its_size(
        logs, tmp_path, monkeypatch):
    """A first run reads each log once (the judge hashes what it reads), not twice."""
    cache_dir = str(tmp_path / "c")
    corpus.check([str(logs / "liberation")], root=str(logs), cache_dir=cache_dir)
    cache = corpus.load_cache(cache_dir)
    from tabletape.app.judge import Hashed  # (corpus.Hashed)
    hashed = []
    finish = Hashed.finish

    def finished(self):
        hashed.append(1)
        return finish(self)
    monkeypatch.setattr(Hashed, "finish", finished)
    paths = sorted(glob.glob(str(logs / "*" / "*.jsonl")))
    found = {p: corpus._from_cache(p, {}, cache) for p in paths}
    assert {p for p, e in found.items() if e is not None} == \
        {p for p in paths if "/liberation/" in p}
    assert len(hashed) == len(glob.glob("replays/liberation/*.jsonl"))


def test_the_cache_is_never_trusted_for_a_different_key(logs, tmp_path):
    cache = str(tmp_path / "c")
    first = corpus.check([str(logs)], root=str(logs), cache_dir=cache)
    # The same size, one byte changed in the middle (the last line, the head, unchanged).
    p = logs / "cards-of-war/joint-adjacent.jsonl"
    data = bytearray(p.read_bytes())
    at = data.index(b'"alice"', len(data) // 2)
    data[at + 1:at + 6] = b"alicf"
    p.write_bytes(bytes(data))
    run = corpus.check([str(logs)], root=str(logs), cache_dir=cache)
    assert run.cached == N - 1
    assert run.entries["cards-of-war/joint-adjacent.jsonl"].verdict == "broken"
    # Other component data, other fingerprint: judged again.
    deck = corpus.parse_components([("cards-of-war", DECK)])
    cow = len(glob.glob("replays/cards-of-war/*.jsonl"))
    assert corpus.check([str(logs)], root=str(logs), cache_dir=cache, components=deck).cached == N - cow
    assert first.entries != run.entries


def test_a_corrupt_or_foreign_cache_is_ignored(logs, tmp_path):
    cache = tmp_path / "c"
    first = corpus.check([str(logs)], root=str(logs), cache_dir=str(cache))
    f = cache / corpus.CACHE_NAME
    f.write_bytes(f.read_bytes()[:1000])
    run = corpus.check([str(logs)], root=str(logs), cache_dir=str(cache))
    assert run.cached == 0 and run.entries == first.entries
    f.write_bytes(b"not a cache at all")
    assert corpus.check([str(logs)], root=str(logs), cache_dir=str(cache)).cached == 0
    assert corpus.check([str(logs)], root=str(logs), cache_dir=str(cache)).cached == N


def test_no_cache_neither_reads_nor_writes_it(run, logs, tmp_path):
    cache = tmp_path / "c"
    run("corpus", "check", logs, "--no-cache", "--cache-dir", cache)
    assert not cache.exists()
    run("corpus", "check", logs, "--cache-dir", cache)
    assert (cache / corpus.CACHE_NAME).exists()


def test_jobs_and_dask_give_the_same_report(run, logs):
    pytest.importorskip("dask.distributed")
    reports = [check_json(run, logs, "--no-cache", *how)
               for how in (("--jobs", "1"), ("--jobs", "2"), ("--dask", "local"),
                           ("--dask", "local", "--dask-threads"))]
    assert all(r == reports[0] for r in reports[1:])
    assert reports[0][1]["total"]["logs"] == N


def test_a_dask_scheduler_address_is_used(logs):
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        run = corpus.check([str(logs / "liberation")], root=str(logs), dask=cluster.scheduler_address)
    assert run.entries == corpus.check([str(logs / "liberation")], root=str(logs)).entries


def test_usage_errors(run, logs):
    r = run("corpus", "check", logs, "--update")
    assert r.exit_code == 2 and "--update needs --baseline" in r.stderr
    r = run("corpus", "check", logs, "--components", "cards-of-war")
    assert r.exit_code == 2 and "GAME=FILE" in r.stderr
    r = run("corpus", "check", logs, "--components", f"liberation={DECK}")
    assert r.exit_code == 2 and "do not fit the liberation schema" in r.stderr
    r = run("corpus", "check", logs / "nothing-here")
    assert r.exit_code == 2 and "no such file or folder" in r.stderr


def _checked_by_a_copy(src, logs, cache) -> int:
    """Runs `corpus check` with the tabletape in `src` (a copy of the package tree) and
    returns how many logs came from the cache."""
    import subprocess
    import sys
    env = {**os.environ, "PYTHONPATH": str(src)}
    r = subprocess.run([sys.executable, "-m", "tabletape", "corpus", "check", str(logs),
                        "--json", "--jobs", "1", "--cache-dir", str(cache)],
                       capture_output=True, text=True, env=env, cwd=str(src.parent))
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    return report["cached"]


def test_an_edit_anywhere_that_judges_misses_the_cache(logs, tmp_path):
    """Stale green: an edit in engine/kit (any depth), tape, app, a game's code or data,
    even one of the same size with its mtime kept, judges the logs again; an edit of one
    game's package re-judges only that game's logs."""
    src = tmp_path / "src"
    shutil.copytree(os.path.dirname(os.path.dirname(corpus.__file__)), src / "tabletape",
                    ignore=shutil.ignore_patterns("__pycache__"))
    pkg, cache = src / "tabletape", tmp_path / "c"
    for game in ("global-domination", "battlecards-pacific"):
        shutil.rmtree(logs / game)
    n = len(glob.glob(f"{logs}/*/*.jsonl"))
    lib = len(glob.glob(f"{logs}/liberation/*.jsonl"))
    assert _checked_by_a_copy(src, logs, cache) == 0
    assert _checked_by_a_copy(src, logs, cache) == n

    def edit(rel: str, old: bytes, new: bytes) -> None:  # the same size, the mtime kept
        f = pkg / rel
        st = f.stat()
        data = f.read_bytes()
        assert len(old) == len(new) and old in data
        f.write_bytes(data.replace(old, new, 1))
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))

    edit("engine/kit/turns.py", b"Turn machinery", b"Turn Machinery")
    assert _checked_by_a_copy(src, logs, cache) == 0
    for rel in ("tape/log.py", "engine/reading.py", "app/corpus.py", "games/__init__.py"):
        with open(pkg / rel, "a") as f:
            f.write("# edited\n")
        assert _checked_by_a_copy(src, logs, cache) == 0, rel
    with open(pkg / "games/liberation/reducer.py", "a") as f:
        f.write("# edited\n")
    assert _checked_by_a_copy(src, logs, cache) == n - lib
    with open(pkg / "games/cards_of_war/components.json", "a") as f:
        f.write("\n")
    assert _checked_by_a_copy(src, logs, cache) == lib
    with open(pkg / "cli/corpus.py", "a") as f:  # a front end judges nothing
        f.write("# edited\n")
    assert _checked_by_a_copy(src, logs, cache) == n


def test_the_source_fingerprint_is_cheap():
    import time

    from tabletape.engine import fingerprint
    corpus.source_fingerprint.cache_clear()
    fingerprint.code_fingerprint.cache_clear()
    t = time.perf_counter()
    corpus.source_fingerprint("liberation")
    assert time.perf_counter() - t < 0.5  # ~100 files, ~1 MB: a few ms


def _dask(*args, cwd, log):
    import subprocess
    import sys
    exe = os.path.join(os.path.dirname(sys.executable), "dask")
    return subprocess.Popen([exe, *args], cwd=cwd, stdout=log, stderr=log)


@pytest.fixture
def scheduler(tmp_path):
    """A real `dask scheduler` on loopback; yields (address, start_worker(cwd))."""
    pytest.importorskip("dask.distributed")
    import time
    info, procs = tmp_path / "scheduler.json", []
    out = open(tmp_path / "dask.log", "wb")
    procs.append(_dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                       "--scheduler-file", str(info), cwd=tmp_path, log=out))
    deadline = time.monotonic() + 60
    while not (info.exists() and info.stat().st_size):
        assert time.monotonic() < deadline, (tmp_path / "dask.log").read_text()
        time.sleep(0.1)
    address = json.loads(info.read_text())["address"]

    def start_worker(cwd):
        procs.append(_dask("worker", address, "--nworkers", "1", "--nthreads", "1",
                           "--host", "127.0.0.1", "--no-dashboard", "--no-nanny",
                           cwd=cwd, log=out))
    try:
        yield address, start_worker
    finally:
        for p in reversed(procs):
            p.terminate()
            p.wait(10)
        out.close()


def test_a_real_cluster_whose_worker_runs_elsewhere_gives_the_jobs_report(
        run, logs, scheduler, tmp_path, monkeypatch):
    """Relative paths are made absolute before they leave the client: a worker started in
    another folder judges the same files; nothing it could not open is ever cached."""
    address, start_worker = scheduler
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    start_worker(elsewhere)
    monkeypatch.chdir(logs)
    local = check_json(run, ".", "--jobs", "2", "--no-cache")
    cluster = check_json(run, ".", "--dask", address)
    assert cluster == local
    assert local[1]["total"]["broken"] == 0
    assert check_json(run, ".", "--jobs", "2")[1]["cached"] == N


def test_a_log_that_cannot_be_opened_fails_the_run_and_is_never_cached(logs, tmp_path,
                                                                         monkeypatch):
    cache = str(tmp_path / "c")
    real = corpus.find_logs
    gone = str(logs / "liberation" / "gone.jsonl")
    monkeypatch.setattr(corpus, "find_logs", lambda paths: [*real(paths), gone])
    for jobs in (1, 2):
        with pytest.raises(corpus.Unjudged, match="no such log file"):
            corpus.check([str(logs)], root=str(logs), jobs=jobs, cache_dir=cache)
    monkeypatch.setattr(corpus, "find_logs", real)
    assert not any(k.startswith(gone) for k in corpus.load_cache(cache))


def test_a_dask_worker_that_cannot_see_a_log_fails_the_run(logs, scheduler, tmp_path,
                                                           monkeypatch, run):
    address, start_worker = scheduler
    start_worker(tmp_path)
    real = corpus.find_logs
    monkeypatch.setattr(corpus, "find_logs",
                        lambda paths: [*real(paths), str(logs / "liberation/gone.jsonl")])
    r = run("corpus", "check", logs, "--dask", address)
    assert r.exit_code == 2
    assert "no such log file" in r.stderr and "on the Dask worker tcp://127.0.0.1" in r.stderr
    assert not os.path.exists(os.environ["TABLETAPE_CACHE"])


def test_a_scheduler_without_workers_fails_with_a_message(run, logs, scheduler):
    import time
    address, _ = scheduler
    t = time.monotonic()
    r = run("corpus", "check", logs, "--dask", address, "--dask-timeout", "1")
    assert r.exit_code == 2 and time.monotonic() - t < 30
    assert f"the Dask scheduler {address} has no workers (waited 1 s)" in r.stderr
    r = run("corpus", "check", logs, "--dask", "tcp://127.0.0.1:9", "--dask-timeout", "1")
    assert r.exit_code == 2 and "cannot reach the Dask scheduler tcp://127.0.0.1:9" in r.stderr


def test_a_subset_is_compared_and_updated_alone(run, logs):
    """Checking one game's folder (or one log) against the whole archive's baseline
    compares only those logs; --update rewrites their entries and keeps all others."""
    base = logs / "baseline.json"
    run("corpus", "check", logs, "--baseline", base, "--update")
    whole = corpus.read_baseline(str(base))
    cow = logs / "cards-of-war"
    n_cow = len(glob.glob(f"{cow}/*.jsonl"))
    r = run("corpus", "check", cow, "--baseline", base)
    assert r.exit_code == 0 and f"all {n_cow} logs match the baseline" in r.stdout
    one = cow / "kill-dispute.jsonl"
    assert run("corpus", "check", one, "--baseline", base).exit_code == 0
    # A change within the subset is found; --update of the subset keeps the rest.
    code, report = check_json(run, cow, "--baseline", base, "--components",
                              f"cards-of-war={DECK}")
    assert code == 1 and {c["kind"] for c in report["changes"]} == {"changed"}
    assert all(c["log"].startswith("cards-of-war/") for c in report["changes"])
    r = run("corpus", "check", cow, "--baseline", base, "--update", "--components",
            f"cards-of-war={DECK}")
    assert r.exit_code == 0 and f"wrote the baseline {base} ({N} logs)" in r.stdout
    after = corpus.read_baseline(str(base))
    assert set(after) == set(whole)
    assert {k: v for k, v in after.items() if not k.startswith("cards-of-war/")} == \
        {k: v for k, v in whole.items() if not k.startswith("cards-of-war/")}
    assert after != whole
    # A log gone from the subset is dropped from it, and only it.
    os.unlink(one)
    code, report = check_json(run, cow, "--baseline", base, "--components",
                              f"cards-of-war={DECK}")
    assert [(c["log"], c["kind"]) for c in report["changes"]] == [
        ("cards-of-war/kill-dispute.jsonl", "removed")]
    run("corpus", "check", cow, "--baseline", base, "--update", "--components",
        f"cards-of-war={DECK}")
    assert set(corpus.read_baseline(str(base))) == set(whole) - {"cards-of-war/kill-dispute.jsonl"}


def test_an_outcome_change_names_the_seq_that_decided_it(logs):
    """A scoring value changed: no verdict, no illegal event, yet the outcome differs; the
    change names the seq that ended the game, and the scores before and after."""
    sim = str(logs / "cards-of-war/sim-normal.jsonl")
    entry = corpus.judge(sim)
    result = engine.replay(sim)
    assert entry.over_at is not None and entry.winners is not None
    lines = open(sim, "rb").read().splitlines(keepends=True)
    for seqs, over in ((entry.over_at, False), (entry.over_at + 1, True)):  # seqs 0..n-1
        cut = logs / f"cut-{seqs}.jsonl"
        cut.write_bytes(b"".join(lines[:seqs]))
        r = engine.replay(str(cut))
        assert result.ruleset is not None
        assert result.ruleset.over(r.state) is over
    assert entry.scores is not None
    p, score = next(iter(entry.scores.items()))
    rescored = msgspec.structs.replace(entry, scores={**entry.scores, p: score + 1})
    change = corpus.difference("sim-normal.jsonl", entry, rescored)
    assert change is not None
    (aspect,) = change.aspects
    assert (aspect.aspect, aspect.seq) == ("outcome", entry.over_at)
    assert aspect.after["scores"][p] == score + 1
    assert change.first_seq == entry.over_at
    assert f"(decided at seq {entry.over_at})" in change.what[0]


def test_legal_moves_counts_round_trip():
    counts = [0, 5, 61, 62, 300, 9, -1, 1000]
    assert corpus.decode_counts(corpus.encode_counts(counts)) == counts
    assert corpus.encode_counts([1, 35, 61]) == "1zZ"


def test_a_chain_broken_after_an_illegal_event_is_reported_by_the_break(run, logs):
    """Tampering first: the kill dispute's illegal KILL (seq 21, undone) comes before a line
    gone at seq 26; the break is what is reported, with its reason, then the rest."""
    base = logs / "baseline.json"
    run("corpus", "check", logs, "--baseline", base, "--update")
    kill = logs / "cards-of-war/kill-dispute.jsonl"
    lines = kill.read_bytes().splitlines(keepends=True)
    kill.write_bytes(b"".join(lines[:27] + lines[28:]))  # the line of seq 27 gone
    code, report = check_json(run, logs, "--baseline", base)
    (c,) = report["changes"]
    assert c["aspects"][0] == {"aspect": "broken", "seq": 27,
                               "after": "line has seq 28, expected 27"}
    r = run("corpus", "check", logs, "--baseline", base)
    assert "changed cards-of-war/kill-dispute.jsonl: broken at seq 27;" in r.stdout
    # explain stops at a break: validate names it (issue 35, a hint that runs)
    assert f"look closer: tabletape validate {os.path.relpath(kill)}" in r.stdout
    r = run("corpus", "check", logs / "cards-of-war")  # without a baseline: the break first
    (line,) = [ln for ln in r.stdout.splitlines() if "kill-dispute" in ln]
    assert line.startswith("broken ") and line.endswith(
        "kill-dispute.jsonl: line has seq 28, expected 27 (seq 27); before it, "
        "an illegal event at seq 21 [cow.kill.type-match]")


def test_a_stray_file_is_not_a_log_and_not_a_game(run, logs):
    (logs / "notes.jsonl").write_text('{"lap": 1}\n{"lap": 2}\n')
    (logs / "data.jsonl").write_text("not json at all\n")
    code, report = check_json(run, logs, "--no-cache")
    assert [os.path.basename(k) for k in report["not_logs"]] == ["data.jsonl", "notes.jsonl"]
    assert report["total"]["logs"] == N and "(unreadable)" not in report["by_game"]
    assert report["logs"][os.path.relpath(logs / "notes.jsonl")]["verdict"] == "not a log"
    assert code == 0  # (not a game: it fails no check)
    r = run("corpus", "check", logs, "--no-cache")
    assert f"{N} logs" in r.stdout and "(unreadable)" not in r.stdout
    assert "notes.jsonl: its first line is not a tabletape header" in r.stdout
    assert "not a log " in r.stdout


def test_an_old_log_is_judged_both_ways_and_the_baseline_keeps_both(run, tmp_path):
    """Issue 24: a log recorded under 1.0 is judged by 1.0 and, where it differs, by the
    latest rules, with the rule ids changed between them (fields, not sentences)."""
    old = tmp_path / "old"
    shutil.copytree("tests/fixtures/rules-1.0/cards-of-war", old / "cards-of-war")
    base = old / "baseline.json"
    code, report = check_json(run, old, "--no-cache")
    name = os.path.relpath(old / "cards-of-war/alt-reinforce-theatres-joint.jsonl")
    e = report["logs"][name]
    latest = engine.get("cards-of-war").version
    assert (e["rules_version"], e["verdict"]) == ("1.0", "valid")
    assert e["latest"]["version"] == latest and e["latest"]["verdict"] == "invalid"
    seq, rule = e["latest"]["illegal"][0]
    assert rule in e["latest"]["rules_changed"]
    assert "cow.kill.target" in e["latest"]["rules_changed"]
    agreeing = [v for v in report["logs"].values() if "latest" not in v]
    assert agreeing and all(v["verdict"] == "valid" for v in agreeing)
    r = run("corpus", "check", old, "--no-cache")
    assert (f"alt-reinforce-theatres-joint.jsonl: valid under 1.0 (recorded), invalid at "
            f"seq {seq} [{rule}] under {latest}; rules changed between: ") in r.stdout
    # The baseline keeps both; a change of the latest verdict alone is a change.
    assert run("corpus", "check", old, "--baseline", base, "--update").exit_code == 0
    kept = corpus.read_baseline(str(base))["cards-of-war/alt-reinforce-theatres-joint.jsonl"]
    assert kept.latest is not None and kept.latest.verdict == "invalid"
    assert run("corpus", "check", old, "--baseline", base).exit_code == 0
    agreed = msgspec.structs.replace(kept, latest=None)
    change = corpus.difference("x.jsonl", agreed, kept)
    assert change is not None
    (aspect,) = change.aspects
    assert (aspect.aspect, aspect.seq, aspect.before) == ("latest", seq, None)
    assert aspect.after == {"version": latest, "verdict": "invalid", "first_illegal": [seq, rule]}
    assert rule in aspect.rules
    # Judged by one version (--rules), it is judged one way.
    code, report = check_json(run, old, "--no-cache", "--rules", "latest")
    assert all("latest" not in v for v in report["logs"].values())


def test_coverage_names_the_rules_exercised_and_those_no_log_exercises(run, logs):
    r = run("corpus", "coverage", logs / "liberation", "--json", "--jobs", "1")
    assert r.exit_code == 0
    lib = json.loads(r.stdout)["liberation"]
    n = len(glob.glob(f"{logs}/liberation/*.jsonl"))
    assert lib["logs"] == n and set(lib["rules"]) >= set(engine.get("liberation").catalogue())
    # The refused play of the disputed log exercises the rule that refused it.
    assert lib["rules"]["lib.turn.order"]["logs"] == n
    assert set(lib["unexercised"]) == {r for r, s in lib["rules"].items() if not s["logs"]}
    assert "lib.win.deck-out" in lib["unexercised"] or lib["rules"]["lib.win.deck-out"]["logs"]
    assert sum(lib["endings"].values()) == n
    one = corpus.covered(str(logs / "liberation/disputed-play.jsonl"))
    assert one.rules["lib.turn.order"] >= 1 and one.game == "liberation"
    r = run("corpus", "coverage", logs / "liberation")
    assert "not exercised by any log" in r.stdout and "endings: " in r.stdout


def test_a_markdown_report_for_a_pull_request(run, logs):
    base = logs / "baseline.json"
    run("corpus", "check", logs, "--baseline", base, "--update")
    r = run("corpus", "check", logs, "--baseline", base, "--markdown")
    assert r.exit_code == 0 and r.stdout.startswith("### tabletape corpus check\n")
    assert f"All {N} logs match the baseline" in r.stdout
    r = run("corpus", "check", logs, "--baseline", base, "--markdown",
            "--components", f"cards-of-war={DECK}")
    code, report = check_json(run, logs, "--baseline", base, "--components",
                              f"cards-of-war={DECK}")
    assert r.exit_code == 1 == code
    lines = r.stdout.splitlines()
    assert ("| game | rules | logs | events | valid | invalid | broken | changed | "
            "winner changed |") in lines
    assert f"| **all** | | **{N}** |" in r.stdout
    assert "| cards-of-war | `two_decks=true` | 1 | 150 | 0 | 1 | 0 | 1 | 1 |" in lines
    rows = [ln for ln in lines if ln.startswith("| `") and "tabletape explain" in ln]
    assert len(rows) == len(report["changes"])
    for c, row in zip(report["changes"], rows, strict=True):
        assert row.startswith(f"| `{c['log']}` | {c['first_seq']} | ")
        assert row.endswith(f"| `{c['look']}` |")
    changed = sorted({r for c in report["changes"] for a in c["aspects"] for r in a.get("rules", [])})
    assert changed and "Coverage of the changed rules" in r.stdout
    cov = json.loads(run("corpus", "coverage", logs, "--json").stdout)["cards-of-war"]
    for rule in changed:
        seen = cov["rules"][rule]
        assert (f"| `{rule}` | cards-of-war | {seen['logs']} | {cov['logs']} | "
                f"{seen['events']:,} |") in lines
    for w in report["winner_changed"]:
        assert f"| `{w['log']}` | {w['seq']} | " in r.stdout


def test_the_cache_merges_runs_and_keeps_one_entry_per_rules(logs, tmp_path):
    """Runs on different parts of an archive merge their entries (not the last writer's
    alone); alternating component data (or rules versions) do not evict each other."""
    cache = str(tmp_path / "c")
    lib, cow = str(logs / "liberation"), str(logs / "cards-of-war")
    corpus.check([lib], root=str(logs), cache_dir=cache)
    corpus.check([cow], root=str(logs), cache_dir=cache)
    n = len(glob.glob(f"{lib}/*.jsonl")) + len(glob.glob(f"{cow}/*.jsonl"))
    assert corpus.check([lib, cow], root=str(logs), cache_dir=cache).cached == n
    deck = corpus.parse_components([("cards-of-war", DECK)])
    assert corpus.check([cow], root=str(logs), cache_dir=cache, components=deck).cached == 0
    for _ in range(2):  # alternating: each from the cache
        assert corpus.check([lib, cow], root=str(logs), cache_dir=cache).cached == n
        assert corpus.check([lib, cow], root=str(logs), cache_dir=cache,
                            components=deck).cached == n
    latest = corpus.check([cow], root=str(logs), cache_dir=cache, rules="latest")
    assert corpus.check([cow], root=str(logs), cache_dir=cache, rules="latest").cached == \
        len(latest.entries)
    assert corpus.check([lib, cow], root=str(logs), cache_dir=cache).cached == n


def test_concurrent_runs_keep_each_others_cache_entries(logs, tmp_path):
    import concurrent.futures
    cache = str(tmp_path / "c")
    parts = [str(p) for p in sorted(logs.iterdir()) if p.is_dir()]
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        list(pool.map(_check_part, parts, [str(logs)] * len(parts), [cache] * len(parts)))
    assert corpus.check([str(logs)], root=str(logs), cache_dir=cache).cached == N


def _check_part(part: str, root: str, cache: str) -> int:
    return len(corpus.check([part], root=root, cache_dir=cache).entries)


def test_filters_by_game_and_option_compare_and_update_only_theirs(run, logs):
    base = logs / "baseline.json"
    run("corpus", "check", logs, "--baseline", base, "--update")
    whole = corpus.read_baseline(str(base))
    cow = len(glob.glob(f"{logs}/cards-of-war/*.jsonl"))
    r = run("corpus", "check", logs, "--baseline", base, "--game", "cards-of-war")
    assert r.exit_code == 0 and f"all {cow} logs match the baseline" in r.stdout
    code, report = check_json(run, logs, "--option", "two_decks=true")
    two = [os.path.relpath(k, logs) for k in report["logs"]]  # (named from the cwd)
    assert two
    for k in two:
        header = json.loads((logs / k).read_text().splitlines()[0])
        assert header["options"].get("two_decks") is True
    n = sum(json.loads(open(p).readline())["options"].get("two_decks") is True
            for p in glob.glob(f"{logs}/*/*.jsonl"))
    assert len(two) == n
    r = run("corpus", "check", logs, "--baseline", base, "--option", "two_decks=true",
            "--update", "--components", f"cards-of-war={DECK}")
    after = corpus.read_baseline(str(base))
    assert set(after) == set(whole)
    assert {k for k in after if after[k] != whole[k]} <= set(two)
    r = run("corpus", "check", logs, "--option", "two-decks")
    assert r.exit_code == 2 and "NAME=VALUE" in r.stderr


def test_the_summary_groups_by_game_version_option_and_winner_changed(run, logs):
    """Issue 26: with a baseline compared, every total (by game, by rules version, by
    option value) counts the logs that changed and those that name another winner; the
    logs whose winner changed are listed as fields."""
    base = logs / "baseline.json"
    run("corpus", "check", logs, "--baseline", base, "--update")
    code, same = check_json(run, logs, "--baseline", base)
    assert code == 0 and same["total"]["changed"] == 0 == same["total"]["winner_changed"]
    assert same["winner_changed"] == []
    code, report = check_json(run, logs, "--baseline", base, "--components",
                              f"cards-of-war={DECK}")
    changes = {c["log"]: c for c in report["changes"]}
    winners = {}
    for name, c in changes.items():
        (o,) = [a for a in c["aspects"] if a["aspect"] == "outcome"] or [{}]
        before, after = (o.get(k) or {} for k in ("before", "after"))
        if before.get("winners") != after.get("winners"):
            winners[name] = (o["seq"], before.get("winners"), after.get("winners"))
    assert winners  # (the Tank at 9 ends some games otherwise)
    assert {w["log"]: (w["seq"], w["before"], w["after"]) for w in report["winner_changed"]} \
        == winners
    assert all(w["game"] == "cards-of-war" for w in report["winner_changed"])
    t = report["total"]
    assert (t["changed"], t["winner_changed"]) == (len(changes), len(winners))
    assert report["by_game"]["cards-of-war"]["changed"] == len(changes)
    assert report["by_game"]["liberation"]["changed"] == 0
    version = engine.get("cards-of-war").version
    recorded = {e["rules_version"] for k, e in report["logs"].items() if e["game"] == "cards-of-war"}
    assert sum(report["by_version"][f"cards-of-war {v}"]["changed"] for v in recorded) == \
        len(changes) and version
    # By option: the header's options (the defaults left out), as --option writes them.
    for game, opts in report["by_option"].items():
        for option, tally in opts.items():
            name, _, value = option.partition("=")
            having = [k for k, e in report["logs"].items()
                      if e["game"] == game and e.get("options", {}).get(name) == value]
            assert tally["logs"] == len(having) > 0, option
            assert tally["changed"] == sum(k in changes for k in having)
            assert tally["winner_changed"] == sum(k in winners for k in having)
    two = report["by_option"]["cards-of-war"]["two_decks=true"]
    code, only = check_json(run, logs, "--no-cache", "--option", "two_decks=true")
    assert two["logs"] == only["total"]["logs"]
    # Without a baseline, no change counts (the shape of a plain check is unchanged).
    code, plain = check_json(run, logs)
    assert set(plain["total"]) == {"logs", "events", "valid", "invalid", "broken"}
    assert "winner_changed" not in plain and "changed_rules" not in plain
    r = run("corpus", "check", logs, "--baseline", base, "--components", f"cards-of-war={DECK}")
    assert "cards-of-war by option" in r.stdout
    assert (f"{len(changes)} of {N} logs differ from the baseline {base}, {len(winners)} with "
            "another winner or none (--update accepts them)") in r.stdout


def test_the_coverage_of_the_changed_rules_is_in_every_report(run, logs):
    """Issue 26: for each rule id involved in a change, how many of the logs checked (of
    the changed log's game) exercise it, in the text and --json reports too."""
    base = logs / "baseline.json"
    run("corpus", "check", logs, "--baseline", base, "--update")
    code, report = check_json(run, logs, "--baseline", base, "--components",
                              f"cards-of-war={DECK}")
    rules = sorted({r for c in report["changes"] for a in c["aspects"] for r in a.get("rules", [])})
    cov = json.loads(run("corpus", "coverage", logs, "--json").stdout)["cards-of-war"]
    assert rules and report["changed_rules"] == [
        {"rule": r, "game": "cards-of-war", "logs": cov["rules"][r]["logs"],
         "events": cov["rules"][r]["events"], "of": cov["logs"]} for r in rules]
    r = run("corpus", "check", logs, "--baseline", base, "--components", f"cards-of-war={DECK}")
    for c in report["changed_rules"]:
        assert (f"coverage {c['rule']}: {c['logs']} of {c['of']} cards-of-war logs exercise "
                f"it ({c['events']:,} events)") in r.stdout
    # A subset: the logs checked are the subset's.
    one = logs / "cards-of-war/joint-adjacent.jsonl"
    code, report = check_json(run, one, "--baseline", base, "--components",
                              f"cards-of-war={DECK}")
    assert report["changed_rules"] and all(c["of"] == 1 for c in report["changed_rules"])
    # No change, no coverage walked.
    code, report = check_json(run, logs, "--baseline", base)
    assert report["changed_rules"] == []


def test_recorded_takes_only_the_logs_recorded_under_that_version(run, tmp_path):
    """Issue 26's filter by rules version: `--recorded 1.0` checks, compares and updates only
    the logs whose header names 1.0 (`--rules` still says which version judges them)."""
    import shutil
    old = sorted(glob.glob("tests/fixtures/rules-1.0/cards-of-war/*.jsonl"))[:2]
    for p in old:
        shutil.copy(p, tmp_path / ("old-" + os.path.basename(p)))
    shutil.copy("replays/cards-of-war/kill-dispute.jsonl", tmp_path / "new.jsonl")
    base = tmp_path / "baseline.json"
    run("corpus", "check", tmp_path, "--baseline", base, "--update")
    whole = corpus.read_baseline(str(base))
    r = run("corpus", "check", tmp_path, "--no-cache", "--recorded", "1.0", "--json")
    names = sorted(os.path.basename(k) for k in json.loads(r.stdout)["logs"])
    assert names == sorted("old-" + os.path.basename(p) for p in old), r.stdout
    r = run("corpus", "check", tmp_path, "--baseline", base, "--recorded", "1.0",
            "--rules", "latest", "--update")
    after = corpus.read_baseline(str(base))
    assert set(after) == set(whole) and after["new.jsonl"] == whole["new.jsonl"]


def test_a_filter_that_takes_no_log_is_a_usage_error_not_a_green_run(run, tmp_path):
    """`--game` with an unknown id, or a filter no log matches (a typo'd version), would
    otherwise report "0 logs" and exit 0."""
    import shutil
    shutil.copy("replays/cards-of-war/kill-dispute.jsonl", tmp_path / "g.jsonl")
    r = run("corpus", "check", tmp_path, "--game", "cards-of-wor")
    assert r.exit_code == 2 and "did you mean 'cards-of-war'?" in r.stderr, r.stderr
    r = run("corpus", "check", tmp_path, "--no-cache", "--recorded", "9.9")
    assert r.exit_code == 2, r.output
    assert f"none of the 1 log under {tmp_path} is recorded under rules 9.9" in r.stderr
    assert run("corpus", "check", tmp_path, "--no-cache", "--game", "cards-of-war"
               ).exit_code == 0
