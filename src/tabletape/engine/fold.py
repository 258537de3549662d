"""The fold: one event at a time into the state, with undo, notes and disputes handled once."""

from __future__ import annotations

from collections import deque
from typing import Any

import msgspec

from tabletape.engine import seats
from tabletape.engine.fold_parts import (
    APPLIED,
    ILLEGAL,
    UNDOS_PENDING,
    UNJUDGED,
    Entry,
    Ledger,
    PastEnd,
    Position,
    Ruling,
    SeatWatch,
    Verdicts,
)
from tabletape.engine.negotiation import Request, Requests
from tabletape.engine.protocol import MAX_UNDO_DEPTH, Ruleset, Violation
from tabletape.engine.provenance import rests_on, ruling_lines
from tabletape.tape.errors import IllegalEvent
from tabletape.tape.events import (
    CORE_EVENTS,
    Event,
    Header,
    Note,
    Signed,
    UndoAsked,
    Undone,
    UndoRefused,
    visible,
)
from tabletape.tape.seqs import SeqMap, SeqSet

# (the names engine.fold has always given: the parts are engine.fold_parts')
__all__ = ["APPLIED", "ILLEGAL", "UNDOS_PENDING", "UNJUDGED", "Entry", "Fold", "Ruling",
           "describe", "restore", "snapshot"]

# -- the fold ---------------------------------------------------------------------------
# what the engine folds itself; every other event is the game's
_CORE: tuple[type[Event], ...] = (*CORE_EVENTS, Header)
_IS_CORE: dict[type, bool] = {}  # event type -> whether the engine folds it itself


def _is_core(kind: type) -> bool:
    """Returns (and keeps) whether events of this type are the engine's (`_CORE`)."""
    core = _IS_CORE[kind] = issubclass(kind, _CORE)
    return core


