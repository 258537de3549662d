"""The words: a sentence per event, the rules that govern it, the components it read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tabletape.tape.events import Event

from .components import Lookups
from .events import Dealt, Rolled, Taken

SETUP = ("take.setup.roll", "take.setup.deal")


def describe(event: Event) -> str:
    """Returns one plain sentence for a game event."""
    if isinstance(event, Rolled):
        return f"the die adds {event.count} to the pile"
    if isinstance(event, Dealt):
        return f"{event.player} is dealt a {event.card}"
    return f"{event.player} takes {event.count}" if isinstance(event, Taken) else ""


def governing(event: Event) -> tuple[str, ...]:
    """Returns the ids of the rules that decide whether this kind of event is legal."""
    if isinstance(event, Rolled | Dealt):
        return SETUP
    return (*SETUP, "take.turn.order", "take.take.count", "take.take.pile")


def consulted(lk: Lookups, state: Any, event: Event) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """Yields the component entries the governing rules read (none here)."""
    return iter(())
