"""Cards of War (Krassner & Schutze, 2002; rules revised 2007): two players, three battles.

The ruleset: what the game is, how its logs start, and the rules bound to one
game's deck (`bind` builds its `Lookups` once). The rules themselves live in
reducer.py (what events do), legality.py (what may happen next) and lookups.py
(queries on the table); the words in text.py, the drawing in render.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Self

from tabletape.engine import Decision, Outcome, Ruleset, Violation
from tabletape.tape.events import Event

from . import components, legality, lookups, reducer, text
from .catalogue import RULES
from .components import Lookups
from .events import EVENTS, CowStarted, Options
from .state import State


class CardsOfWar(Ruleset[CowStarted, State, Event]):
    """Cards of War: unbound, what the game is and its words; bound, the rules of one game."""

    id = "cards-of-war"
    version = "1.0"
    title = "Cards of War"
    players = (2, 2)
    Header = CowStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES

    lk: Lookups  # the tables of this game's components, set on a bound ruleset only

    def default_components(self) -> components.Components:
        return components.default()

    def check_header(self, header: CowStarted) -> str | None:
        opts: Options = header.options
        if opts.strategic_exhaustion and opts.length != "long":
            return "strategic_exhaustion is played only with length=long (cow.setup.options)"
        if opts.strategic_exhaustion and opts.tactical_advantage:
            return "strategic_exhaustion replaces tactical_advantage; choose one (cow.setup.options)"
        return components.problems(header.components)

    def bind(self, header: CowStarted) -> Self:
        bound = super().bind(header)
        lk = Lookups.of(header.components)
        bound.lk = lk
        # The engine calls over, check and apply once per event: on the bound ruleset
        # they are the rule functions themselves (partials over `lk`), no extra frame.
        bound.over = legality.over  # type: ignore[method-assign]
        bound.check = partial(legality.check, lk)  # type: ignore[method-assign]
        bound.apply = partial(reducer.apply, lk)  # type: ignore[method-assign]
        return bound

    # -- the rules: thin delegation to reducer, legality and lookups ----------------------
    def initial(self) -> State:
        return reducer.initial(self.lk, self.header)

    def pending(self, state: State) -> Decision | None:
        return legality.pending(self.lk, state)

    def over(self, state: State) -> bool:
        return legality.over(state)

    def check(self, state: State, event: Event) -> Violation | None:
        return legality.check(self.lk, state, event)

    def apply(self, state: State, event: Event) -> State:
        return reducer.apply(self.lk, state, event)

    def legal(self, state: State) -> Iterator[Event]:
        return legality.legal(self.lk, state)

    def weight(self, state: State, event: Event) -> int:
        return legality.weight(self.lk, state, event)

    def outcome(self, state: State) -> Outcome | None:
        return reducer.outcome(self.lk, state)

    def view(self, state: State, player: str) -> State:
        """Returns the state as `player` sees it: the opponent's hand and the decks hidden."""
        return lookups.view(state, player)

    # -- the words -------------------------------------------------------------------------
    def describe(self, event: Event) -> str:
        return text.describe(event)

    def governing(self, event: Event) -> tuple[str, ...]:
        return text.governing(event)


RULESET = CardsOfWar()

__all__ = ["RULESET", "CardsOfWar", "Outcome"]
