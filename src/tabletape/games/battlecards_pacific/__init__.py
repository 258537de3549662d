"""BATTLECARDS World Conflict, Pacific Theater (DG Associates): US against Japan.

The ruleset: what the game is, how its logs start, and thin delegation to the modules
that hold its rules (legality, reducer, lookups) and its words (text).
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
from .events import EVENTS, BcpStarted, Options
from .state import State

if TYPE_CHECKING:  # mypy checks the drawings against the contract as it does the rules
    from . import render as _render
    from . import svg as _svg
else:  # the rules never import them (nor rich): a name, checked when the class is made
    _render, _svg = drawn(".render"), drawn(".svg")


class BattlecardsPacific(Packaged[BcpStarted, State, Event, Lookups]):
    id = "battlecards-pacific"
    version = "1.2"
    changelog = CHANGELOG
    switches = SWITCHES  # the changelog's entries the rules read (catalogue.py)
    options_since = OPTIONS_SINCE  # the options a version added (catalogue.py)
    rules_since, rules_before = RULES_SINCE, RULES_BEFORE  # each version's own rules
    title = "BATTLECARDS Pacific Theater"
    players = (2, 2)
    Header = BcpStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES
    # The parts (docs/adding-a-game.md): mypy checks each against engine.kit.contract.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    render, svg = _render, _svg  # the drawings: named here, imported on first use

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
