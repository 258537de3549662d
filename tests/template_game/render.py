"""The table in the terminal: the only module of a game that imports rich."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import TakeAway
from .state import State


def render(game: TakeAway, state: State, pending: str) -> Group:
    """Returns the table as a person reads it: the pile, whose turn, what comes next."""
    table = Table(title="Take-away")
    table.add_column("pile")
    table.add_column("turn")
    table.add_column("took last")
    table.add_row(str(state.pile), state.turn, state.last or "·")
    return Group(table, Text(pending))
