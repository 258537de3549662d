"""The ruleset protocol, the game registry, and replay as a streaming fold.

A game is a `Ruleset` subclass in `tabletape.games.<game>`; the engine drives it
through `initial`, `pending`, `check`, `apply`, `legal` and `outcome`, and knows
nothing else about it. Undo, notes and disputes are handled here, once.
"""

from __future__ import annotations

import functools
import importlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec

from tabletape import FORMAT
from tabletape import log as tapelog
from tabletape.errors import IllegalEvent, LogFormatError, TapeError, UnknownGame, UsageError
from tabletape.events import CORE_EVENTS, Event, Header, Note, Signed, Undone
from tabletape.seqs import SeqMap, SeqSet

CHANCE = "chance"  # the actor of every random outcome: chance is treated as a player
MAX_UNDO_DEPTH = 1000  # how far back `undone` may reach; keeps replay memory bounded


class Decision(msgspec.Struct, frozen=True):
    """Who must decide next (a player or `chance`) and what kind of decision it is."""

    actor: str
    kind: str
    detail: str = ""


class Violation(msgspec.Struct, frozen=True):
    """Why an event is illegal: a rule id from the catalogue and a reason in terms of the state."""

    rule: str
    reason: str


class Rule(msgspec.Struct, frozen=True):
    """A catalogue entry: the rulebook section it comes from and our own paraphrase."""

    section: str
    text: str


class Outcome(msgspec.Struct, frozen=True):
    """Who won and the final scores, once the game is over."""

    winners: tuple[str, ...]
    scores: dict[str, int]
    summary: str


CORE_RULES: dict[str, Rule] = {
    "core.header.first": Rule("DESIGN: the log", "Only line 0 may be the `game_started` header."),
    "core.game.over": Rule("DESIGN: ruleset protocol",
                           "Once the game is over no further game event may be recorded."),
    "core.undo.nothing": Rule("DESIGN: core events", "`undone` needs an effective event to retract."),
    "core.undo.latest": Rule("DESIGN: core events",
                             "`undone` retracts the latest effective event and names it by seq."),
    "core.undo.depth": Rule("DESIGN: reliability",
                            f"`undone` reaches back at most {MAX_UNDO_DEPTH} events."),
    "core.note.about": Rule("DESIGN: core events", "A note may only be about an earlier event."),
    "core.sign.final": Rule("README: signed heads",
                            "A `signed` event seals every line before it; it changes no game "
                            "state, no game rule judges it, and it cannot be undone."),
}


