"""The JSONL file: streaming read, canonical check, hash chain, durable append, repair.

Nothing here knows a game: the caller passes `codec_for`, which turns the raw
header line into the `Codec` (decoder and encoder) for that game's events.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

import msgspec

from tabletape.errors import ChainError, LogFormatError, StaleWriter, TornTail, UsageError
from tabletape.events import Event

MAX_LINE = 1 << 20  # bytes per line, newline excluded; a longer line is refused unread
MAX_EVENTS = 10_000_000  # the schema's bound on seq
_TAIL_CHUNK = 1 << 16


class Codec:
    """Decodes one game's lines strictly and re-encodes them canonically."""

    def __init__(self, union: object):
        self.decoder = msgspec.json.Decoder(union)
        self.encoder = msgspec.json.Encoder()

    def decode(self, body: bytes, file: str, line: int, offset: int) -> Event:
        """Returns the event on a line, or raises LogFormatError naming what is wrong."""
        try:
            return self.decoder.decode(body)
        except msgspec.ValidationError as e:
            raise _format_error(str(e), file, line, offset, body, schema=True) from None
        except msgspec.DecodeError as e:
            raise _format_error(f"invalid JSON: {e}", file, line, offset, body) from None
        except UnicodeDecodeError as e:
            raise LogFormatError(f"not UTF-8: {e.reason}", file=file, line=line,
                                 offset=offset + _bad_utf8(body, e.start)) from None
        except RecursionError:
            raise LogFormatError("nested too deeply", file=file, line=line, offset=offset) from None

    def encode(self, event: Event) -> bytes:
        return self.encoder.encode(event)


def _bad_utf8(body: bytes, fallback: int) -> int:
    """Returns where in a line its UTF-8 breaks (msgspec counts from the string's start)."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return fallback


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
    if body.startswith(b"\xef\xbb\xbf"):
        msg = "starts with a byte-order mark (BOM); lines must be plain UTF-8 JSON"
    elif not body:
        msg = "empty line"
    return LogFormatError(msg, file=file, line=line, offset=offset, field=field)


def digest(body: bytes) -> str:
    """Returns the chain hash of a line (its bytes without the newline)."""
    return hashlib.sha256(body).hexdigest()


class Record(NamedTuple):
    """One line of a log: where it is, its bytes, its hash and its event."""

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


def read_records(path: str, codec_for: Callable[[bytes, str], Codec],
                 *, max_line: int = MAX_LINE) -> Iterator[Record]:
    """Yields the log's records one line at a time, checking format, canonical form and chain.

    Raises at the first problem: LogFormatError (TornTail for an unterminated last
    line) or ChainError. Never holds more than one line in memory.
    """
    with open_log(path) as f:
        offset = 0
        line = 0
        prev: str | None = None
        codec: Codec | None = None
        while True:
            raw = f.readline(max_line + 1)
            if not raw:
                if line == 0:
                    raise LogFormatError("empty file: no header line", file=path, line=1, offset=0)
                return
            line += 1
            if not raw.endswith(b"\n") and len(raw) <= max_line:
                raw += _settled(f, max_line + 1 - len(raw))  # a writer may be mid-line
            if not raw.endswith(b"\n"):
                if len(raw) > max_line:
                    raise LogFormatError(f"line longer than {max_line} bytes", file=path,
                                         line=line, offset=offset)
                raise TornTail(f"torn last line: {len(raw)} bytes without a newline "
                               f"(an interrupted write); run `tabletape repair {path}`",
                               file=path, line=line, offset=offset)
            body = raw[:-1]
            if codec is None:
                codec = codec_for(body, path)
            event = codec.decode(body, path, line, offset)
            canonical = codec.encode(event)
            if canonical != body:
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
    try:
        seq = msgspec.json.decode(body, type=_SeqProbe).seq
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as e:
        raise LogFormatError(f"last line is unreadable: {e}", offset=size - len(body) - 1) from None
    return Tail(seq, digest(body))


class _SeqProbe(msgspec.Struct):
    seq: int = -1


def create(path: str, header: Event, codec: Codec) -> Tail:
    """Writes a new log holding only its header; never overwrites an existing file."""
    line = codec.encode(msgspec.structs.replace(header, seq=0, prev=None)) + b"\n"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise UsageError(f"{path} already exists; tabletape never overwrites a log",
                         file=path) from None
    except OSError as e:
        raise UsageError(f"cannot create {path}: {e.strerror}", file=path) from None
    try:
        _write_all(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)
    _fsync_dir(path)
    return Tail(0, digest(line[:-1]))


def _fsync_dir(path: str) -> None:
    dfd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


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
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
    except FileNotFoundError:
        raise UsageError(f"no such log file: {path}", file=path) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
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
        for event in events:
            seq += 1
            body = codec.encode(msgspec.structs.replace(event, seq=seq, prev=head))
            _write_all(fd, body + b"\n")
            head = digest(body)
        if durable:
            os.fsync(fd)
        return Tail(seq, head)
    finally:
        os.close(fd)  # closing releases the lock


def repair(path: str) -> tuple[int, str | None]:
    """Moves a torn last line to FILE.torn (or .torn.N); returns (bytes moved, where)."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        raise UsageError(f"no such log file: {path}", file=path) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.lseek(fd, 0, os.SEEK_END)
        keep = _last_newline_end(fd, size)
        if keep == size:
            return 0, None
        torn = os.pread(fd, size - keep, keep)
        aside = _free_name(path + ".torn")
        afd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            _write_all(afd, torn)
            os.fsync(afd)
        finally:
            os.close(afd)
        _fsync_dir(aside)
        os.ftruncate(fd, keep)
        os.fsync(fd)
        return len(torn), aside
    finally:
        os.close(fd)


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
