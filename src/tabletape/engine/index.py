"""A checkpoint index beside a long log, so that reading its state at any seq is quick.

The index is a derived file, `.NAME.tabletape-index` beside `NAME`: every
INDEX_EVERY events, the offset of the next line, the hash of the line at the
checkpoint, and the fold at that point (its state, and what `undone` can still
reach: the state below the undo stack and the events on it). It is never required
and never trusted blindly. Starting from a checkpoint skips the lines before it, so
it is used only when it is sealed with this user's key (tape.seal: its table of
contents, and each snapshot with its checkpoint's place, so that no one without the
key can edit it and recompute a checksum), was built by this code, for this log's
header, and the log's custody (tape.custody: `watch`, `vouch`, `unchanged`) shows that nothing but
tabletape's appends has written the log since the index was written from what
was read; the line at the checkpoint must also still hash to what it recorded.
Reading then goes on from there with the usual checks. Anything else (missing,
stale, torn, edited, truncated, replaced) and the log is replayed from line 1, and
the index rewritten. `validate` and `verify` never use it: they read every line.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO, NamedTuple

import msgspec

from tabletape import __version__
from tabletape.engine import fingerprint, reading, registry
from tabletape.engine.fold import restore, snapshot
from tabletape.engine.protocol import Ruleset
from tabletape.engine.reading import OnLine, Replay, Step, Visitor, watching
from tabletape.tape import codec, custody, files, reader, seal
from tabletape.tape.errors import TapeError, UnknownGame, UsageError
from tabletape.tape.events import Header

INDEX_EVERY = 1024  # events between checkpoints: folding on from one takes a few ms
INDEX_MIN = 16_384  # shorter logs replay from line 1 in well under 100 ms; no file for them
# No line after the header is shorter (`{"type":"x","seq":1,"prev":"<64 hex>"}` and its newline):
# a log smaller than INDEX_MIN * MIN_LINE bytes cannot hold enough events to be indexed.
MIN_LINE = 90
SUFFIX = ".tabletape-index"
MAX_TOC = 16 << 20  # the table of contents of 10,000,000 events is about 1.3 MB
VERSION = 3  # 2: the custody epoch it was written under; 3: sealed with the user's key


def index_path(log_path: str) -> str:
    """Returns where the index of a log lives: a hidden file beside it."""
    head, name = os.path.split(log_path)
    return os.path.join(head, f".{name}{SUFFIX}")


def is_index(path: str) -> bool:
    """Returns True for an index or custody file (so that a glob does not take it for a log)."""
    name = os.path.basename(path)
    return name.startswith(".") and name.endswith((SUFFIX, custody.CUSTODY_SUFFIX))


class Checkpoint(msgspec.Struct, array_like=True):
    """The fold after line `seq`; `digest` is that line's hash, found at `line_offset`."""

    seq: int
    line_offset: int
    offset: int  # of the next line
    digest: str
    at: int  # where its snapshot lies among the snapshots, and its size
    size: int
    check: str  # seals the snapshot to its line and place: a torn, shuffled or forged one is caught


def _check(seq: int, line_offset: int, offset: int, digest: str, fold: bytes) -> str | None:
    """Returns the seal of a checkpoint's snapshot with its place in the log (None: no key)."""
    tag = seal.tag(f"{seq} {line_offset} {offset} {digest}".encode(), bytes(fold))
    return tag.hex() if tag is not None else None


class IndexFile(msgspec.Struct, array_like=True):
    """The table of contents; the snapshots follow it, read one at a time when needed."""

    version: int
    code: str  # fingerprint of the rules code that built it
    header: str  # hash of line 1: which log this is the index of
    epoch: str | None  # the log's custody when written: it is trusted only while that holds
    checkpoints: list[Checkpoint]


class Loaded(NamedTuple):
    checkpoints: list[Checkpoint]
    base: int  # the offset of the first snapshot in the file


MAGIC = b"tabletape-index\n"  # then the size of the table of contents (8 bytes), its seal, it
HEAD_SIZE = len(MAGIC) + 8 + seal.TAG_SIZE


# -- reading and writing the index -----------------------------------------------------

