"""One line of a log: decoding it strictly, re-encoding it canonically, and its hash.

Nothing here knows a game: a game's events reach a `Codec` as a msgspec union.
The bounds on a line (MAX_LINE, MAX_DEPTH) live here; the bound on a log's events
(events.MAX_EVENTS) is enforced by the reader and the writer.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import re
import threading
import types
import typing
from collections import OrderedDict
from typing import Any

import msgspec

from tabletape.tape.errors import LogFormatError
from tabletape.tape.events import Event, Name, StrictDigest, StrictName

MAX_LINE = 1 << 20  # bytes per line, newline excluded; a longer line is refused unread
MAX_DEPTH = 64  # arrays and objects in one line; no schema nests more than a few levels
BOM = b"\xef\xbb\xbf"  # what some editors put before the first line of a UTF-8 file
# A header's `components` (the game's box: kilobytes of cards and areas) are decoded once per
# distinct bytes per codec: most logs of an archive play the same box (`Codec.decode_header`).
COMPONENTS_CACHE = 64  # distinct components kept per game; 0 decodes every header in full
COMPONENTS_MAX = 1 << 16  # bytes: larger components are decoded each time, never kept
HEADER_TAG = "game_started"


class Codec:
    """Decodes one game's lines strictly and re-encodes them canonically.

    `decoder` leaves `prev`'s pattern to the chain check (see events.Digest): the
    block reader uses it. `decode` checks every line in full, as the schema says.
    """

    def __init__(self, union: object):
        self.decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(union)
        self.encoder = msgspec.json.Encoder()
        self._strict: msgspec.json.Decoder[Event] | None = None
        self._shell: (tuple[Any, msgspec.json.Decoder[Any], msgspec.json.Decoder[Any]]
                      | None) = None
        self._boxes: OrderedDict[bytes, Any] = OrderedDict()  # components bytes -> decoded
        self._lock = threading.Lock()

    @property
    def strict(self) -> msgspec.json.Decoder[Event]:
        """Returns a decoder of the same lines that also checks `prev` against the digest pattern."""
        if self._strict is None:
            union = _strict_union(self.decoder.type)
            self._strict = msgspec.json.Decoder(union)
        return self._strict

    def decode(self, body: bytes, file: str, line: int, offset: int) -> Event:
        """Returns the event on a line, or raises LogFormatError naming what is wrong."""
        try:
            self.strict.decode(body)  # the precise error, in the order msgspec meets it
            return self.decoder.decode(body)
        except UnicodeDecodeError as e:
            raise LogFormatError(f"not UTF-8: {e.reason}", file=file, line=line,
                                 offset=offset + _bad_utf8(body, e.start)) from None
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as e:
            error = e
        if depth(body) > MAX_DEPTH:  # one message, whatever the caller's stack depth
            raise LogFormatError(f"nested too deeply: more than {MAX_DEPTH} levels of arrays "
                                 "and objects", file=file, line=line, offset=offset)
        if isinstance(error, msgspec.ValidationError):
            raise _format_error(str(error), file, line, offset, body, schema=True)
        if isinstance(error, msgspec.DecodeError):
            raise _format_error(f"invalid JSON: {error}", file, line, offset, body)
        raise LogFormatError("nested too deeply", file=file, line=line, offset=offset)

    def decode_header(self, body: bytes, file: str, line: int, offset: int) -> Event:
        """Returns the header on line 1, as `decode` does, its `components` decoded once per
        distinct bytes: the rest of the line is decoded (strictly) with the components left
        raw, and the components' bytes looked up. Anything that does not decode so is decoded
        by `decode`, which names the problem; so is a line that is not canonical (a key twice:
        the components left raw may be the occurrence a full decode refuses), which leaves
        only lines where each field is read once, as a full decode reads it."""
        shell = self._header_shell() if COMPONENTS_CACHE > 0 else None
        if shell is None:
            return self.decode(body, file, line, offset)
        header, strict, components = shell
        try:
            parts = strict.decode(body)
            raw = bytes(parts.components)
            with self._lock:
                box = self._boxes.get(raw)
                if box is not None:
                    self._boxes.move_to_end(raw)
            kept = box is not None
            if box is None:
                box = components.decode(raw)
                # kept only when canonical (its bytes are what `encode` writes of it)
                if len(raw) <= COMPONENTS_MAX and self.encode(box) == raw:
                    with self._lock:
                        self._boxes[raw] = box
                        while len(self._boxes) > COMPONENTS_CACHE:
                            self._boxes.popitem(last=False)
        except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            return self.decode(body, file, line, offset)
        fields = msgspec.structs.asdict(parts)
        fields["components"] = box
        event: Event = header(**fields)
        # Canonical when re-encoding gives back the line. A kept box is canonical, so the
        # shell (the same fields, `components` as the raw bytes read) re-encodes as the whole
        # header would (pinned in tests/engine/test_bind_cache.py); a box just decoded is
        # checked whole.
        again = self.encode(parts) if kept else self.encode(event)
        if again != body:  # not canonical (a key twice, say: the raw components
            return self.decode(body, file, line, offset)  # may be the one that does not count)
        return event

    def _header_shell(self
                      ) -> tuple[Any, msgspec.json.Decoder[Any], msgspec.json.Decoder[Any]] | None:
        """Returns (the header type, a strict decoder of a header line with `components` left
        raw, a decoder of the components), or None when this codec's lines have no header
        with components."""
        if self._shell is None:
            kinds = typing.get_args(self.decoder.type) or (self.decoder.type,)
            header = next((k for k in kinds if getattr(getattr(k, "__struct_config__", None),
                                                        "tag", None) == HEADER_TAG), None)
            comp = (msgspec.structs.fields(header) if header is not None else ())
            kind = next((f.type for f in comp if f.name == "components"), None)
            if header is None or kind is None:
                return None
            shell = _strict_event(header, raw=("components",))
            self._shell = (header, msgspec.json.Decoder(shell), msgspec.json.Decoder(kind))
        return self._shell

    def encode(self, event: Event) -> bytes:
        return self.encoder.encode(event)


def depth(body: bytes) -> int:
    """Returns how deeply a line's arrays and objects nest (brackets inside strings ignored).

    Only a line that failed to decode is measured, so a plain loop is fast enough, and
    its memory does not grow with the line.
    """
    deepest = level = 0
    inside = escaped = False
    for byte in body:
        if inside:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # the closing quote
                inside = False
        elif byte == 0x22:
            inside = True
        elif byte in b"[{":
            level += 1
            if level > deepest:
                deepest = level
        elif byte in b"]}":
            level -= 1
    return deepest


def _bad_utf8(body: bytes, fallback: int) -> int:
    """Returns where in a line its UTF-8 breaks (msgspec counts from the string's start)."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return fallback


@functools.cache  # once per union: building the copies costs ~2 ms and ~2 MB
def _strict_union(union: Any) -> Any:
    """Returns the union with every event's `prev` typed StrictDigest (same fields, same config)."""
    return functools.reduce(operator.or_, map(_strict_event, typing.get_args(union) or (union,)))


def _strict_type(kind: Any) -> Any:
    """Returns a field's type with every `Name` in it (optional, in a tuple) a StrictName."""
    if kind == Name:
        return StrictName
    args = typing.get_args(kind)
    origin = typing.get_origin(kind)
    if origin is typing.Annotated:
        return typing.Annotated[(_strict_type(args[0]), *kind.__metadata__)]
    if origin is tuple:
        return tuple[tuple(map(_strict_type, args))]  # type: ignore[misc]
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, map(_strict_type, args))
    return kind


