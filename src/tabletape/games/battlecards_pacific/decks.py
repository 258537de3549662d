"""BATTLECARDS Pacific's decks: drawing and turning from the Conflict deck, the discard piles,
and the reshuffle of an empty deck (bcp.deck). The reducer's plays use these."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from tabletape.engine.kit import multiset
from tabletape.engine.kit.multiset import take

if TYPE_CHECKING:  # (components.Lookups holds `reshuffled`, pinned: it imports this module)
    from .components import Lookups
    from .state import State

# -- the decks (bcp.deck) ----------------------------------------------------------------------

def to_discard(lk: Lookups, state: State, *names: str) -> State:
    """Returns the state with Conflict cards put on the discard pile."""
    return replace(state, conflict_discard=discarded(lk, state, names))


# The plays below change a state once (one `replace` with every field that changes): these
# give the new decks to put in it. A game has one theatre's Conflict deck and pile (`initial`
# keys them by `lk.theatre` alone), so the new dicts hold that key alone too: no merge.

def taken(lk: Lookups, state: State, name: str) -> dict[str, dict[str, int]]:
    """Returns the Conflict decks with one `name` drawn or turned."""
    th = lk.theatre
    return {th: take(state.conflict[th], name)}


def discarded(lk: Lookups, state: State, names: tuple[str, ...]
              ) -> dict[str, tuple[str, ...]]:
    """Returns the Conflict discard piles with `names` put on (`to_discard`'s)."""
    th = lk.theatre
    return {th: state.conflict_discard[th] + names}


def refillable(state: State) -> bool:
    """Returns whether some empty deck has a discard pile to take back: what every version of
    bcp.deck.reshuffle needs before it shuffles (`reshuffled` is None otherwise)."""
    # (loops, not `any` over generators: asked at every step while a deck is empty)
    for side, deck in state.arsenal.items():
        if not deck and state.arsenal_discard[side]:
            return True
    for theatre, deck in state.conflict.items():
        if not deck and state.conflict_discard[theatre]:
            return True
    return False


def reshuffled(lk: Lookups, state: State) -> State | None:
    """bcp.deck.reshuffle: an empty deck takes its discard pile back, shuffled (None: none is).
    Rules 1.2: the Conflict deck waits for its last card (a BATTLECARD being decided or
    fought) to be discarded, unless a shot needs a card now. The rules call it as
    `lk.reshuffled`: a pin (catalogue.PINS) keeps 1.1's function for the versions before."""
    if all(state.arsenal.values()) and all(state.conflict.values()):
        return None  # no deck is empty: the usual case
    b = state.battle
    conflict_too = not (state.drawn is not None and (b is None or b.shot is None))
    return _reshuffled(state, conflict_too)


def reshuffled_1_1(lk: Lookups, state: State) -> State | None:
    """bcp.deck.reshuffle as rules 1.0 and 1.1 judged it: every empty deck takes its discard
    pile back at once, the Conflict deck too while its last card is still out."""
    if all(state.arsenal.values()) and all(state.conflict.values()):
        return None
    return _reshuffled(state, True)


def _reshuffled(state: State, conflict_too: bool) -> State | None:
    """Returns the state with each empty Arsenal (and, if `conflict_too`, each empty Conflict
    deck) given its discard pile back, shuffled; None when none was."""
    arsenal = multiset.reshuffled(state.arsenal, state.arsenal_discard)
    conflict = (multiset.reshuffled(state.conflict, state.conflict_discard) if conflict_too
                else None)
    if arsenal is not None:
        state = replace(state, arsenal=arsenal[0], arsenal_discard=arsenal[1])
    if conflict is not None:
        state = replace(state, conflict=conflict[0], conflict_discard=conflict[1])
    return None if arsenal is None and conflict is None else state
