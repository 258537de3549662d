"""BATTLECARDS World Conflict, Pacific Theater (DG Associates): US against Japan.

The ruleset: what the game is, how its logs start, and thin delegation to the modules
that hold its rules (legality, reducer, lookups) and its words (text).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from tabletape.engine import Decision, Outcome, Ruleset, Violation
from tabletape.tape.events import Event

from . import components, legality, lookups, reducer, text
from .catalogue import RULES
from .components import Lookups
from .events import EVENTS, BcpStarted, Options
from .state import State


class BattlecardsPacific(Ruleset[BcpStarted, State, Event]):
    id = "battlecards-pacific"
    version = "1.0"
    title = "BATTLECARDS Pacific Theater"
    players = (2, 2)
    Header = BcpStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES

    lk: Lookups  # the card set's lookup tables, set on a bound ruleset only

    def default_components(self) -> components.Components:
        return components.default()

    def check_header(self, header: BcpStarted) -> str | None:
        comp = header.components
        problem = components.problems(comp)
        if problem:
            return problem
        sides = [s.id for s in comp.sides]
        if header.options.first_side not in sides:
            return (f"first_side must be one of {', '.join(sides)}, not "
                    f"{header.options.first_side!r} (bcp.setup.sides)")
        if len(sides) != len(header.players):
            return (f"these cards have {len(sides)} sides; one player per side is needed "
                    "(bcp.setup.players)")
        return None

    def bind(self, header: BcpStarted) -> BattlecardsPacific:
        bound = super().bind(header)
        lk = bound.lk = Lookups.of(header.components)
        # The engine calls over, check and apply once per event: on the bound instance they
        # are the module functions themselves (a partial is called without a Python frame),
        # not the methods below, which delegate the same way for typing and for the ABC.
        bound.over = legality.over  # type: ignore[method-assign]
        bound.check = partial(legality.check, lk)  # type: ignore[method-assign]
        bound.apply = partial(reducer.apply, lk)  # type: ignore[method-assign]
        return bound

    # -- the rules: on a bound ruleset ------------------------------------------------------
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
        """Returns the state as `player` sees it: others' hands, stacks and kept cards face
        down, and every deck as a count."""
        return lookups.view(state, player)

    # -- the words ----------------------------------------------------------------------------
    def describe(self, event: Event) -> str:
        return text.describe(event)

    def governing(self, event: Event) -> tuple[str, ...]:
        return text.governing(event)


RULESET = BattlecardsPacific()

__all__ = ["RULESET", "BattlecardsPacific", "Outcome"]
