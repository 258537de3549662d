"""The words: a sentence per event, the rules that govern it, the components it read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tabletape.tape.events import Event

from .components import Lookups
from .events import Taken


def describe(event: Event) -> str:
    return f"{event.player} takes {event.count}" if isinstance(event, Taken) else type(event).__name__


def governing(event: Event) -> tuple[str, ...]:
    return ("take.turn.order", "take.take.count", "take.take.pile")


def consulted(lk: Lookups, state: Any, event: Event) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """Yields the component entries the governing rules read (none here)."""
    return iter(())
