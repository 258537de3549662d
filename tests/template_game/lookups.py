"""Queries on the table: a player's view and the scores (the pinned rule, take.end.last)."""

from __future__ import annotations

from msgspec.structs import replace

from .state import State


def view(state: State, player: str) -> State:
    """Returns the state as `player` sees it: the others' cards and the deck hidden until the
    pile is empty."""
    if state.pile == 0:
        return state
    hands = {p: h if p == player else (0,) * len(h) for p, h in state.hands.items()}
    return replace(state, hands=hands, deck={})


def scores(state: State) -> dict[str, int]:
    """take.end.last (rules 1.1): each player's card, and three more for the last taker."""
    return {p: sum(state.hands.get(p, ())) + 3 * (p == state.last) for p in state.players}


def scores_1_0(state: State) -> dict[str, int]:
    """take.end.last as rules 1.0 scored it: each player's card, doubled for the last taker."""
    return {p: sum(state.hands.get(p, ())) * (1 + (p == state.last)) for p in state.players}
