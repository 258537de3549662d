"""Custody: what tabletape knows of a log's bytes it has not read.

Beside a log, a record sealed with this user's key (tape.seal) says that since an
epoch began only tabletape has written the log, and how the file system last saw it
(a `Stamp`). A reader that finds the log so may trust what it recorded under that
epoch (the index's checkpoints) without reading the log again.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from typing import NamedTuple

import msgspec

from tabletape.tape import files
from tabletape.tape.errors import TapeError


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


def keep_custody(path: str, fd: int, before: Stamp, *, settle: bool) -> None:
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
