"""The JSONL file: streaming read, canonical check, hash chain, durable append, repair.

Nothing here knows a game: the caller passes `codec_for`, which turns the raw
header line into the `Codec` (decoder and encoder) for that game's events.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import operator
import os
import re
import tempfile
import time
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, count
from typing import Any, NamedTuple

import msgspec

from tabletape.tape import files
from tabletape.tape.errors import (
    ChainError,
    LogFormatError,
    StaleWriter,
    TapeError,
    TornTail,
    UsageError,
)
from tabletape.tape.events import MAX_EVENTS, Event, Name, StrictDigest, StrictName

MAX_LINE = 1 << 20  # bytes per line, newline excluded; a longer line is refused unread
MAX_DEPTH = 64  # arrays and objects in one line; no schema nests more than a few levels
# MAX_EVENTS (events.py, the bound on seq) is enforced here too: by read_records and append
_TAIL_CHUNK = 1 << 16
BOM = b"\xef\xbb\xbf"  # what some editors put before the first line of a UTF-8 file


class Codec:
    """Decodes one game's lines strictly and re-encodes them canonically.

    `decoder` leaves `prev`'s pattern to the chain check (see events.Digest): the
    block reader uses it. `decode` checks every line in full, as the schema says.
    """

    def __init__(self, union: object):
        self.decoder = msgspec.json.Decoder(union)
        self.encoder = msgspec.json.Encoder()
        self._strict: msgspec.json.Decoder | None = None

    @property
    def strict(self) -> msgspec.json.Decoder:
        """Returns a decoder of the same lines that also checks `prev` against the digest pattern."""
        if self._strict is None:
            union = _strict_union(self.decoder.type)  # type: ignore[arg-type]
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


def _strict_event(cls: Any) -> Any:
    """Returns a copy of an event Struct (name, fields, defaults, tag, config) with `prev`
    and its names strict."""
    config = cls.__struct_config__
    fields: list[Any] = []
    for f in msgspec.structs.fields(cls):
        kind = StrictDigest | None if f.name == "prev" else _strict_type(f.type)
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


class Record(msgspec.Struct, frozen=True, gc=False):
    """One line of a log: where it is, its bytes, its hash and its event."""

    # A Struct, not a NamedTuple: one is built per line, and a Struct is built 5x faster.
    # gc=False: a record refers to nothing that could point back at it.
    line: int  # 1-based, as editors count; seq == line - 1
    offset: int
    raw: bytes
    digest: str
    event: Event


class Tail(NamedTuple):
    """What a writer expects at the end of the log: the last seq and the head."""

    seq: int
    head: str


def open_log(path: str):
    """Opens a log for reading, or raises UsageError when it cannot be read."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise UsageError(f"no such log file: {path}", file=path) from None
    except IsADirectoryError:
        raise UsageError(f"is a directory, not a log: {path}", file=path) from None
    except PermissionError:
        raise UsageError(f"cannot read {path}: permission denied", file=path) from None


class Resume(NamedTuple):
    """Where to pick up reading: the offset of a line, the tail just before it, the codec."""

    offset: int
    tail: Tail
    codec: Codec


def read_records(path: str, codec_for: Callable[[bytes, str], Codec],
                 *, max_line: int = MAX_LINE, start: Resume | None = None,
                 opened: Any = None) -> Iterator[Record]:
    """Yields the log's records one line at a time, checking format, canonical form and chain.

    Raises at the first problem: LogFormatError (TornTail for an unterminated last
    line) or ChainError. Reads a block of lines at a time (never the whole file).
    With `start`, reading begins at a line whose predecessor's tail is known.
    `opened`: the log, already open (a file object; the caller closes it).
    """
    with open_log(path) if opened is None else contextlib.nullcontext(opened) as f:
        at = _Cursor(0, 0, None, None) if start is None else \
            _Cursor(start.offset, start.tail.seq + 1, start.tail.head, start.codec)
        f.seek(at.offset)
        for chunk in _chunks(f, max_line):
            if at.codec is None:  # the header names the codec of every later line
                first = chunk.find(b"\n") + 1 or len(chunk)
                at = yield from _check_lines(chunk[:first], at, path, codec_for, max_line)
                chunk = chunk[first:]
            records = _decode_block(chunk, at, max_line) if chunk else []
            if records is None:  # something is wrong in this block: find it line by line
                at = yield from _check_lines(chunk, at, path, codec_for, max_line)
                continue
            yield from records
            if records:
                last = records[-1]
                at = _Cursor(last.offset + len(last.raw) + 1, last.line, last.digest, at.codec)
        if at.line == 0:
            raise LogFormatError("empty file: no header line", file=path, line=1, offset=0)


def _lines(chunk: bytes) -> list[bytes]:
    """Returns the lines of a block with their newlines (only b"\\n" ends a line)."""
    parts = chunk.split(b"\n")
    last = parts.pop()
    return [p + b"\n" for p in parts] + ([last] if last else [])


