"""Cards of War (Krassner & Schutze, 2002; rules revised 2007): two players, three battles.

The ruleset: what the game is, how its logs start, and delegation to its modules
(components, events, state, reducer, legality, lookups, text, catalogue, render).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from msgspec.structs import replace

from tabletape.engine import Decision, Outcome, Ruleset, Violation
from tabletape.engine.kit import turns
from tabletape.tape.events import Event

from . import components, legality, reducer, text
from .catalogue import RULES
from .components import Lookups
from .events import EVENTS, CowStarted, Options
from .lookups import head
from .state import State


class CardsOfWar(Ruleset[CowStarted, State, Event]):
    id = "cards-of-war"
    version = "1.0"
    title = "Cards of War"
    players = (2, 2)
    Header = CowStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES

    _lk: Lookups | None = None  # set on a bound ruleset

    def default_components(self) -> components.Components:
        return components.default()

    def check_header(self, header: CowStarted) -> str | None:
        opts: Options = header.options
        if opts.strategic_exhaustion and opts.length != "long":
            return "strategic_exhaustion is played only with length=long (cow.setup.options)"
        if opts.strategic_exhaustion and opts.tactical_advantage:
            return "strategic_exhaustion replaces tactical_advantage; choose one (cow.setup.options)"
        return components.problems(header.components)

    def bind(self, header: CowStarted) -> CardsOfWar:
        bound = super().bind(header)
        lk = bound._lk = components.bound(header.components)
        # The engine calls over, check and apply once per event: bound here to plain
        # functions (partial is a C callable), they cost no Python frame of ours on the way.
        bound.over = legality.over  # type: ignore[method-assign]
        bound.check = partial(legality.check, lk)  # type: ignore[method-assign]
        bound.apply = partial(reducer.apply, lk)  # type: ignore[method-assign]
        return bound

    @property
    def lk(self) -> Lookups:
        """The game's lookup tables; unbound, those of the game bound last (components.latest)."""
        return self._lk if self._lk is not None else components.latest()

    # -- the rules (over, check and apply are replaced on a bound ruleset, see bind) -----
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
        drew = h.player if (h := head(state)) else state.turn
        secret = state.reinforce_card if drew == player else None  # the card just drawn
        return replace(state, hands=turns.hide_hands(state.hands, player),
                       decks={o: turns.hide_deck(d) for o, d in state.decks.items()},
                       reinforce_card=secret)

    # -- the words -------------------------------------------------------------------------
    def describe(self, event: Event) -> str:
        return text.describe(event)

    def governing(self, event: Event) -> tuple[str, ...]:
        return text.governing(event)


RULESET = CardsOfWar()

__all__ = ["RULESET", "CardsOfWar", "Outcome"]
