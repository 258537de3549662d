"""One door for every write: no output replaces a record, no planted name is followed, a
repair changes only a log (at its target), and reads stay within the line limit."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tabletape.app import corpus
from tabletape.tape import files
from tabletape.tape import log as tapelog
from tabletape.tape.errors import UsageError
from tests.cli.test_streaming import ENV
from tests.conftest import lines

KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"
SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "src")


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "game.jsonl"
    shutil.copy(KILL_LOG, path)
    return path


# -- 1. an output never replaces a record -------------------------------------------------

@pytest.mark.parametrize("force", [[], ["--force"]])
def test_svg_over_its_own_log_is_refused_even_with_force(run, log, force):
    before = log.read_bytes()
    r = run("svg", log, "-o", log, *force)
    assert r.exit_code == 2 and str(log) in r.stderr and "being read" in r.stderr
    assert log.read_bytes() == before


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_an_output_through_a_symlink_to_the_log_is_refused(run, log, tmp_path, force):
    before = log.read_bytes()
    (tmp_path / "pic.svg").symlink_to(log)
    for cmd in ("svg", "view"):
        r = run(cmd, log, "-o", tmp_path / "pic.svg", *force)
        assert r.exit_code == 2 and "being read" in r.stderr, r.stderr
    assert log.read_bytes() == before and (tmp_path / "pic.svg").is_symlink()


def test_view_over_another_log_is_refused_without_force(run, log, tmp_path):
    other = tmp_path / "other.jsonl"
    shutil.copy(KILL_LOG, other)
    r = run("view", log, "-o", other)
    assert r.exit_code == 2 and f"{other} already exists" in r.stderr and "--force" in r.stderr
    assert other.read_bytes() == log.read_bytes()
    assert run("view", log, "-o", other, "--force").exit_code == 0
    assert other.read_bytes().startswith(b"<!DOCTYPE html>")


@pytest.mark.parametrize("cmd", [["svg"], ["view"]])
def test_an_existing_output_needs_force(run, log, tmp_path, cmd):
    out = tmp_path / "out.file"
    out.write_bytes(b"mine")
    out.chmod(0o640)
    r = run(*cmd, log, "-o", out)
    assert r.exit_code == 2 and "already exists" in r.stderr and out.read_bytes() == b"mine"
    assert run(*cmd, log, "-o", out, "--force").exit_code == 0
    assert out.read_bytes() != b"mine" and out.stat().st_mode & 0o777 == 0o640


def test_components_output_needs_force(run, tmp_path):
    out = tmp_path / "deck.json"
    out.write_bytes(b"mine")
    r = run("components", "cards-of-war", "-o", out)
    assert r.exit_code == 2 and "already exists" in r.stderr and out.read_bytes() == b"mine"
    assert run("components", "cards-of-war", "-o", out, "--force").exit_code == 0
    assert json.loads(out.read_bytes())["cards"]


def test_baseline_update_replaces_a_baseline_never_a_log(run, log, tmp_path):
    other = tmp_path / "other.jsonl"
    shutil.copy(KILL_LOG, other)
    r = run("corpus", "check", log, "--baseline", other, "--update")
    assert r.exit_code == 2 and "not a baseline manifest" in r.stderr
    assert other.read_bytes() == log.read_bytes()
    base = tmp_path / "base.json"
    assert run("corpus", "check", log, "--baseline", base, "--update").exit_code == 0
    assert run("corpus", "check", log, "--baseline", base, "--update").exit_code == 0


# -- 2. a planted temporary name is never followed ----------------------------------------

def test_view_never_writes_through_a_planted_tmp_symlink(run, log, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    out = tmp_path / "page.html"
    for name in (f"{out}.tmp", f"{out}.{os.getpid()}.tmp"):
        os.symlink(victim, name)
    assert run("view", log, "-o", out).exit_code == 0
    assert victim.read_bytes() == b"precious" and out.read_bytes().startswith(b"<!DOCTYPE")


def _planted(target: str, victim) -> None:
    """Plants symlinks to `victim` at every fixed temporary name a writer has used."""
    head, name = os.path.split(target)
    pid = os.getpid()
    for tmp in (f"{target}.tmp", f"{target}.{pid}.tmp", f"{target}.repair.{pid}.tmp",
                os.path.join(head, f".{name}.tmp"), os.path.join(head, f".{name}.branch-{pid}")):
        if not os.path.lexists(tmp):
            os.symlink(victim, tmp)


def test_baseline_cache_index_and_custody_writers_ignore_planted_names(run, log, tmp_path,
                                                                       monkeypatch):
    from tabletape.engine import index
    monkeypatch.setattr(index, "INDEX_EVERY", 16)  # an index even for a short log
    monkeypatch.setattr(index, "INDEX_MIN", 0)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("TABLETAPE_CACHE", str(cache))
    base = str(tmp_path / "base.json")
    for target in (base, str(cache / corpus.CACHE_NAME), index.index_path(str(log)),
                   tapelog.custody_path(str(log))):
        _planted(target, victim)
    r = run("corpus", "check", log, "--baseline", base, "--update")
    assert r.exit_code == 0, r.stderr
    index.state_at(str(log))  # writes the index and the custody stamp
    assert run("append", log, '{"type":"note","text":"x"}').exit_code in (0, 1)
    assert victim.read_bytes() == b"precious"
    assert os.path.getsize(base) > 0 and os.path.exists(index.index_path(str(log)))
    assert tapelog.read_custody(str(log)) is not None


def test_no_module_but_the_door_renames_files_into_place():
    hits = []
    for d, _, names in os.walk(os.path.join(SRC, "tabletape")):
        for n in names:
            if n.endswith(".py"):
                text = open(os.path.join(d, n), encoding="utf-8").read()
                if re.search(r"os\.(replace|rename)\(|\.tmp\b|O_EXCL", text):
                    hits.append(n)
    assert hits == ["files.py"]


def test_the_door_cleans_up_and_names_the_target(tmp_path):
    target = tmp_path / "out.bin"
    with pytest.raises(RuntimeError):
        with files.writing(str(target)) as f:
            f.write(b"half")
            raise RuntimeError("interrupted")
    assert os.listdir(tmp_path) == []
    files.write(str(target), iter([b"a", b"b"]))
    assert target.read_bytes() == b"ab"
    with pytest.raises(UsageError, match="already exists"):
        files.write(str(target), b"c")
    mask = os.umask(0o022)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o644 & ~mask  # as open() would, never wider
    (tmp_path / "sub").mkdir()
    with pytest.raises(UsageError, match=f"cannot write {tmp_path}/sub/x/y"):
        files.write(str(tmp_path / "sub" / "x" / "y"), b"c")


def test_permission_errors_name_the_target_not_a_temporary_file(run, log, tmp_path,
                                                                monkeypatch):
    """(Running as root, a read-only folder is writable: the refusal is simulated.)"""
    import tempfile
    denied = OSError(errno.EACCES, "Permission denied", "/x/.b.jsonl.branch-980")

    def mkstemp(*a, **k):
        raise PermissionError(*denied.args[:2], os.path.join(k["dir"], ".b.jsonl.1021.tmp"))
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    new = tmp_path / "b.jsonl"
    r = run("branch", f"{log}@5", "-o", new)
    assert r.exit_code == 2 and f"cannot write {new}: Permission denied" in r.stderr
    assert ".tmp" not in r.stderr and "branch-" not in r.stderr
    r = run("corpus", "check", log, "--baseline", tmp_path / "base.json", "--update")
    assert r.exit_code == 2 and f"cannot write {tmp_path / 'base.json'}" in r.stderr


# -- 3. repair changes only a log, at its target ------------------------------------------

def test_repair_refuses_a_file_that_is_not_a_log(run, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"first line\nsecond")
    r = run("repair", notes)
    assert r.exit_code == 2 and f"{notes}:1" in r.stderr and "not a tabletape log" in r.stderr
    assert notes.read_bytes() == b"first line\nsecond"
    assert os.listdir(tmp_path) == ["notes.txt"]


def test_repair_of_a_symlinked_log_repairs_its_target(run, log, tmp_path):
    whole = log.read_bytes()
    with open(log, "ab") as f:
        f.write(b'{"type":"card_dr')
    link = tmp_path / "link.jsonl"
    link.symlink_to(log)
    r = run("repair", link)
    assert r.exit_code == 0, r.stderr
    assert link.is_symlink() and log.read_bytes() == whole
    assert (tmp_path / "game.jsonl.torn").read_bytes() == b'{"type":"card_dr'


def test_restoring_a_symlinked_log_keeps_the_link(run, log, tmp_path):
    whole = log.read_bytes()
    log.write_bytes(whole.replace(b"\n", b"\r\n"))
    link = tmp_path / "link.jsonl"
    link.symlink_to(log)
    r = run("repair", link)
    assert r.exit_code == 0, r.stderr
    assert link.is_symlink() and log.read_bytes() == whole


# -- 4. record refuses a log it cannot write before the session starts --------------------

def test_record_refuses_a_log_it_cannot_write(run, log, monkeypatch):
    """(Running as root, chmod does not stop a write: the refusal is simulated.)"""
    real_open = os.open

    def deny(path, flags, *a):
        if os.fspath(path) == str(log) and flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *a)
    monkeypatch.setattr(os, "open", deny)
    r = run("record", log, input="1\n")
    assert r.exit_code == 2 and f"cannot write {log}" in r.stderr, r.stderr
    assert "recording" not in r.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a read-only file")
def test_record_refuses_a_read_only_log(run, log):
    log.chmod(0o444)
    r = run("record", log, input="1\n")
    assert r.exit_code == 2 and f"cannot write {log}: Permission denied" in r.stderr
    assert "recording" not in r.stdout


# -- 15. the cache judges the bytes it hashed -----------------------------------------------

def test_a_log_swapped_during_a_check_is_cached_under_what_was_judged(tmp_path, monkeypatch):
    logs = tmp_path / "logs"
    logs.mkdir()
    good = logs / "g.jsonl"
    shutil.copy(KILL_LOG, good)
    bad = tmp_path / "bad.jsonl"
    data = bytearray(good.read_bytes())
    data[data.index(b'"alice"', 200) + 1] = ord("A")  # a byte changed: the chain breaks
    bad.write_bytes(bytes(data))
    judge = corpus.judge_keyed

    def swapped(path, components=None, rules=None):  # the log is replaced after it was hashed
        os.replace(bad, good)
        return judge(path, components, rules)
    monkeypatch.setattr(corpus, "judge_keyed", swapped)
    cache = str(tmp_path / "c")
    first = corpus.check([str(logs)], root=str(logs), cache_dir=cache)
    assert first.entries["g.jsonl"].verdict == corpus.BROKEN
    monkeypatch.setattr(corpus, "judge_keyed", judge)
    again = corpus.check([str(logs)], root=str(logs), cache_dir=cache)
    assert again.cached == 1 and again.entries["g.jsonl"].verdict == corpus.BROKEN
    shutil.copy(KILL_LOG, good)  # the good log back: judged again, not the cached verdict
    third = corpus.check([str(logs)], root=str(logs), cache_dir=cache)
    assert third.cached == 0 and third.entries["g.jsonl"].verdict != corpus.BROKEN


# -- 16. memory bounded by the line limit -----------------------------------------------------

BIG = 64 << 20


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A log whose header is a 64 MiB line, and a log whose torn tail is 64 MiB."""
    d = tmp_path_factory.mktemp("big")
    header = open(KILL_LOG, "rb").readline()
    mib = b"a" * (1 << 20)  # written a MiB at a time: this process stays small
    with open(d / "long-first.jsonl", "wb") as f:
        f.write(b'{"type":"game_started","x":"')
        f.writelines(mib for _ in range(BIG >> 20))
        f.write(b'"}\n')
    with open(d / "torn.jsonl", "wb") as f:
        f.write(header)
        f.write(b'{"type":"card_drawn","x":"')
        f.writelines(mib for _ in range(BIG >> 20))
    with open(d / "crlf-torn.jsonl", "wb") as f:  # editor damage and a torn tail: restored
        f.write(open(KILL_LOG, "rb").read().replace(b"\n", b"\r\n"))
        f.write(b'{"type":"note","text":"')
        f.writelines(mib for _ in range(BIG >> 20))
    small = d / "small"
    small.mkdir()
    shutil.copy(KILL_LOG, small / "s.jsonl")
    return d


