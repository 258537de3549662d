"""The parts of a fold (engine.fold), each kept by the one that changes it.

A fold is the walk's position (`Position`: the state, the seq, the undo stack), what the
judge found (`Verdicts`), which lines are not game events and which events were taken back
(`Ledger`), what the seats noticed (`SeatWatch`), the undo requests (engine.negotiation's
`Requests`) and, on a log read past the seq the fold stopped at, what the lines after it
did (`PastEnd`). Each part is a slotted class: the fold's hot path reads the position's
fields as fast as its own attributes (tests/engine/test_walk.py).
"""

from __future__ import annotations

from array import array
from collections import deque
from typing import Any

import msgspec

from tabletape.engine import seats
from tabletape.engine.protocol import MAX_UNDO_DEPTH, Ruleset, Violation
from tabletape.engine.provenance import Derivation, Reliance, ruling_lines
from tabletape.tape.errors import IllegalEvent
from tabletape.tape.events import Event, visible
from tabletape.tape.seqs import SeqMap, SeqSet

APPLIED, ILLEGAL, UNJUDGED = "applied", "illegal", "not judged"
UNDOS_PENDING = 1 << 14  # usual undos' seqs (two per undo) `feed` notes before settling them
SEAT_FINDINGS = 1000  # the seats' findings kept per log (all are counted)


class Entry(msgspec.Struct, gc=False):
    """A game event on the undo stack: what an `undone` of it needs.

    A Struct, not a NamedTuple: one is made per game event, and a NamedTuple's constructor
    is a Python function (~0.25 us, against ~0.05 us for a Struct or a bare tuple). Replaying
    a 200,001-event log (half undos), best of five, shuffled, in one process: tuples 947 ms,
    this 952, a NamedTuple 999. gc=False: an entry never takes part in a cycle (a state or
    an event does not refer to the stack)."""

    seq: int
    before: Any  # the state before it (restored when an applied event is undone)
    status: str  # APPLIED, ILLEGAL or UNJUDGED
    event: Event


class Ruling(msgspec.Struct):
    """A verdict on a disputed event: legal or illegal, by which rule, and why."""

    dispute_seq: int
    about: int
    verdict: str  # legal | illegal | not judged | not a game event | retracted
    rule: str | None
    reason: str
    text: str
    by: str | None = None
    # the component values the verdict read whose provenance is not `rulebook`; None when
    # they are not known (the event was read before a checkpoint, or past the undo depth)
    rests_on: list[Reliance] | None = msgspec.field(default_factory=list)
    # the arithmetic the verdict computed (a shot's window, a score), when it computed one
    derivation: Derivation | None = None
    unknown: str | None = None  # why `rests_on` is not known here, when it is not

    def lines(self) -> list[str]:
        """Returns the lines shown under this ruling wherever it is shown: its arithmetic,
        what it rests on (`engine.provenance.ruling_lines`)."""
        return ruling_lines(self.derivation, self.rests_on, self.unknown)

    def said(self, head: str) -> list[str]:
        """Returns the ruling as every command prints it: `head` ("ruling on seq 21"), the
        verdict, the rule and the reason on one line, then its `lines`."""
        return [f"{head}: {self.verdict}" + (f" [{self.rule}]" if self.rule else "")
                + f" — {visible(self.reason)}", *self.lines()]


class Position:
    """Where the walk stands: the state after the last line folded and its seq, and the undo
    stack (each game event with the state before it, bounded), the entries it forgot past
    `depth` events and the illegal events on it. `Fold.feed` and the undos change it."""

    __slots__ = ("blocked", "evicted", "seq", "stack", "state")

    def __init__(self, state: Any, depth: int = MAX_UNDO_DEPTH) -> None:
        self.state = state
        self.seq = 0  # the last seq folded
        self.stack: deque[Entry] = deque(maxlen=depth)
        self.evicted = 0  # stack entries forgotten past the depth
        self.blocked = 0  # illegal events on the stack

    def push(self, seq: int, event: Event, status: str) -> None:
        """Puts a game event on the stack with the state before it (the state now)."""
        if len(self.stack) == self.stack.maxlen:
            self.evicted += 1
        self.stack.append(Entry(seq, self.state, status, event))

    def latest(self) -> int:
        """Returns the seq an `undone` would retract now: the latest effective game event, or -1."""
        return self.stack[-1].seq if self.stack else -1