def _strict_event(cls: Any, raw: tuple[str, ...] = ()) -> Any:
    """Returns a copy of an event Struct (name, fields, defaults, tag, config) with `prev`
    and its names strict, and the fields `raw` left undecoded (msgspec.Raw)."""
    config = cls.__struct_config__
    fields: list[Any] = []
    for f in msgspec.structs.fields(cls):
        kind = (msgspec.Raw if f.name in raw else StrictDigest | None if f.name == "prev"
                else _strict_type(f.type))
        if f.default is not msgspec.NODEFAULT:
            fields.append((f.name, kind, f.default))
        elif f.default_factory is not msgspec.NODEFAULT:
            fields.append((f.name, kind, msgspec.field(default_factory=f.default_factory)))
        else:
            fields.append((f.name, kind))
    return msgspec.defstruct(cls.__name__, fields, kw_only=True, tag=config.tag,
                             tag_field=config.tag_field, frozen=config.frozen,
                             forbid_unknown_fields=config.forbid_unknown_fields,
                             omit_defaults=config.omit_defaults)


_PATH = re.compile(r" - at `([^`]*)`$")
_BYTE = re.compile(r"\(byte (\d+)\)")
_NAMED = re.compile(r"(?:unknown|missing required) field `([^`]*)`")


def _format_error(msg: str, file: str, line: int, offset: int, body: bytes,
                  *, schema: bool = False) -> LogFormatError:
    """Returns one LogFormatError with the field path and byte offset msgspec reported.

    A schema error always names a field: msgspec leaves out the path `$` of the
    line itself, and names an unknown or missing field only in its message.
    """
    field = "$" if schema else None
    m = _PATH.search(msg)
    if m:
        field, msg = m.group(1), msg[: m.start()]
    m = _NAMED.search(msg)
    if m and field:
        field = f"{field}.{m.group(1)}"
    m = _BYTE.search(msg)
    if m:
        offset += int(m.group(1))
    if body.startswith(BOM) and line == 1:
        msg = ("starts with a byte-order mark (BOM), as an editor may save a file; lines must "
               f"be plain UTF-8 JSON: `tabletape repair {file}` removes it if the hash chain "
               "proves nothing else changed")
    elif body.startswith(BOM):
        msg = "starts with a byte-order mark (BOM); lines must be plain UTF-8 JSON"
    elif not body:
        msg = "empty line"
    return LogFormatError(msg, file=file, line=line, offset=offset, field=field)


def digest(body: bytes) -> str:
    """Returns the chain hash of a line (its bytes without the newline)."""
    return hashlib.sha256(body).hexdigest()


def split_path(msg: str) -> tuple[str, str | None]:
    """Returns a msgspec validation message without its field path, and the path (or None)."""
    m = _PATH.search(msg)
    return (msg[: m.start()], m.group(1)) if m else (msg, None)