class _Cursor(NamedTuple):
    offset: int  # of the next line
    line: int  # lines read so far
    prev: str | None  # the hash of the last line read
    codec: Codec | None


_BLOCK = 1 << 20


def _chunks(f, max_line: int) -> Iterator[bytes]:
    """Yields the file in blocks of whole lines; a last block without a newline is torn or too long."""
    rest = b""
    size = _BLOCK >> 4  # small first: a reader may want only the next few lines
    while True:
        data = f.read(size)
        size = min(size * 2, _BLOCK)
        if not data:
            if rest and len(rest) <= max_line:
                rest += _settled(f, max_line + 1 - len(rest))  # a writer may be mid-line
            if rest:
                yield rest
            return
        buf = rest + data if rest else data
        cut = buf.rfind(b"\n") + 1
        rest = buf[cut:]
        if cut:
            yield buf[:cut]
        if len(rest) > max_line:
            yield rest[: max_line + 1]
            return


# The characters `events.UNSAFE` names, as a canonical line can hold them: C0 as JSON
# escapes (DEL too, when a line was written by hand), the others (DEL as msgspec writes it,
# C1, the soft hyphen, bidi, the default-ignorables, separators, BOM, noncharacters) as raw
# UTF-8. Escaped forms of the others are not canonical (msgspec writes them raw), so a block
# holding one fails the re-encoding check and goes to the strict decoder too; a lone
# surrogate cannot be decoded at all. tests/test_fast_paths.py checks this against UNSAFE
# for every code point.
_UNSAFE_BYTES = re.compile(
    rb"\\(?:u00[01][0-9a-f]|u007f|[bfnrt])|\x7f|\xc2[\x80-\x9f\xad]|\xcd\x8f|\xd8\x9c"
    rb"|\xe1(?:\x85[\x9f\xa0]|\x9e[\xb4\xb5]|\xa0[\x8b-\x8f])"
    rb"|\xe2(?:\x80[\x8b-\x8f\xa8-\xae]|\x81[\xa0-\xaf])|\xe3\x85\xa4"
    rb"|\xef(?:\xb7[\x90-\xaf]|\xb8[\x80-\x8f]|\xbb\xbf|\xbe\xa0|\xbf[\xb0-\xb8\xbe\xbf])"
    rb"|\xf0(?:\x9b\xb2[\xa0-\xa3]|\x9d\x85[\xb3-\xba])|\xf3\xa0"
    rb"|[\xf0-\xf4][\x8f\x9f\xaf\xbf]\xbf[\xbe\xbf]")
# Every match of `_UNSAFE_BYTES` begins with one of these bytes. Looking for each with
# `in` (memchr) costs ~0.01 µs a line; the regex tries every position (~0.6 µs a line, a
# third of reading). A block holding none of them cannot match; one that does is searched.
# An ASCII block (`isascii`, faster still) can only hold the first two.
_UNSAFE_LEADS = (b"\\", b"\x7f", b"\xc2", b"\xcd", b"\xd8", b"\xe1", b"\xe2", b"\xe3", b"\xef",
                 b"\xf0", b"\xf1", b"\xf2", b"\xf3", b"\xf4")
_ASCII_LEADS = _UNSAFE_LEADS[:2]


def _unsafe(chunk: bytes) -> bool:
    """Returns whether a block holds a character `events.UNSAFE` names (`_UNSAFE_BYTES`)."""
    for lead in _ASCII_LEADS if chunk.isascii() else _UNSAFE_LEADS:
        if lead in chunk:
            return _UNSAFE_BYTES.search(chunk) is not None
    return False


def _decode_block(chunk: bytes, at: _Cursor, max_line: int) -> list[Record] | None:
    """Returns the records of a block of whole lines, or None if any line has a problem.

    The fast path: one decode and one re-encode for the whole block; the block is
    canonical exactly when re-encoding gives back its bytes.
    """
    codec = at.codec
    assert codec is not None
    if _unsafe(chunk):  # a name may hold none: the strict path checks each line
        return None
    try:
        events = codec.decoder.decode_lines(chunk)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError):
        return None
    if codec.encoder.encode_lines(events) != chunk:
        return None
    bodies = chunk.split(b"\n")
    bodies.pop()  # the block ends with a newline
    if max(map(len, bodies)) > max_line or at.line + len(bodies) > MAX_EVENTS:
        return None
    sha256 = hashlib.sha256
    digests = [sha256(body).hexdigest() for body in bodies]
    # The chain holds when line k's seq is k and its prev is the digest of line k - 1.
    first = at.line
    if [e.seq for e in events] != list(range(first, first + len(events))):
        return None
    if [e.prev for e in events] != [at.prev, *digests[:-1]]:
        return None
    offsets = accumulate((len(body) + 1 for body in bodies), initial=at.offset)
    return list(map(Record, count(first + 1), offsets, bodies, digests, events))


