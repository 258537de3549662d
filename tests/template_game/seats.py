"""The seats: who enters each event, and what each seat may know (engine.seats).

The die is rolled in the open, so any player may enter it; a card dealt lands in its
player's hand, so they enter it and only they may know it (the others see `dealt` and a
face-down card); every take is its player's.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from tabletape.engine.kit.multiset import swapped_in
from tabletape.engine.seats import ANY_PLAYER, Held, Secret
from tabletape.tape.events import Event

from . import legality
from .components import Lookups
from .events import Dealt, Rolled, Taken
from .state import State

# The field naming the seat that enters each event; ANY_PLAYER: a public chance outcome.
OWNERS: dict[type, str | None] = {Rolled: ANY_PLAYER, Dealt: "player", Taken: "player"}
# What some seats may not know: the card dealt, known to the player dealt it.
SECRETS: dict[type, Secret] = {Dealt: Secret(fields=("card",), seen_by=("player",))}


def candidates(lk: Lookups, state: State, player: str) -> Iterable[Event]:
    """Returns the outcomes of `player`'s own deal as they can tell them apart: every card of
    the box (they see no other hand); any other decision's legal events."""
    if legality.undealt(state) != player or not state.rolled:
        return legality.legal(lk, state)
    return [Dealt(player=player, card=c) for c in sorted(lk.box)]


def held(lk: Lookups, view: State, player: str) -> tuple[Held, ...]:
    """Returns a player's own hidden cards, from their own view: their hand."""
    return (Held("Hand", tuple(str(c) for c in view.hands.get(player, ()))),)


def drawable(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state with the card a deal names put in the deck in place of another (a
    deal the deck cannot hold is played on as made, engine.seats): the kit's `swapped_in`."""
    if not isinstance(event, Dealt):
        return state
    return replace(state, deck=swapped_in(state.deck, event.card))
