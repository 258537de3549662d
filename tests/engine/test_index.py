"""The checkpoint index: same answers as a replay from line 1, or it is not used at all."""

from __future__ import annotations

import json
import os

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletape import engine
from tabletape.engine import index, simulate
from tabletape.tape import log, seal
from tabletape.tape.events import Note, Undone
from tests import session
from tests.conftest import lines, write
from tests.narrow import present
from tests.registry import GAMES

PLAYERS = ("alice", "bob", "carol")


@pytest.fixture(autouse=True)
def small_index(monkeypatch):
    """Checkpoints every 16 events, on any log: long logs in miniature."""
    monkeypatch.setattr(index, "INDEX_EVERY", 16)
    monkeypatch.setattr(index, "INDEX_MIN", 0)


def session_log(path, game: str = "cards-of-war", seed: int = 1, events: int = 300,
                junk: float = 0.0) -> str:
    """Writes a legal session (with rewinds crossing checkpoints); `junk` repeats events."""
    import random
    rs = engine.get(game)
    lo, _ = rs.players
    header = simulate.header_for(rs, PLAYERS[:max(lo, 2)])
    tail = log.create(str(path), header, rs.codec)
    rng, out, last = random.Random(seed), [], None
    for event in session.session(rs, header, seed, events, rewind=0.05, notes=0.02,
                                 disputes=0.01):
        out.append(event)
        if last is not None and rng.random() < junk:
            out.append(last)  # most often illegal now: blocks the fold until undone
        last = event
    log.append(str(path), out, rs.codec, expect=tail, durable=False)
    return str(path)


def same(a: engine.Replay, b: engine.Replay) -> None:
    """Asserts two replays agree on everything `replay` and `append` use."""
    assert a.events == b.events and a.tail == b.tail
    assert msgspec.json.encode(a.state) == msgspec.json.encode(b.state)
    assert [str(e) for e in a.problems] == [str(e) for e in b.problems]
    assert a.fold is not None and b.fold is not None
    assert a.fold.blocked == b.fold.blocked and a.fold.evicted == b.fold.evicted
    assert a.fold.stack == b.fold.stack  # seq, state before, status and event of each


@pytest.mark.usefixtures("template_registered")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000),
       junk=st.sampled_from([0.0, 0.01]), data=st.data())
def test_replay_to_any_seq_is_the_same_with_the_index(tmp_path_factory, game, seed, junk, data):
    path = session_log(tmp_path_factory.mktemp("ix") / "g.jsonl", game, seed, 300, junk)
    index.state_at(path)  # builds the index
    assert os.path.exists(index.index_path(path))
    for to in data.draw(st.lists(st.integers(0, 300), min_size=1, max_size=8)):
        same(index.state_at(path, to=to), engine.replay(path, to=to))


def test_undos_reaching_back_across_a_checkpoint(tmp_path):
    path = session_log(tmp_path / "g.jsonl", events=40, seed=2)
    index.state_at(path)
    rs = engine.get("cards-of-war")
    full = engine.replay(path)
    assert full.fold is not None
    depth = len(full.fold.stack)
    assert depth > 16  # the stack reaches below the checkpoints at 32 and 16
    tail, fold = full.tail, full.fold
    for _ in range(depth):  # take back every move, past both checkpoints
        assert fold is not None
        undo = Undone(target=fold.stack[-1].seq)
        tail = log.append(path, [undo], rs.codec, expect=tail)
        fold.feed(tail.seq, undo)
    assert tail is not None
    for to in range(tail.seq - depth, tail.seq + 1):
        same(index.state_at(path, to=to), engine.replay(path, to=to))
    assert not present(index.state_at(path).fold).stack


def test_the_index_follows_appends(tmp_path, run):
    path = session_log(tmp_path / "g.jsonl", events=100)
    index.state_at(path)
    before = len(index.load(path, engine.get("cards-of-war"), lines_hash(path)).checkpoints)
    for _ in range(40):
        assert run("append", path, '{"type":"note","text":"more"}').exit_code == 0
    same(index.state_at(path), engine.replay(path))
    assert len(index.load(path, engine.get("cards-of-war"), lines_hash(path)).checkpoints) > before
    for to in range(0, 141, 5):  # the old checkpoints were carried over intact
        same(index.state_at(path, to=to), engine.replay(path, to=to))


