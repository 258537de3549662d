"""`tabletape replay FILE --step`: walk a log one event at a time, forwards and back.

`Stepper` folds the log once and keeps, for every seq, the event, its ruling and
the state after it (states are frozen and share their unchanged parts, so this is
cheap; past STATES_KEPT events the state is recomputed on demand instead). The
key loop that shows it is `tabletape.cli.step`; nothing here prints.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tabletape import engine
from tabletape.app.whatif import Whatif
from tabletape.tape.errors import IllegalEvent, TapeError, UsageError
from tabletape.tape.events import Event, Note

STATES_KEPT = 20_000  # states held in memory; longer logs recompute the state of a seq
MOVES = frozenset(("next", "prev", "first", "end", "dispute", "illegal", "goto"))


class Mark(NamedTuple):
    """One thing the log says about an event (`replay --step` shows it under the event)."""

    text: str
    illegal: bool = False  # the event's own ruling: it is illegal


class Frame(NamedTuple):
    """One line of the log as the stepper shows it."""

    seq: int
    event: Event
    sentence: str
    problem: IllegalEvent | None  # the refusal when it was folded in


class Stepper:
    """A folded log, positioned at one seq; moves return a message when they cannot move."""

    def __init__(self, path: str, *, as_player: str | None = None, at: int = 0,
                 rules: str | None = None, components: Whatif | None = None):
        self.path = path
        self.rules = rules  # the rules version judging (None: the recorded one)
        self.components = components  # the component data judging (None: the header's)
        self._data = components  # (the walk reads it with the log's header)
        self.frames: list[Frame] = []
        self.states: list[Any] = []
        self.error: TapeError | None = None
        self.ruleset, self.fold = self._fold(path)
        if as_player is not None and as_player not in self.fold.header.players:
            from tabletape.app.vocab import did_you_mean
            raise UsageError(f"--as {as_player}: not a player"
                             f"{did_you_mean(as_player, self.fold.header.players)}; players: "
                             f"{', '.join(self.fold.header.players)}")
        self.as_player = as_player
        self.pos = max(0, min(at, len(self.frames) - 1))

    def _fold(self, path: str) -> tuple[engine.Ruleset[Any, Any, Any], engine.Fold]:
        """Reads the log into frames and states; returns its ruleset and the fold at its end."""
        def frame(j: engine.Judged) -> None:
            assert j.fold is not None  # read with the rules
            self.frames.append(Frame(j.seq, j.event, engine.describe(j.fold.ruleset, j.event),
                                     j.problem))
            if j.seq < STATES_KEPT:
                self.states.append(j.fold.state)

        result = engine.replay(path, visit=frame, version=self.rules, components=self._data)
        if result.fold is None:
            raise result.error or UsageError("unreadable log", file=path)
        self.error = result.error  # step through what could be read; say where reading stopped
        return result.fold.ruleset, result.fold

    # -- where we are ----------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[self.pos]

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    def state(self) -> Any:
        """Returns the state after the current seq (as the --as player sees it)."""
        if self.pos < len(self.states):
            state = self.states[self.pos]
        else:
            state = engine.replay(self.path, to=self.pos, version=self.rules,
                                  components=self._data).state
        return state if self.as_player is None else self.ruleset.view(state, self.as_player)

    def marks(self, ruled: bool = False) -> list[Mark]:
        """Returns what the log says about the current event: ruling, undo, disputes
        (`ruled`: its reason shown apart, as the viewer does: `marks_at`), each with
        whether it rules the event illegal."""
        f = self.frame
        # marks_at puts an illegal event's own ruling first; the rest are what it rests on
        return [Mark(m, illegal=i == 0 and f.problem is not None)
                for i, m in enumerate(marks(self.fold, f, ruled))]

    # -- moves -----------------------------------------------------------------------
    def go(self, seq: int) -> str | None:
        if not 0 <= seq <= self.last:
            return f"no seq {seq}: the log runs from 0 to {self.last}"
        self.pos = seq
        return None

    def step(self, by: int) -> str | None:
        if not 0 <= self.pos + by <= self.last:
            return "this is the last event" if by > 0 else "this is the header (seq 0)"
        self.pos += by
        return None

    def next_dispute(self) -> str | None:
        seqs = [f.seq for f in self.frames[self.pos + 1:]
                if isinstance(f.event, Note) and f.event.dispute]
        return self.go(seqs[0]) if seqs else "no dispute after this seq"

    def next_illegal(self) -> str | None:
        seqs = [f.seq for f in self.frames[self.pos + 1:] if f.problem is not None]
        return self.go(seqs[0]) if seqs else "no illegal event after this seq"

    def key(self, name: str, arg: str = "") -> str | None:
        """Applies one of MOVES (goto takes the seq as `arg`); returns why it cannot move."""
        match name:
            case "next":
                return self.step(1)
            case "prev":
                return self.step(-1)
            case "first":
                return self.go(0)
            case "end":
                return self.go(self.last)
            case "dispute":
                return self.next_dispute()
            case "illegal":
                return self.next_illegal()
            case "goto":
                return self.go(int(arg)) if arg.strip().isdigit() else f"not a seq: {arg!r}"
        return f"unknown key {name!r}"


def marks(fold: engine.Fold, f: Frame, ruled: bool = False) -> list[str]:
    """Returns what a folded log says about one of its events: ruling, undo, disputes."""
    return marks_at(fold, f, ruled) + marks_after(fold, f.seq)


def marks_at(fold: engine.Fold, f: Frame, ruled: bool = False) -> list[str]:
    """Returns the marks known once the event itself is folded: its ruling, and the ruling
    its dispute gets (a dispute is ruled on when it is read). `ruled`: the caller shows the
    ruling's reason on a line of its own (the viewer's), so the mark names only the rule."""
    out = []
    if f.problem is not None:
        said = "" if ruled else f" {f.problem.reason}"
        out.append(f"illegal [{f.problem.rule}]{said}"
                   + ("" if f.seq in fold.core_seqs else "; the state shown is the one before it"))
        out.extend(fold.refusal_lines(f.seq))  # as every ruling shows them
    elif f.seq in fold.unjudged:
        out.append("not judged: an earlier illegal event is still in effect")
    for r in fold.disputes:
        if r.dispute_seq == f.seq:  # with its arithmetic and what it rests on, as everywhere
            out.extend(r.said(f"ruling on seq {r.about}"))
    return out


def marks_after(fold: engine.Fold, seq: int) -> list[str]:
    """Returns the marks later lines put on an event: its undo, the disputes about it.

    Only a game event can be undone and only a note raises a dispute, so no event has
    both an undo and a ruling of its own: `marks_at` + `marks_after` keeps the order.
    """
    out = []
    if seq in fold.retracted:
        out.append(f"undone at seq {fold.retracted[seq]}")
    for r in fold.disputes:
        if r.about == seq:
            if seq in fold.refused:  # its own ruling is said above it: not said again
                out.append(f"disputed at seq {r.dispute_seq}: {r.verdict}"
                           + (f" [{r.rule}]" if r.rule else "") + ", as ruled above")
            else:
                out.extend(r.said(f"disputed at seq {r.dispute_seq}"))
    return out


def verdict(fold: engine.Fold, seq: int, problem: IllegalEvent | None) -> tuple[str, str | None]:
    """Returns the ruling on one event of a folded log (`explain`'s): verdict and rule."""
    if seq in fold.core_seqs:
        return ("not a game event" if problem is None else "illegal",
                problem.rule if problem else None)
    if problem is not None:
        return "illegal", problem.rule
    if seq in fold.unjudged:
        return "not judged (an earlier illegal event is still in effect)", None
    return "legal", None