def _check_lines(chunk: bytes, at: _Cursor, path: str,
                 codec_for: Callable[[bytes, str], Codec], max_line: int):
    """Yields the records of a block line by line, raising at its first problem; returns the cursor."""
    offset, line, prev, codec = at
    for raw in _lines(chunk):
        line += 1
        if line > MAX_EVENTS:
            raise LogFormatError(f"more than {MAX_EVENTS:,} events: a log holds at most "
                                 f"{MAX_EVENTS:,} (seq 0 to {MAX_EVENTS - 1:,})",
                                 file=path, line=line, offset=offset, field="$.seq")
        if not raw.endswith(b"\n"):
            if len(raw) > max_line:
                raise LogFormatError(f"line longer than {max_line} bytes", file=path,
                                     line=line, offset=offset)
            if _complete(raw, _Cursor(offset, line - 1, prev, codec), path, codec_for):
                raise TornTail(f"last line is a complete event without its final newline, "
                               f"as an editor may save a file; `tabletape repair {path}` "
                               "restores the newline", file=path, line=line, offset=offset)
            raise TornTail(f"torn last line: {len(raw)} bytes without a newline "
                           f"(an interrupted write); run `tabletape repair {path}`",
                           file=path, line=line, offset=offset)
        body = raw[:-1]
        if len(body) > max_line:
            raise LogFormatError(f"line longer than {max_line} bytes", file=path,
                                 line=line, offset=offset)
        if not body and _blank_to_end(path, offset):
            raise LogFormatError(f"empty line at the end of the log, as an editor may add "
                                 f"one; `tabletape repair {path}` removes trailing empty lines",
                                 file=path, line=line, offset=offset)
        if codec is None:
            codec = codec_for(body, path)
        event = codec.decode(body, path, line, offset)
        canonical = codec.encode(event)
        if canonical != body:
            if body.endswith(b"\r") and body[:-1] == canonical:
                raise LogFormatError(_CR.format(path=path), file=path, line=line,
                                     offset=offset + len(body) - 1)
            raise _not_canonical(body, canonical, path, line, offset)
        seq = line - 1
        if event.seq != seq:
            what = "has no seq" if event.seq < 0 else f"has seq {event.seq}"
            raise ChainError(f"line {what}, expected {seq}", file=path, line=line,
                             seq=seq, offset=offset, field="$.seq")
        if event.prev != prev:
            why = ("the first line must not have prev" if prev is None else
                   f"prev does not match the SHA-256 of line {line - 1}: line {line - 1} "
                   f"was changed, or lines were removed or inserted before line {line}")
            raise ChainError(why, file=path, line=line, seq=seq, offset=offset, field="$.prev")
        prev = digest(body)
        yield Record(line, offset, body, prev, event)
        offset += len(raw)
    return _Cursor(offset, line, prev, codec)


_CR = ("ends with CR: a Windows line ending (CRLF), as an editor may save a file; tabletape "
       "writes LF only: `tabletape repair {path}` restores LF endings if the hash chain "
       "proves nothing else changed")


def _complete(raw: bytes, at: _Cursor, path: str,
              codec_for: Callable[[bytes, str], Codec]) -> bool:
    """Returns True when an unterminated last line is a whole event that chains: only its
    newline is missing (a cut line is never a whole JSON object)."""
    try:
        codec = at.codec or codec_for(raw, path)
        event = codec.decode(raw, path, at.line + 1, at.offset)
    except TapeError:
        return False
    return codec.encode(event) == raw and event.seq == at.line and event.prev == at.prev


