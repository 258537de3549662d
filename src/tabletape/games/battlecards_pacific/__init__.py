"""BATTLECARDS World Conflict, Pacific Theater (DG Associates): US against Japan.

The ruleset: what the game is, how its logs start, and thin delegation to the modules
that hold its rules (legality, reducer, lookups) and its words (text).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletape.engine import Outcome
from tabletape.engine.kit.contract import Extras
from tabletape.engine.kit.packaged import Packaged

from . import catalogue, components, legality, lookups, playouts, reducer, seats, text, worlds
from .components import Lookups
from .events import EVENTS, BcpEvent, BcpStarted
from .state import State

if TYPE_CHECKING:  # the rules never import the drawings (nor rich)
    from . import render as _render
    from . import svg as _svg


class BattlecardsPacific(Packaged[BcpStarted, State, BcpEvent, Lookups]):
    id = "battlecards-pacific"
    title = "BATTLECARDS Pacific Theater"
    players = (2, 2)
    events = EVENTS
    rulebook = catalogue.RULEBOOK  # the rules, the changelog, what each version changed
    # The parts (docs/adding-a-game.md): mypy checks each against engine.kit.contract.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    # a seat's worlds (worlds.py); a playout's fast paths (playouts.py)
    extras = Extras(count=legality.count, implied=legality.implied, derive=text.derive,
                    determinize=worlds.determinize, odds=playouts.odds, nth=playouts.nth,
                    pick=playouts.pick, actor=playouts.actor, chance=playouts.chance,
                    draw=playouts.draw,
                    score=lookups.score, progress=lookups.progress)
    if TYPE_CHECKING:  # the drawings: mypy checks them; run, the kit imports them when drawn
        render, svg = _render, _svg

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


RULESET = BattlecardsPacific()

__all__ = ["RULESET", "BattlecardsPacific", "Outcome"]