def code_fingerprint(rs: Ruleset[Any, Any, Any]) -> str:
    """Returns a fingerprint of the code a checkpoint depends on (changed code: stale index):
    the content of the rules code (`fingerprint`), the ruleset and tabletape's version."""
    h = hashlib.sha256(f"{__version__} {rs.id} {rs.version} ".encode())
    h.update(fingerprint.code_fingerprint(type(rs).__module__).encode())
    return h.hexdigest()


def load(path: str, rs: Ruleset[Any, Any, Any], header_digest: str,
         seen: custody.Watch | None = None) -> Loaded:
    """Returns the checkpoints of a log's index; none when it is missing, torn or stale.

    Stale includes a log changed since the index was written by anything but
    tabletape's own appends (`seen`: the log as the caller found it; by default now).
    """
    none = Loaded([], 0)
    try:
        with open(index_path(path), "rb") as f:
            head = f.read(HEAD_SIZE)
            if len(head) != HEAD_SIZE or not head.startswith(MAGIC):
                return none
            size = int.from_bytes(head[len(MAGIC):len(MAGIC) + 8], "little")
            toc = f.read(min(size, MAX_TOC))
            if len(toc) != size or not seal.holds(head[len(MAGIC) + 8:], toc):
                return none  # torn, or not written by this user's tabletape
            data = msgspec.msgpack.decode(toc, type=IndexFile)
    except Exception:  # noqa: BLE001 - whatever it holds, an index only ever costs speed
        return none
    if (data.version, data.code, data.header) != (VERSION, code_fingerprint(rs), header_digest):
        return none
    if seen is None:
        seen = custody.Watch(custody.Stamp.of(os.stat(path)), False, custody.read_custody(path))
    if not custody.unchanged(data.epoch, seen):
        return none
    return Loaded(data.checkpoints, HEAD_SIZE + size)


def _snapshot_of(path: str, base: int, cp: Checkpoint) -> bytes | None:
    """Returns a checkpoint's snapshot from the index file, or None if it is not the one recorded."""
    try:
        with open(index_path(path), "rb") as f:
            f.seek(base + cp.at)
            snap = f.read(cp.size)
    except OSError:
        return None
    if len(snap) != cp.size:
        return None
    check = _check(cp.seq, cp.line_offset, cp.offset, cp.digest, snap)
    return snap if check is not None and check == cp.check else None


def save(path: str, rs: Ruleset[Any, Any, Any], header_digest: str, old: Loaded,
         new: list[tuple[Checkpoint, bytes]], epoch: str) -> None:
    """Writes the index atomically (temp file, then rename); a failure only costs speed.

    The snapshots of `old` are copied from the current index file, then `new` follow.
    `epoch` is the log's custody that vouches for the bytes the checkpoints were read from.
    """
    target = index_path(path)
    try:
        kept = b""
        if old.checkpoints:
            end = max(c.at + c.size for c in old.checkpoints)
            with open(target, "rb") as f:
                f.seek(old.base)
                kept = f.read(end)
            if len(kept) != end:
                return
        blobs = [kept]
        checkpoints = list(old.checkpoints)
        for cp, snap in new:
            checkpoints.append(msgspec.structs.replace(cp, at=sum(map(len, blobs)),
                                                       size=len(snap)))
            blobs.append(snap)
        toc = msgspec.msgpack.encode(IndexFile(VERSION, code_fingerprint(rs), header_digest,
                                               epoch, checkpoints))
        sealed = seal.tag(toc)
        if sealed is None or len(toc) > MAX_TOC:  # no key: an index no one could trust
            return
        files.write(target, [MAGIC + len(toc).to_bytes(8, "little") + sealed + toc, *blobs],
                    force=True, durable=False)
    except (OSError, TapeError):
        pass


def _holds(f: BinaryIO, cp: Checkpoint) -> bool:
    """Returns True when the log still has, at the checkpoint's offset, the line it recorded."""
    size = cp.offset - cp.line_offset
    if not 0 < size <= codec.MAX_LINE + 1:
        return False
    f.seek(cp.line_offset)
    raw = f.read(size)
    return raw.endswith(b"\n") and codec.digest(raw[:-1]) == cp.digest