class Ruleset:
    """The protocol every game implements; subclasses override the methods below."""

    id: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[int, int]]  # fewest and most players
    Header: ClassVar[type[Header]]
    Options: ClassVar[type]
    Components: ClassVar[type]
    events: ClassVar[tuple[type[Event], ...]]  # the game's own events, header excluded
    RULES: ClassVar[dict[str, Rule]]

    _codec: tapelog.Codec | None = None

    @property
    def codec(self) -> tapelog.Codec:
        """Returns the decoder/encoder for this game's lines (header, core and game events)."""
        if self._codec is None:
            self._codec = tapelog.Codec(self.union())
        return self._codec

    def union(self) -> Any:
        """Returns the tagged union of every event a log of this game may hold."""
        types = (self.Header, *CORE_EVENTS, *self.events)
        u = types[0]
        for t in types[1:]:
            u = u | t
        return u

    def default_components(self) -> Any:
        raise NotImplementedError

    def start(self, players: tuple[str, ...], options: Any, components: Any) -> Header:
        """Returns the header for a new game, or raises UsageError when it cannot be played."""
        lo, hi = self.players
        if not lo <= len(players) <= hi:
            raise UsageError(f"{self.id} needs {lo}-{hi} players, got {len(players)}")
        if len(set(players)) != len(players):
            raise UsageError("player names must differ")
        header = self.Header(format=FORMAT, game=self.id, rules_version=self.version, players=players,
                             options=options, components=components, seq=0)
        problem = self.check_header(header)
        if problem:
            raise UsageError(problem)
        return header

    def check_header(self, header: Any) -> str | None:
        """Returns why a header cannot start a game (bad option mix, bad components), or None."""
        return None

    # -- the game itself -------------------------------------------------------------
    def initial(self, header: Any) -> Any:
        raise NotImplementedError

    def pending(self, state: Any) -> Decision | None:
        raise NotImplementedError

    def over(self, state: Any) -> bool:
        """Returns whether the game is over (`pending` is None); games override it cheaply."""
        return self.pending(state) is None

    def check(self, state: Any, event: Event) -> Violation | None:
        raise NotImplementedError

    def apply(self, state: Any, event: Event) -> Any:
        raise NotImplementedError

    def legal(self, state: Any) -> Iterable[Event]:
        raise NotImplementedError

    def weight(self, state: Any, event: Event) -> int:
        """Returns how many ways chance can produce this outcome (cards of that kind left)."""
        return 1

    def outcome(self, state: Any) -> Outcome | None:
        raise NotImplementedError

    def view(self, state: Any, player: str) -> Any:
        """Returns the state as `player` could see it (others' hands hidden)."""
        return state

    def describe(self, event: Event) -> str:
        return type(event).__name__

    def governing(self, event: Event) -> tuple[str, ...]:
        """Returns the ids of the rules that decide whether this kind of event is legal."""
        return ()

    def render(self, state: Any) -> Any:
        """Returns a rich renderable of the state."""
        from rich.pretty import Pretty
        return Pretty(msgspec.to_builtins(state))

    def catalogue(self) -> dict[str, Rule]:
        """Returns the game's rule catalogue followed by the core rules."""
        return {**self.RULES, **CORE_RULES}


# -- the registry -----------------------------------------------------------------------
# A game is one package under tabletape/games/, its id the package name with dashes
# (cards_of_war -> cards-of-war). Packages are found without importing them, so that
# start-up stays quick and a fifth game needs no edit here.
def _discover() -> dict[str, str]:
    import pkgutil

    from tabletape import games
    return {m.name.replace("_", "-"): f"tabletape.games.{m.name}"
            for m in pkgutil.iter_modules(games.__path__) if m.ispkg}


GAMES: dict[str, str] = _discover()


def get(game: str) -> Ruleset:
    """Returns the ruleset registered under `game`, or raises UnknownGame."""
    try:
        module = GAMES[game]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game {game!r}; known games: {known}") from None
    return importlib.import_module(module).RULESET


def all_games() -> list[Ruleset]:
    return [get(g) for g in sorted(GAMES)]


class _HeaderProbe(msgspec.Struct):
    type: str = ""
    game: str = ""
    format: int = 0


def codec_for(body: bytes, file: str) -> tapelog.Codec:
    """Returns the codec of the game named in a header line (line 1 of every log)."""
    return ruleset_for(body, file).codec


@functools.cache
def _header_codec() -> tapelog.Codec:
    """Returns the codec of a bare header, which names the precise error in an unreadable one."""
    return tapelog.Codec(Header)


def ruleset_for(body: bytes, file: str) -> Ruleset:
    """Returns the ruleset a header line names, or raises LogFormatError / UnknownGame."""
    try:
        probe = msgspec.json.decode(body, type=_HeaderProbe)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        _header_codec().decode(body, file, 1, 0)  # raises the precise LogFormatError
        raise LogFormatError("unreadable header", file=file, line=1, offset=0) from None
    if probe.type != "game_started":
        raise LogFormatError(f"line 1 must be the game_started header, found {probe.type!r}",
                             file=file, line=1, offset=0, field="$.type")
    if probe.format != FORMAT:
        raise LogFormatError(f"log format {probe.format} is not supported (this tabletape "
                             f"reads format {FORMAT})", file=file, line=1, offset=0,
                             field="$.format")
    try:
        return get(probe.game)
    except UnknownGame as e:
        e.file, e.line, e.offset, e.field = file, 1, 0, "$.game"
        raise


