"""The seats: who enters each event, and what each seat may know (engine.seats).

A first declaration (owners only); its secrets, candidates and hand panel to follow.
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletape.engine.seats import Held, Secret
from tabletape.tape.events import Event

from . import legality
from .components import Lookups
from .events import CardDeployed, CardDiscarded, CardDrawn, HandReported, OpeningCardDrawn
from .state import State

OWNERS: dict[type, str | None] = {
    OpeningCardDrawn: "player",
    CardDrawn: "player",
    CardDeployed: "player",
    HandReported: "player",
    CardDiscarded: "player",
}
SECRETS: dict[type, Secret] = {}


def candidates(lk: Lookups, state: State, player: str) -> Iterable[Event]:
    """Returns the outcomes of a player's own hidden draw as they can tell them apart."""
    return legality.legal(lk, state)


def held(lk: Lookups, view: State, player: str) -> tuple[Held, ...]:
    """Returns a player's own hidden cards, pile by pile, from their own view."""
    return ()
