"""BATTLECARDS Pacific's decks: drawing and turning from the Conflict deck, the discard piles,
and the reshuffle of an empty deck (bcp.deck). The reducer's plays use these."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine.kit.multiset import reshuffle, take

from .components import Lookups
from .state import State

# -- the decks (bcp.deck) ----------------------------------------------------------------------

def to_discard(lk: Lookups, state: State, *names: str) -> State:
    """Returns the state with Conflict cards put on the discard pile."""
    return replace(state, conflict_discard=discarded(lk, state, names))


# The plays below change a state once (one `replace` with every field that changes): these
# give the new decks to put in it.

def taken(lk: Lookups, state: State, name: str) -> dict[str, dict[str, int]]:
    """Returns the Conflict decks with one `name` drawn or turned."""
    th = lk.theatre
    return {**state.conflict, th: take(state.conflict[th], name)}


def discarded(lk: Lookups, state: State, names: tuple[str, ...]
              ) -> dict[str, tuple[str, ...]]:
    """Returns the Conflict discard piles with `names` put on (`to_discard`'s)."""
    th = lk.theatre
    return {**state.conflict_discard, th: state.conflict_discard[th] + names}


def reshuffled(lk: Lookups, state: State) -> State | None:
    """bcp.deck.reshuffle: an empty deck takes its discard pile back, shuffled (None: none is).
    Rules 1.2: the Conflict deck waits for its last card (a BATTLECARD being decided or
    fought) to be discarded, unless a shot needs a card now; 1.1 reshuffled at once."""
    if all(state.arsenal.values()) and all(state.conflict.values()):
        return None  # no deck is empty: the usual case
    b = state.battle
    conflict_too = not (lk.reshuffle_after_discard and state.drawn is not None
                        and (b is None or b.shot is None))
    before = state
    for side, deck in state.arsenal.items():
        if not deck and state.arsenal_discard[side]:
            arsenal, discards = reshuffle(state.arsenal, state.arsenal_discard, side)
            state = replace(state, arsenal=arsenal, arsenal_discard=discards)
    for th, pile in state.conflict.items() if conflict_too else ():
        if not pile and state.conflict_discard[th]:
            conflict, discards = reshuffle(state.conflict, state.conflict_discard, th)
            state = replace(state, conflict=conflict, conflict_discard=discards)
    return None if state is before else state
