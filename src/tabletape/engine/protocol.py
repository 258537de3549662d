"""The game protocol: what a game provides, and the verdicts the engine speaks in."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import msgspec

from tabletape.tape import log as tapelog
from tabletape.tape.errors import UsageError
from tabletape.tape.events import CORE_EVENTS, FORMAT, Event, Header

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


