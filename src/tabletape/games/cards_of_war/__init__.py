"""Cards of War (Krassner & Schutze, 2002; rules revised 2007): two players, three battles.

The ruleset: what the game is, how its logs start, and the rules bound to one
game's deck (`bind` builds its `Lookups` once). The rules themselves live in
reducer.py (what events do), legality.py (what may happen next) and lookups.py
(queries on the table); the words in text.py, the drawing in render.py.
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
from .events import EVENTS, CowStarted, Options
from .state import State
from .upcast import UPCASTERS

if TYPE_CHECKING:  # mypy checks the drawings against the contract as it does the rules
    from . import render as _render
    from . import svg as _svg
else:  # the rules never import them (nor rich): a name, checked when the class is made
    _render, _svg = drawn(".render"), drawn(".svg")


class CardsOfWar(Packaged[CowStarted, State, Event, Lookups]):
    """Cards of War: unbound, what the game is and its words; bound, the rules of one game."""

    id = "cards-of-war"
    version = "1.2"
    changelog = CHANGELOG
    switches = SWITCHES  # the changelog's entries the rules read (catalogue.py)
    options_since = OPTIONS_SINCE  # the options a version added (catalogue.py)
    rules_since, rules_before = RULES_SINCE, RULES_BEFORE  # each version's own rules
    upcasters = UPCASTERS  # older events read under newer rules (upcast.py)
    title = "Cards of War"
    players = (2, 2)
    Header = CowStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES
    # The parts (docs/adding-a-game.md): mypy checks each against engine.kit.contract.
    reducer, legality, lookups, text, components = reducer, legality, lookups, text, components
    seating = seats  # who enters each event, what each seat may know (seats.py)
    render, svg = _render, _svg  # the drawings: named here, imported on first use

    def check_header(self, header: CowStarted) -> str | None:
        opts: Options = header.options
        if opts.strategic_exhaustion and opts.length != "long":
            return "strategic_exhaustion is played only with length=long (cow.setup.options)"
        if opts.strategic_exhaustion and opts.tactical_advantage:
            return "strategic_exhaustion replaces tactical_advantage; choose one (cow.setup.options)"
        return components.problems(header.components)


RULESET = CardsOfWar()

__all__ = ["RULESET", "CardsOfWar", "Outcome"]
