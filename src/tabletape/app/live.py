"""The log as a live page shows it: followed as the file grows (`tabletape serve`).

The log's state follows the file as the index's custody does: its stamp (device,
inode, size, mtime, ctime) taken once the file system's clock has passed its last
change, and its last bytes re-read and compared. A log that can no longer be read
(deleted, emptied, its header broken) is shown as such, never as the state last read.
Each version's page and data are encoded and compressed once, off the event loop, for
every client. The web layer (tabletape.web) serves them; nothing here knows HTTP.
"""

from __future__ import annotations

import gzip
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tabletape.app import viewer
from tabletape.tape.errors import TapeError
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


def _why(e: Exception) -> str:
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
            return Shown(unreadable(path, _why(e)), error=e)
        try:
            book = viewer.build(path, self.drawn, self.rules)
        except (TapeError, OSError, RecursionError, ValueError) as e:
            # a broken header, an empty file, or a file that is not a log: shown as such
            return Shown(unreadable(path, _why(e)), stamp, settled, tail, e)
        except Exception as e:  # a fault of ours: said on the page, never a 500
            why = f"tabletape failed to read it ({type(e).__name__}: {e}); please report this"
            return Shown(unreadable(path, why), stamp, settled, tail, e)
        self.drawn = book
        return Shown(book, stamp, settled, tail)

    def _news(self, shown: Shown) -> str:
        book = shown.book
        if not book.events:
            return f"{self.path}: {book.verdict}"
        return f"{self.path}: {book.events} lines (seq 0-{book.events - 1}), {book.verdict}"
