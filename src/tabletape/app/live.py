"""The log as a live page shows it: followed as the file grows (`tabletape serve`).

The log's state follows the file as the index's custody does: its stamp (device,
inode, size, mtime, ctime) taken once the file system's clock has passed its last
change, and its last bytes re-read and compared. A log that can no longer be read
(deleted, emptied, its header broken) is shown as such, never as the state last read.
Each version's page and data are encoded and compressed once, off the event loop, for
every client. The web layer (tabletape.web) serves them; nothing here knows HTTP.

`Folded` is the same following for `serve --play`: one fold of the log, kept, and
advanced by the lines appended since it was last read (one fold step per new line),
whoever appended them (the server, or `tabletape append` from a shell beside it).
"""

from __future__ import annotations

import gzip
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tabletape import engine
from tabletape.app import viewer
from tabletape.engine.index import state_at
from tabletape.tape import log as tapelog
from tabletape.tape.errors import TapeError, UsageError
from tabletape.tape.log import Stamp

# level 6, measured on a 10,000-event log (17.3 MB of JSON): 0.09 s and 616 kB, where
# level 9 took 0.25 s for 561 kB and level 1 0.05 s for 1.19 MB
GZIP_LEVEL = 6
TAIL = 1 << 14  # the last bytes of the log re-read on every look (its head line and more)
SETTLE_NS = 30_000_000  # a file system's clock ticks every 1-10 ms: a stamp this old is final


# -- the log as the page shows it --------------------------------------------------------

@dataclass
class Encoded:
    """One version's page and data, encoded once for every client."""

    page: bytes  # the viewer page, HTML
    data_gz: bytes  # the data, JSON, gzipped (sent as is to every client that takes gzip)
    _data: bytes | None = None

    def data(self) -> bytes:
        """Returns the data as plain JSON (for a client that does not take gzip; kept)."""
        if self._data is None:
            self._data = gzip.decompress(self.data_gz)
        return self._data


@dataclass
class Shown:
    """What the page shows of the log now: its Book and what the file was when read."""

    book: viewer.Book
    stamp: Stamp | None = None  # None: there was no file to stamp
    settled: bool = True  # the stamp was final: any later change gives another one
    tail: bytes = b""  # the log's last bytes when the stamp was taken
    error: Exception | None = None  # why the log cannot be read, if it cannot
    _encoded: Encoded | None = field(default=None, repr=False)
    _encoding: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def version(self) -> str:
        return self.book.version

    def encoded(self) -> Encoded:
        """Returns the page and data of this version, encoded by the first caller only
        (the others wait for it). Slow on a long log: call it off the event loop."""
        with self._encoding:
            if self._encoded is None:
                data = viewer.data_json(self.book, live=True)
                gz = gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
                self._encoded = Encoded(viewer.html_packed(self.book, gz).encode(), gz)
        return self._encoded


def unreadable(path: str, why: str) -> viewer.Book:
    """Returns the Book of a log that cannot be read: no events, and why."""
    return viewer.Book(path, ok=False, verdict=f"unreadable: {why}")


def why(e: Exception) -> str:
    """Returns why a log cannot be read, in a few words (the line, when there is one)."""
    if isinstance(e, FileNotFoundError):
        return "the file is gone (deleted or moved)"
    if isinstance(e, TapeError):
        return f"line {e.line}: {e.reason}" if e.line is not None else e.reason
    if isinstance(e, OSError):
        return e.strerror or type(e).__name__
    return f"{type(e).__name__}: {e}"


def stat(path: str) -> Stamp:
    """Returns the file's stamp now (raises OSError)."""
    return Stamp.of(os.stat(path))


def settled(stamp: Stamp) -> bool:
    """Returns True when the file system's clock has passed the stamp's last change: any
    later change then shows in the stamp."""
    return time.time_ns() - stamp.ctime_ns >= SETTLE_NS


def _stamp(path: str) -> tuple[Stamp, bool]:
    """Returns the log's stamp, waited for (briefly) until the file system's clock has
    passed its last change, and whether it has: then any later change shows in it."""
    for _ in range(10):
        stamp = stat(path)
        age = time.time_ns() - stamp.ctime_ns
        if age >= SETTLE_NS:
            return stamp, True
        if age < 0:  # a ctime ahead of our clock (a remote file system): never final
            return stamp, False
        time.sleep((SETTLE_NS - age) / 1e9)
    return stamp, False