def _blank_to_end(path: str, offset: int) -> bool:
    """Returns True when nothing but empty lines follows `offset` (a few KiB at most)."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            rest = f.read(_TAIL_CHUNK + 1)
    except OSError:
        return False
    return 0 < len(rest) <= _TAIL_CHUNK and not rest.replace(b"\r\n", b"\n").strip(b"\n")


def _settled(f, limit: int) -> bytes:
    """Returns what an unterminated last line gains once no writer holds the lock.

    A writer holds an exclusive lock while its line is only partly in the file; a
    shared lock waits for it, so only a line nobody is writing is called torn.
    """
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_SH)
    except OSError:  # no locks here (some network file systems): judge what is there
        return b""
    try:
        return f.readline(limit)
    finally:
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _not_canonical(body: bytes, canonical: bytes, file: str, line: int, offset: int) -> LogFormatError:
    """Returns an error pointing at the first byte where a line departs from canonical form."""
    at = next((i for i, (a, b) in enumerate(zip(body, canonical, strict=False)) if a != b),
              min(len(body), len(canonical)))
    got = body[max(0, at - 10): at + 20].decode("utf-8", "replace")
    want = canonical[max(0, at - 10): at + 20].decode("utf-8", "replace")
    return LogFormatError(
        f"not canonical (keys out of order, duplicated, spaced, escaped or defaulted): "
        f"found {got!r}, tabletape writes {want!r}", file=file, line=line, offset=offset + at)


def read_tail(fd: int) -> Tail | None:
    """Returns the last line's seq and hash, None for an empty file; raises TornTail."""
    size = os.lseek(fd, 0, os.SEEK_END)
    if size == 0:
        return None
    end = size
    buf = b""
    while True:
        start = max(0, end - _TAIL_CHUNK)
        buf = os.pread(fd, end - start, start) + buf
        end = start
        if not buf.endswith(b"\n"):
            cut = buf.rfind(b"\n")
            raise TornTail("torn last line (no trailing newline); run `tabletape repair` first",
                           line=None, offset=start + cut + 1 if cut >= 0 else None)
        cut = buf.rfind(b"\n", 0, len(buf) - 1)
        if cut >= 0 or start == 0:
            body = buf[cut + 1: -1]
            break
    at = size - len(body) - 1
    if not body:
        raise LogFormatError("the log ends with an empty line, as an editor may add one; "
                             "`tabletape repair` removes trailing empty lines", offset=at)
    if body.endswith(b"\r"):
        raise LogFormatError("the last line ends with CR: a Windows line ending (CRLF), as an "
                             "editor may save a file; `tabletape repair` restores LF endings "
                             "if the hash chain proves nothing else changed", offset=size - 2)
    if at == 0 and body.startswith(BOM):
        raise LogFormatError("the log starts with a byte-order mark (BOM), as an editor may "
                             "save a file; `tabletape repair` removes it", offset=0)
    try:
        seq = msgspec.json.decode(body, type=_SeqProbe).seq
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as e:
        raise LogFormatError(f"last line is unreadable: {e}", offset=at) from None
    return Tail(seq, digest(body))


class _SeqProbe(msgspec.Struct):
    seq: int = -1


def create(path: str, header: Event, codec: Codec) -> Tail:
    """Writes a new log holding only its header; never overwrites an existing file."""
    line = codec.encode(msgspec.structs.replace(header, seq=0, prev=None)) + b"\n"
    _check_bounds(line[:-1], 0, path, codec)
    files.write(path, line, exists=NEVER_OVERWRITES)
    return Tail(0, digest(line[:-1]))


NEVER_OVERWRITES = "tabletape never overwrites a log"


def check_writable(path: str) -> None:
    """Raises UsageError naming the log when this process cannot append to it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror}; nothing can be recorded in it",
                         file=path) from None
    os.close(fd)


def _check_bounds(body: bytes, seq: int, path: str, codec: Codec) -> None:
    """Refuses to write a line the reader would refuse: past MAX_EVENTS, too long, or out of
    the schema's bounds (a Struct built in code is not checked against its Meta)."""
    if seq >= MAX_EVENTS:
        raise UsageError(f"the log is full: a log holds at most {MAX_EVENTS:,} events "
                         f"(seq 0 to {MAX_EVENTS - 1:,}); nothing was written",
                         file=path, seq=seq, field="$.seq")
    if len(body) > MAX_LINE:
        raise UsageError(f"the event would be a line of {len(body):,} bytes; "
                         f"a line holds at most {MAX_LINE:,}; nothing was written",
                         file=path, seq=seq)
    try:
        codec.strict.decode(body)  # names included: a writer refuses what the reader would
    except msgspec.ValidationError as e:
        field = _PATH.search(str(e))
        raise UsageError(f"the event would break the schema: "
                         f"{str(e)[: field.start()] if field else e}; nothing was written",
                         file=path, seq=seq, field=field.group(1) if field else None) from None


def _write_all(fd: int, line: bytes) -> None:
    """Writes a whole line with one os.write; a short write is an error, never retried."""
    n = os.write(fd, line)
    if n != len(line):
        raise OSError(f"short write: {n} of {len(line)} bytes")


def append(path: str, events: Iterable[Event], codec: Codec, *, expect: Tail | None,
           durable: bool = True) -> Tail:
    """Appends events under an exclusive lock, filling in seq and prev; returns the new tail.

    `expect` is the tail the caller read (and checked its events against); when
    the log has moved on since, nothing is written and StaleWriter is raised.
    """
    fd = _open_locked(path, os.O_RDWR | os.O_APPEND)
    try:
        try:
            tail = read_tail(fd)
        except LogFormatError as e:
            e.file = path
            raise
        if tail is None:
            raise LogFormatError("empty file: no header line", file=path, line=1, offset=0)
        if expect is not None and tail != expect:
            raise StaleWriter(
                f"the log moved on while you were writing: you expected seq {expect.seq} "
                f"at the end, it now ends at seq {tail.seq} (head {tail.head[:12]}); "
                "nothing was written — re-read the log and try again",
                file=path, line=tail.seq + 1, seq=tail.seq)
        seq, head = tail
        lines = []
        for event in events:  # encode and check them all first: all are written or none
            seq += 1
            body = codec.encode(msgspec.structs.replace(event, seq=seq, prev=head))
            _check_bounds(body, seq, path, codec)
            lines.append(body + b"\n")
            head = digest(body)
        before = Stamp.of(os.fstat(fd))
        for line in lines:
            _write_all(fd, line)
        if durable:
            os.fsync(fd)
        _keep_custody(path, fd, before, settle=durable)
        return Tail(seq, head)
    finally:
        os.close(fd)  # closing releases the lock


