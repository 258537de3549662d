"""Liberation (the rulebook prints no title): liberate countries with force cards.

The ruleset: what the game is, how its logs start, and thin delegation to its
modules: components (the card data and its lookup tables), events, state, reducer
(the fold), legality (who decides, what is legal), lookups (queries on a state),
text (its words), catalogue (the rules) and render (the drawing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletape.engine import Outcome
from tabletape.engine.kit.contract import drawn
from tabletape.engine.kit.packaged import Packaged
from tabletape.tape.events import Event

from . import components, legality, lookups, reducer, seats, text
from .catalogue import CHANGELOG, OPTIONS_SINCE, RULES, RULES_BEFORE, RULES_SINCE, SWITCHES
from .components import Lookups
from .events import EVENTS, LiberationStarted, Options
from .state import MAX_PLAYERS, MIN_PLAYERS, State

if TYPE_CHECKING:  # mypy checks the drawings against the contract as it does the rules
    from . import render as _render
    from . import svg as _svg
else:  # the rules never import them (nor rich): a name, checked when the class is made
    _render, _svg = drawn(".render"), drawn(".svg")


class Liberation(Packaged[LiberationStarted, State, Event, Lookups]):
    id = "liberation"
    version = "1.2"
    changelog = CHANGELOG
    switches = SWITCHES  # the changelog's entries the rules read (catalogue.py)
    options_since = OPTIONS_SINCE  # the options a version added (catalogue.py)
    rules_since, rules_before = RULES_SINCE, RULES_BEFORE  # each version's own rules
    title = "Liberation"
    players = (MIN_PLAYERS, MAX_PLAYERS)
    Header = LiberationStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES
    # The parts (docs/adding-a-game.md): mypy checks each against engine.kit.contract.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    render, svg = _render, _svg  # the drawings: named here, imported on first use

    def check_header(self, header: LiberationStarted) -> str | None:
        lo, hi = self.players
        if not lo <= len(header.players) <= hi:
            return f"liberation is played by {lo} to {hi} players (lib.setup.players)"
        return components.problems(header.components)


RULESET = Liberation()

__all__ = ["RULESET", "Liberation", "Outcome"]
