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

FORMAT = 2  # the log format this tabletape writes (every header says which)
# The formats it reads: 1 (no salts: docs/format.md says what a format-1 log exposes) and 2.
FORMATS = (1, 2)

# Bounds shared by every schema: a log may come from an opponent. docs/format.md "Limits" lists them.
MAX_EVENTS = 10_000_000  # events per log, so seq < MAX_EVENTS; the reader and append enforce it
Seq = Annotated[int, Meta(ge=0, le=MAX_EVENTS - 1)]
Count = Annotated[int, Meta(ge=0, le=1_000_000)]
# Characters a terminal obeys rather than shows: C0 (with \t, \n, \r), DEL, C1, the bidi
# controls (U+061C, U+200E/F, U+202A-E, U+2066-9) and the line/paragraph separators; those
# that print as nothing (Unicode's Default_Ignorable_Code_Point: the zero-width ones, the soft
# hyphen, the Hangul fillers, the variation selectors, the tags...), so that two names never
# print alike; and those XML refuses or Unicode keeps out of text (surrogates, U+FDD0-FDEF,
# the last two code points of every plane), so that a drawing is always a valid SVG. A name,
# and every free-text header field, may hold none (the schema's pattern); every other string
# from a log, a components file or a file name is printed through `visible`. tape/reader.py's
# `_UNSAFE_BYTES` is this set as a line's bytes (tests/games/test_fast_paths.py pins the two).
_PLANE_ENDS = "".join(f"\\U{p << 16 | 0xfffe:08x}\\U{p << 16 | 0xffff:08x}" for p in range(1, 17))
UNSAFE = (r"\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
          r"\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ud800-\udfff\ufdd0-\ufdef"
          r"\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\ufffe\uffff\U0001bca0-\U0001bca3"
          r"\U0001d173-\U0001d17a\U000e0000-\U000e0fff" + _PLANE_ENDS)
_UNSAFE = re.compile(f"[{UNSAFE}]")
NAME = f"^[^{UNSAFE}]*$"
# What an error says for NAME (errors.readable), instead of the pattern.
NAME_REFUSED = "without a control, bidi, invisible or noncharacter code point"
# As with `Digest` below: the schema carries the pattern and the strict decoder checks it,
# while the block decoder does not run a regex per name (~2 us a field, as much as a whole
# decode). It need not: reader.py sends every block holding any of these characters, raw or
# escaped, to the line-by-line path, which decodes with StrictName and names the field.
# The schema files write the code points past U+FFFF as themselves: `\U0001bca0` is Python's
# syntax only, while a literal character reads the same in Python and ECMA-262 (with `u`).
_SCHEMA_NAME = re.sub(r"\\U([0-9a-f]{8})", lambda m: chr(int(m.group(1), 16)), NAME)
Name = Annotated[str, Meta(min_length=1, max_length=64,
                           extra_json_schema={"type": "string", "pattern": _SCHEMA_NAME})]
StrictName = Annotated[str, Meta(min_length=1, max_length=64, pattern=NAME,
                                 extra_json_schema={"pattern": _SCHEMA_NAME})]

# Free-text fields of a header (a deck's name, a box's title, a card type's label) hold none
# of the characters a name refuses either. Read once per log (in the header): checked.
Title = Annotated[str, Meta(max_length=128, pattern=NAME,
                            extra_json_schema={"pattern": _SCHEMA_NAME})]
