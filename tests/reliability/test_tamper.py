"""Tampering: every change to a simulated log (250 events in `make test`, 1,000 in `make stress`)
is detected, at the line that was changed.

Which change per byte: one per position, a plausible forgery — a digit becomes
the next digit, a letter the next letter of the same case, any other byte has
its lowest bit flipped (`"`→`#`, `:`→`;`, newline→0x0b). A changed line k is
caught at line k (it no longer decodes, is not canonical, or has the wrong
seq/prev) or at line k+1 (whose `prev` no longer matches: the chain). A change
to the last line has no line after it; it is caught against the agreed head
(`verify --head`), as the README says.

Speed: the reader is streaming and stops at the first error, so a change at
line k is checked on the file cut after line k+1; what it reports there is
exactly what it reports on the whole file. Changes to the last line are checked
on the whole file. A byte change at line k cannot touch the lines before it, so
the reader picks up at line k from the known tail of line k-1 (`log.Resume`,
the path the checkpoint index uses): every byte of every line is tried in
`make test`.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections import Counter

import pytest

from tabletape import engine
from tabletape.tape import log
from tabletape.tape.errors import ChainError
from tests.reliability import figures, tapes

EVENTS = figures.budget(250, 1000)  # `make test` tries every byte of 250 events
GAME = "battlecards-pacific"  # runs long enough for 1,000 events


def forged(b: int) -> int:
    """Returns the one replacement tried for a byte: plausible, always different."""
    for lo, hi in (b"09", b"az", b"AZ"):
        if lo <= b <= hi:
            return lo if b == hi else b + 1
    return b ^ 1


@pytest.fixture(scope="module")
def tape(tmp_path_factory):
    """An EVENTS-event simulated game (BATTLECARDS Pacific runs long enough): its lines."""
    path = tmp_path_factory.mktemp("tamper") / "game.jsonl"
    lines = tapes.simulated(str(path), GAME, seed=2, events=EVENTS)
    assert len(lines) == EVENTS
    return lines


def head(lines: list[bytes]) -> str:
    return hashlib.sha256(lines[-1][:-1]).hexdigest()


class Judge:
    """Reads tampered copies and tallies where each change was caught."""

    def __init__(self, path: str, original: list[bytes]):
        self.path, self.original = path, original
        self.seen: Counter[str] = Counter()
        self.misses: list[str] = []

    def caught(self, what: str, lines: list[bytes], at: int, *, chain_next: bool = False) -> None:
        """Writes `lines` and checks the change at 0-based line `at` is caught there.

        With chain_next, a chain error at the next line (prev mismatch) is also right.
        """
        with open(self.path, "wb") as f:
            f.write(b"".join(lines))
        self.judge(what, lines, at, chain_next)

    def judge(self, what: str, lines: list[bytes], at: int, chain_next: bool,
              start: log.Resume | None = None) -> None:
        r = tapes.read(self.path, start)
        if r.crash:
            self.misses.append(f"{what}: traceback {r.crash}")
        elif r.error is None:
            self.headless(what, r, lines)
        elif r.error.line == at + 1 and r.error.offset is not None:
            self.seen["at the changed line"] += 1
        elif (chain_next and r.error.line == at + 2 and isinstance(r.error, ChainError)
              and r.error.field == "$.prev"):
            self.seen["at the next line, by the chain"] += 1
        else:
            self.misses.append(f"{what}: reported at line {r.error.line}: {r.error}")

    def headless(self, what: str, r: tapes.Read, lines: list[bytes]) -> None:
        """A copy the chain accepts must be a whole file whose head `verify --head` refuses."""
        if len(lines) < len(self.original) - 1 or r.head == head(self.original):
            self.misses.append(f"{what}: not detected")
            return
        self.seen["only against the agreed head"] += 1

    def record(self, name: str, tried: int) -> None:
        assert not self.misses, f"{len(self.misses)} missed: {self.misses[:5]}"
        assert sum(self.seen.values()) == tried
        figures.record(name, tried=tried, detected=f"{100 * sum(self.seen.values()) / tried:g}%",
                       **dict(self.seen), tracebacks=0)


def positions(lines: list[bytes]) -> list[tuple[int, int]]:
    """Returns every (line, byte in line) pair to change."""
    return [(k, i) for k, line in enumerate(lines) for i in range(len(line))]


def resume_at(lines: list[bytes], k: int) -> log.Resume | None:
    """Returns where to pick up reading at line k (0-based), its predecessor known good."""
    if k == 0:
        return None  # the header: read from the start, as every reader does
    tail = log.Tail(k - 1, hashlib.sha256(lines[k - 1][:-1]).hexdigest())
    return log.Resume(sum(map(len, lines[:k])), tail, engine.get(GAME).codec)


def test_every_single_byte_change_is_detected_at_its_line(tmp_path, tape):
    path = str(tmp_path / "t.jsonl")
    judge = Judge(path, tape)
    todo = positions(tape)
    held = -1
    with open(path, "wb") as f:
        f.write(b"".join(tape[:2]))
    for k, i in todo:
        if k != held:  # the file holds lines 0..k+1 (all of them for the last line)
            held = k
            with open(path, "wb") as f:
                f.write(b"".join(tape[: k + 2]))
        at = sum(map(len, tape[:k])) + i
        b = tape[k][i]
        fd = os.open(path, os.O_WRONLY)
        try:
            os.pwrite(fd, bytes([forged(b)]), at)
            judge.judge(f"byte {i} of line {k + 1}", tape[: k + 2], k, chain_next=True,
                        start=resume_at(tape, k))
            os.pwrite(fd, bytes([b]), at)
        finally:
            os.close(fd)
    judge.record(f"tampering: single-byte changes ({len(todo)} of "
                 f"{sum(map(len, tape))} bytes, {EVENTS} events)", len(todo))


def test_a_last_line_change_is_refused_by_verify_head(tmp_path, tape, run):
    # the chain cannot see it; the agreed head can
    path = tmp_path / "t.jsonl"
    changed = tape[-1].replace(b'"alice"', b'"alicf"').replace(b'"bob"', b'"boc"')
    assert changed != tape[-1]
    path.write_bytes(b"".join(tape[:-1]) + changed)
    assert run("verify", path).exit_code == 0
    result = run("verify", path, "--head", head(tape))
    assert result.exit_code == 1 and "not the agreed" in result.output


def cut(lines: list[bytes], at: int) -> list[bytes]:
    """Returns the lines the reader needs to judge a change first visible at line `at`."""
    return lines[: at + 2]


def test_every_line_deletion_is_detected_at_its_line(tmp_path, tape):
    judge = Judge(str(tmp_path / "t.jsonl"), tape)
    for k in range(len(tape)):
        lines = tape[:k] + tape[k + 1:]
        judge.caught(f"line {k + 1} deleted", lines if k == len(tape) - 1 else cut(lines, k), k)
    judge.record(f"tampering: line deletions ({EVENTS} events)", len(tape))


def swapped(lines: list[bytes], i: int, j: int) -> list[bytes]:
    out = list(lines)
    out[i], out[j] = out[j], out[i]
    return out


def test_every_swap_of_lines_is_detected_at_the_first_swapped_line(tmp_path, tape):
    judge = Judge(str(tmp_path / "t.jsonl"), tape)
    rng = random.Random(11)
    n = len(tape)
    pairs = [(i, i + 1) for i in range(n - 1)] + [(i, i + 2) for i in range(n - 2)]
    pairs += [(i, rng.randrange(i + 3, n)) for i in range(n - 3)]
    for i, j in pairs:
        judge.caught(f"lines {i + 1} and {j + 1} swapped", cut(swapped(tape, i, j), i), i)
    judge.record(f"tampering: swaps ({n - 1} adjacent, {len(pairs) - n + 1} not, "
                 f"{EVENTS} events)", len(pairs))


def test_a_copied_line_inserted_anywhere_is_detected_where_it_was_inserted(tmp_path, tape):
    # a copy of the line before it (a replayed line), and a copy of a random other line
    judge = Judge(str(tmp_path / "t.jsonl"), tape)
    rng = random.Random(13)
    n, tried = len(tape), 0
    for k in range(n + 1):
        other = rng.choice([j for j in range(n) if j != k])  # a copy of line k itself is line k
        for j in {k - 1 if k else 1, other}:
            lines = tape[:k] + [tape[j]] + tape[k:]
            judge.caught(f"copy of line {j + 1} inserted at line {k + 1}", cut(lines, k), k)
            tried += 1
    judge.record(f"tampering: insertions of a copied line ({n + 1} positions, "
                 f"{EVENTS} events)", tried)


def test_the_cli_reports_a_deleted_line_at_its_line(tmp_path, tape, run):
    # the CLI turns what the reader reports into exit 1 and a located message
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(tape[:3] + tape[4:]))
    result = run("verify", path)
    assert result.exit_code == 1 and f"{path}:4" in result.output
    assert "Traceback" not in result.output