def _open_locked(path: str, flags: int) -> int:
    """Opens a log and takes its exclusive lock, on the file the path names once locked.

    A repair replaces the file (a new inode): a writer that waited for the old file's
    lock would write to a file no longer there, so it opens the path again.
    """
    while True:
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            raise UsageError(f"no such log file: {path}", file=path) from None
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            st, now = os.fstat(fd), os.stat(path)
        except FileNotFoundError:
            now = None
        if now is not None and (st.st_dev, st.st_ino) == (now.st_dev, now.st_ino):
            return fd
        os.close(fd)


class Repaired(NamedTuple):
    """What `repair` did: the bytes set aside, the side file holding them, the damage undone.

    `restored` names the editor damage undone (empty when only a torn last line was
    moved aside); the side file then holds the whole original file.
    """

    moved: int
    aside: str | None
    restored: tuple[str, ...] = ()


def repair(path: str, codec_for: Callable[[bytes, str], Codec] | None = None) -> Repaired:
    """Undoes what an interrupted write or an editor did to a log, losing no recorded byte.

    A torn last line is moved to FILE.torn (or .torn.N) and the file cut before it.
    Editor damage (Windows line endings, a byte-order mark, empty lines at the end, a
    last line without its newline) is undone only when the hash chain proves every
    line of the result byte-identical to what was recorded (each `prev` is the SHA-256
    of the line before, as written: LF-terminated, no BOM); with `codec_for`, every
    line must also decode canonically. The original file is kept whole in FILE.orig
    (or .orig.N) and the log replaced atomically. Anything else is refused
    (UsageError, saying what does not chain) and nothing is changed.

    A symlink is followed: the log it names is repaired, and the link kept. A file
    whose first line is not a log's header is refused (UsageError) and left alone.
    """
    path = os.path.realpath(path)
    fd = _open_locked(path, os.O_RDWR)
    try:
        _is_a_log(fd, path, codec_for)
        size = os.lseek(fd, 0, os.SEEK_END)
        keep = _last_newline_end(fd, size)
        if _edited(fd, size, keep):
            done = _restore(path, fd, codec_for)
            if done is not None:
                return done
        if keep == size:
            return Repaired(0, None)
        aside = _set_aside(path + ".torn", _blocks(fd, keep, size))
        os.ftruncate(fd, keep)
        os.fsync(fd)
        return Repaired(size - keep, aside)
    finally:
        os.close(fd)


_HEADER_START = b'{"type":"game_started","seq":0,'  # how every canonical header begins


class _HeaderProbe(msgspec.Struct):
    type: str
    seq: int = -1


def _is_a_log(fd: int, path: str, codec_for: Callable[[bytes, str], Codec] | None) -> None:
    """Raises UsageError unless the file's first line reads as a log's header (`game_started`,
    seq 0, and with `codec_for` a game it names): `repair` changes nothing else."""
    first = os.pread(fd, MAX_LINE + len(BOM) + 2, 0)
    first = first.removeprefix(BOM)
    cut = first.find(b"\n")
    body = first[:cut].removesuffix(b"\r") if cut >= 0 else first
    n = min(len(body), len(_HEADER_START))
    if cut < 0 and body[:n] == _HEADER_START[:n]:
        return  # empty, or a header torn as it was written: the tail to move aside
    why = None
    try:
        probe = msgspec.json.decode(body, type=_HeaderProbe)
        if (probe.type, probe.seq) != ("game_started", 0):
            why = f"it is a {probe.type!r} event with seq {probe.seq}, not a log's header"
        elif codec_for is not None:
            codec_for(body, path)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        why = "it is not a JSON event"
    except TapeError as e:
        why = e.reason
    if why is not None:
        raise UsageError(f"not a tabletape log: line 1 does not read as a log's header ({why}); "
                         "repair changes only logs; nothing was changed", file=path, line=1)


def _blocks(fd: int, start: int, end: int) -> Iterator[bytes]:
    """Yields the bytes from `start` to `end` of an open file, a block at a time."""
    while start < end:
        block = os.pread(fd, min(_BLOCK, end - start), start)
        if not block:
            raise OSError(f"the file ended at byte {start:,}, before byte {end:,}")
        yield block
        start += len(block)


def _set_aside(base: str, data: Iterable[bytes]) -> str:
    """Writes bytes durably to a new file named after `base` (never overwriting one)."""
    aside = _free_name(base)
    files.write(aside, data)
    return aside