class Fold:
    """Replay's accumulator: the game state plus what undo, notes and disputes need.

    Every game event is pushed on a bounded stack with the state before it, so that
    `undone` can pop it. An illegal event is pushed but not applied; until it is
    undone, later events are not judged (unless `keep_going`, which skips it).

    What it holds is in parts, each kept by what changes it (engine.fold_parts): `at` the
    walk's position (state, seq, undo stack), `verdicts` what the judge found, `lines` the
    core lines and the retracted events, `seats` what the seats noticed, `requests` the undo
    requests, `after` what a log read past its end did; the game, its header, the file and
    `keep_going` are set once. The properties below read the parts (no one writes through
    them).
    """

    __slots__ = ("after", "at", "file", "header", "keep_going", "lines", "requests", "ruleset",
                 "seats", "verdicts")

    def __init__(self, ruleset: Ruleset[Any, Any, Any], header: Any, *, keep_going: bool = False,
                 file: str | None = None, version: str | None = None):
        # the rules of this game, under `version` (default: the recorded one): its components
        # prepared once
        self.ruleset = ruleset.bind(header, version)
        self.header = header
        self.file = file
        self.keep_going = keep_going
        self.at = Position(self.ruleset.initial(), MAX_UNDO_DEPTH)
        self.verdicts = Verdicts()
        self.lines = Ledger()
        self.seats = SeatWatch(self.ruleset, header)
        self.requests = Requests()  # undo requests and their answers (engine.negotiation)
        self.after = PastEnd()

    # -- what the parts hold, read ----------------------------------------------------------
    @property
    def state(self) -> Any:
        """The game state after the last line folded."""
        return self.at.state

    @property
    def last_seq(self) -> int:
        return self.at.seq

    @property
    def stack(self) -> deque[Entry]:
        """The undo stack: the latest game events, each with the state before it."""
        return self.at.stack

    @property
    def evicted(self) -> int:
        return self.at.evicted

    @property
    def blocked(self) -> int:
        """How many illegal events are on the stack (none: the fold judges on)."""
        return self.at.blocked

    @property
    def illegal(self) -> dict[int, IllegalEvent]:
        return self.verdicts.illegal

    @property
    def refused(self) -> dict[int, tuple[Any, Event]]:
        return self.verdicts.refused

    @property
    def corrected(self) -> dict[int, IllegalEvent]:
        return self.verdicts.corrected

    @property
    def unjudged(self) -> SeqSet:
        return self.verdicts.unjudged

    @property
    def core_problems(self) -> list[IllegalEvent]:
        return self.verdicts.core_problems

    @property
    def disputes(self) -> list[Ruling]:
        return self.verdicts.disputes

    @property
    def partial(self) -> bool:
        """Resumed from a checkpoint: no history for rulings on the events before it."""
        return self.verdicts.partial

    @property
    def core_seqs(self) -> SeqSet:
        """The seqs of core events: the header, undos, notes, signatures, misplaced headers."""
        return self.lines.core_seqs

    @property
    def retracted(self) -> SeqMap:
        """The seqs of retracted events -> the seq of the `undone` that retracted each."""
        return self.lines.retracted

    @property
    def signed(self) -> SeqSet:
        return self.lines.signed

    @property
    def seat_findings(self) -> dict[int, Violation]:
        return self.seats.findings

    # -- folding ------------------------------------------------------------------------------
    def feed(self, seq: int, event: Event, line: int | None = None) -> IllegalEvent | None:
        """Folds one event (seq > 0) into the state; returns its refusal, if any."""
        at = self.at
        at.seq = seq
        # isinstance(event, _CORE), looked up by the event's type: isinstance against a
        # tuple of Struct types costs ~0.2 us (the metaclass's slow path, each type in
        # turn), a dict lookup ~0.02 (tests/engine/test_walk.py pins it to isinstance)
        core = _IS_CORE.get(type(event))
        if core is None:
            core = _is_core(type(event))
        if core:  # one test for the common case, a game event
            stack = at.stack
            if type(event) is Undone and stack and event.target == stack[-1].seq \
                    and event.asked is None and self.requests.last is None:
                # the usual undo, inline: `_feed_core` -> `_undo` for the latest event
                # (tests/games/test_fast_paths.py pins it to that path); its seq and the one
                # it retracts noted for `core_seqs` and `retracted` (`Ledger.settle`). In a
                # log that holds an undo request, every undo takes `_undo` (it may close one).
                top = stack.pop()
                undos = self.lines.undos
                undos.append(seq)
                undos.append(top.seq)
                if len(undos) >= UNDOS_PENDING:
                    self.lines.settle()
                if top.status == APPLIED:
                    at.state = top.before
                elif top.status == ILLEGAL:
                    at.blocked -= 1
                    self.verdicts.retract(top.seq)
                return None
            return self._feed_core(seq, event, line)
        if at.blocked and not self.keep_going:
            at.push(seq, event, UNJUDGED)
            self.verdicts.unjudged.add(seq)
            return None
        # a game event judged and applied in one frame: `judge`, then `push` and `apply`
        # written out (one call each to the rules, none to the fold's own helpers; pinned to
        # `judge` and `push` in tests/games/test_fast_paths.py)
        rs = self.ruleset
        state = at.state
        if event.by is not None or type(event) in self.seats.watched:  # (rare: one test else)
            self.seats.check(rs, self.header.players, seq, state, event)
        v = (Violation("core.game.over", "the game is already over") if rs.over(state)
             else rs.check(state, event))
        if v is None:
            stack = at.stack
            if len(stack) == MAX_UNDO_DEPTH:
                at.evicted += 1
            stack.append(Entry(seq, state, APPLIED, event))
            at.state = rs.apply(state, event)
            return None
        err = IllegalEvent(v.reason, rule=v.rule, event=rs.describe(event),
                           file=self.file, line=line, seq=seq)
        self.verdicts.refuse(seq, err, state, event)
        if not self.keep_going:  # keep_going skips it; otherwise it blocks until undone
            at.push(seq, event, ILLEGAL)
            at.blocked += 1
        return err

    def played_on(self) -> tuple[Any, int | None] | None:
        """Returns the state the players are shown, and the first seq played on as made (None:
        no such seq), or None when the log waits for the umpire.

        A fold blocked only by players' own draws that their decks could not hold
        (`seats.flaggable`) is played on as though each were made (the game's `drawable`):
        what every player is shown is then the same as had the card been in the deck, so
        that no one learns from the table what another holds; the umpire sees the refusal
        at once (and everyone, at the game's end)."""
        at = self.at
        if not at.blocked:
            return at.state, None
        rs = self.ruleset
        first = min(self.verdicts.illegal)
        refused = self.verdicts.refused.get(first)
        if refused is None or not at.stack or at.stack[0].seq > first:
            return None
        state, event = refused
        if not seats.flaggable(rs, state, event):
            return None
        state = rs.apply(rs.drawable(state, event), event)
        for entry in at.stack:
            if entry.seq <= first:
                continue
            ev = entry.event
            if entry.status != UNJUDGED:
                return None
            if rs.check(state, ev) is None:
                state = rs.apply(state, ev)
            elif seats.flaggable(rs, state, ev):
                state = rs.apply(rs.drawable(state, ev), ev)
            else:
                return None
        return state, first

    def _feed_core(self, seq: int, event: Event, line: int | None) -> IllegalEvent | None:
        """Folds an undo, a note, a signature or a misplaced header; returns its refusal, if any."""
        self.lines.core(seq)
        match event:
            case Undone():
                return self._core(self._undo(seq, event), event, seq, line)
            case Note():
                return self._core(self._note(seq, event), event, seq, line)
            case Signed():  # a statement about the log, not a play: never blocked, never judged
                self.lines.signed.add(seq)
                return None
            case UndoAsked():
                return self._core(self._ask(seq, event), event, seq, line)
            case UndoRefused():
                return self._core(self._refuse(seq, event), event, seq, line)
        v = Violation("core.header.first", "the header may only be line 1 (seq 0)")
        return self._core(v, event, seq, line)

    def violation(self, seq: int, event: Event) -> Violation | None:
        """Returns why `event` could not be recorded at `seq` now, without changing anything."""
        match event:
            case Undone():
                return self._answer_violation(seq, event) or self._undo_violation(event)
            case Note():
                return self._note_violation(seq, event)
            case Signed():
                return None
            case UndoAsked():
                return self._ask_violation(event)
            case UndoRefused():
                return self._answer_violation(seq, event)
            case Header():
                return Violation("core.header.first", "the header may only be line 1 (seq 0)")
        return self.judge(event)

    def latest(self) -> int:
        """Returns the seq an `undone` would retract now: the latest effective game event, or -1."""
        return self.at.latest()

    def judge(self, event: Event) -> Violation | None:
        """Returns the violation of a game event in the current state, or None."""
        state = self.at.state
        if self.ruleset.over(state):  # not `pending`: judging needs no Decision built
            return Violation("core.game.over", "the game is already over")
        return self.ruleset.check(state, event)

    def _core(self, v: Violation | None, event: Event, seq: int,
              line: int | None) -> IllegalEvent | None:
        if v is None:
            return None
        err = IllegalEvent(v.reason, rule=v.rule, event=describe(self.ruleset, event),
                           file=self.file, line=line, seq=seq)
        self.verdicts.core_problems.append(err)
        return err

    def _undo(self, seq: int, event: Undone) -> Violation | None:
        v = self._answer_violation(seq, event) or self._undo_violation(event)
        if v is not None:
            return v
        at = self.at
        if self.requests.last is not None:  # any undo closes the open request
            self.requests.close(at.stack, f"answered at seq {seq}" if event.asked is not None
                                else f"the undo at seq {seq} made it void")
        top = at.stack.pop()
        self.lines.retract(top.seq, seq)
        if top.status == APPLIED:
            at.state = top.before
        elif top.status == ILLEGAL:
            at.blocked -= 1
            self.verdicts.retract(top.seq)
        return None

    def _undo_violation(self, event: Undone | UndoAsked) -> Violation | None:
        stack = self.at.stack
        if stack and event.target == stack[-1].seq:
            return None  # the usual undo; the stack holds game events only, never a signature
        if event.target in self.lines.signed:
            return Violation("core.sign.final", f"seq {event.target} is a signature, which "
                             "cannot be undone; undo retracts game events only")
        if not stack:
            if self.at.evicted:
                return Violation("core.undo.depth",
                                 f"cannot reach back more than {MAX_UNDO_DEPTH} events")
            return Violation("core.undo.nothing", "there is no effective event left to undo")
        top = stack[-1].seq
        return Violation("core.undo.latest",
                         f"the latest effective event is seq {top}, not seq {event.target}")

    # -- undo requests and their answers (engine.negotiation) -------------------------------
    def _ask(self, seq: int, event: UndoAsked) -> Violation | None:
        v = self._ask_violation(event)
        if v is None:
            assert event.by is not None  # (`_ask_violation`)
            self.requests.asked(seq, event.target, event.by, self.at.stack)
        return v

    def _ask_violation(self, event: UndoAsked) -> Violation | None:
        """Returns why a request cannot stand: no `by`, or a target `undone` could not take."""
        if event.by is None:
            return Violation("core.ask.by", "an undo request names who asks (`by`)")
        v = self._undo_violation(event)  # what `undone` could not retract, none may ask for
        return None if v is None else Violation("core.ask.latest", v.reason)

    def _refuse(self, seq: int, event: UndoRefused) -> Violation | None:
        v = self._answer_violation(seq, event)
        if v is None:
            self.requests.close(self.at.stack, f"refused at seq {seq}")
        return v

    def _answer_violation(self, seq: int, event: Undone | UndoRefused) -> Violation | None:
        """Returns why an answer to a request cannot stand (a plain `undone` answers none)."""
        if event.asked is None:
            return None
        return self.requests.answer_violation(seq, event, self.at.stack)

    def open_request(self) -> Request | None:
        """Returns the undo request still waiting for an answer, or None."""
        return self.requests.open(self.at.stack)

    def refusal_lines(self, seq: int) -> list[str]:
        """Returns the lines shown under the refusal of the game event at `seq` (its
        arithmetic, what it rests on: `Ruling.lines`), or none when it was not refused."""
        judged = self.verdicts.refused.get(seq)
        if judged is None:
            return []
        return ruling_lines(self.ruleset.derive(*judged), rests_on(self.ruleset, *judged))

    def undo_after(self, seq: int, event: Event, about: int) -> None:
        """Notes, on a log read past the seq the fold stopped at (`explain`), the `undone`
        that retracts `about` when one does: the game events after it are not judged, but
        each undone in turn first, as the fold would."""
        after = self.after
        later = after.later  # the game events read past it, not undone yet
        if isinstance(event, (UndoAsked, UndoRefused)) or (type(event) is Undone
                                                            and event.asked is not None):
            if not self._negotiated_after(seq, event, about):
                return  # a request, a refusal, or an answer that does not stand
        if type(event) is Undone:
            after.asked = None  # any undo closes the open request
            if later and event.target == later[-1]:
                later.pop()
            elif not later and event.target == about and about not in self.lines.retracted \
                    and about not in self.lines.core_seqs:
                self.lines.retract(about, seq)
        elif not isinstance(event, _CORE):
            later.append(seq)
            after.asked = None  # the table moved on: the request is void

    def _negotiated_after(self, seq: int, event: Event, about: int) -> bool:
        """Notes a request read past the fold's end (`undo_after`) as the fold would; returns
        whether `event` is an accepting `undone` that stands (the request open, answered by
        another, naming its event). A line that does not stand changes nothing."""
        after = self.after
        asked = after.asked
        if isinstance(event, UndoAsked):
            top = after.later[-1] if after.later else about
            if event.by is not None and event.target == top:
                after.asked = (seq, event.target, event.by)  # (and voids the one before)
            return False
        assert isinstance(event, (Undone, UndoRefused))  # (`undo_after` sends only answers)
        stands = (asked is not None and event.by is not None and event.asked == asked[0]
                  and event.target == asked[1] and event.by != asked[2])
        if stands and isinstance(event, UndoRefused):
            after.asked = None
        return stands and isinstance(event, Undone)

    def dispute_after(self, seq: int, event: Note) -> None:
        """Rules on a dispute read past the seq the fold stopped at (`explain` reads on for them)."""
        if event.dispute:
            self._note(seq, event)

    def _note(self, seq: int, event: Note) -> Violation | None:
        v = self._note_violation(seq, event)
        if v is not None:
            return v
        if event.dispute and event.about is not None:
            self.verdicts.disputes.append(self.rule_on(seq, event))
        return None

    def _unknown(self, n: int) -> str:
        """Returns why the state before event `n` is not held for a ruling on it."""
        retracted = self.lines.retracted
        if n in retracted:
            return (f"the event was undone at seq {retracted[n]}, before this dispute, "
                    "and the state before an undone event is not kept")
        if self.verdicts.partial:
            return "the event was read before a checkpoint"
        return f"the event lies more than {MAX_UNDO_DEPTH} events back"

    def _note_violation(self, seq: int, event: Note) -> Violation | None:
        if event.about is not None and event.about >= seq:
            return Violation("core.note.about", f"a note at seq {seq} cannot be about "
                             f"seq {event.about}, which is not earlier")
        return None

    def rule_on(self, seq: int, note: Note) -> Ruling:
        """Returns the ruling on the event a dispute note is about."""
        n = note.about if note.about is not None else -1
        v, retracted = self.verdicts, self.lines.retracted

        recent = {e.seq: (e.before, e.event) for e in self.at.stack}

        def ruling(verdict: str, rule: str | None, reason: str) -> Ruling:
            judged = v.refused.get(n) or recent.get(n)
            if judged is None:  # say why, of the three causes, it is not known here
                return Ruling(seq, n, verdict, rule, reason, note.text, note.by, None,
                              unknown=self._unknown(n))
            return Ruling(seq, n, verdict, rule, reason, note.text, note.by,
                          rests_on(self.ruleset, *judged), self.ruleset.derive(*judged))

        if n in self.lines.core_seqs:
            return Ruling(seq, n, "not a game event", None,
                          "the header, notes, undos and signatures are not judged", note.text,
                          note.by)
        if n in v.illegal:
            return ruling("illegal", v.illegal[n].rule, v.illegal[n].reason)
        if n in v.corrected:
            e = v.corrected[n]
            return ruling("illegal", e.rule, f"{e.reason} (undone at seq {retracted[n]})")
        if n in v.unjudged:
            first = min(v.illegal, default=None)
            return Ruling(seq, n, "not judged", None, "an earlier illegal event"
                          + (f" (seq {first})" if first is not None else "")
                          + " left the state unreliable", note.text, note.by)
        rules = ", ".join(self.ruleset.governing(recent[n][1])) if n in recent else None
        why = "it passed every check of the rules that govern it"
        if n in retracted:
            why += f"; it was later undone at seq {retracted[n]}"
        return ruling("legal", rules or None, why)


