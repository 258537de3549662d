"""Liberation (the rulebook prints no title): liberate countries with force cards.

The ruleset: what the game is, how its logs start, and thin delegation to its
modules: components (the card data and its lookup tables), events, state, reducer
(the fold), legality (who decides, what is legal), lookups (queries on a state),
text (its words), catalogue (the rules) and render (the drawing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletape.engine import Outcome
from tabletape.engine.kit.contract import Extras
from tabletape.engine.kit.packaged import Packaged

from . import catalogue, components, legality, lookups, playouts, reducer, seats, text
from .components import Lookups
from .events import EVENTS, LiberationEvent, LiberationStarted
from .state import MAX_PLAYERS, MIN_PLAYERS, State

if TYPE_CHECKING:  # the rules never import the drawings (nor rich)
    from . import render as _render
    from . import svg as _svg


class Liberation(Packaged[LiberationStarted, State, LiberationEvent, Lookups]):
    id = "liberation"
    title = "Liberation"
    players = (MIN_PLAYERS, MAX_PLAYERS)
    events = EVENTS
    rulebook = catalogue.RULEBOOK  # the rules, the changelog, what each version changed
    # The parts (docs/adding-a-game.md): mypy checks each against engine.kit.contract.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    extras = Extras(count=legality.count, derive=text.derive,
                    odds=playouts.odds, nth=playouts.nth, pick=playouts.pick,
                    actor=playouts.actor, chance=playouts.chance,
                    progress=lookups.progress)
    if TYPE_CHECKING:  # the drawings: mypy checks them; run, the kit imports them when drawn
        render, svg = _render, _svg

    def check_header(self, header: LiberationStarted) -> str | None:
        lo, hi = self.players
        if not lo <= len(header.players) <= hi:
            return f"liberation is played by {lo} to {hi} players (lib.setup.players)"
        return components.problems(header.components)


RULESET = Liberation()

__all__ = ["RULESET", "Liberation", "Outcome"]