def _edited(fd: int, size: int, keep: int) -> bool:
    """Returns True when a log may carry editor damage: a BOM, a CR before a newline, an
    empty last line, or an unterminated last line that reads as a whole event."""
    head = os.pread(fd, 3, 0)
    end = os.pread(fd, min(size, 3), max(0, size - 3))
    if head == BOM or end.endswith((b"\n\n", b"\n\r\n")) or _has_crlf(fd, size):
        return True
    if not 0 < size - keep <= MAX_LINE:
        return False
    try:
        msgspec.json.decode(os.pread(fd, size - keep, keep), type=_ChainProbe)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        return False
    return True


def _has_crlf(fd: int, size: int) -> bool:
    """Returns True when a CR precedes a newline anywhere in the file (read a block at a time)."""
    at, last = 0, b""
    while at < size:
        block = os.pread(fd, min(_BLOCK, size - at), at)
        if not block:
            return False
        if b"\r\n" in last + block[:1] or b"\r\n" in block:
            return True
        at, last = at + len(block), block[-1:]
    return False


class _ChainProbe(msgspec.Struct):
    seq: int = -1
    prev: str | None = None


class _Edits:
    """What `_bodies` undid while reading a log: the damage an editor does."""

    def __init__(self) -> None:
        self.bom = False
        self.crs = self.lines = self.blanks = 0
        self.newline = False
        self.last = b""  # the bytes after the last newline: a line to restore, or torn
        self.overlong = 0  # instead, the length of a last line too long to be an event

    def named(self, counted: bool = True) -> list[str]:
        """Returns the damage undone, in words (`counted`: with how many lines it was on)."""
        out = ["a byte-order mark (BOM) before line 1"] if self.bom else []
        if self.crs:
            out.append("Windows line endings (CRLF)" + (
                f" on {self.crs:,} of {self.lines:,} lines" if counted else ""))
        if self.blanks:
            out.append(f"{self.blanks} empty line{'s' if self.blanks > 1 else ''} at the end")
        if self.newline:
            out.append(f"no newline after line {self.lines} (a complete event)")
        return out


def _bodies(f, edits: _Edits) -> Iterator[bytes]:
    """Yields a log's lines without a BOM, CRs before newlines and empty lines at the end.

    Reads a block at a time. An empty line followed by others is yielded as it is
    (the chain refuses it); what follows the last newline is left in `edits.last`, or
    counted in `edits.overlong` when longer than a line can be (it is never held whole;
    such a line followed by others raises _TooLong).
    """
    rest, pending, first = b"", 0, True
    for block in iter(lambda: f.read(_BLOCK), b""):
        if edits.overlong:
            if b"\n" in block:
                raise _TooLong(edits.lines + pending + 1)
            edits.overlong += len(block)
            continue
        if first and (rest + block).startswith(BOM):
            block, edits.bom = (rest + block)[len(BOM):], True
            rest = b""
        first = first and len(rest + block) < len(BOM)
        parts = (rest + block).split(b"\n")
        rest = parts.pop()
        if len(rest) > MAX_LINE + 1:  # no event: its end is looked for, not kept
            edits.overlong, rest = len(rest), b""
        for part in parts:
            if part in (b"", b"\r"):
                pending += 1
                continue
            if part.endswith(b"\r"):
                part, edits.crs = part[:-1], edits.crs + 1
            yield from (b"" for _ in range(pending))
            edits.lines += pending + 1
            pending = 0
            yield part
    if rest or edits.overlong:  # empty lines before an unterminated one are in the log
        yield from (b"" for _ in range(pending))
        edits.lines += pending
        pending = 0
    edits.blanks, edits.last = pending, rest


def _header_codec(header: bytes, codec_for: Callable[[bytes, str], Codec] | None,
                  path: str) -> Codec | bool:
    """Returns the codec a header line names; True without `codec_for`, False if it names none."""
    if codec_for is None:
        return True
    try:
        return codec_for(header, path)
    except TapeError:
        return False


def _chains(body: bytes, seq: int, prev: str | None, codec: Codec | bool, path: str) -> bool:
    """Returns True when a line holds event `seq` chained to `prev` and, with a codec (not
    True: no codec to check with), is canonical."""
    try:
        probe = msgspec.json.decode(body, type=_ChainProbe)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        return False
    if (probe.seq, probe.prev) != (seq, prev) or codec is False:
        return False
    if codec is True:
        return True
    try:
        return codec.encode(codec.decode(body, path, seq + 1, 0)) == body
    except TapeError:
        return False


