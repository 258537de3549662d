"""Global Domination (Dan Verssen Games): deck-building area control for 3 to 6 players.

Two may play with option two_players (gd.setup.two-players): the rulebook names no minimum.

The ruleset: what the game is, how its logs start, and the rules bound to one
game's box (`bind` builds its `Lookups` once). The rules themselves live in
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
from .events import EVENTS, GdEvent, GdStarted
from .events import Options as TableOptions  # (in the class body, `Options` is the ClassVar)
from .state import State

if TYPE_CHECKING:  # the rules never import the drawings (nor rich)
    from . import render as _render
    from . import svg as _svg


class GlobalDomination(Packaged[GdStarted, State, GdEvent, Lookups]):
    id = "global-domination"
    title = "Global Domination"
    players = (3, 6)  # the default table (gd.setup.players); two with option two_players
    events = EVENTS
    rulebook = catalogue.RULEBOOK  # the rules, the changelog, what each version changed
    # The parts (docs/adding-a-game.md): mypy checks each against engine.kit.contract.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    extras = Extras(count=legality.count, derive=text.derive,
                    odds=playouts.odds, nth=playouts.nth, pick=playouts.pick,
                    actor=playouts.actor, score=lookups.score, progress=lookups.progress,
                    tabulated=components.TABULATED)
    if TYPE_CHECKING:  # the drawings: mypy checks them; run, the kit imports them when drawn
        render, svg = _render, _svg

    def seats(self, options: TableOptions) -> tuple[int, int]:
        return (2, 6) if options.two_players else self.players  # gd.setup.two-players

    def seats_hint(self, n: int) -> str:
        return " (two play with option two_players=true: gd.setup.two-players)" if n == 2 else ""

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


RULESET = GlobalDomination()

__all__ = ["RULESET", "GlobalDomination", "Outcome"]