def lines_hash(path) -> str:
    return log.digest(lines(path)[0][:-1])


@pytest.mark.parametrize("damage", ["garbage", "torn", "swapped", "flipped"])
def test_a_damaged_index_is_ignored_and_rebuilt(tmp_path, damage):
    path = session_log(tmp_path / "g.jsonl", events=200)
    index.state_at(path)
    ipath = index.index_path(path)
    data = open(ipath, "rb").read()
    if damage == "garbage":
        data = b"not an index"
    elif damage == "torn":
        data = data[: len(data) // 2]
    elif damage == "flipped":
        mid = len(data) // 2
        data = data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1:]
    else:  # two checkpoints' snapshots exchanged: each is intact, but not its line's
        # (the table of contents sealed again with the key, as only tabletape could)
        n = index.HEAD_SIZE
        size = int.from_bytes(data[len(index.MAGIC):len(index.MAGIC) + 8], "little")
        toc = msgspec.msgpack.decode(data[n:n + size], type=index.IndexFile)
        a, b = toc.checkpoints[2], toc.checkpoints[5]
        (a.at, a.size), (b.at, b.size) = (b.at, b.size), (a.at, a.size)
        new = msgspec.msgpack.encode(toc)
        data = index.MAGIC + len(new).to_bytes(8, "little") + present(seal.tag(new)) + new + \
            data[n + size:]
    write(ipath, data)
    for to in (40, 100, 199):
        same(index.state_at(path, to=to), engine.replay(path, to=to))
    loaded = index.load(path, engine.get("cards-of-war"), lines_hash(path))
    assert [c.seq for c in loaded.checkpoints] == list(range(16, 200, 16))  # rebuilt whole


def test_a_stale_index_from_other_code_is_not_used(tmp_path, monkeypatch):
    path = session_log(tmp_path / "g.jsonl", events=100)
    index.state_at(path)
    monkeypatch.setattr(index, "code_fingerprint", lambda rs: "other code")
    assert index.load(path, engine.get("cards-of-war"), lines_hash(path)).checkpoints == []
    same(index.state_at(path, to=90), engine.replay(path, to=90))


_BY_A_COPY = """
import sys
from tabletape import engine
from tabletape.engine import index
from tabletape.tape import codec
index.INDEX_EVERY, index.INDEX_MIN = 16, 0
path = sys.argv[1]
with open(path, "rb") as f:
    head = codec.digest(f.readline()[:-1])
loaded = index.load(path, engine.get("cards-of-war"), head)
index.state_at(path, to=90)
print(len(loaded.checkpoints), index.__file__)
"""