# -- the fold ---------------------------------------------------------------------------
APPLIED, ILLEGAL, UNJUDGED = "applied", "illegal", "not judged"
_CORE = (*CORE_EVENTS, Header)  # what the engine folds itself; every other event is the game's


@dataclass
class Ruling:
    """A verdict on a disputed event: legal or illegal, by which rule, and why."""

    dispute_seq: int
    about: int
    verdict: str  # legal | illegal | not judged | not a game event | retracted
    rule: str | None
    reason: str
    text: str
    by: str | None = None


class Fold:
    """Replay's accumulator: the game state plus what undo, notes and disputes need.

    Every game event is pushed on a bounded stack with the state before it, so that
    `undone` can pop it. An illegal event is pushed but not applied; until it is
    undone, later events are not judged (unless `keep_going`, which skips it).
    """

    def __init__(self, ruleset: Ruleset, header: Any, *, keep_going: bool = False,
                 file: str | None = None):
        self.ruleset = ruleset
        self.header = header
        self.file = file
        self.keep_going = keep_going
        self.state = ruleset.initial(header)
        self.stack: deque[tuple[int, Any, str, Event]] = deque(maxlen=MAX_UNDO_DEPTH)
        self.evicted = 0  # stack entries forgotten past MAX_UNDO_DEPTH
        self.blocked = 0  # illegal events on the stack
        self.illegal: dict[int, IllegalEvent] = {}  # in effect, not undone
        self.corrected: dict[int, IllegalEvent] = {}  # illegal, then retracted by `undone`
        # Per-seq facts are packed (a bit, or four bytes, per seq): memory must not
        # grow by a Python object per event on a long log.
        self.retracted = SeqMap()  # seq -> the undone's seq
        self.unjudged = SeqSet()
        self.core_seqs = SeqSet((0,))
        self.signed = SeqSet()  # seqs of `signed` events
        self.disputes: list[Ruling] = []
        self.core_problems: list[IllegalEvent] = []
        self.last_seq = 0
        self.partial = False  # resumed from a checkpoint: no history for rulings before it

    def feed(self, seq: int, event: Event, line: int | None = None) -> IllegalEvent | None:
        """Folds one event (seq > 0) into the state; returns its refusal, if any."""
        self.last_seq = seq
        if isinstance(event, _CORE):  # one test for the common case, a game event
            return self._feed_core(seq, event, line)
        if self.blocked and not self.keep_going:
            self._push(seq, event, UNJUDGED)
            self.unjudged.add(seq)
            return None
        v = self.judge(event)
        if v is not None:
            err = IllegalEvent(v.reason, rule=v.rule, event=self.ruleset.describe(event),
                               file=self.file, line=line, seq=seq)
            self.illegal[seq] = err
            if not self.keep_going:  # keep_going skips it; otherwise it blocks until undone
                self._push(seq, event, ILLEGAL)
                self.blocked += 1
            return err
        self._push(seq, event, APPLIED)
        self.state = self.ruleset.apply(self.state, event)
        return None

    def _feed_core(self, seq: int, event: Event, line: int | None) -> IllegalEvent | None:
        """Folds an undo, a note, a signature or a misplaced header; returns its refusal, if any."""
        self.core_seqs.add(seq)
        match event:
            case Undone():
                return self._core(self._undo(seq, event), event, seq, line)
            case Note():
                return self._core(self._note(seq, event), event, seq, line)
            case Signed():  # a statement about the log, not a play: never blocked, never judged
                self.signed.add(seq)
                return None
        v = Violation("core.header.first", "the header may only be line 1 (seq 0)")
        return self._core(v, event, seq, line)

    def violation(self, seq: int, event: Event) -> Violation | None:
        """Returns why `event` could not be recorded at `seq` now, without changing anything."""
        match event:
            case Undone():
                return self._undo_violation(event)
            case Note():
                return self._note_violation(seq, event)
            case Signed():
                return None
            case Header():
                return Violation("core.header.first", "the header may only be line 1 (seq 0)")
        return self.judge(event)

    def judge(self, event: Event) -> Violation | None:
        """Returns the violation of a game event in the current state, or None."""
        if self.ruleset.over(self.state):  # not `pending`: judging needs no Decision built
            return Violation("core.game.over", "the game is already over")
        return self.ruleset.check(self.state, event)

    def _push(self, seq: int, event: Event, status: str) -> None:
        if len(self.stack) == self.stack.maxlen:
            self.evicted += 1
        self.stack.append((seq, self.state, status, event))

    def _core(self, v: Violation | None, event: Event, seq: int,
              line: int | None) -> IllegalEvent | None:
        if v is None:
            return None
        err = IllegalEvent(v.reason, rule=v.rule, event=describe(self.ruleset, event),
                           file=self.file, line=line, seq=seq)
        self.core_problems.append(err)
        return err

    def _undo(self, seq: int, event: Undone) -> Violation | None:
        v = self._undo_violation(event)
        if v is not None:
            return v
        top, before, status, _ = self.stack.pop()
        self.retracted[top] = seq
        if status == APPLIED:
            self.state = before
        elif status == ILLEGAL:
            self.blocked -= 1
            self.corrected[top] = self.illegal.pop(top)
        return None

    def _undo_violation(self, event: Undone) -> Violation | None:
        if self.stack and event.target == self.stack[-1][0]:
            return None  # the usual undo; the stack holds game events only, never a signature
        if event.target in self.signed:
            return Violation("core.sign.final", f"seq {event.target} is a signature, which "
                             "cannot be undone; undo retracts game events only")
        if not self.stack:
            if self.evicted:
                return Violation("core.undo.depth",
                                 f"cannot reach back more than {MAX_UNDO_DEPTH} events")
            return Violation("core.undo.nothing", "there is no effective event left to undo")
        top = self.stack[-1][0]
        return Violation("core.undo.latest",
                         f"the latest effective event is seq {top}, not seq {event.target}")

    def _note(self, seq: int, event: Note) -> Violation | None:
        v = self._note_violation(seq, event)
        if v is not None:
            return v
        if event.dispute and event.about is not None:
            self.disputes.append(self.rule_on(seq, event))
        return None

    def _note_violation(self, seq: int, event: Note) -> Violation | None:
        if event.about is not None and event.about >= seq:
            return Violation("core.note.about", f"a note at seq {seq} cannot be about "
                             f"seq {event.about}, which is not earlier")
        return None

    def rule_on(self, seq: int, note: Note) -> Ruling:
        """Returns the ruling on the event a dispute note is about."""
        n = note.about if note.about is not None else -1

        def ruling(verdict: str, rule: str | None, reason: str) -> Ruling:
            return Ruling(seq, n, verdict, rule, reason, note.text, note.by)

        if n in self.core_seqs:
            return ruling("not a game event", None, "the header, notes, undos and signatures are not judged")
        if n in self.illegal:
            return ruling("illegal", self.illegal[n].rule, self.illegal[n].reason)
        if n in self.corrected:
            e = self.corrected[n]
            return ruling("illegal", e.rule, f"{e.reason} (undone at seq {self.retracted[n]})")
        if n in self.unjudged:
            first = min(self.illegal, default=None)
            return ruling("not judged", None, "an earlier illegal event"
                          + (f" (seq {first})" if first is not None else "")
                          + " left the state unreliable")
        recent = {s: ev for s, _, _, ev in self.stack}
        rules = ", ".join(self.ruleset.governing(recent[n])) if n in recent else None
        why = "it passed every check of the rules that govern it"
        if n in self.retracted:
            why += f"; it was later undone at seq {self.retracted[n]}"
        return ruling("legal", rules or None, why)