def _tail(path: str, size: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(max(0, size - TAIL))
        return f.read(TAIL)


class Follower:
    """The log's latest state, rebuilt (drawing only new seqs) when the file changes.

    `look` is blocking (a stat and a small read, or a fold of the log): call it off the
    event loop. `told` hears each change of the log's state, one line, for the console.
    """

    def __init__(self, path: str, told: Callable[[str], None] | None = None,
                 rules: str | None = None):
        self.path = path
        self.rules = rules  # the rules version judging (None: the recorded one)
        self.told = told
        self.shown: Shown | None = None
        self.drawn: viewer.Book | None = None  # the last book read: its drawings are reused
        self._lock = threading.Lock()

    def look(self) -> Shown:
        """Returns the log's state now (as last read, when the file is as it was then)."""
        with self._lock:
            shown = self.shown
            if shown is None or not self._same(shown):
                shown = self._read()
                if self.told is not None and (self.shown is None
                                              or shown.book.verdict != self.shown.book.verdict):
                    self.told(self._news(shown))  # valid, broken, unreadable: not every append
                self.shown = shown
            return shown

    def _same(self, shown: Shown) -> bool:
        """Returns True when the file is the one `shown` was read from, unchanged."""
        if not shown.settled:
            return False
        try:
            stamp = stat(self.path)
            return stamp == shown.stamp and _tail(self.path, stamp.size) == shown.tail
        except OSError:
            return shown.stamp is None  # gone, as it was

    def _read(self) -> Shown:
        path = self.path
        try:
            stamp, settled = _stamp(path)
            tail = _tail(path, stamp.size)
        except OSError as e:
            return Shown(unreadable(path, why(e)), error=e)
        try:
            book = viewer.build(path, self.drawn, self.rules)
        except (TapeError, OSError, RecursionError, ValueError) as e:
            # a broken header, an empty file, or a file that is not a log: shown as such
            return Shown(unreadable(path, why(e)), stamp, settled, tail, e)
        except Exception as e:  # a fault of ours: said on the page, never a 500
            fault = f"tabletape failed to read it ({type(e).__name__}: {e}); please report this"
            return Shown(unreadable(path, fault), stamp, settled, tail, e)
        self.drawn = book
        return Shown(book, stamp, settled, tail)

    def _news(self, shown: Shown) -> str:
        book = shown.book
        if not book.events:
            return f"{self.path}: {book.verdict}"
        return f"{self.path}: {book.events} lines (seq 0-{book.events - 1}), {book.verdict}"


# -- one fold of the log, advanced by its new lines (serve --play) ----------------------------

def end_of(path: str, head: str) -> int | None:
    """Returns the byte offset just past the line whose hash is `head`, searched in the log's
    last TAIL*4 bytes (None: not there). A log's lines hash differently (each names its
    predecessor's hash), so the one found is the line folded last."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        start = max(0, size - TAIL * 4)
        f.seek(start)
        chunk = f.read(size - start)
    i = chunk.rfind(b"\n")
    while i >= 0:
        j = chunk.rfind(b"\n", 0, i)
        if j < 0 and start > 0:
            return None  # the line begins before the bytes read
        if tapelog.digest(chunk[j + 1:i]) == head:
            return start + i + 1
        i = j
    return None


class Folded:
    """The log's one fold, kept and advanced by the lines appended since it was last read.

    `look` (blocking: call it off the event loop, under the caller's write lock) stats the
    file. An unchanged, settled stamp reads nothing. A file that grew where the fold ended
    (the same file, the bytes before that point as they were read) is read on from there:
    each new line is one fold step (`steps`). Anything else (rewritten, truncated,
    replaced, a stamp that cannot be trusted) is read again from line 1 (`reads`), so a
    log changed behind the server's back is judged as it is now, never as it was.
    """

    def __init__(self, path: str, rules: str | None = None):
        self.path, self.rules = path, rules
        self.result: engine.Replay | None = None
        self.error: Exception | None = None  # why the log cannot be read now
        self.end: int | None = None  # the byte offset past the last line folded
        self.behind = b""  # the TAIL bytes before `end`, as read
        self.stamp: Stamp | None = None  # the file's stamp when last looked at, if settled
        self.moves = 0  # how many times the fold (or its error) changed: a cheap version
        self.steps = 0  # lines folded one at a time, reading on
        self.reads = 0  # full reads from line 1

    def look(self) -> engine.Replay:
        """Returns the fold of the log as it is now (raises why it cannot be read)."""
        try:
            stamp = stat(self.path)
        except OSError as e:
            self._failed(e)
            raise
        if self.stamp is not None and stamp == self.stamp:
            return self._ok()  # as last read (its error too: a broken log is not read again)
        final = settled(stamp)
        if not (self.result is not None and self._grew(stamp) and self._read_on()):
            self._read_all()
        self.stamp = stamp if final else None  # not settled: looked at again next time
        return self._ok()

    def wrote(self, tail: tapelog.Tail, events: int) -> None:
        """Notes `events` lines this process appended and folded itself (entries.append_checked
        folds what it writes), ending at `tail`; one fold step each, nothing read again."""
        result = self.result
        assert result is not None
        result.head, result.events = tail.head, tail.seq + 1
        self.steps += events
        self.moves += 1
        self.stamp = None
        try:
            self.end = end_of(self.path, tail.head)
            self.behind = self._before(self.end) if self.end is not None else b""
        except OSError:
            self.end = None
        if self.end is None:
            self.forget()

    def forget(self) -> None:
        """Drops the fold (a write that folded events it could not write): read again."""
        self.result, self.stamp, self.end = None, None, None
        self.moves += 1

    def _ok(self) -> engine.Replay:
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result

    def _failed(self, e: Exception) -> None:
        if self.result is not None or type(e) is not type(self.error) \
                or str(e) != str(self.error):
            self.moves += 1
        self.result, self.error, self.stamp, self.end = None, e, None, None

    def _before(self, end: int) -> bytes:
        with open(self.path, "rb") as f:
            f.seek(max(0, end - TAIL))
            return f.read(min(end, TAIL))

    def _grew(self, stamp: Stamp) -> bool:
        """Returns True when the file is the one read, its bytes up to `end` as they were."""
        old = self.stamp
        if self.end is None or stamp.size < self.end:
            return False
        if old is not None and (old.dev, old.ino) != (stamp.dev, stamp.ino):
            return False
        try:
            return self._before(self.end) == self.behind
        except OSError:
            return False

    def _read_on(self) -> bool:
        """Folds the lines past `end`; returns False when they cannot be read on from there
        (the file changed underneath: read it all again)."""
        result = self.result
        assert result is not None and result.fold is not None and result.ruleset is not None
        tail, fold, end = result.tail, result.fold, self.end
        assert tail is not None and end is not None
        start = tapelog.Resume(end, tail, result.ruleset.codec)
        before = (result.events, type(result.error), str(result.error))
        result.error = None
        try:
            for rec in tapelog.read_records(self.path, engine.codec_for, start=start):
                fold.feed(rec.line - 1, rec.event, rec.line)
                result.head, result.events = rec.digest, rec.line
                end = rec.offset + len(rec.raw) + 1
                self.steps += 1
        except UsageError:
            return False  # gone between the stat and the read
        except TapeError as e:
            result.error = e  # a torn or broken new line: shown; read on once it changes
        except OSError:
            return False
        if end != self.end:
            self.end, self.behind = end, self._before(end)
        if (result.events, type(result.error), str(result.error)) != before:
            self.moves += 1
        return True

    def _read_all(self) -> None:
        """Reads the log from line 1 (from the index's checkpoint: engine.state_at)."""
        self.reads += 1
        self.moves += 1
        self.result = self.end = None
        try:
            result = state_at(self.path, version=self.rules)
            if result.fold is None or result.head is None:
                raise result.error or UsageError("the log has no header", file=self.path)
            self.end = end_of(self.path, result.head)
            if self.end is None:  # appended past the bytes searched meanwhile: read again
                result = state_at(self.path, version=self.rules)
                if result.head is not None:
                    self.end = end_of(self.path, result.head)
            self.behind = self._before(self.end) if self.end is not None else b""
        except (TapeError, OSError, RecursionError, ValueError) as e:
            self.error = e
            return
        self.result, self.error = result, None
