"""What-if play: a new log that starts as a byte-for-byte prefix of another.

A branch holds its parent's lines 0..SEQ exactly, so it has the same chain and the
same head at SEQ; appending to it goes on from there like any log. `shared` finds
how far two logs agree, line by line (the hash chain makes equal lines at seq K mean
equal lines before it too).
"""

from __future__ import annotations

from typing import NamedTuple

import msgspec

from tabletape import engine
from tabletape.engine.index import check_later
from tabletape.tape import files
from tabletape.tape import log as tapelog
from tabletape.tape.errors import TornTail, UsageError


class Shared(NamedTuple):
    """Two logs agree on lines 0..seq (byte for byte); head is line seq's hash."""

    seq: int
    head: str


def branch(parent: str, seq: int, new: str) -> Shared:
    """Writes `new` holding `parent`'s lines 0..seq; never overwrites; returns the head at seq.

    The parent is read whole (format and chain, not rules): a parent broken anywhere
    is refused. Broken before seq, a branch would copy the break; broken after it, the
    lines before the break may have been changed too (a break shows that the file was
    edited, not where), and `verify --parent` could then certify a copy of an edit.
    """
    if seq < 0:
        raise UsageError(f"@{seq}: a seq is 0 (the header) or more", file=parent)
    files.check_target(new, reading=(parent,), exists=tapelog.NEVER_OVERWRITES)
    result = check_later(engine.read_chain(parent, to=seq), seq)
    if result.error is not None and (result.error.line is None or result.error.line <= seq + 1):
        raise result.error
    if result.tail is None or result.tail.seq < seq:
        end = result.tail.seq if result.tail is not None else -1
        raise UsageError(f"{parent} has no seq {seq} (it ends at seq {end})", file=parent)
    broken = result.error or result.later
    if broken is not None:
        why = ("" if isinstance(broken, TornTail) else  # its reason says `repair` already
               " (a break shows that the log was changed, not where)")
        raise type(broken)(f"{broken.reason}; no branch is made of a broken log{why}",
                           file=broken.file, line=broken.line, seq=broken.seq,
                           offset=broken.offset, field=broken.field)
    with open(parent, "rb") as f:
        lines = [f.readline() for _ in range(seq + 1)]
    data = b"".join(lines)
    head = tapelog.digest(lines[-1].rstrip(b"\n"))
    assert head == result.tail.head, "the parent changed while it was read"
    files.write(new, data, reading=(parent,), exists=tapelog.NEVER_OVERWRITES)
    return Shared(seq, head)


def shared(a: str, b: str) -> Shared | None:
    """Returns the last seq at which two logs hold the same line (and its hash), or None."""
    last: Shared | None = None
    with open(a, "rb") as fa, open(b, "rb") as fb:
        seq = 0
        while True:
            la, lb = fa.readline(tapelog.MAX_LINE + 1), fb.readline(tapelog.MAX_LINE + 1)
            if not la or la != lb or not la.endswith(b"\n"):
                return last
            last = Shared(seq, tapelog.digest(la[:-1]))
            seq += 1


class Branched(msgspec.Struct, frozen=True):
    """`branch --json`: the new log, its parent, the seq they share to and its head."""

    file: str
    parent: str
    seq: int
    head: str


def branched(parent: str, seq: int | None, spec: str, new: str) -> Branched:
    """Writes `new` as a branch of `parent` at `seq` (`spec` names the point: FILE@SEQ)."""
    if seq is None:
        raise UsageError(f"{spec}: name the point to branch at, FILE@SEQ")
    done = branch(parent, seq, new)
    return Branched(new, parent, done.seq, done.head)
