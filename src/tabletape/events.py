"""The envelope every event carries, the header's common fields, and the core events.

Events are frozen, tagged msgspec Structs named as facts in the past tense.
Each game's header subclasses `Header`, adding typed `options` and `components`;
each game's events subclass `Event`.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

# Bounds shared by every schema: a log may come from an opponent.
Seq = Annotated[int, Meta(ge=0, le=10_000_000)]
Count = Annotated[int, Meta(ge=0, le=1_000_000)]
Name = Annotated[str, Meta(min_length=1, max_length=64)]
Text = Annotated[str, Meta(max_length=4096)]
Digest = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]
Timestamp = Annotated[str, Meta(
    max_length=40, pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$")]

UNSET_SEQ = -1  # events built by rules code; the log fills in the real seq


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type",
            forbid_unknown_fields=True, omit_defaults=True):
    """The envelope: `type` (the tag), `seq`, `prev`, `at`, `by`."""

    seq: Annotated[int, Meta(ge=0, le=10_000_000)] = UNSET_SEQ
    prev: Digest | None = None
    at: Timestamp | None = None
    by: Name | None = None


class Header(Event, tag="game_started", kw_only=True):
    """Line 0. Games subclass it to type `options` and `components`."""

    format: Annotated[int, Meta(ge=1, le=1)]  # required, so that it is always written
    game: Name
    rules_version: Annotated[str, Meta(max_length=32)]
    players: Annotated[tuple[Name, ...], Meta(min_length=1, max_length=16)]


class Undone(Event, tag="undone", kw_only=True):
    """Retracts the latest effective event (`target` is its seq)."""

    target: Seq


class Note(Event, tag="note", kw_only=True):
    """A comment, optionally about an earlier event; `dispute` asks for a ruling."""

    text: Text
    about: Seq | None = None
    dispute: bool = False


CORE_EVENTS: tuple[type[Event], ...] = (Undone, Note)


def is_core(event: Event) -> bool:
    """Returns True for `undone` and `note`, which every game shares."""
    return isinstance(event, (Undone, Note))


def envelope(event: Event) -> Event:
    """Returns the event without its envelope's seq, prev, at and by (for comparison)."""
    return msgspec.structs.replace(event, seq=UNSET_SEQ, prev=None, at=None, by=None)


def event_type(cls: type[Event]) -> str:
    """Returns the `type` tag of an event class."""
    return cls.__struct_config__.tag
