"""Reading a log: streaming a block of lines at a time, checking canonical form and chain.

The fast path decodes and re-encodes a whole block at once; a block that does not
come back byte for byte (or may hold an unsafe character, `_UNSAFE_BYTES`) is read
again line by line, to name its first problem. Also: the last line's tail, for a
writer. Nothing here writes, and nothing here imports the writer or repair.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
from collections.abc import Callable, Generator, Iterator
from itertools import accumulate, chain, count
from typing import Any, BinaryIO, NamedTuple

import msgspec

from tabletape.tape.codec import BOM, MAX_LINE, Codec, digest
from tabletape.tape.errors import (
    ChainError,
    LogFormatError,
    MissingNewline,
    TapeError,
    TornTail,
    UsageError,
)
from tabletape.tape.events import MAX_EVENTS, Event

TAIL_CHUNK = 1 << 16  # bytes read back from the end of a file at a time


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


def open_log(path: str) -> BinaryIO:
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
    line) or ChainError, after yielding every record before it. Reads a block of lines at
    a time (never the whole file). With `start`, reading begins at a line whose
    predecessor's tail is known. `opened`: the log, already open (a file object; the caller
    closes it). Nothing is opened or read until the first record is asked for.
    """
    # The records of each block are yielded by `chain` (C): no generator frame resumes per
    # line, only per block (`read_blocks`).
    return chain.from_iterable(read_blocks(path, codec_for, max_line=max_line, start=start,
                                           opened=opened))


def read_blocks(path: str, codec_for: Callable[[bytes, str], Codec],
                *, max_line: int = MAX_LINE, start: Resume | None = None,
                opened: Any = None) -> Iterator[list[Record]]:
    """Yields the log's records a block of lines at a time (lists, none empty), in order,
    as `read_records` yields them one at a time: a problem is raised after the list of
    the records before it in its block."""
    with open_log(path) if opened is None else contextlib.nullcontext(opened) as f:
        at = _Cursor(0, 0, None, None) if start is None else \
            _Cursor(start.offset, start.tail.seq + 1, start.tail.head, start.codec)
        f.seek(at.offset)
        for chunk in _chunks(f, max_line):
            if at.codec is None:  # the header names the codec of every later line
                first = chunk.find(b"\n") + 1 or len(chunk)
                at = yield from _strict(chunk[:first], at, path, codec_for, max_line)
                chunk = chunk[first:]
            records = _decode_block(chunk, at, max_line) if chunk else []
            if records is None:  # something is wrong in this block: find it line by line
                at = yield from _strict(chunk, at, path, codec_for, max_line)
                continue
            if records:
                yield records
                last = records[-1]
                at = _Cursor(last.offset + len(last.raw) + 1, last.line, last.digest, at.codec)
        if at.line == 0:
            raise LogFormatError("empty file: no header line", file=path, line=1, offset=0)


def _strict(chunk: bytes, at: _Cursor, path: str, codec_for: Callable[[bytes, str], Codec],
            max_line: int) -> Generator[list[Record], None, _Cursor]:
    """Yields the records of a block read line by line (one list), raising at its first
    problem after yielding those before it; returns the cursor."""
    out: list[Record] = []
    try:
        at = _check_lines(chunk, at, path, codec_for, max_line, out)
    except TapeError:
        if out:
            yield out
        raise
    if out:
        yield out
    return at


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


BLOCK = 1 << 20  # bytes read at a time (a block of whole lines)


def _chunks(f: BinaryIO, max_line: int) -> Iterator[bytes]:
    """Yields the file in blocks of whole lines; a last block without a newline is torn or too long."""
    rest = b""
    size = BLOCK >> 4  # small first: a reader may want only the next few lines
    while True:
        data = f.read(size)
        size = min(size * 2, BLOCK)
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
# surrogate cannot be decoded at all. tests/games/test_fast_paths.py checks this against UNSAFE
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
    # (no line of a block is longer than the block)
    if (len(chunk) > max_line and max(map(len, bodies)) > max_line) \
            or at.line + len(bodies) > MAX_EVENTS:
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
                 codec_for: Callable[[bytes, str], Codec], max_line: int,
                 out: list[Record]) -> _Cursor:
    """Appends the records of a block to `out` line by line, raising at its first problem;
    returns the cursor."""
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
                raise MissingNewline(f"last line is a complete event without its final "
                                     f"newline, as an editor may save a file; `tabletape "
                                     f"repair {path}` {MissingNewline.repairs}", file=path,
                                     line=line, offset=offset)
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
        event = (codec.decode_header if line == 1 else codec.decode)(body, path, line, offset)
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
        out.append(Record(line, offset, body, prev, event))
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
            rest = f.read(TAIL_CHUNK + 1)
    except OSError:
        return False
    return 0 < len(rest) <= TAIL_CHUNK and not rest.replace(b"\r\n", b"\n").strip(b"\n")


def _settled(f: BinaryIO, limit: int) -> bytes:
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
        start = max(0, end - TAIL_CHUNK)
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