class Verdicts:
    """What the judge found: the illegal events in effect and those retracted, the state
    each refusal was judged in, the events not judged, the misused core lines and the
    rulings on disputes. Only the fold's judging writes here; every report reads it."""

    __slots__ = ("core_problems", "corrected", "disputes", "illegal", "partial", "refused",
                 "unjudged")

    def __init__(self) -> None:
        self.illegal: dict[int, IllegalEvent] = {}  # in effect, not undone
        self.refused: dict[int, tuple[Any, Event]] = {}  # illegal (even if undone): state, event
        self.corrected: dict[int, IllegalEvent] = {}  # illegal, then retracted by `undone`
        self.unjudged = SeqSet()  # game events after an illegal one, not judged
        self.core_problems: list[IllegalEvent] = []
        self.disputes: list[Ruling] = []
        self.partial = False  # resumed from a checkpoint: no history for rulings before it

    def refuse(self, seq: int, err: IllegalEvent, state: Any, event: Event) -> None:
        """Notes a game event refused at `seq`, with the state it was judged in."""
        self.illegal[seq] = err
        self.refused[seq] = (state, event)  # what a dispute's ruling rests on

    def retract(self, seq: int) -> None:
        """Notes that the illegal event at `seq` was undone: its refusal is history."""
        self.corrected[seq] = self.illegal.pop(seq)


class Ledger:
    """Which lines are not game events (the header, undos, notes, signatures, misplaced
    headers) and which game events an `undone` took back, by seq.

    Per-seq facts are packed (a bit, or four bytes, per seq): memory must not grow by a
    Python object per event on a long log. The usual undo's two facts (its seq, the seq it
    retracts) are appended to `undos` by `Fold.feed` (an array append each, not a method)
    and moved into `core_seqs` and `retracted` when either is read, or when UNDOS_PENDING
    of them wait (`settle`)."""

    __slots__ = ("_core_seqs", "_retracted", "signed", "undos")

    def __init__(self) -> None:
        self._core_seqs = SeqSet((0,))
        self._retracted = SeqMap()  # seq -> the undone's seq
        self.undos = array("i")
        self.signed = SeqSet()  # seqs of `signed` events

    @property
    def core_seqs(self) -> SeqSet:
        """The seqs of core events: the header, undos, notes, signatures, misplaced headers."""
        if self.undos:
            self.settle()
        return self._core_seqs

    @property
    def retracted(self) -> SeqMap:
        """The seqs of retracted events -> the seq of the `undone` that retracted each."""
        if self.undos:
            self.settle()
        return self._retracted

    def settle(self) -> None:
        """Moves the usual undos `feed` noted into `core_seqs` and `retracted`, in order."""
        undos = self.undos
        self._core_seqs.add_all(undos[0::2])
        self._retracted.set_all(undos[1::2], undos[0::2])
        del undos[:]

    def core(self, seq: int) -> None:
        """Notes a core line at `seq` (a set: the undos `feed` noted need not come first)."""
        self._core_seqs.add(seq)

    def retract(self, seq: int, by: int) -> None:
        """Notes that the `undone` at `by` retracted the event at `seq` (once: the undos
        `feed` noted hold others)."""
        self._retracted[seq] = by


class SeatWatch:
    """What the seats find (engine.seats), which changes no verdict: a game event written by
    one player that another owns, a secret line without its salt (format 2). Kept for the
    first SEAT_FINDINGS; `found` counts them all."""

    __slots__ = ("found", "findings", "watched")

    def __init__(self, ruleset: Ruleset[Any, Any, Any], header: Any) -> None:
        self.findings: dict[int, Violation] = {}
        self.found = 0
        # the event types whose lines must carry a salt (a format-2 log's secrets)
        self.watched = (frozenset(ruleset.SECRETS) if getattr(header, "format", 1) >= 2
                        else frozenset())

    def check(self, rs: Ruleset[Any, Any, Any], players: Any, seq: int, state: Any,
              event: Event) -> None:
        """Notes a game event written by a player who does not own it, or a secret line of a
        format-2 log that carries no salt."""
        by = event.by
        found = None
        if by is not None and by in players:
            who = seats.owner(rs, event)
            if who is not None and who != by:
                found = Violation("core.seat.owner", f"written by {by}, but it is {who}'s to "
                                                     "enter (a player enters only their own)")
        if found is None and type(event) in self.watched and event.salt is None \
                and seats.secret_from(rs, state, event):
            found = Violation("core.secret.salt", "its content is secret from some seats, "
                                                  "but the line carries no salt")
        if found is not None:
            self.found += 1
            if len(self.findings) < SEAT_FINDINGS:
                self.findings[seq] = found


class PastEnd:
    """On a log read past the seq the fold stopped at (`explain`): the game events read
    since, not undone yet, and the undo request open there (its seq, target and asker)."""

    __slots__ = ("asked", "later")

    def __init__(self) -> None:
        self.later: list[int] = []
        self.asked: tuple[int, int, str] | None = None