_HWM = """
import atexit, os, runpy, sys
def hwm():
    with open("/proc/self/status") as f, open(os.environ["HWM_OUT"], "w") as out:
        out.write(next(x for x in f if x.startswith("VmHWM")).split()[1])
atexit.register(hwm)
sys.argv[0] = "tabletape"
runpy.run_module("tabletape", run_name="__main__")
"""


def _peak(args, env, tmp) -> int:
    """Runs `tabletape ARGS`; returns its peak RSS in KiB, as the process itself saw it
    (ru_maxrss would count the RSS of the test process it was forked from)."""
    out = os.path.join(tmp, "hwm")
    subprocess.run([sys.executable, "-c", _HWM, *args], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env={**ENV, **(env or {}), "HWM_OUT": out})
    with open(out) as f:
        return int(f.read())


def _grows(tmp, big_args, small_args, env=None) -> int:
    return _peak(big_args, env, tmp) - _peak(small_args, env, tmp)


def test_verify_parent_of_a_huge_first_line_stays_small(big, tmp_path):
    grew = _grows(tmp_path, ["verify", KILL_LOG, "--parent", str(big / "long-first.jsonl")],
                  ["verify", KILL_LOG, "--parent", KILL_LOG])
    assert grew < 24 * 1024, grew


def test_the_corpus_cache_of_a_huge_line_stays_small(big, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETAPE_CACHE", str(tmp_path / "c"))
    lone = tmp_path / "lone"
    lone.mkdir()
    os.link(big / "long-first.jsonl", lone / "long-first.jsonl")
    grew = _grows(tmp_path, ["corpus", "check", str(lone)], ["corpus", "check", str(big / "small")],
                  {"TABLETAPE_CACHE": str(tmp_path / "c")})
    assert grew < 24 * 1024, grew


def test_repair_of_a_huge_torn_tail_stays_small(big, tmp_path):
    torn = tmp_path / "torn.jsonl"
    shutil.copy(big / "torn.jsonl", torn)
    small = tmp_path / "small.jsonl"
    shutil.copy(KILL_LOG, small)
    with open(small, "ab") as f:
        f.write(b'{"type":"card_dr')
    grew = _grows(tmp_path, ["repair", str(torn)], ["repair", str(small)])
    assert grew < 24 * 1024, grew
    assert os.path.getsize(f"{torn}.torn") == len(b'{"type":"card_drawn","x":"') + BIG
    assert lines(torn) == [open(KILL_LOG, "rb").readline()]



def test_restoring_a_log_with_a_huge_torn_tail_stays_small(big, tmp_path):
    damaged = tmp_path / "crlf-torn.jsonl"
    shutil.copy(big / "crlf-torn.jsonl", damaged)
    small = tmp_path / "small.jsonl"
    small.write_bytes(open(KILL_LOG, "rb").read().replace(b"\n", b"\r\n") + b'{"type":"no')
    grew = _grows(tmp_path, ["repair", str(damaged)], ["repair", str(small)])
    assert grew < 24 * 1024, grew
    assert damaged.read_bytes() == open(KILL_LOG, "rb").read()
    assert os.path.getsize(f"{damaged}.orig") == os.path.getsize(big / "crlf-torn.jsonl")