class _Opened(NamedTuple):
    """A log as found before reading it: its game, its header, and where reading may start."""

    rs: Ruleset[Any, Any, Any]
    header: Any
    head0: str  # the hash of line 1
    seen: custody.Watch  # before anything is read: what the index may rely on
    old: Loaded  # the index's checkpoints, if it may be trusted
    start: Checkpoint | None  # the last usable one (up to `to`), its line checked
    f: Any = None  # the log, open (while `state_at` reads it), or None: opened when needed


def _open(path: str, to: int | None, opened: Any = None) -> _Opened | None:
    """Returns a log's header and the checkpoint to start from; None when line 1 does not
    read (the plain read from line 1 reports what is wrong). `opened`: the log, already
    open (the caller closes it)."""
    with reader.open_log(path) if opened is None else contextlib.nullcontext(opened) as f:
        f.seek(0)
        first = f.readline(codec.MAX_LINE + 1)
        if not first.endswith(b"\n"):
            return None
        try:
            rs = registry.ruleset_for(first[:-1], path)
            # The header's own codec accepts what the game's does on line 1, and is quicker
            # to build; a line it refuses is read again from line 1, which names the error.
            header = codec.Codec(rs.Header).decode(first[:-1], path, 1, 0)
            assert isinstance(header, Header)  # line 1 decodes as the game's header
            registry.check_header(rs, header, path)
        except (UnknownGame, UsageError):
            raise
        except TapeError:
            return None
        head0 = codec.digest(first[:-1])
        seen = custody.watch(f.fileno(), path)
        old = load(path, rs, head0, seen)
        usable = [c for c in old.checkpoints if to is None or c.seq <= to]
        start = usable[-1] if usable else None
        if start is not None and not _holds(f, start):
            old, start = Loaded([], 0), None  # the log changed under the index: rebuild it
    return _Opened(rs, header, head0, seen, old, start, opened)


# -- the state at a seq, from the index -----------------------------------------------------

def state_at(path: str, *, to: int | None = None, visit: OnLine | None = None,
             check_after: bool = False, version: str | None = None,
             components: Any = None, visitor: Visitor | None = None) -> Replay:
    """Returns what `reading.replay(path, to=to)` returns, starting from a checkpoint if one
    fits: for a caller that needs the state, the undo stack and the problems in effect but
    not every earlier event's fate (rulings on old disputes). Extends or writes the index.

    The fold is `partial` when it starts from a checkpoint: its state, undo stack and
    problems are whole, its history for rulings (retracted, disputes) is not.
    `check_after` also checks the lines after `to` for format and chain (`check_later`).
    `version` judges by other rules than the recorded ones, `components` with other
    component data than the header's: a full replay (the checkpoints hold states under
    the recorded rules and the header's values), which neither reads nor writes the index.
    `visitor` (judging, to its `to`) says what the pass is for instead of `to` and `visit`.
    """
    visitor = visitor or watching(visit, to)
    to = visitor.to
    with reader.open_log(path) as f:  # the log is opened once
        opened = _open(path, to, f) if version is None and components is None else None
        # A log read from line 1 that is too short to be indexed is read on past `to` in
        # the same pass, for format and chain only (`ReadOn`): the log is read once.
        on = check_after and to is not None and (opened is None or opened.start is None and
                                                 opened.seen.stamp.size < INDEX_MIN * MIN_LINE)
        walker = ReadOn(visitor) if on else visitor
        if opened is None:
            records = reader.read_records(path, registry.codec_for, opened=f)
            if components is not None:
                records = reading.with_components(records, components)
            result = reading.walk(Replay(path, version=version), records, walker)
        else:
            result = _state_of(path, opened, walker)
        if on and to is not None:
            ReadOn.later(result, to)
        elif check_after:
            check_later(result, to, opened)  # the index as found, not read again
    return result


class ReadOn(Visitor):
    """Another visitor's pass to its `to`, then on to the end for format and chain only: a
    break after `to` is the replay's `later` (`ReadOn.later`), not its error."""

    def __init__(self, inner: Visitor) -> None:
        super().__init__(inner.to)
        self.inner = inner

    def start(self, result: Replay) -> None:
        super().start(result)
        self.inner.start(result)

    def lines(self, records: Iterable[reader.Record]) -> Iterable[reader.Record]:
        return self.inner.lines(records)

    def header(self, rec: reader.Record) -> None:
        self.inner.header(rec)
        self.fold = self.inner.fold

    def step(self) -> Step | None:
        return self.inner.step()

    def past(self, rec: reader.Record) -> bool:
        return True

    @staticmethod
    def later(result: Replay, to: int) -> None:
        """Moves an error read past `to` from `result.error` to `result.later`."""
        e = result.error
        if e is not None and e.line is not None and e.line > to + 1:
            result.later, result.error = e, None