def describe(ruleset: Ruleset, event: Event) -> str:
    """Returns one plain sentence for any event, core or game."""
    match event:
        case Undone(target=t):
            return f"undoes seq {t}"
        case Note(text=text, about=about, dispute=dispute):
            what = "disputes" if dispute else "notes"
            return f"{event.by or 'someone'} {what}" + (f" seq {about}" if about is not None else "") + f": {text}"
        case Header():
            return f"{event.game} {event.rules_version} starts: {', '.join(event.players)}"
        case Signed(player=player):
            return f"{player} signed the log at head {(event.prev or '')[:12]}…"
    return ruleset.describe(event)


@dataclass
class Replay:
    """What a pass over a log found: the state, the tail, and every problem."""

    file: str
    ruleset: Ruleset | None = None
    header: Any = None
    fold: Fold | None = None
    head: str | None = None  # the hash of the last line folded (the tail is built when asked for)
    events: int = 0
    error: TapeError | None = None  # format or chain: reading stopped here
    captured: tuple[tapelog.Record, Any, IllegalEvent | None] | None = None

    @property
    def state(self) -> Any:
        return self.fold.state if self.fold else None

    @property
    def tail(self) -> tapelog.Tail | None:
        """Returns the last seq folded and its hash: where a writer expects the log to end."""
        return tapelog.Tail(self.events - 1, self.head) if self.head is not None else None

    @property
    def problems(self) -> list[TapeError]:
        """Returns every problem: the format/chain error, illegal events in effect, core misuse."""
        out: list[TapeError] = []
        if self.fold:
            out += sorted([*self.fold.illegal.values(), *self.fold.core_problems],
                          key=lambda e: e.seq or 0)
        if self.error:
            out.append(self.error)
        return out

    @property
    def ok(self) -> bool:
        return not self.problems


