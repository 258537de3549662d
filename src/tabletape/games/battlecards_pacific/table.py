"""Small pure helpers over the BATTLECARDS state: lookups, sides, multisets."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine.kit.multiset import merge, take, with_cards, without  # noqa: F401  (used as table.<name>)

from .components import Battlecard, ConflictCard, Index, Unit, UnitType, index
from .state import State


def idx(state: State) -> Index:
    """Returns the lookup tables of the card set in play."""
    assert state.components is not None  # set by initial()
    return index(state.components)


def unit(state: State, player: str, name: str) -> Unit:
    """Returns the Arsenal card `name` of `player`'s side."""
    return idx(state).units[state.sides[player]][name]


def has_unit(state: State, player: str, name: str) -> bool:
    return name in idx(state).units[state.sides[player]]


def card(state: State, name: str) -> ConflictCard:
    return idx(state).cards[name]


def battlecard(state: State, name: str) -> Battlecard:
    return idx(state).battles[name]


def theatre(state: State) -> str:
    """Returns the theatre whose Conflict deck this game draws from."""
    return idx(state).theatre


def deck(state: State) -> dict[str, int]:
    """Returns the Conflict deck in play."""
    return state.conflict[theatre(state)]


def discard_pile(state: State) -> tuple[str, ...]:
    return state.conflict_discard[theatre(state)]


def take_conflict(state: State, name: str) -> State:
    """Returns the state with one `name` drawn or turned from the Conflict deck."""
    th = theatre(state)
    return replace(state, conflict={**state.conflict, th: take(state.conflict[th], name)})


def to_discard(state: State, *names: str) -> State:
    """Returns the state with Conflict cards put on the discard pile."""
    th = theatre(state)
    return replace(state, conflict_discard={**state.conflict_discard,
                                            th: state.conflict_discard[th] + names})


def players_of(state: State, side: str) -> tuple[str, ...]:
    """Returns the players of a side still in the game, in seat order."""
    return tuple(p for p in state.players if state.sides[p] == side and p not in state.eliminated)


def enemy_of(state: State, player: str) -> str | None:
    """Returns the first player still in the game on another side (bcp.setup.players)."""
    return next((p for p in state.players if state.sides[p] != state.sides[player]
                 and p not in state.eliminated), None)


def deployed(state: State, player: str) -> tuple[str, ...]:
    """Returns every unit in `player`'s three stacks."""
    return tuple(u for kind in UnitType for u in state.stacks[player][kind.value])


def side_won(state: State, side: str) -> set[str]:
    """Returns the BATTLECARDS held by the players of a side."""
    return {c for p in state.players if state.sides[p] == side for c in state.won[p]}