def describe(ruleset: Ruleset[Any, Any, Any], event: Event) -> str:
    """Returns one plain sentence for any event, core or game, safe to print: what came
    from the log (a note's text, names) shows its control characters as escapes."""
    return visible(_sentence(ruleset, event))


def _sentence(ruleset: Ruleset[Any, Any, Any], event: Event) -> str:
    match event:
        case Undone(target=t, asked=None):
            return f"undoes seq {t}"
        case Undone() | UndoAsked() | UndoRefused():
            return _negotiation(event)
        case Note(text=text, about=about, dispute=dispute):
            what = "disputes" if dispute else "notes"
            return f"{event.by or 'someone'} {what}" + (f" seq {about}" if about is not None else "") + f": {text}"
        case Header():
            return f"{event.game} {event.rules_version} starts: {', '.join(event.players)}"
        case Signed(player=player):
            return f"{player} signed the log at head {(event.prev or '')[:12]}…"
    return ruleset.describe(event)


def _negotiation(event: Undone | UndoAsked | UndoRefused) -> str:
    """Returns the sentence of an undo request or of its answer."""
    who = event.by or "someone"
    match event:
        case UndoAsked(target=t):
            return f"{who} asks to undo seq {t}"
        case UndoRefused(target=t, asked=a):
            return f"{who} refuses the request at seq {a}: seq {t} stands"
        case Undone(target=t, asked=a):
            return f"{who} accepts the request at seq {a}: undoes seq {t}"
    raise AssertionError(event)  # (the three kinds above)




