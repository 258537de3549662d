"""The header and the events: frozen Structs named as facts, with bounded fields."""

from __future__ import annotations

from typing import Annotated

import msgspec

from tabletape.tape.events import Event, Header, Name

from .components import Components, Count


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pile: Count = 15  # counters at the start


class Started(Header, tag="game_started", kw_only=True, frozen=True):
    options: Options = Options()
    components: Components = Components()


class Rolled(Event, tag="rolled", kw_only=True, frozen=True):
    """Chance's outcome: the die rolled before the first turn (take.setup.roll)."""

    count: Annotated[int, msgspec.Meta(ge=1, le=6)]


class Dealt(Event, tag="dealt", kw_only=True, frozen=True):
    """Chance's outcome, into a hand: the card `player` is dealt (secret: seats.py)."""

    player: Name
    card: Count


class Taken(Event, tag="taken", kw_only=True, frozen=True):
    player: Name
    count: Count


EVENTS: tuple[type[Event], ...] = (Rolled, Dealt, Taken)