def replay_to(path: str, visitor: Visitor, version: str | None = None) -> Replay:
    """Returns `reading.replay` of a log from line 1 to the visitor's `to`, the lines after it
    checked for format and chain (`later`): in the same pass when the log is too short to be
    indexed (`ReadOn`: the log is read once), else as `check_later` checks them (the index
    vouching for the lines up to its last checkpoint)."""
    to = visitor.to
    try:
        small = os.path.getsize(path) < INDEX_MIN * MIN_LINE
    except OSError:
        small = True  # (reading it says what is wrong)
    if to is None or not small:
        return check_later(reading.replay(path, version=version, visitor=visitor), to)
    result = reading.replay(path, version=version, visitor=ReadOn(visitor))
    ReadOn.later(result, to)
    return result


def check_later(result: Replay, to: int | None, opened: _Opened | None = None) -> Replay:
    """Sets `result.later` to a format or chain error in the lines after `to`, if any (the
    lines up to the index's last checkpoint vouched for by it: `later_break`); returns it."""
    if to is not None and result.error is None and result.events > to:
        result.later = later_break(result.file, opened)
    return result


def _state_of(path: str, opened: _Opened, visitor: Visitor) -> Replay:
    """Returns the replay of an opened log, from its checkpoint if any; extends the index."""
    rs, header, head0, seen, old, start, f = opened
    result = _resume(path, rs, header, old.base, start) if start is not None else None
    if result is None or start is None:
        if start is not None:
            old = Loaded([], 0)  # a torn or foreign snapshot: rebuild the index
        result = Replay(path)
        records = reader.read_records(path, registry.codec_for, opened=f)
    else:
        resume = reader.Resume(start.offset, reader.Tail(start.seq, start.digest), rs.codec)
        records = reader.read_records(path, registry.codec_for, start=resume, opened=f)
    records = iter(records)
    new = _read_on(result, records, old, visitor)
    if isinstance(visitor, ReadOn) and result.error is None:
        reading.walk(result, records, visitor)  # on past `to`, format and chain only
    if new and result.events >= INDEX_MIN:
        epoch = custody.vouch(path, seen)
        if epoch is not None:  # else the log changed while it was read: no index from it
            save(path, rs, head0, old, new, epoch)
    return result


def _resume(path: str, rs: Ruleset[Any, Any, Any], header: Any, base: int, cp: Checkpoint) -> Replay | None:
    """Returns the replay as it was at a checkpoint, or None for a torn or foreign snapshot."""
    snap = _snapshot_of(path, base, cp)
    if snap is None:
        return None
    try:
        f = restore(snap, rs, header, cp.seq, path)
    except Exception:  # noqa: BLE001 - any error restoring it: read from line 1 instead
        return None
    return Replay(path, ruleset=f.ruleset, header=header, fold=f, head=cp.digest,
                  events=cp.seq + 1)


