"""What-if play: a new log that starts as a byte-for-byte prefix of another.

A branch holds its parent's lines 0..SEQ exactly, so it has the same chain and the
same head at SEQ; appending to it goes on from there like any log. `shared` finds
how far two logs agree, line by line (the hash chain makes equal lines at seq K mean
equal lines before it too).
"""

from __future__ import annotations

import os
from typing import NamedTuple

from tabletape import engine
from tabletape.tape import log as tapelog
from tabletape.tape.errors import UsageError


class Shared(NamedTuple):
    """Two logs agree on lines 0..seq (byte for byte); head is line seq's hash."""

    seq: int
    head: str


def branch(parent: str, seq: int, new: str) -> Shared:
    """Writes `new` holding `parent`'s lines 0..seq; never overwrites; returns the head at seq.

    The parent is read (format and chain, not rules) up to seq: a parent broken there
    is refused, since a branch would copy the break.
    """
    if seq < 0:
        raise UsageError(f"@{seq}: a seq is 0 (the header) or more", file=parent)
    result = engine.read_chain(parent, to=seq)
    if result.error is not None and (result.error.line is None or result.error.line <= seq + 1):
        raise result.error
    if result.tail is None or result.tail.seq < seq:
        end = result.tail.seq if result.tail is not None else -1
        raise UsageError(f"{parent} has no seq {seq} (it ends at seq {end})", file=parent)
    with open(parent, "rb") as f:
        lines = [f.readline() for _ in range(seq + 1)]
    data = b"".join(lines)
    head = tapelog.digest(lines[-1].rstrip(b"\n"))
    assert head == result.tail.head, "the parent changed while it was read"
    directory = os.path.dirname(os.path.abspath(new))
    tmp = os.path.join(directory, f".{os.path.basename(new)}.branch-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(tmp, new)  # fails if `new` exists: a log is never overwritten
        except FileExistsError:
            raise UsageError(f"{new} already exists; tabletape never overwrites a log",
                             file=new) from None
    finally:
        os.unlink(tmp)
    return Shared(seq, head)


def shared(a: str, b: str) -> Shared | None:
    """Returns the last seq at which two logs hold the same line (and its hash), or None."""
    last: Shared | None = None
    with open(a, "rb") as fa, open(b, "rb") as fb:
        seq = 0
        while True:
            la, lb = fa.readline(), fb.readline()
            if not la or la != lb or not la.endswith(b"\n"):
                return last
            last = Shared(seq, tapelog.digest(la[:-1]))
            seq += 1
