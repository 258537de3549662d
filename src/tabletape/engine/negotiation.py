"""The table's negotiation in the record: undo requests and their answers, judged once.

A player asks (`undo_asked {target}`) that the latest effective event be undone; another
player, or the umpire, answers: accepts (`undone {target, asked}`, which retracts it) or
refuses (`undo_refused {target, asked}`). A request stays open until it is answered, or
until a later event makes it void: another request, any `undone`, or a game event (the
table moved on, so the event it names is no longer the latest). Notes, disputes and
signatures leave it open. docs/format.md ("Undo requests") states the rules; the fold
(`engine.fold`) calls this module for the three core events and holds one `Requests`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from tabletape.engine.protocol import Violation
from tabletape.tape.events import Undone, UndoRefused, visible
from tabletape.tape.seqs import SeqSet


class Request(msgspec.Struct):
    """An undo request recorded at `seq` by `by`, for event `target`, and how it closed."""

    seq: int
    target: int
    by: str
    closed: str | None = None  # why it is no longer open (None: it may still be)


class Requests:
    """The fold's record of undo requests: which seqs are requests, and the latest one.

    Whether the latest request is still open is decided lazily against the fold's undo
    stack (the entry on top when it was asked must still be on top), so that a game event
    costs the fold nothing for it.
    """

    def __init__(self) -> None:
        self.seqs = SeqSet()  # every request recorded (and valid)
        self.last: Request | None = None
        self._entry: Any = None  # the stack's top when `last` was asked

    def open(self, stack: Sequence[Any]) -> Request | None:
        """Returns the open request, or None (closing one the table moved on from)."""
        last = self.last
        if last is None or last.closed is not None:
            return None
        moved = _moved_on(stack, self._entry)
        if moved is not None:
            last.closed = moved
            return None
        return last

    def pending(self) -> bool:
        """Returns whether a request may still be open (cheap: the fold's undo fast path)."""
        return self.last is not None and self.last.closed is None

    def asked(self, seq: int, target: int, by: str, stack: Sequence[Any]) -> None:
        """Records a valid request; the open one, if any, is void from now on."""
        self.close(stack, f"a later request (seq {seq}) made it void")
        self.seqs.add(seq)
        self.last = Request(seq, target, by)
        self._entry = stack[-1]

    def close(self, stack: Sequence[Any], why: str) -> None:
        """Closes the open request, if any, saying why (a game event first, if one came)."""
        req = self.open(stack)
        if req is not None:
            req.closed = why

    def answer_violation(self, seq: int, event: Undone | UndoRefused,
                         stack: Sequence[Any]) -> Violation | None:
        """Returns why an answer (`undone` with `asked`, `undo_refused`) cannot stand, or None."""
        asked = event.asked
        assert asked is not None  # (only answers are judged here)
        if event.by is None:
            return Violation("core.ask.by", "an answer to an undo request names who answers "
                                            "(`by`)")
        if asked >= seq or asked not in self.seqs:
            return Violation("core.ask.none", f"seq {asked} is not an earlier undo request")
        last = self.last
        assert last is not None  # a request was recorded
        if asked != last.seq:
            return Violation("core.ask.void", f"the undo request at seq {asked} is no longer "
                             f"open: a later request (seq {last.seq}) made it void")
        if self.open(stack) is None:
            return Violation("core.ask.void", f"the undo request at seq {asked} is no longer "
                             f"open: {last.closed}")
        if event.by == last.by:
            return Violation("core.ask.self", f"{visible(last.by)} asked for this undo at seq "
                             f"{asked}; another player (or the umpire) answers it")
        if event.target != last.target:
            return Violation("core.ask.target", f"the request at seq {asked} asks to undo seq "
                             f"{last.target}, not seq {event.target}")
        return None

    # -- a checkpoint (engine.index) ---------------------------------------------------------
    def saved(self, stack: Sequence[Any]) -> tuple[list[int], Request | None]:
        """Returns what a checkpoint keeps: the requests' seqs, and the latest request."""
        self.open(stack)  # closed, if the table moved on since
        return list(self.seqs), self.last

    def restored(self, saved: tuple[list[int], Request | None], stack: Sequence[Any]) -> None:
        """Restores what `saved` kept, over the restored undo stack."""
        seqs, last = saved
        self.seqs.add_all(seqs)
        self.last = last
        if last is not None and last.closed is None:
            self._entry = stack[-1] if stack else None  # open when saved: its entry was on top, and is again


def _moved_on(stack: Sequence[Any], entry: Any) -> str | None:
    """Returns why a request asked with `entry` on top of the stack is void now, or None."""
    if stack and stack[-1] is entry:
        return None
    later = None  # the first game event above the request's entry: what made it void
    for e in reversed(stack):
        if e is entry:
            return f"the table moved on after it (the game event at seq {later} made it void)"
        later = e.seq
    return "the table moved on after it (a later game event made it void)"
