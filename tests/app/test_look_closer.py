"""A baseline change says what changed and hints at a command that runs on the log as it is
now, for every kind of difference (issue 35): a log cut short or grown, an illegal event
that appears, a break, a state that differs only at the end."""

from __future__ import annotations

import json
import shlex

from tabletape.app import corpus

LOG = "replays/cards-of-war/joint-adjacent.jsonl"  # 86 events, recorded under 1.1
DECK = "replays/decks/cards-of-war-tank-9.json"


def lines(path):
    return open(path, "rb").read().splitlines(keepends=True)


def change(tmp_path, before: bytes, after: bytes, components=None):
    """Returns the change from the log `before` (the baseline's) to `after`, at one path."""
    path = tmp_path / "log.jsonl"
    path.write_bytes(before)
    old = corpus.judge(str(path))
    path.write_bytes(after)
    new = corpus.judge(str(path), components)
    c = corpus.difference("log.jsonl", old, new)
    assert c is not None
    return c, corpus.look_closer(c, str(path))


def runs(run, hint):
    """Runs the hinted command line (without `tabletape`): it must not fail to start."""
    words = shlex.split(hint)
    assert words[0] == "tabletape"
    r = run(*words[1:])
    assert r.exit_code in (0, 1), (hint, r.stderr)
    assert "has no seq" not in r.stderr and "Traceback" not in r.stderr
    return r


def test_a_log_cut_short(tmp_path, run):
    whole = lines(LOG)
    c, hint = change(tmp_path, b"".join(whole), b"".join(whole[:60]))
    assert "the log is shorter than its baseline: 86 \u2192 60 events (it ends at seq 59)" in c.what
    assert c.first_seq is None and c.rules_changed == []  # no rule change is involved
    assert hint.startswith("tabletape replay ")
    runs(run, hint)


def test_a_log_that_grew(tmp_path, run):
    whole = lines(LOG)
    c, hint = change(tmp_path, b"".join(whole[:60]), b"".join(whole))
    assert "the log is longer than its baseline: 60 \u2192 86 events (it ends at seq 85)" in c.what
    assert c.rules_changed == []
    runs(run, hint)


def test_an_illegal_event_appears(tmp_path, run):
    deck = open(DECK, "rb").read()
    whole = b"".join(lines(LOG))
    c, hint = change(tmp_path, whole, whole, {"cards-of-war": deck})
    assert c.first_seq == 41 and c.rules_changed == []  # the components changed, not the rules
    assert hint.endswith(" 41")
    runs(run, hint)


def test_a_break(tmp_path, run):
    whole = lines(LOG)
    tampered = whole[:30] + [whole[30].replace(b'"alice"', b'"bob"', 1)] + whole[31:]
    c, hint = change(tmp_path, b"".join(whole), b"".join(tampered))
    assert c.broken_at is not None and hint.startswith("tabletape validate ")
    runs(run, hint)


def test_judged_by_another_version_the_rules_changed_are_named(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_bytes(open(LOG, "rb").read())
    old, new = corpus.judge(str(path)), corpus.judge(str(path), rules="1.2")
    c = corpus.difference("log.jsonl", old, new)
    if c is not None:  # (judged alike, nothing to say)
        assert c.rules_changed == ["cow.ability.round-end", "cow.reinforce.round-end"]


def test_corpus_check_names_the_version_that_judged(run):
    r = run("corpus", "check", "--no-cache", "--jobs", "1", "--rules", "latest",
            "replays/battlecards-pacific")
    assert "battlecards-pacific │ 1.1, judged by 1.2 │" in r.stdout
    d = json.loads(run("corpus", "check", "--no-cache", "--jobs", "1", "--json", "--rules",
                       "1.2", "replays/battlecards-pacific").stdout)
    assert list(d["by_version"]) == ["battlecards-pacific 1.1, judged by 1.2"]
    md = run("corpus", "check", "--no-cache", "--jobs", "1", "--markdown", "--rules", "1.2",
             "replays/battlecards-pacific").stdout
    assert "| battlecards-pacific | 1.1, judged by 1.2 | 8 |" in md
    # judged by its own version, only that version is named
    r = run("corpus", "check", "--no-cache", "--jobs", "1", "replays/battlecards-pacific")
    assert "battlecards-pacific │ 1.1   │" in r.stdout


def test_rules_names_the_version_listed_and_the_latest(run):
    r = run("rules", "battlecards-pacific")
    assert r.stdout.splitlines()[0] == "BATTLECARDS Pacific Theater: rules 1.2 (the latest)"
    assert ("changelog: rules 1.0, 1.1, 1.2, the latest 1.2; a log is judged by the version it "
            "was recorded under unless --rules asks for another") in r.stdout
    old = run("rules", "battlecards-pacific", "--rules", "1.0")
    assert old.stdout.splitlines()[0] == "BATTLECARDS Pacific Theater: rules 1.0 (the latest is 1.2)"
    assert "bcp.turn.first-side" not in old.stdout.split("changelog:")[0]
    assert run("rules", "battlecards-pacific", "--rules", "0.9").exit_code == 2


# -- the smaller things of issue 35 --------------------------------------------------------

def test_diff_wraps_between_items_never_inside_a_name(run, monkeypatch):
    from tabletape.cli import render
    monkeypatch.setattr(render.console, "width", 100)
    out = run("diff", "replays/cards-of-war/sim-normal.jsonl",
              "replays/cards-of-war/joint-adjacent.jsonl").stdout
    assert '["Battleship", "Codebreakers", ' in out


def test_a_closed_pipe_ends_a_command_quietly(tmp_path):
    import os
    import shutil
    import subprocess
    import sys
    log = tmp_path / "n.jsonl"
    shutil.copy("replays/cards-of-war/kill-dispute.jsonl", log)
    env = {**os.environ, "PYTHONPATH": os.path.abspath("src"), "TABLETAPE_CLOCK": "off"}
    cmd = [sys.executable, "-m", "tabletape", "note", str(log), "x", "--about", "21",
           "--dispute"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert p.stdout is not None
    p.stdout.readline()
    p.stdout.close()  # as `| head -1` does
    assert p.stderr is not None
    err = p.stderr.read().decode()
    assert p.wait() in (0, 141) and "Broken pipe" not in err and "Traceback" not in err
