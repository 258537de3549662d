"""The seats: who enters each event, and what each seat may know (engine.seats).

Take-away hides nothing: the die is rolled in the open, so any player may enter it, and
every take is its player's. A game with hidden cards names, in SECRETS, the fields of the
events that some seats may not know (docs/adding-a-game.md "Seats": a hidden hand, worked).
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletape.engine.seats import ANY_PLAYER, Held, Secret
from tabletape.tape.events import Event

from . import legality
from .components import Lookups
from .events import Rolled, Taken
from .state import State

# The field naming the seat that enters each event; ANY_PLAYER: a public chance outcome.
OWNERS: dict[type, str | None] = {Rolled: ANY_PLAYER, Taken: "player"}
# What some seats may not know: nothing in this game.
SECRETS: dict[type, Secret] = {}


def candidates(lk: Lookups, state: State, player: str) -> Iterable[Event]:
    """Returns the outcomes of a player's own hidden draw: none is hidden here, so the
    legal ones (a die's faces tell nothing of anyone's cards)."""
    return legality.legal(lk, state)


def held(lk: Lookups, view: State, player: str) -> tuple[Held, ...]:
    """Returns a player's own hidden cards: none in Take-away."""
    return ()


def drawable(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state with a draw's card made drawable: no deck here, so the state."""
    return state
