"""Turn machinery every game shares: owed steps, the settle loop, seats, hidden hands.

A game's state keeps a queue of owed steps (`steps`, a tuple resolved from the
front: the head is what is owed now) and its players in seat order (`players`).
After each event the game settles: it resolves whatever needs no decision, one
step at a time, until a decision is pending. Each game says how one step resolves
(`resolve`); the loop, the queue and the seats are written here once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import msgspec
from msgspec.structs import replace

HIDDEN = "?"  # what another player's card looks like


Q = TypeVar("Q", bound=msgspec.Struct)  # a state with a queue of owed steps: `steps`
S = TypeVar("S")


def head(state: Any) -> Any:
    """Returns the step owed now (the front of the queue), or None when nothing is owed."""
    return state.steps[0] if state.steps else None


def done(state: Q) -> Q:
    """Returns the state with the step owed now resolved (taken off the front)."""
    return replace(state, steps=_steps(state)[1:])


def owe_first(state: Q, *owed: Any) -> Q:
    """Returns the state with `owed` due before everything already owed."""
    return replace(state, steps=(*owed, *_steps(state)))


def owe_last(state: Q, *owed: Any) -> Q:
    """Returns the state with `owed` due after everything already owed."""
    return replace(state, steps=(*_steps(state), *owed))


def _steps(state: Any) -> tuple[Any, ...]:
    return state.steps


def settle(state: S, resolve: Callable[[S], S | None]) -> S:
    """Resolves what needs no decision: `resolve` returns the next state, or None to stop.

    `resolve` stops (None) when a decision is pending or the game is over.
    """
    while (after := resolve(state)) is not None:
        state = after
    return state


def left_of(players: tuple[str, ...], player: str) -> str:
    """Returns the player in the next seat (on `player`'s left, seats in turn order)."""
    return players[(players.index(player) + 1) % len(players)]


def seats_from(players: tuple[str, ...], first: str | None) -> tuple[str, ...]:
    """Returns the players in seat order starting with `first` (the first seat when None)."""
    i = players.index(first) if first is not None else 0
    return players[i:] + players[:i]


def next_in(order: tuple[str, ...], current: str | None, out: Iterable[str] = ()) -> str | None:
    """Returns the next player after `current` in `order` who is not `out` (None: nobody).

    With `current` None (or not seated), the first player of `order` still in is next.
    """
    gone = set(out)
    if current is None or current not in order:
        return next((p for p in order if p not in gone), None)
    i = order.index(current)
    return next((p for p in order[i + 1:] + order[:i + 1] if p not in gone), None)


def hide_hands(hands: dict[str, tuple[str, ...]], player: str) -> dict[str, tuple[str, ...]]:
    """Returns the hands as `player` sees them: every other hand face down, its size known."""
    return {p: h if p == player else (HIDDEN,) * len(h) for p, h in hands.items()}


def hide_deck(deck: dict[str, int]) -> dict[str, int]:
    """Returns a shuffled deck as anyone sees it: how many cards, not which."""
    return {HIDDEN: sum(deck.values())}