def _break(body: bytes, k: int, prev: str | None) -> str | None:
    """Returns why line k+1 does not hold event k chained to `prev`, or None when it does."""
    try:
        probe = msgspec.json.decode(body, type=_ChainProbe)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        return f"line {k + 1} is not a JSON event"
    if probe.seq != k:
        return f"line {k + 1} has seq {probe.seq}, expected {k}"
    if probe.prev != prev:
        return (f"line {k + 1}'s prev is not the SHA-256 of line {k}, so line {k} is not as "
                "recorded" if k else "line 1 has a prev")
    return None


def _restore(path: str, fd: int, codec_for: Callable[[bytes, str], Codec] | None
             ) -> Repaired | None:
    """Rewrites a log without its editor damage, if the chain proves the result.

    Streams the log into a temporary file beside it, checking the chain line by line.
    Returns None when there is no editor damage to undo; raises UsageError (nothing
    changed) when the result would not be provably what was recorded.
    """
    edits, prev, k, header = _Edits(), None, 0, b""
    try:
        with open(path, "rb") as f, \
                files.writing(path, force=True, mode=os.fstat(fd).st_mode & 0o7777) as out:
            for body in _bodies(f, edits):
                why = _break(body, k, prev)
                if why is not None:
                    raise _refusal(path, edits, why, k + 1)
                out.write(body + b"\n")
                header = header or body
                prev, k = digest(body), k + 1
            last = edits.last
            if last and _chains(last, k, prev, _header_codec(header or last, codec_for, path),
                                path):
                out.write(last + b"\n")
                edits.newline, edits.lines, k = True, edits.lines + 1, k + 1
            if not edits.named():
                raise _Undamaged
            if k == 0:
                raise _refusal(path, edits, "no line is left", 1)
            out.flush()
            what = ", ".join(edits.named())
            if codec_for is not None:
                _proves(out.name, path, what, codec_for)
            aside = _set_aside(path + ".orig", _blocks(fd, 0, os.fstat(fd).st_size))
    except _Undamaged:
        return None
    except _TooLong as e:
        raise _refusal(path, edits, f"line {e.line} is longer than {MAX_LINE:,} bytes",
                       e.line) from None
    cut = len(last) or edits.overlong
    torn = [f"a torn last line of {cut} bytes (left out)"] if cut and not edits.newline else []
    return Repaired(os.fstat(fd).st_size, aside, (*edits.named(), *torn))


class _Undamaged(Exception):
    """Raised inside `_restore`'s write when there is nothing to undo: nothing is written."""


class _TooLong(Exception):
    """Raised by `_bodies` at a line longer than any log holds (it is not read whole)."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


def _refusal(path: str, edits: _Edits, why: str, line: int) -> UsageError:
    what = " and ".join(edits.named(counted=False)) or "editor damage"
    return UsageError(f"cannot restore {path}: it has {what}, but {why}; a log is restored "
                      "only where its hash chain proves every line as recorded; nothing was "
                      "changed", file=path, line=line)


def _proves(tmp: str, path: str, what: str, codec_for: Callable[[bytes, str], Codec]) -> None:
    """Raises UsageError unless every line of the restored file reads as a log's must."""
    try:
        for _ in read_records(tmp, codec_for):
            pass
    except TapeError as e:
        raise UsageError(f"cannot restore {path}: it has {what}, but once undone line {e.line} "
                         f"still reads: {e.reason}; nothing was changed", file=path,
                         line=e.line) from None


def _last_newline_end(fd: int, size: int) -> int:
    """Returns the offset just past the last newline in the file (0 if there is none)."""
    end = size
    while end > 0:
        start = max(0, end - _TAIL_CHUNK)
        cut = os.pread(fd, end - start, start).rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        end = start
    return 0


def _free_name(base: str) -> str:
    name, n = base, 0
    while os.path.exists(name):
        n += 1
        name = f"{base}.{n}"
    return name


# -- custody: what tabletape knows of a log's bytes it has not read ----------------------

class Stamp(NamedTuple):
    """What the file system says about a log: which file it is, its size, when it changed.

    Any write changes the ctime to the file system's clock, and no program can set
    it back; replacing the file changes the inode.
    """

    dev: int
    ino: int
    size: int
    mtime_ns: int
    ctime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> Stamp:
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class Custody(msgspec.Struct, array_like=True):
    """Beside a log: since `epoch` began, only tabletape has written it, and it now is `stamp`.

    `stamp` is None when tabletape cannot vouch for the present state (a bulk write
    that did not wait for the clock); the next writer then starts a new epoch.
    """

    epoch: str
    stamp: Stamp | None


class Watch(NamedTuple):
    """What a reader saw before reading: the log's stamp (settled or not) and its custody."""

    stamp: Stamp
    settled: bool  # the clock had passed the stamp: any later change shows
    custody: Custody | None


CUSTODY_SUFFIX = ".tabletape-custody"
_SETTLE_TRIES = 50  # 1 ms apart: a file system clock ticks every 1-10 ms


def custody_path(log_path: str) -> str:
    """Returns where the custody record of a log lives: a hidden file beside it."""
    head, name = os.path.split(log_path)
    return os.path.join(head, f".{name}{CUSTODY_SUFFIX}")


