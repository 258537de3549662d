"""Concurrent writers: 8 processes append to one log, as real writers would.

Each writer reads the tail (without the lock, as `tabletape append` reads the
log), appends one event expecting that tail, and on StaleWriter reads again
and retries. Every event says which tail its writer saw, so the test can prove
that no event was written on a stale view: a stale writer is refused and
never forks the log. Meanwhile a reader reads the whole log again and again:
each read must be a valid prefix, never a line still being written taken for a
torn one.
"""

from __future__ import annotations

import json
import os
import re

from tabletape import engine
from tabletape.tape import log
from tabletape.tape.errors import LogFormatError, StaleWriter, TornTail
from tabletape.tape.events import Note
from tests.conftest import COW, new_log
from tests.narrow import present
from tests.reliability import figures

WRITERS = 8
APPENDS = figures.budget(500, 10_000)


def writer(path: str, me: int, report: int) -> None:
    """Appends APPENDS events, re-reading the tail after every refusal; runs in the child."""
    stale = unsettled = 0
    done = 0
    while done < APPENDS:
        fd = os.open(path, os.O_RDONLY)
        try:
            tail = log.read_tail(fd)
        except LogFormatError:  # another writer's line is half-way into the page cache
            unsettled += 1
            continue
        finally:
            os.close(fd)
        assert tail is not None
        event = Note(text=f"writer {me} event {done} saw seq {tail.seq}", by=f"w{me}")
        try:
            log.append(path, [event], COW.codec, expect=tail)
        except StaleWriter:
            stale += 1
            continue
        done += 1
    os.write(report, json.dumps({"stale": stale, "unsettled": unsettled}).encode())


def reader(path: str, stop: str, report: int) -> None:
    """Reads the whole log again and again while it grows; every read must be a valid prefix."""
    reads = torn = 0
    while not os.path.exists(stop):
        try:
            for _ in log.read_records(path, engine.codec_for):
                pass
        except TornTail:  # a line still being written, taken for a torn one
            torn += 1
        reads += 1
    os.write(report, json.dumps({"reads": reads, "torn": torn}).encode())


def fork(work, *args) -> tuple[int, int]:
    """Runs work(*args, report_fd) in a child; returns its pid and the report pipe."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        code = 1
        try:
            os.close(r)
            work(*args, w)
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    return pid, r


def collect(pid: int, r: int) -> dict:
    """Waits for a child and returns its report."""
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"child {pid} failed"
    return json.loads(data)


def run_writers(path: str) -> tuple[list[dict], dict]:
    """Forks the writers and one reader, waits for all; returns what they reported."""
    stop = path + ".stop"
    watcher = fork(reader, path, stop)
    writers = [fork(writer, path, me) for me in range(WRITERS)]
    reports = [collect(*child) for child in writers]
    open(stop, "w").close()
    return reports, collect(*watcher)


TEXT = re.compile(r"writer (\d+) event (\d+) saw seq (\d+)")


def test_eight_writers_append_without_losing_interleaving_or_forking(tmp_path):
    path = str(tmp_path / "shared.jsonl")
    new_log(path)
    reports, watched = run_writers(path)
    records = list(log.read_records(path, engine.codec_for))  # raises on any broken line or link
    with open(path, "rb") as f:
        raw_lines = f.read().count(b"\n")
    assert raw_lines == len(records) == 1 + WRITERS * APPENDS
    assert [r.event.seq for r in records] == list(range(len(records)))
    next_of = [0] * WRITERS
    stale_views = 0
    for rec in records[1:]:
        assert isinstance(rec.event, Note)  # every writer appends notes
        me, n, saw = map(int, present(TEXT.fullmatch(rec.event.text)).groups())
        assert n == next_of[me], f"writer {me}: event {n} out of order or repeated"
        next_of[me] += 1
        stale_views += saw != rec.event.seq - 1  # written on a view that was not the tail
    assert next_of == [APPENDS] * WRITERS
    assert stale_views == 0
    refused = sum(r["stale"] for r in reports)
    figures.record(f"concurrent writers: {WRITERS} processes x {APPENDS} appends",
                   lines=len(records), seqs_contiguous=True, chain_valid=True,
                   interleaved_or_lost=0, stale_appends_refused=refused,
                   written_on_a_stale_view=stale_views,
                   tail_reads_mid_write=sum(r["unsettled"] for r in reports),
                   concurrent_full_reads=watched["reads"],
                   reads_that_called_a_line_being_written_torn=watched["torn"])
    assert watched["torn"] == 0
