"""Process crash: a writer appending through `tabletape.tape.log.append` is SIGKILLed at random.

The writer is a fork of this (already imported) process; after each append
returns it writes the new seq and head to a pipe, so the parent knows every
event that was confirmed. After each kill the parent checks: the bytes it saw
before are unchanged (append-only), every confirmed event is in the log with
the hash it was confirmed with, and a torn tail, if any, is reported and
repaired by moving exactly the torn bytes aside.

Note: the kernel looks for a fatal signal only between the pages one `write()`
copies, so SIGKILL tears a line only when its write spans a page boundary of
the file; to make that common, a fifth of the events are 16 KiB notes (4,096
four-byte characters). The power loss tests tear the file at every offset.
"""

from __future__ import annotations

import os
import random
import signal
import time

from tabletape import engine
from tabletape.tape import log
from tabletape.tape.errors import TornTail
from tabletape.tape.events import Note
from tests.conftest import COW, new_log
from tests.reliability import figures, tapes

KILLS = figures.budget(300, 5000)
KILLS_PER_LOG = 25  # a fresh log now and then keeps each check quick
MAX_DELAY = 0.012  # seconds between the fork and the kill


def note(n: int, rng: random.Random) -> Note:
    """Returns the n-th event a writer appends: mostly short, now and then 16 KiB."""
    big = rng.random() < 0.2
    return Note(text=("\U0001F0A1" * 4096) if big else f"event {n} " + "x" * rng.randrange(200))


def writer(path: str, tail: log.Tail, confirm: int, seed: int) -> None:
    """Appends forever, confirming each append once it has returned; runs in the child."""
    rng = random.Random(seed)
    n = 0
    while True:
        n += 1
        tail = log.append(path, [note(n, rng)], COW.codec, expect=tail)
        os.write(confirm, f"{tail.seq} {tail.head}\n".encode())


def kill_a_writer(path: str, tail: log.Tail, rng: random.Random) -> list[tuple[int, str]]:
    """Forks a writer, SIGKILLs it after a random delay; returns the confirmed (seq, head)s."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        code = 0
        try:
            os.close(r)
            writer(path, tail, w, rng.randrange(1 << 30))
        except BaseException:  # noqa: BLE001
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    time.sleep(rng.uniform(0, MAX_DELAY))
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status), "the writer stopped by itself: it failed"
    with os.fdopen(r, "rb") as f:
        return [(int(s), h) for s, h in (line.split() for line in f.read().decode().splitlines())]


class Tally:
    """What the parent saw over all kills."""

    def __init__(self):
        self.confirmed = self.lost = self.unconfirmed = self.torn = self.repaired = 0
        self.idle = 0  # kills before the first append returned


def check_after_kill(path: str, before: bytes, tail: log.Tail, confirmed: list[tuple[int, str]],
                     tally: Tally) -> tuple[bytes, log.Tail]:
    """Checks the log after a kill (repairing a torn tail); returns its bytes and tail."""
    with open(path, "rb") as f:
        data = f.read()
    assert data.startswith(before), "bytes written before the kill were changed"
    r = tapes.read(path)
    assert r.crash is None, r.crash
    if r.error is not None:
        assert isinstance(r.error, TornTail), r.error
        tally.torn += 1
        keep = r.error.offset
        assert keep is not None  # a torn tail is found at a byte
        done = log.repair(path)
        moved, aside, _ = done
        if done.restored:  # killed just before the newline: a whole event, given it back
            with open(path, "rb") as f:
                assert f.read() == data + b"\n", "repair changed more than the newline"
            data += b"\n"
        else:
            with open(path, "rb") as f:
                assert f.read() == data[:keep], "repair changed more than the torn tail"
            assert aside is not None
            with open(aside, "rb") as f:
                assert f.read() == data[keep:] and moved == len(data) - keep
            data = data[:keep]
        assert aside is not None
        os.remove(aside)
        tally.repaired += 1
    heads = [rec.digest for rec in log.read_records(path, engine.codec_for)]
    tally.confirmed += len(confirmed)
    tally.lost += sum(1 for seq, h in confirmed if seq >= len(heads) or heads[seq] != h)
    tally.unconfirmed += len(heads) - 1 - tail.seq - len(confirmed)
    tally.idle += not confirmed
    return data, log.Tail(len(heads) - 1, heads[-1])


def test_a_writer_killed_at_random_never_loses_a_confirmed_event(tmp_path):
    rng = random.Random(2024)
    tally = Tally()
    path = ""
    for kill in range(KILLS):
        if kill % KILLS_PER_LOG == 0:
            path = str(tmp_path / f"crash-{kill}.jsonl")
            tail = new_log(path)
            with open(path, "rb") as f:
                data = f.read()
        confirmed = kill_a_writer(path, tail, rng)
        data, tail = check_after_kill(path, data, tail, confirmed, tally)
    assert tally.lost == 0
    figures.record("process crash: writer SIGKILLed at random", kills=KILLS,
                   events_confirmed=tally.confirmed, events_lost=tally.lost,
                   written_but_unconfirmed=tally.unconfirmed,
                   kills_before_first_append=tally.idle, torn_tails_detected=tally.torn,
                   repaired_with_nothing_else_changed=tally.repaired)
