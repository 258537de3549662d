"""The one door for every file tabletape writes: whole or not at all, and never over a record.

A file is written to a temporary file made with O_EXCL beside its target (a planted
name or symlink is never followed), synced, and renamed into place; on any failure
the temporary file is removed and the error names the target, not the temporary
file. An existing target is kept unless the caller forces it, and a log being read
is never a target, forced or not, whatever name (or symlink) reaches it.

Appends to a log are not whole-file writes: they go through tape/writer.py's lock.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from typing import BinaryIO, TypedDict, Unpack

from tabletape.tape.errors import TapeError, UsageError


def same_file(a: str, b: str) -> bool:
    """Returns True when two paths reach the same file (through symlinks, hard links)."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def check_target(target: str, *, force: bool = False, reading: Iterable[str] = (),
                 exists: str | None = None) -> None:
    """Raises UsageError when `target` may not be written: it is a file being read, or it
    exists and `force` is not given (`exists`: the refusal's reason, to say why)."""
    for source in reading:
        if same_file(target, source):
            which = "the file being read" if os.path.abspath(target) == os.path.abspath(
                source) else f"the same file as {source}, which is being read"
            raise UsageError(f"{target} is {which}; tabletape never writes over its input, "
                             "even with --force", file=target)
    if os.path.isdir(target):
        raise UsageError(f"cannot write {target}: it is a folder", file=target)
    if not force and os.path.lexists(target):
        raise UsageError(_exists(target, exists), file=target)


def _exists(target: str, why: str | None) -> str:
    return f"{target} already exists; " + (why or "pass --force to replace it")


@contextlib.contextmanager
def writing(target: str, *, force: bool = False, reading: Iterable[str] = (),
            mode: int | None = None, durable: bool = True,
            exists: str | None = None) -> Iterator[BinaryIO]:
    """Yields a binary file whose bytes become `target` once the block ends without error.

    `force` replaces an existing target (keeping its permission bits unless `mode` is
    given); without it an existing target is refused, also one that appears while
    writing. `reading` names the files being read: none of them is ever replaced.
    `durable` syncs the file and its folder (a derived file may skip it: it is never
    trusted for bytes it has not checked). The file's `name` is the temporary file's path,
    for a caller that reads back what it wrote before it takes the target's place.
    """
    reading = tuple(reading)
    check_target(target, force=force, reading=reading, exists=exists)
    folder = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                   dir=folder)
    except OSError as e:
        raise _cannot(target, e) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.raw.name = tmp  # type: ignore[attr-defined]  # to read back before committing
            os.fchmod(f.fileno(), _mode(target, force, mode))
            yield f
            f.flush()
            if durable:
                os.fsync(f.fileno())
        check_target(target, force=force, reading=reading, exists=exists)  # it may have moved
        _commit(tmp, target, force, exists)
        if durable:
            _sync_folder(folder)
    except OSError as e:
        if e.filename not in (None, tmp, target):
            raise  # another file's error (the caller's input): it names its own file
        raise _cannot(target, e) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


class How(TypedDict, total=False):
    """How `writing` writes: its keywords, which `write` passes on."""

    force: bool
    reading: Iterable[str]
    mode: int | None
    durable: bool
    exists: str | None


def write(target: str, data: bytes | Iterable[bytes], **how: Unpack[How]) -> None:
    """Writes `data` (bytes, or chunks of them) to `target` through `writing` (same options)."""
    with writing(target, **how) as f:
        if isinstance(data, (bytes, bytearray, memoryview)):
            f.write(data)
        else:
            for chunk in data:
                f.write(chunk)


def _commit(tmp: str, target: str, force: bool, exists: str | None) -> None:
    """Moves the finished file into place: atomically, and without force never over a file."""
    if force:
        os.replace(tmp, target)
        return
    try:
        os.link(tmp, target)  # fails if `target` appeared meanwhile: nothing is overwritten
    except FileExistsError:
        raise UsageError(_exists(target, exists), file=target) from None
    except OSError:  # a file system without hard links: the check above has to do
        if os.path.lexists(target):
            raise UsageError(_exists(target, exists), file=target) from None
        os.replace(tmp, target)


def _mode(target: str, force: bool, mode: int | None) -> int:
    if mode is not None:
        return mode
    if force:
        with contextlib.suppress(OSError):
            return os.stat(target).st_mode & 0o7777
    return 0o644 & ~_umask()  # as a file opened for writing would be (mkstemp makes 0600)


def _umask() -> int:
    """Returns the process's umask (reading it means setting it: put straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_folder(folder: str) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _cannot(target: str, e: OSError) -> TapeError:
    return UsageError(f"cannot write {target}: {e.strerror or e}", file=target)


__all__ = ["check_target", "same_file", "write", "writing"]