def _read_on(result: Replay, records: Iterator[reader.Record], old: Loaded, visitor: Visitor
             ) -> list[tuple[Checkpoint, bytes]]:
    """Folds on (the engine's one loop, a checkpoint's worth at a time) up to the visitor's `to`.

    Returns the checkpoints passed beyond the index's last, with their snapshots.
    """
    to = visitor.to
    last = old.checkpoints[-1].seq if old.checkpoints else 0
    new: list[tuple[Checkpoint, bytes]] = []
    while to is None or result.events <= to:
        stop = (result.events // INDEX_EVERY + 1) * INDEX_EVERY  # the next checkpoint's seq
        if to is not None:
            stop = min(stop, to)
        read = result.events
        reading.walk(result, itertools.islice(records, stop - read), visitor)
        if result.error is not None:
            break
        at_stop = _Kept(itertools.islice(records, 1))  # the line at `stop`: a checkpoint's
        reading.walk(result, at_stop, visitor)
        rec = at_stop.last
        if result.error is not None or rec is None:
            break
        seq = rec.line - 1
        if seq % INDEX_EVERY == 0 and seq > last and result.fold is not None:
            snap = snapshot(result.fold)
            offset = rec.offset + len(rec.raw) + 1
            check = _check(seq, rec.offset, offset, rec.digest, snap) if snap is not None else None
            if snap is not None and check is not None:
                new.append((Checkpoint(seq, rec.offset, offset, rec.digest, 0, len(snap), check),
                            snap))
                last = seq
    return new


class _Kept:
    """Yields the records of `records`, keeping the last one yielded (`last`)."""

    def __init__(self, records: Iterator[reader.Record]) -> None:
        self.records = records
        self.last: reader.Record | None = None

    def __iter__(self) -> _Kept:
        return self

    def __next__(self) -> reader.Record:
        self.last = next(self.records)
        return self.last


def common_start(a: str, b: str, a_to: int | None = None,
                 b_to: int | None = None) -> tuple[reader.Resume, reader.Resume] | None:
    """Returns where to start comparing two logs: after their last common checkpoint, if any.

    Two checkpoints with the same line hash mean byte-identical logs up to that line.
    """
    try:
        ia, ib = _checkpoints(a), _checkpoints(b)
    except (OSError, TapeError):
        return None
    if ia is None or ib is None or ia[0] is not ib[0]:
        return None
    limit = min(x for x in (a_to, b_to, 1 << 62) if x is not None)
    theirs = {(c.seq, c.digest, c.offset) for c in ib[1].checkpoints}
    common = [c for c in ia[1].checkpoints
              if (c.seq, c.digest, c.offset) in theirs and c.seq <= limit]
    if not common:
        return None
    cp = common[-1]
    for p in (a, b):
        with open(p, "rb") as f:
            if not _holds(f, cp):
                return None
    resume = reader.Resume(cp.offset, reader.Tail(cp.seq, cp.digest), ia[0].codec)
    return resume, resume


def _checkpoints(path: str) -> tuple[Ruleset[Any, Any, Any], Loaded] | None:
    """Returns a log's ruleset and the checkpoints of its index (unverified), if it has one."""
    with reader.open_log(path) as f:
        first = f.readline(codec.MAX_LINE + 1)
    if not first.endswith(b"\n"):
        return None
    rs = registry.ruleset_for(first[:-1], path)
    return rs, load(path, rs, codec.digest(first[:-1]))


# -- the chain after a point -----------------------------------------------------------------

def later_break(path: str, opened: _Opened | None = None) -> TapeError | None:
    """Returns a format or chain error anywhere in a log, or None: what
    `reading.read_chain(path).error` returns.

    The lines up to the index's last checkpoint are vouched for by the index, as they
    are for `replay --to` (same custody, same checks: the checkpoint's line must still
    hash as recorded); only the lines after it are read, for their format and chain.
    When those could hold two checkpoints' worth of events (or, without a usable index,
    enough for one), they are folded with the rules instead (`state_at`), so that the index
    is extended (or written) and the next check is quick. `opened`: the log as `state_at`
    found it just before (its index, custody and stamp), so as not to read them again.
    """
    if opened is None:
        opened = _open(path, None)
    if opened is None:
        return reading.read_chain(path).error
    cp, size = opened.start, opened.seen.stamp.size
    last = opened.old.checkpoints[-1] if opened.old.checkpoints else None
    if last is not None and last is not cp:  # `state_at` checked the line of its start only
        with reader.open_log(path) if opened.f is None else contextlib.nullcontext(opened.f) as f:
            cp = last if _holds(f, last) else None
    if cp is None:
        if size >= INDEX_MIN * MIN_LINE:  # it may be long enough to be indexed
            return state_at(path).error
        records = reader.read_records(path, registry.codec_for, opened=opened.f)
        return reading.walk(Replay(path), records, reading.Chain()).error
    per_line = cp.offset / (cp.seq + 1)
    if size - cp.offset >= 2 * INDEX_EVERY * per_line:
        return state_at(path).error
    resume = reader.Resume(cp.offset, reader.Tail(cp.seq, cp.digest), opened.rs.codec)
    records = reader.read_records(path, registry.codec_for, start=resume, opened=opened.f)
    return reading.walk(Replay(path), records, reading.Chain()).error  # the one loop, no fold
