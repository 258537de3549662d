"""The table in the terminal: the only module of a game that imports rich."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import TakeAway
from .state import State


def render(game: TakeAway, state: State, pending: str) -> Group:
    """Returns the table as a person reads it: the pile, the hands, whose turn, what next."""
    table = Table(title="Take-away")
    for column in ("pile", "turn", "took last", "hands"):
        table.add_column(column)
    hands = ", ".join(f"{p} {''.join(str(c or '?') for c in h)}" for p, h in state.hands.items())
    table.add_row(str(state.pile), state.turn, state.last or "·", hands or "·")
    return Group(table, Text(pending))
