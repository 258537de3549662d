"""Cards of War (Krassner & Schutze, 2002; rules revised 2007): two players, three battles.

The ruleset: what the game is, how its logs start, and the rules bound to one
game's deck (`bind` builds its `Lookups` once). The rules themselves live in
reducer.py (what events do), legality.py (what may happen next) and lookups.py
(queries on the table); the words in text.py, the drawing in render.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletape.engine import Outcome
from tabletape.engine.kit.contract import Extras
from tabletape.engine.kit.packaged import Packaged

from . import catalogue, components, legality, lookups, playouts, reducer, seats, text
from .components import Lookups
from .events import EVENTS, CowEvent, CowStarted, Options
from .state import State

if TYPE_CHECKING:  # the rules never import the drawings (nor rich)
    from . import render as _render
    from . import svg as _svg


class CardsOfWar(Packaged[CowStarted, State, CowEvent, Lookups]):
    """Cards of War: unbound, what the game is and its words; bound, the rules of one game."""

    id, title, players = "cards-of-war", "Cards of War", (2, 2)
    events = EVENTS
    rulebook = catalogue.RULEBOOK  # the rules, the changelog, what each version changed
    # The parts (docs/adding-a-game.md): mypy checks each against engine.kit.contract.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    extras = Extras(count=legality.count, derive=text.derive,
                    odds=playouts.odds, nth=playouts.nth, score=lookups.score,
                    progress=lookups.progress, tabulated=components.TABULATED)
    if TYPE_CHECKING:  # the drawings: mypy checks them; run, the kit imports them when drawn
        render, svg = _render, _svg

    def check_header(self, header: CowStarted) -> str | None:
        opts: Options = header.options
        if opts.strategic_exhaustion and opts.length != "long":
            return "strategic_exhaustion is played only with length=long (cow.setup.options)"
        if opts.strategic_exhaustion and opts.tactical_advantage:
            return "strategic_exhaustion replaces tactical_advantage; choose one (cow.setup.options)"
        return components.problems(header.components)


RULESET = CardsOfWar()

__all__ = ["RULESET", "CardsOfWar", "Outcome"]