def read_custody(path: str) -> Custody | None:
    """Returns the custody record of a log, or None when it is missing, unreadable, or not
    sealed with this user's key (tape.seal: a record anyone could rewrite vouches for nothing).
    """
    from tabletape.tape import seal
    try:
        with open(custody_path(path), "rb") as f:
            data = f.read(seal.TAG_SIZE + 256)
        tag, body = data[:seal.TAG_SIZE], data[seal.TAG_SIZE:]
        if not seal.holds(tag, b"custody", body):
            return None
        return msgspec.msgpack.decode(body, type=Custody)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None


def _write_custody(path: str, custody: Custody | None) -> bool:
    """Replaces the custody record atomically (None removes it); returns False on failure."""
    target = custody_path(path)
    try:
        if custody is None:
            os.unlink(target)
            return True
        from tabletape.tape import seal
        body = msgspec.msgpack.encode(custody)
        tag = seal.tag(b"custody", body)
        if tag is None:  # no key: a record no reader could trust
            return False
        files.write(target, tag + body, force=True, durable=False)
        return True
    except FileNotFoundError:
        return custody is None
    except (OSError, TapeError):
        return False


def _fs_now(path: str) -> int | None:
    """Returns the file system's clock beside a log: the mtime of a probe written there."""
    head, name = os.path.split(custody_path(path))
    try:  # a fresh name (mkstemp): a planted file or symlink is never written through
        fd, probe = tempfile.mkstemp(prefix=f"{name}.", suffix=".probe", dir=head or ".")
        try:
            os.write(fd, b"\n")
            return os.fstat(fd).st_mtime_ns
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError:
        return None


def settled_stamp(fd: int, path: str) -> Stamp | None:
    """Returns the log's stamp once the file system's clock has passed its last change.

    Timestamps come from a clock that ticks every few ms: a change made in the same
    tick as the one stamped could leave the stamp as it was. Once the clock has moved
    on, any later change gives a later ctime. None when that cannot be shown.
    """
    for _ in range(_SETTLE_TRIES):
        now = _fs_now(path)
        if now is None:
            return None
        st = os.fstat(fd)
        if max(st.st_mtime_ns, st.st_ctime_ns) < now:
            return Stamp.of(st)
        time.sleep(0.001)
    return None


def _keep_custody(path: str, fd: int, before: Stamp, *, settle: bool) -> None:
    """Records after an append (under its lock) that tabletape wrote the log's new bytes.

    Only a log in custody (one a reader has vouched for: it has an index) is kept: a
    short log pays nothing. The epoch goes on when the log was, before this write, as
    tabletape last left it; otherwise something else wrote it and a new epoch begins.
    A bulk write that does not settle ends custody: the next reader reads it whole.
    """
    held = read_custody(path)
    if held is None:
        return
    if not settle:
        _write_custody(path, None)
        return
    epoch = held.epoch if held.stamp == before else _new_epoch()
    _write_custody(path, Custody(epoch, settled_stamp(fd, path)))


def _new_epoch() -> str:
    """Returns a fresh custody epoch: random, so that no two can be confused."""
    import secrets  # only when an epoch begins: a reader that trusts one never needs it

    return secrets.token_hex(8)


def watch(fd: int, path: str) -> Watch:
    """Returns what a reader of an open log must remember, to trust or vouch for it later."""
    settled = settled_stamp(fd, path)
    stamp = settled if settled is not None else Stamp.of(os.fstat(fd))
    return Watch(stamp, settled is not None, read_custody(path))


def unchanged(epoch: str | None, seen: Watch) -> bool:
    """Returns True when the log seen is as tabletape last left it, in custody `epoch`.

    Then no byte of it has changed since anything recorded under that epoch.
    """
    held = seen.custody
    return epoch is not None and held is not None and held.epoch == epoch and \
        held.stamp == seen.stamp


def vouch(path: str, seen: Watch) -> str | None:
    """Returns the custody epoch under which the log read since `seen` is unchanged, or None.

    Call it after reading every line from line 1, or from a point `unchanged` trusted
    for the same `seen`. Unchanged: the log is as it was when reading began, or only
    tabletape has appended to it since (the same epoch, from the stamp seen to the
    stamp now). A log that no epoch covers gets a new one. Taken under a shared lock,
    so that no append is half done.
    """
    if not seen.settled:
        return None
    try:
        with open(path, "rb") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_SH)
            now, held = settled_stamp(f.fileno(), path), read_custody(path)
            if now is None:
                return None
            if held is not None and held.stamp == now and (
                    now == seen.stamp or unchanged(held.epoch, seen)):
                return held.epoch
            if now != seen.stamp:
                return None
            epoch = _new_epoch()
            return epoch if _write_custody(path, Custody(epoch, now)) else None
    except OSError:
        return None
