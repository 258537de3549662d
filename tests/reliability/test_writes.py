"""Every command that writes a file, aimed at records: the log it reads, another log, a
symlink to either, planted temporary names, and a log that appears while it writes.

A record is lost when any byte of a log (or of the file a symlink names) changes that
the command was not asked to replace; a traceback is any exception but a clean exit.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass

from click.testing import CliRunner

from tabletape.cli.group import main
from tests.reliability.figures import record

KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"


@dataclass(frozen=True)
class Writer:
    name: str
    args: tuple  # with "{LOG}" and "{OUT}" (and "{DIR}", "{KEY}" for keygen) filled in
    force: bool  # takes --force
    reads: bool  # reads {LOG}


WRITERS = [
    Writer("svg", ("svg", "{LOG}", "-o", "{OUT}"), True, True),
    Writer("view", ("view", "{LOG}", "-o", "{OUT}"), True, True),
    Writer("components", ("components", "cards-of-war", "-o", "{OUT}"), True, False),
    Writer("branch", ("branch", "{LOG}@5", "-o", "{OUT}"), False, True),
    Writer("new", ("new", "cards-of-war", "{OUT}", "--players", "a,b"), False, False),
    Writer("simulate", ("simulate", "cards-of-war", "-o", "{OUT}", "--max-events", "40"),
           False, False),
    Writer("keygen", ("keygen", "k", "--dir", "{DIR}"), False, False),
    Writer("baseline", ("corpus", "check", "{LOG}", "--baseline", "{OUT}", "--update"),
           False, True),
]


class Tally:
    def __init__(self) -> None:
        self.runs = self.outputs = self.refused = self.symlinks = self.races = 0
        self.planted = self.lost = self.tracebacks = 0


def _run(tally: Tally, w: Writer, folder: str, out: str, *extra: str):
    fill = {"{LOG}": os.path.join(folder, "game.jsonl"), "{OUT}": out, "{DIR}": folder}
    args = [a.replace("{LOG}", fill["{LOG}"]) if a.startswith("{LOG}@") else fill.get(a, a)
            for a in w.args]
    r = CliRunner().invoke(main, [*args, *extra])
    tally.runs += 1
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        tally.tracebacks += 1
    return r


def _folder(root, n: list[int]) -> str:
    n[0] += 1
    d = os.path.join(root, str(n[0]))
    os.mkdir(d)
    shutil.copy(KILL_LOG, os.path.join(d, "game.jsonl"))
    shutil.copy(KILL_LOG, os.path.join(d, "other.jsonl"))
    return d


def _target(w: Writer, d: str) -> str:
    return os.path.join(d, "k.key") if w.name == "keygen" else os.path.join(d, "out.file")


def _intact(tally: Tally, *paths: str) -> None:
    want = open(KILL_LOG, "rb").read()
    for p in paths:
        if open(os.path.realpath(p), "rb").read() != want:
            tally.lost += 1


def _cases(tally: Tally, w: Writer, root, n: list[int], monkeypatch) -> None:
    forces = [[], ["--force"]] if w.force else [[]]
    # a fresh target is written
    d = _folder(root, n)
    r = _run(tally, w, d, _target(w, d))
    tally.outputs += r.exit_code in (0, 1) and os.path.exists(_target(w, d))
    _intact(tally, os.path.join(d, "game.jsonl"))
    for force in forces:
        # the log being read, and another log, as the target; then symlinks to them
        for victim in (["game.jsonl"] if w.reads else []) + ["other.jsonl"]:
            d = _folder(root, n)
            target = os.path.join(d, victim)
            if w.name == "keygen":
                os.replace(target, _target(w, d))
                target = _target(w, d)
            r = _run(tally, w, d, target, *force)
            if force and victim == "other.jsonl":
                tally.outputs += r.exit_code in (0, 1)  # asked for: the other log replaced
            else:
                tally.refused += r.exit_code == 2
                _intact(tally, target)
            _intact(tally, os.path.join(d, "game.jsonl"))
            d = _folder(root, n)
            link = _target(w, d)
            os.symlink(os.path.join(d, victim), link)
            r = _run(tally, w, d, link, *force)
            tally.symlinks += 1
            _intact(tally, os.path.join(d, "game.jsonl"), os.path.join(d, "other.jsonl"))
        # fixed temporary names planted as symlinks to a log
        d = _folder(root, n)
        out = _target(w, d)
        head, name = os.path.split(out)
        for tmp in (f"{out}.tmp", f"{out}.{os.getpid()}.tmp", os.path.join(head, f".{name}.tmp"),
                    os.path.join(head, f".{name}.branch-{os.getpid()}")):
            os.symlink(os.path.join(d, "other.jsonl"), tmp)
        _run(tally, w, d, out, *force)
        tally.planted += 1
        _intact(tally, os.path.join(d, "game.jsonl"), os.path.join(d, "other.jsonl"))
    # a log appears at the target while the output is written
    d = _folder(root, n)
    out = _target(w, d)
    real = tempfile.mkstemp

    def racing(*a, **k):
        made = real(*a, **k)
        if k.get("prefix") == f".{os.path.basename(out)}." and not os.path.lexists(out):
            shutil.copy(KILL_LOG, out)
        return made
    with monkeypatch.context() as m:
        m.setattr(tempfile, "mkstemp", racing)
        r = _run(tally, w, d, out)
    tally.races += 1
    tally.refused += r.exit_code == 2
    _intact(tally, out)
    _intact(tally, os.path.join(d, "game.jsonl"))


def test_no_write_loses_a_record(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETAPE_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "runs"
    root.mkdir()
    tally, n = Tally(), [0]
    for w in WRITERS:
        _cases(tally, w, str(root), n, monkeypatch)
    record("writes: every output aimed at a record", writers=len(WRITERS), runs=tally.runs,
           outputs=tally.outputs, refused=tally.refused, symlinks=tally.symlinks,
           planted=tally.planted, races=tally.races, lost=tally.lost,
           tracebacks=tally.tracebacks)
    assert (tally.lost, tally.tracebacks) == (0, 0)
    assert tally.outputs >= len(WRITERS)

