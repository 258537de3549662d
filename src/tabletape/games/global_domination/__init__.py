"""Global Domination (Dan Verssen Games): deck-building area control for 3 to 6 players.

The ruleset: what the game is, how its logs start, and the rules bound to one
game's box (`bind` builds its `Lookups` once). The rules themselves live in
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
from .events import EVENTS, GdStarted, Options
from .state import State


class GlobalDomination(Ruleset[GdStarted, State, Event]):
    id = "global-domination"
    version = "1.0"
    title = "Global Domination"
    players = (3, 6)
    Header = GdStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES

    lk: Lookups  # the tables of this game's components, set on a bound ruleset only

    def default_components(self) -> components.Components:
        return components.default()

    def check_header(self, header: GdStarted) -> str | None:
        comp = header.components
        problem = components.problems(comp)
        if problem:
            return f"{problem} (gd.components)"
        basic = next(c for c in comp.cards if c.basic)
        if basic.count < comp.tracks.starting_cards * len(header.players):
            return (f"{len(header.players)} players need {comp.tracks.starting_cards} "
                    f"{basic.name} cards each, the box has {basic.count} (gd.setup.deck)")
        return None

    def bind(self, header: GdStarted) -> Self:
        bound = super().bind(header)
        lk = Lookups.of(header.components)
        bound.lk = lk
        # The engine calls over, check and apply once per event: on the bound ruleset
        # they are the rule functions themselves (partials over `lk`), no extra frame.
        bound.over = legality.over  # type: ignore[method-assign]
        bound.check = partial(legality.check, lk)  # type: ignore[method-assign]
        bound.apply = partial(reducer.apply, lk)  # type: ignore[method-assign]
        return bound

    # -- the rules: thin delegation to reducer, legality and lookups ------------------------
    def initial(self) -> State:
        return reducer.initial(self.lk, self.header)

    def over(self, state: State) -> bool:
        return legality.over(state)

    def check(self, state: State, event: Event) -> Violation | None:
        return legality.check(self.lk, state, event)

    def apply(self, state: State, event: Event) -> State:
        return reducer.apply(self.lk, state, event)

    def pending(self, state: State) -> Decision | None:
        return legality.pending(self.lk, state)

    def legal(self, state: State) -> Iterator[Event]:
        return legality.legal(self.lk, state)

    def weight(self, state: State, event: Event) -> int:
        return legality.weight(self.lk, state, event)

    def outcome(self, state: State) -> Outcome | None:
        return reducer.outcome(self.lk, state)

    def view(self, state: State, player: str) -> State:
        """Returns the state as `player` sees it: other hands and every other Draw Deck hidden."""
        return lookups.view(state, player)

    # -- the words ------------------------------------------------------------------------------
    def describe(self, event: Event) -> str:
        return text.describe(event)

    def governing(self, event: Event) -> tuple[str, ...]:
        return text.governing(event)


RULESET = GlobalDomination()

__all__ = ["RULESET", "GlobalDomination", "Outcome"]
