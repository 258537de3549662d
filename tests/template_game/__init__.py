"""Take-away, the template game: every part a game declares (README "Adding a game").

A die adds to the pile (chance decides, as the engine lets it); then two to four players
take turns taking counters from it; whoever takes the last counter wins. Copy this package to `src/tabletape/games/take_away` (the registry finds it
by its name: the game `take-away`), then make it your game: events.py, state.py,
components.py, catalogue.py (rules and changelog), legality.py, reducer.py, lookups.py,
text.py, render.py (the terminal) and svg.py (the picture). mypy checks every part against
the engine's contract (`tabletape.engine.kit.contract`) where the class below declares it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletape.engine.kit.contract import drawn
from tabletape.engine.kit.packaged import Packaged
from tabletape.tape.events import Event

from . import components, legality, lookups, reducer, seats, text
from .catalogue import CHANGELOG, RULES
from .components import Lookups
from .events import EVENTS, Options, Started
from .state import State

if TYPE_CHECKING:  # mypy checks the drawings against the contract as it does the rules
    from . import render as _render
    from . import svg as _svg
else:  # the rules never import them (nor rich): a name, checked when the class is made
    _render, _svg = drawn(".render"), drawn(".svg")


class TakeAway(Packaged[Started, State, Event, Lookups]):
    """Take-away: unbound, what the game is and its words; bound, the rules of one game."""

    id = "take-away"  # the package's name with dashes
    version = "1.0"  # a key of `changelog`
    changelog = CHANGELOG
    title = "Take-away"
    players = (2, 4)
    Header = Started
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES
    # The parts: mypy checks each against engine.kit.contract; a missing one fails here.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    render, svg = _render, _svg  # the drawings: named here, imported on first use

    def check_header(self, header: Started) -> str | None:
        return components.problems(header.components)


RULESET = TakeAway()

__all__ = ["RULESET", "TakeAway"]
