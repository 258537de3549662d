"""The state: a frozen Struct; every event makes a new one."""

from __future__ import annotations

import msgspec


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    turn: str
    pile: int
    deck: dict[int, int]  # card -> copies left to deal
    hands: dict[str, tuple[int, ...]]  # each player's hidden hand (0: a card not seen)
    rolled: bool = False  # the die for the pile is rolled (take.setup.roll)
    last: str | None = None  # who took the last counters
