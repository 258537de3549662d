"""Liberation (the rulebook prints no title): liberate countries with force cards.

The ruleset: what the game is, how its logs start, and thin delegation to its
modules: components (the card data and its lookup tables), events, state, reducer
(the fold), legality (who decides, what is legal), lookups (queries on a state),
text (its words), catalogue (the rules) and render (the drawing).
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
from .events import EVENTS, LiberationStarted, Options
from .state import MAX_PLAYERS, MIN_PLAYERS, State


class Liberation(Ruleset[LiberationStarted, State, Event]):
    id = "liberation"
    version = "1.0"
    title = "Liberation"
    players = (MIN_PLAYERS, MAX_PLAYERS)
    Header = LiberationStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES

    lk: Lookups  # the tables of this game's components, set on a bound ruleset only

    def default_components(self) -> components.Components:
        return components.default()

    def check_header(self, header: LiberationStarted) -> str | None:
        lo, hi = self.players
        if not lo <= len(header.players) <= hi:
            return f"liberation is played by {lo} to {hi} players (lib.setup.players)"
        return components.problems(header.components)

    def bind(self, header: LiberationStarted) -> Self:
        bound = super().bind(header)
        bound.lk = lk = Lookups.of(header.components)
        # The engine calls over, check and apply once per event: bound here as partials
        # (no extra Python frame per call), shadowing the delegating methods below.
        bound.check = partial(legality.check, lk)  # type: ignore[method-assign]
        bound.apply = partial(reducer.apply, lk)  # type: ignore[method-assign]
        return bound

    # -- the rules ---------------------------------------------------------------------------
    over = staticmethod(legality.over)  # needs no lookups: no frame of ours, bound or not

    def check(self, state: State, event: Event) -> Violation | None:
        return legality.check(self.lk, state, event)

    def apply(self, state: State, event: Event) -> State:
        return reducer.apply(self.lk, state, event)

    def initial(self) -> State:
        return reducer.initial(self.lk, self.header)

    def pending(self, state: State) -> Decision | None:
        return legality.pending(self.lk, state)

    def legal(self, state: State) -> Iterator[Event]:
        return legality.legal(self.lk, state)

    def weight(self, state: State, event: Event) -> int:
        return legality.weight(self.lk, state, event)

    def outcome(self, state: State) -> Outcome | None:
        return reducer.outcome(self.lk, state)

    def view(self, state: State, player: str) -> State:
        return lookups.view(state, player)

    # -- the words ---------------------------------------------------------------------------
    def describe(self, event: Event) -> str:
        return text.describe(event)

    def governing(self, event: Event) -> tuple[str, ...]:
        return text.governing(event)


RULESET = Liberation()

__all__ = ["RULESET", "Liberation", "Outcome"]
