"""The envelope every event carries, the header's common fields, and the core events.

Events are frozen, tagged msgspec Structs named as facts in the past tense.
Each game's header subclasses `Header`, adding typed `options` and `components`;
each game's events subclass `Event`.
"""

from __future__ import annotations

import re
from typing import Annotated

import msgspec
from msgspec import Meta

FORMAT = 1  # the log format this tabletape reads and writes (every header says which)

# Bounds shared by every schema: a log may come from an opponent. README "Limits" lists them.
MAX_EVENTS = 10_000_000  # events per log, so seq < MAX_EVENTS; the reader and append enforce it
Seq = Annotated[int, Meta(ge=0, le=MAX_EVENTS - 1)]
Count = Annotated[int, Meta(ge=0, le=1_000_000)]
# Characters a terminal obeys rather than shows: C0 (with \t, \n, \r), DEL, C1, the bidi
# controls (U+061C, U+200E/F, U+202A-E, U+2066-9), zero-width ones (U+200B-D, U+FEFF) and the
# line/paragraph separators. A name may hold none (the schema's pattern); every other string
# from a log, a components file or a file name is printed through `visible`.
UNSAFE = (r"\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e"
          r"\u2066-\u2069\ufeff")
_UNSAFE = re.compile(f"[{UNSAFE}]")
NAME = f"^[^{UNSAFE}]*$"
# As with `Digest` below: the schema carries the pattern and the strict decoder checks it,
# while the block decoder does not run a regex per name (~2 us a field, as much as a whole
# decode). It need not: log.py sends every block holding any of these characters, raw or
# escaped, to the line-by-line path, which decodes with StrictName and names the field.
Name = Annotated[str, Meta(min_length=1, max_length=64,
                           extra_json_schema={"type": "string", "pattern": NAME})]
StrictName = Annotated[str, Meta(min_length=1, max_length=64, pattern=NAME)]
Text = Annotated[str, Meta(max_length=4096)]
DIGEST = "^[0-9a-f]{64}$"
# `prev` is only ever read by the chain check, which compares it with the SHA-256 hex of the
# line before: only a digest can pass, so the fast block decoder skips the regex (~1 us a
# line, most of a typed decode). The schema keeps the pattern, and log.Codec.decode (every
# single-line decode: error messages, the header) checks it with StrictDigest.
# "type" is repeated first, as msgspec writes it for a pattern: the schema files stay the same.
Digest = Annotated[str, Meta(extra_json_schema={"type": "string", "pattern": DIGEST})]
StrictDigest = Annotated[str, Meta(pattern=DIGEST)]
Signature = Annotated[str, Meta(pattern="^[0-9a-f]{128}$")]  # Ed25519: 64 bytes as hex
Timestamp = Annotated[str, Meta(
    max_length=40, pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$")]



def visible(text: str) -> str:
    """Returns text with every UNSAFE character shown as an escape (`\\x1b`, `\\u202e`)."""
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(_escape, text)


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


UNSET_SEQ = -1  # events built by rules code; the log fills in the real seq


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", gc=False,
            forbid_unknown_fields=True, omit_defaults=True):
    """The envelope: `type` (the tag), `seq`, `prev`, `at`, `by`."""

    # gc=False: an event holds only scalars and frozen component data, so it can be in no
    # reference cycle; untracked, the ~7,500 events decoded per block do not drive the GC.

    seq: Seq = UNSET_SEQ
    prev: Digest | None = None
    at: Timestamp | None = None
    by: Name | None = None


class Header(Event, tag="game_started", kw_only=True, frozen=True):
    """Line 0. Games subclass it to type `options` and `components`."""

    format: Annotated[int, Meta(ge=1, le=1)]  # required, so that it is always written
    game: Name
    rules_version: Annotated[str, Meta(max_length=32)]
    players: Annotated[tuple[Name, ...], Meta(min_length=1, max_length=16)]
    # `migrate`: the head of the log whose plays this one holds under newer rules
    migrated_from: Digest | None = None


class Undone(Event, tag="undone", kw_only=True, frozen=True):
    """Retracts the latest effective event (`target` is its seq)."""

    target: Seq


class Note(Event, tag="note", kw_only=True, frozen=True):
    """A comment, optionally about an earlier event; `dispute` asks for a ruling."""

    text: Text
    about: Seq | None = None
    dispute: bool = False


class Signed(Event, tag="signed", kw_only=True, frozen=True):
    """`player` seals the log: an Ed25519 signature over the head before this line (`prev`).

    What is signed is `signing.message(prev)`; see the README's "Signed heads".
    """

    player: Name
    signature: Signature


CORE_EVENTS: tuple[type[Event], ...] = (Undone, Note, Signed)


def is_core(event: Event) -> bool:
    """Returns True for `undone`, `note` and `signed`, which every game shares."""
    return isinstance(event, CORE_EVENTS)


def envelope(event: Event) -> Event:
    """Returns the event without its envelope's seq, prev, at and by (for comparison)."""
    return msgspec.structs.replace(event, seq=UNSET_SEQ, prev=None, at=None, by=None)


def event_type(cls: type[Event]) -> str:
    """Returns the `type` tag of an event class."""
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str)  # every event class is tagged with its type
    return tag
