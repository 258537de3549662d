"""Power loss: a log cut at every byte offset, and its last record zeroed or bit-flipped.

A cut file must read as the valid prefix of complete lines, or be reported as
torn at the line the cut falls in; `repair` must move exactly the torn bytes
aside. A damaged last record must be reported at the last line, or (when the
damage still decodes, e.g. one letter of a name) read as valid with a head that
differs from the agreed one, so that `verify --head` catches it.
"""

from __future__ import annotations

import bisect
import hashlib
import os
from collections import Counter

import pytest

from tabletape.tape import log
from tabletape.tape.errors import TornTail
from tests.reliability import figures, tapes

GAMES = ["cards-of-war"] + (["global-domination", "liberation", "battlecards-pacific"]
                            if figures.STRESS else [])
MAX_EVENTS = figures.budget(60, 200)  # `make test` cuts a 60-event game at every offset


def starts(lines: list[bytes]) -> list[int]:
    """Returns the offset of every line and, last, the size of the file."""
    out = [0]
    for line in lines:
        out.append(out[-1] + len(line))
    return out


def cut_outcome(path: str, at: int, bounds: list[int], lines: list[bytes]) -> str:
    """Reads the log cut at `at` bytes; returns how it was reported, or raises AssertionError."""
    r = tapes.read(path)
    assert r.crash is None, f"cut at {at}: traceback {r.crash}"
    complete = bisect.bisect_right(bounds, at) - 1  # lines wholly before the cut
    assert r.records == complete, f"cut at {at}: read {r.records} of {complete} complete lines"
    if at == 0:
        assert r.error is not None and r.error.line == 1 and "empty file" in r.error.reason
        return "empty file reported"
    if at == bounds[complete]:
        assert r.error is None, f"cut at a line end {at}: {r.error}"
        assert r.head == hashlib.sha256(lines[complete - 1][:-1]).hexdigest()
        return "valid prefix"
    assert isinstance(r.error, TornTail), f"cut at {at}: {r.error!r}"
    assert (r.error.line, r.error.offset) == (complete + 1, bounds[complete]), f"cut at {at}"
    return "torn, at the right line"


def check_repair(path: str, data: bytes, at: int, keep: int) -> None:
    """Cuts at `at`, repairs, and checks only the torn bytes moved and the rest is untouched."""
    with open(path, "wb") as f:
        f.write(data[:at])
    moved, aside, _ = log.repair(path)
    assert moved == at - keep
    with open(path, "rb") as f:
        assert f.read() == data[:keep]
    assert aside is not None
    with open(aside, "rb") as f:
        assert f.read() == data[keep:at]
    os.remove(aside)


@pytest.mark.parametrize("game", GAMES)
def test_a_log_cut_at_every_byte_offset_reads_as_a_prefix_or_is_reported_torn(tmp_path, game):
    path = str(tmp_path / "cut.jsonl")
    lines = tapes.simulated(path, game, seed=1, events=MAX_EVENTS)
    with open(path, "rb") as f:
        data = f.read()
    bounds = starts(lines)
    seen: Counter[str] = Counter()
    # cut from the end backwards: each cut is one truncate of the same file
    for at in range(len(data), -1, -1):
        os.truncate(path, at)
        seen[cut_outcome(path, at, bounds, lines)] += 1
    # repair one cut inside every line (its middle) on a fresh copy
    repaired = 0
    for k in range(len(lines)):
        check_repair(path, data, (bounds[k] + bounds[k + 1]) // 2 or 1, bounds[k])
        repaired += 1
    figures.record(f"power loss: cut at every offset ({game}, {len(lines)} lines)",
                   offsets=len(data) + 1, **dict(seen), repaired_without_other_change=repaired,
                   tracebacks=0)


def damaged(data: bytes, p: int):
    """Yields (kind, bytes) for every damage to byte p: zeroed, each bit flipped, tail zeroed."""
    if data[p] != 0:
        yield "zeroed", data[:p] + b"\0" + data[p + 1:]
    for bit in range(8):
        yield "bit flipped", data[:p] + bytes([data[p] ^ (1 << bit)]) + data[p + 1:]
    yield "zeroed from here", data[:p] + b"\0" * (len(data) - p)


@pytest.mark.parametrize("game", GAMES)
def test_damage_to_the_last_record_is_reported_at_the_last_line_or_changes_the_head(tmp_path, game):
    path = str(tmp_path / "damaged.jsonl")
    lines = tapes.simulated(path, game, seed=2, events=MAX_EVENTS)
    with open(path, "rb") as f:
        data = f.read()
    agreed = hashlib.sha256(lines[-1][:-1]).hexdigest()
    last = len(data) - len(lines[-1])
    seen: Counter[str] = Counter()
    for p in range(last, len(data)):
        for kind, bad in damaged(data, p):
            with open(path, "wb") as f:
                f.write(bad)
            r = tapes.read(path)
            assert r.crash is None, f"{kind} at {p}: traceback {r.crash}"
            assert r.records >= len(lines) - 1, f"{kind} at {p}: an earlier line was lost"
            if r.error is not None:
                assert r.error.line == len(lines), f"{kind} at {p}: {r.error}"
                assert r.error.offset is not None and r.error.offset >= last
                seen[f"{type(r.error).__name__} at the last line"] += 1
            else:
                assert r.head != agreed, f"{kind} at {p}: reads the same"
                seen["reads, but head differs (verify --head)"] += 1
    figures.record(f"power loss: damaged last record ({game}, {len(lines)} lines)",
                   damaged_copies=sum(seen.values()), **dict(seen), tracebacks=0)