Label = Annotated[str, Meta(max_length=64, pattern=NAME,
                            extra_json_schema={"pattern": _SCHEMA_NAME})]
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
SALT_HEX = 32  # a salt is 128 random bits, as hex
Salt = Annotated[str, Meta(pattern=f"^[0-9a-f]{{{SALT_HEX}}}$")]
Timestamp = Annotated[str, Meta(
    max_length=40, pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$")]



def visible(text: str) -> str:
    """Returns text with every UNSAFE character shown as an escape (`\\x1b`, `\\u202e`).

    The one door for printed strings: the CLI's consoles, the games' drawings (SVG), the
    pytest plugin and the server's log lines escape through it.
    """
    if text.isascii() and text.isprintable():  # the common case, without the regex
        return text
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(_escape, text)


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}"


def visible_json(data: object) -> str:
    """Returns data as compact JSON with every UNSAFE character written as a JSON escape.

    The same door for `--json`: escaped inside a string, a character means the same, so the
    document is unchanged, and a terminal showing it obeys none of them. A string holding a
    surrogate (a file name that is not UTF-8) cannot be UTF-8: it is written as its escape.
    """
    try:
        text = msgspec.json.encode(data).decode()
    except UnicodeEncodeError:
        import json
        text = json.dumps(msgspec.to_builtins(data), ensure_ascii=False, separators=(",", ":"))
    if text.isascii() and text.isprintable():
        return text
    return _UNSAFE.sub(_json_escape, text)


def _json_escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    if c < 0x10000:
        return f"\\u{c:04x}"
    c -= 0x10000  # past U+FFFF, JSON writes the UTF-16 surrogate pair
    return f"\\u{0xd800 | c >> 10:04x}\\u{0xdc00 | c & 0x3ff:04x}"


UNSET_SEQ = -1  # events built by rules code; the log fills in the real seq


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", gc=False,
            forbid_unknown_fields=True, omit_defaults=True):
    """The envelope: `type` (the tag), `seq`, `prev`, `at`, `by`, `salt`."""

    # gc=False: an event holds only scalars and frozen component data, so it can be in no
    # reference cycle; untracked, the ~7,500 events decoded per block do not drive the GC.

    seq: Seq = UNSET_SEQ
    prev: Digest | None = None
    at: Timestamp | None = None
    by: Name | None = None
    # Format 2: fresh randomness in every line whose content some seat may not know, so that
    # no hash of the line (a head, a signed head) can be inverted by trying the few cards it
    # might name; never shown to a seat that may not know the content (engine.seats.seen).
    salt: Salt | None = None


class Header(Event, tag="game_started", kw_only=True, frozen=True):
    """Line 0. Games subclass it to type `options` and `components`."""

    format: Annotated[int, Meta(ge=1, le=2)]  # required, so that it is always written
    game: Name
    rules_version: Name  # free text: the bounds of a name (docs/format.md "Limits")
    players: Annotated[tuple[Name, ...], Meta(min_length=1, max_length=16)]
    # `migrate`: the head of the log whose plays this one holds under newer rules
    migrated_from: Digest | None = None


class Undone(Event, tag="undone", kw_only=True, frozen=True):
    """Retracts the latest effective event (`target` is its seq); with `asked`, accepts that request.

    `asked` is the seq of the open `undo_asked` it answers; `by` is who accepts it (another
    player, or the umpire). docs/format.md, "Undo requests".
    """

    target: Seq
    asked: Seq | None = None


class UndoAsked(Event, tag="undo_asked", kw_only=True, frozen=True):
    """Asks the table to undo the latest effective event (`target`); another player answers.

    `by` is who asks. The request stays open until it is answered (`undone` or
    `undo_refused` naming it) or a later event makes it void (docs/format.md).
    """

    target: Seq


class UndoRefused(Event, tag="undo_refused", kw_only=True, frozen=True):
    """Refuses the undo request at seq `asked` (of event `target`): the event stands."""

    target: Seq
    asked: Seq


class Note(Event, tag="note", kw_only=True, frozen=True):
    """A comment, optionally about an earlier event; `dispute` asks for a ruling."""

    text: Text
    about: Seq | None = None
    dispute: bool = False


class Signed(Event, tag="signed", kw_only=True, frozen=True):
    """`player` seals the log: an Ed25519 signature over the head before this line (`prev`).

    What is signed is `signing.message(prev)`; see "Signed heads" in docs/umpire.md.
    """

    player: Name
    signature: Signature


CORE_EVENTS: tuple[type[Event], ...] = (Undone, Note, Signed, UndoAsked, UndoRefused)


def is_core(event: Event) -> bool:
    """Returns True for `undone`, `note`, `signed`, `undo_asked` and `undo_refused`, which
    every game shares."""
    return isinstance(event, CORE_EVENTS)


def envelope(event: Event) -> Event:
    """Returns the event without its envelope's seq, prev, at, by and salt (for comparison)."""
    return msgspec.structs.replace(event, seq=UNSET_SEQ, prev=None, at=None, by=None, salt=None)


def event_type(cls: type[Event]) -> str:
    """Returns the `type` tag of an event class."""
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str)  # every event class is tagged with its type
    return tag