# -- checkpoints: a fold saved and restored (engine.index) ----------------------------------
MAX_PROBLEMS = 64  # a fold carrying more problems than this is not worth a checkpoint


def snapshot(fold: Fold) -> bytes | None:
    """Returns the fold encoded for a checkpoint, or None when it is not worth keeping.

    Kept: the state below the undo stack, the stack's events (their states are rebuilt
    by `apply` on restoring), and the problems in effect.
    """
    if fold.keep_going or len(fold.illegal) + len(fold.core_problems) > MAX_PROBLEMS:
        return None
    bottom = fold.stack[0].before if fold.stack else fold.state
    stack = [(e.seq, e.status, e.event) for e in fold.stack]
    problems = [_problem(e) for e in fold.illegal.values()]
    core = [_problem(e) for e in fold.core_problems]
    requests = fold.requests.saved(fold.stack)
    return msgspec.msgpack.encode((bottom, stack, fold.evicted, fold.blocked, problems, core,
                                   requests))


def _problem(e: IllegalEvent) -> tuple[str, str, str | None, int | None, int | None]:
    return (e.reason, e.rule, e.event, e.line, e.seq)


def _unproblem(row: tuple[str, str, str | None, int | None, int], file: str) -> IllegalEvent:
    """Returns the problem a snapshot's row keeps (`_problem`'s inverse)."""
    reason, rule, ev, line, seq = row
    return IllegalEvent(reason, rule=rule, event=ev, file=file, line=line, seq=seq)


def restore(raw: bytes, ruleset: Ruleset[Any, Any, Any], header: Any, seq: int, file: str) -> Fold:
    """Returns a fold as it was after `seq` from its snapshot; it is `partial` (no old rulings)."""
    fold = Fold(ruleset, header, file=file)
    rs = fold.ruleset
    problem = tuple[str, str, str | None, int | None, int]
    snap = tuple[type(fold.state), list[tuple[int, str, rs.union()]], int, int,  # type: ignore[misc,valid-type]
                 list[problem], list[problem], tuple[list[int], Request | None]]
    bottom, stack, evicted, blocked, problems, core, requests = msgspec.msgpack.decode(
        raw, type=snap)
    at, verdicts = fold.at, fold.verdicts
    state = bottom
    for s, status, event in stack:  # the state before each event `undone` may retract
        at.stack.append(Entry(s, state, status, event))
        if status == APPLIED:
            state = rs.apply(state, event)
    at.state, at.evicted, at.blocked, at.seq = state, evicted, blocked, seq
    for row in problems:
        verdicts.illegal[row[4]] = _unproblem(row, file)
    verdicts.core_problems[:] = [_unproblem(row, file) for row in core]
    fold.requests.restored(requests, at.stack)
    verdicts.partial = True
    return fold
