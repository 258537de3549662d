"""Writing a log: creating it (never over a file) and appending under its exclusive lock.

Every line is encoded, bounded and checked as the reader would check it before any
is written: all of a batch is written or none. An append keeps the log's custody
(tape.custody) when a reader has vouched for it.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterable

import msgspec

from tabletape.tape import files
from tabletape.tape.codec import MAX_LINE, Codec, digest, split_path
from tabletape.tape.custody import Stamp, keep_custody
from tabletape.tape.errors import LogFormatError, StaleWriter, UsageError
from tabletape.tape.events import MAX_EVENTS, Event
from tabletape.tape.reader import Tail, read_tail


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
        reason, field = split_path(str(e))
        raise UsageError(f"the event would break the schema: {reason}; nothing was written",
                         file=path, seq=seq, field=field) from None


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
    fd = open_locked(path, os.O_RDWR | os.O_APPEND)
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
        keep_custody(path, fd, before, settle=durable)
        return Tail(seq, head)
    finally:
        os.close(fd)  # closing releases the lock


def open_locked(path: str, flags: int) -> int:
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
