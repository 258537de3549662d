"""Repairing a log: undoing what an interrupted write or an editor did, losing no byte.

A torn last line is moved aside; editor damage (CRLF, a BOM, empty lines at the end,
a missing last newline) is undone only where the hash chain proves every line as
recorded, the original kept whole beside the log. Under the writer's lock.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO, NamedTuple

import msgspec

from tabletape.tape import files
from tabletape.tape.codec import BOM, MAX_LINE, Codec, digest
from tabletape.tape.errors import TapeError, UsageError
from tabletape.tape.reader import BLOCK, TAIL_CHUNK, read_records
from tabletape.tape.words import listed
from tabletape.tape.writer import open_locked


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
    fd = open_locked(path, os.O_RDWR)
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
        block = os.pread(fd, min(BLOCK, end - start), start)
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
        block = os.pread(fd, min(BLOCK, size - at), at)
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


def _bodies(f: BinaryIO, edits: _Edits) -> Iterator[bytes]:
    """Yields a log's lines without a BOM, CRs before newlines and empty lines at the end.

    Reads a block at a time. An empty line followed by others is yielded as it is
    (the chain refuses it); what follows the last newline is left in `edits.last`, or
    counted in `edits.overlong` when longer than a line can be (it is never held whole;
    such a line followed by others raises _TooLong).
    """
    rest, pending, first = b"", 0, True
    for block in iter(lambda: f.read(BLOCK), b""):
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
    what = listed(edits.named(counted=False)) or "editor damage"
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
        start = max(0, end - TAIL_CHUNK)
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