def _checkpoints_used_by_a_copy(src, path) -> int:
    """Returns how many checkpoints the tabletape in `src` (a copy of the package tree)
    trusts in the index of `path` (then builds it, or rebuilds it)."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", _BY_A_COPY, path], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(src)}, cwd=str(src.parent))
    assert r.returncode == 0, r.stderr
    n, _, used = r.stdout.partition(" ")
    assert used.startswith(str(src))  # the copy ran, not the installed tree
    return int(n)


def _copy_of_the_package(tmp_path):
    import shutil
    src = tmp_path / "src"
    shutil.copytree(os.path.dirname(os.path.dirname(index.__file__)), src / "tabletape",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return src


@pytest.mark.parametrize("rel, old, new", [
    ("engine/kit/turns.py", b"Turn machinery", b"Turn Machinery"),
    ("games/cards_of_war/legality.py", b"Cards of War legality", b"Cards of War Legality"),
    ("tape/events.py", b"The envelope", b"the envelope"),
])
def test_an_edit_of_the_rules_code_anywhere_makes_the_index_stale(tmp_path, rel, old, new):
    """An index built by other rules code is not used, even after an edit of the same size
    with its mtime put back, in engine/kit or in a game's rules modules: a read from line 1."""
    src = _copy_of_the_package(tmp_path)
    path = session_log(tmp_path / "g.jsonl", events=100)
    assert _checkpoints_used_by_a_copy(src, path) == 0  # built now
    assert _checkpoints_used_by_a_copy(src, path) == 5  # used: 16, 32, ..., 80 (up to 90)
    f = src / "tabletape" / rel
    st, data = f.stat(), f.read_bytes()
    assert len(old) == len(new) and old in data
    f.write_bytes(data.replace(old, new, 1))
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (f.stat().st_size, f.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    assert _checkpoints_used_by_a_copy(src, path) == 0  # stale: read from line 1, rebuilt
    assert _checkpoints_used_by_a_copy(src, path) == 5


def test_an_edit_of_a_front_end_keeps_the_index(tmp_path):
    """The CLI judges nothing: editing it does not throw away a long log's index."""
    src = _copy_of_the_package(tmp_path)
    path = session_log(tmp_path / "g.jsonl", events=100)
    assert _checkpoints_used_by_a_copy(src, path) == 0
    with open(src / "tabletape" / "cli" / "replaying.py", "a") as f:
        f.write("# edited\n")
    assert _checkpoints_used_by_a_copy(src, path) == 5


def signed_by_mallory(line: bytes) -> bytes:
    """Returns a line changed but still canonical: only the chain can tell."""
    import re
    return re.sub(rb'("prev":"[0-9a-f]{64}")', rb'\1,"by":"mallory"', line)


def test_an_edit_at_a_checkpoint_line_is_caught(tmp_path):
    path = session_log(tmp_path / "g.jsonl", events=100)
    index.state_at(path)
    ls = lines(path)
    ls[48] = signed_by_mallory(ls[48])  # the line of the checkpoint at seq 48
    write(path, b"".join(ls))
    r = index.state_at(path, to=60)
    assert r.error is not None and r.error.line == 50  # line 50 no longer chains to line 49
    same(r, engine.replay(path, to=60))


def test_a_tampered_log_is_still_reported_by_validate_and_verify(tmp_path, run):
    path = session_log(tmp_path / "g.jsonl", events=100)
    index.state_at(path)
    ls = lines(path)
    ls[20] = signed_by_mallory(ls[20])  # between checkpoints
    write(path, b"".join(ls))
    r = run("validate", path, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["problems"][0]["line"] == 22
    assert run("verify", path).exit_code == 1


def test_deleting_the_index_changes_nothing_but_speed(tmp_path, run, monkeypatch):
    path = session_log(tmp_path / "g.jsonl", events=150)
    with_index = [run("replay", path, "--to", t, "--json").stdout for t in (5, 77, 150)]
    assert os.path.exists(index.index_path(path))
    os.unlink(index.index_path(path))
    monkeypatch.setattr(index, "INDEX_MIN", 10**9)  # and none is written again
    without = [run("replay", path, "--to", t, "--json").stdout for t in (5, 77, 150)]
    assert with_index == without and not os.path.exists(index.index_path(path))


def test_append_refuses_an_illegal_event_alike_with_and_without_the_index(tmp_path, run):
    path = session_log(tmp_path / "g.jsonl", events=150)
    full = engine.replay(path)
    assert full.ruleset is not None
    d = full.ruleset.pending(full.state)
    assert d is not None
    wrong = "bob" if d.actor == "alice" else "alice"
    bad = json.dumps({"type": "card_deployed", "player": wrong, "card": "Tank", "battle": 1})
    index.state_at(path)
    a = run("append", path, bad)
    os.unlink(index.index_path(path))
    b = run("append", path, bad)
    assert a.exit_code == b.exit_code == 1 and a.stderr == b.stderr and "[cow." in a.stderr
    assert len(lines(path)) == 151


def test_a_dispute_appended_from_a_checkpoint_gets_the_full_ruling(tmp_path, run):
    path = session_log(tmp_path / "g.jsonl", events=150)
    index.state_at(path)
    r = run("note", path, "was that legal?", "--about", 3, "--dispute")
    assert r.exit_code == 0 and "ruling on seq 3" in r.stdout
    [ruling] = [d for d in present(engine.replay(path).fold).disputes if d.dispute_seq == 151]
    assert ruling.verdict in r.stdout


def test_index_files_are_not_taken_for_logs(tmp_path, run):
    path = session_log(tmp_path / "g.jsonl", events=50)
    index.state_at(path)
    ipath = index.index_path(path)
    r = run("validate", path, ipath)
    assert r.exit_code == 0 and "1 of 1" not in r.stdout and "valid" in r.stdout
    assert run("verify", ipath).exit_code == 2
    assert run("validate", ipath).exit_code == 2


def test_validate_jobs_gives_the_same_report_as_one_process(run, tmp_path):
    import glob
    files = sorted(glob.glob("replays/*/*.jsonl"))
    broken = tmp_path / "broken.jsonl"
    write(broken, b"".join(lines(files[0])[:5]) + b"{torn")
    files.append(str(broken))
    for extra in ((), ("--json",)):
        one = run("validate", *files, *extra)
        two = run("validate", "--jobs", "2", *files, *extra)
        assert one.exit_code == two.exit_code == 1 and one.stdout == two.stdout


def test_append_imports_no_rendering_library(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "g.jsonl"
    from tests.conftest import new_log
    new_log(path)
    code = ("import sys; from tabletape.cli.group import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'rich', 'pygments', 'markdown_it', 'cryptography', 'prompt_toolkit'}))")
    event = '{"type":"opening_card_drawn","player":"alice","card":"Tank"}'
    done = subprocess.run([sys.executable, "-c", code, "append", str(path), event],
                          capture_output=True, text=True, env={**os.environ, "TABLETAPE_CLOCK": "off"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_diff_from_a_common_checkpoint_finds_the_same_divergence(tmp_path, run, monkeypatch):
    a = session_log(tmp_path / "a.jsonl", events=200)
    b = tmp_path / "b.jsonl"
    write(b, b"".join(lines(a)[:181]))
    log.append(str(b), [Note(text="another ending")], engine.get("cards-of-war").codec,
               expect=None)
    assert index.common_start(a, str(b)) is None  # no indexes yet
    with_index = [run("diff", *pair, "--json").stdout
                  for pair in ((a, b), (f"{a}@150", f"{b}@190"), (f"{a}@20", b))]
    start = index.common_start(a, str(b))
    assert start is not None and start[0].tail.seq == 176  # the last checkpoint both share
    for p in (a, b):
        os.unlink(index.index_path(str(p)))
    monkeypatch.setattr(index, "INDEX_MIN", 10**9)
    without = [run("diff", *pair, "--json").stdout
               for pair in ((a, b), (f"{a}@150", f"{b}@190"), (f"{a}@20", b))]
    assert with_index == without and json.loads(without[0])["first_divergence"]["seq"] == 181


def test_undo_from_the_command_line_reaches_below_a_checkpoint(tmp_path, run):
    path = session_log(tmp_path / "g.jsonl", events=60, seed=2)
    index.state_at(path)
    depth = len(present(engine.replay(path).fold).stack)
    for _ in range(depth):  # each undo starts from the latest checkpoint and its undo stack
        assert run("undo", path).exit_code == 0
    r = run("undo", path)
    assert r.exit_code == 1 and "core.undo.nothing" in r.stderr
    full = engine.replay(path)
    assert full.fold is not None
    assert full.ok and not full.fold.stack
    same(index.state_at(path), full)


def test_a_torn_tail_or_a_cut_log_reads_as_without_the_index(tmp_path, run):
    path = session_log(tmp_path / "g.jsonl", events=150)
    index.state_at(path)
    whole = open(path, "rb").read()
    write(path, whole + b'{"type":"no')  # a torn write after the checkpoints
    same(index.state_at(path), engine.replay(path))
    a = run("append", path, '{"type":"note","text":"x"}')
    assert a.exit_code == 1 and "torn" in a.stderr
    write(path, b"".join(lines(path)[:40]))  # cut below the last checkpoints (not by tabletape)
    for to in (None, 20, 39, 120):
        same(index.state_at(path, to=to), engine.replay(path, to=to))


# -- issue 22, 10: derived files never change a judgement ---------------------------------

def forge(ipath: str, edit) -> None:
    """Rewrites the index's last checkpoint with `edit(snapshot)`, recomputing every checksum
    that can be computed without the user's key: the snapshot's (as the index of tabletape
    0.x computed it, sha256 of the line hash and the snapshot) and, where the index has a
    seal, the best a forger can put there (the table of contents' sha256)."""
    import hashlib
    data = open(ipath, "rb").read()
    m = len(index.MAGIC)
    size = int.from_bytes(data[m:m + 8], "little")
    sealed = hasattr(index, "HEAD_SIZE")
    n = index.HEAD_SIZE if sealed else m + 8
    toc = msgspec.msgpack.decode(data[n:n + size], type=index.IndexFile)
    base = n + size
    cp = toc.checkpoints[-1]
    snap = edit(data[base + cp.at:base + cp.at + cp.size])
    cp.at, cp.size = len(data) - base, len(snap)
    cp.check = hashlib.sha256(cp.digest.encode() + snap).hexdigest()
    new = msgspec.msgpack.encode(toc)
    guess = hashlib.sha256(new).digest() if sealed else b""
    write(ipath, index.MAGIC + len(new).to_bytes(8, "little") + guess + new + data[base:] + snap)


def phantom_illegal(snap: bytes) -> bytes:
    """A snapshot that says an illegal event at seq 5 is in effect."""
    bottom, stack, evicted, blocked, problems, core, requests = msgspec.msgpack.decode(snap)
    problems.append(["forged by hand", "cow.turn.order", "alice draws Tank", 6, 5])
    return msgspec.msgpack.encode([bottom, stack, evicted, blocked, problems, core, requests])


def test_a_forged_index_does_not_change_replay_to(tmp_path, run):
    path = session_log(tmp_path / "g.jsonl", events=100)
    index.state_at(path)
    assert run("validate", path).exit_code == 0
    forge(index.index_path(path), phantom_illegal)
    r = run("replay", path, "--to", 99, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["problems"] == [], r.stdout
    same(index.state_at(path, to=99), engine.replay(path, to=99))
    loaded = index.load(path, engine.get("cards-of-war"), lines_hash(path))
    assert "forged" not in open(index.index_path(path), "rb").read().decode("latin-1")
    assert [c.seq for c in loaded.checkpoints] == list(range(16, 100, 16))  # rebuilt whole


def test_any_error_restoring_a_checkpoint_reads_from_line_1(tmp_path, run, monkeypatch):
    path = session_log(tmp_path / "g.jsonl", events=100)
    index.state_at(path)
    for error in (IndexError, AttributeError, RecursionError, AssertionError):
        def broken(*args, error=error):
            raise error("a snapshot this code cannot restore")
        monkeypatch.setattr(index, "restore", broken)
        same(index.state_at(path, to=90), engine.replay(path, to=90))
        assert run("replay", path, "--to", 90, "--json").exit_code == 0
        index.state_at(path)  # written again for the next error


def test_an_index_sealed_under_another_key_is_not_used(tmp_path, monkeypatch):
    path = session_log(tmp_path / "g.jsonl", events=100)
    monkeypatch.setenv("TABLETAPE_CACHE", str(tmp_path / "mine"))
    index.state_at(path)
    rs, head = engine.get("cards-of-war"), lines_hash(path)
    assert index.load(path, rs, head).checkpoints
    assert oct(os.stat(tmp_path / "mine" / seal.KEY_NAME).st_mode & 0o777) == "0o600"
    monkeypatch.setenv("TABLETAPE_CACHE", str(tmp_path / "theirs"))  # another user's
    assert not index.load(path, rs, head).checkpoints
    monkeypatch.setenv("TABLETAPE_CACHE", str(tmp_path / "mine"))
    assert index.load(path, rs, head).checkpoints


def test_a_key_others_may_read_seals_nothing(tmp_path, monkeypatch):
    path = session_log(tmp_path / "g.jsonl", events=100)
    monkeypatch.setenv("TABLETAPE_CACHE", str(tmp_path / "shared"))
    monkeypatch.setattr(seal, "_keys", {})
    assert seal.key() is not None
    os.chmod(tmp_path / "shared" / seal.KEY_NAME, 0o644)
    monkeypatch.setattr(seal, "_keys", {})
    assert seal.key() is None  # and it is not replaced either
    index.state_at(path)
    assert not os.path.exists(index.index_path(path))  # no key: no index, a full read each time
    same(index.state_at(path, to=90), engine.replay(path, to=90))