def replay(path: str, *, to: int | None = None, keep_going: bool = False,
           capture: int | None = None, rules: bool = True,
           observe: Callable[[tapelog.Record, IllegalEvent | None], None] | None = None) -> Replay:
    """Folds a log from line 1 (to seq `to`, if given) and returns what it found.

    Never raises for a bad log: a format or chain error is kept in `Replay.error`
    and everything before it is still folded. Missing files and unknown games raise.
    With `capture=N`, the record of seq N, the state before it and its ruling are
    kept, and the rest of the log is still read for disputes about it. `observe`
    is called with every record folded and its refusal, if any.
    """
    result = Replay(path)
    records = tapelog.read_records(path, codec_for)
    try:
        for rec in records:
            if to is not None and rec.line - 1 > to and capture is None:
                break
            err = _fold_one(result, rec, to, keep_going, capture, rules)
            if observe is not None and (to is None or rec.line - 1 <= to):
                observe(rec, err)
    except (UnknownGame, UsageError):
        raise
    except TapeError as e:
        result.error = e
    return result


def _fold_one(result: Replay, rec: tapelog.Record, to: int | None, keep_going: bool,
              capture: int | None, rules: bool) -> IllegalEvent | None:
    seq = rec.line - 1
    err = None
    past_to = to is not None and seq > to
    if seq == 0:
        result.ruleset = ruleset_for(rec.raw, result.file)
        result.header = rec.event
        if rules:
            result.fold = Fold(result.ruleset, rec.event, keep_going=keep_going, file=result.file)
    elif result.fold is not None:
        if past_to:
            if isinstance(rec.event, Note) and rec.event.dispute:
                result.fold._note(seq, rec.event)
            return None
        before = result.fold.state
        err = result.fold.feed(seq, rec.event, rec.line)
        if capture == seq:
            result.captured = (rec, before, err)
    if not past_to:
        result.head = rec.digest
        result.events = seq + 1
    return err


def iter_records(path: str) -> Iterator[tapelog.Record]:
    """Yields a log's records (format and chain checked, no rules)."""
    return tapelog.read_records(path, codec_for)
