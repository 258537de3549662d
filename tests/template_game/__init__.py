"""Take-away, the template game: every part a game declares (docs/adding-a-game.md).

A die adds to the pile, each player is dealt one hidden card, then two to four players take
turns taking counters; when the pile is empty each scores their card, and whoever took the
last counter scores more. Copy this package to `src/tabletape/games/take_away` (the registry
finds it by its name: the game `take-away`), then make it your game: events.py, state.py,
components.py, catalogue.py (the rules, their versions), legality.py, reducer.py,
lookups.py, seats.py (the hidden hand), text.py, render.py and svg.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletape.engine.kit.packaged import Packaged
from tabletape.tape.events import Event

from . import catalogue, components, legality, lookups, reducer, seats, text
from .components import Lookups
from .events import EVENTS, Started
from .state import State

if TYPE_CHECKING:  # the rules never import the drawings (nor rich)
    from . import render as _render
    from . import svg as _svg


class TakeAway(Packaged[Started, State, Event, Lookups]):
    """Take-away: unbound, what the game is and its words; bound, the rules of one game."""

    id, title, players = "take-away", "Take-away", (2, 4)  # id: the package's name, dashed
    events = EVENTS
    rulebook = catalogue.RULEBOOK  # the rules, the changelog, what each version changed
    # The parts: mypy checks each against engine.kit.contract; a missing one fails here.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    if TYPE_CHECKING:  # the drawings: mypy checks them; run, the kit imports them when drawn
        render, svg = _render, _svg

    def check_header(self, header: Started) -> str | None:
        comp = header.components
        if comp.most * comp.copies < len(header.players):
            return f"{comp.most * comp.copies} cards cannot deal one each (take.setup.deal)"
        return None


RULESET = TakeAway()

__all__ = ["RULESET", "TakeAway"]
