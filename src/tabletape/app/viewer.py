"""The replay viewer: one self-contained HTML file that steps through a whole log.

`build(path)` folds the log once and draws the table after every seq, for everyone
and as each player sees it (the game's `view`). Tables of neighbouring seqs differ in
a part or two, so every distinct SVG part (tabletape.engine.kit.svg) is shipped once
and each table is a list of part numbers: the page joins them (no drawing code in
JavaScript, the same SVG as `tabletape svg`). Beside it: each event's sentence, its
ruling (as `explain` gives it), undo and disputes (as `replay --step` gives them).

`html(book)` is the page: no network, no CDN, nothing but the file. `tabletape serve`
serves the same page with `live=True`, which polls for the log's new events. A Book
holds the whole page; `write` (`tabletape view -o`) writes the same bytes as it draws,
keeping only a digest of each distinct part, so its memory hardly grows with the log.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import heapq
import os
import tempfile
import zlib
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from tabletape import engine
from tabletape.app import pictures, stepper
from tabletape.app.reading import RulesVersion
from tabletape.app.whatif import Rejudged, Whatif
from tabletape.tape import files
from tabletape.tape.errors import ChainError, LogFormatError, TornTail, UsageError
from tabletape.tape.events import Note, visible


@dataclass
class Book:
    """A log folded for the viewer: its frames, the distinct SVG parts, each seq's tables."""

    file: str
    game: str = ""
    title: str = ""
    players: tuple[str, ...] = ()
    verdict: str = ""
    ok: bool = True
    head: str = ""
    events: int = 0
    parts: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    frames: list[dict[str, Any]] = field(default_factory=list)
    # seq -> view -> part numbers; the views again after them, laid out for a phone
    pics: list[list[list[int]]] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)  # seq -> its line's hash (for reuse)
    rules: str | None = None  # the rules version asked for (None: the one recorded)
    recorded: str = ""  # the rules version the log was recorded under
    judged_by: str = ""  # the rules version that judged it
    components: Whatif | None = None  # the component data judging (None: the header's)

    @property
    def version(self) -> str:
        """Returns what changes whenever the log does: the count of events and the head,
        and the verdict of a log that is not valid (a torn tail repaired keeps the head)."""
        version = f"{self.events}-{self.head[:16]}"
        if self.ok:
            return version
        return f"{version}-{hashlib.blake2b(self.verdict.encode(), digest_size=4).hexdigest()}"

    def intern(self, part: str) -> int:
        n = self.index.get(part)
        if n is None:
            n = self.index[part] = len(self.parts)
            self.parts.append(part)
        return n

    def data(self, live: bool = False) -> dict[str, Any]:
        """Returns what the page is given: plain data, JSON-ready."""
        # (what came from a file, its name or a reader's message, through the one door)
        data = {"file": visible(os.path.basename(self.file)), "game": self.game,
                "title": self.title, "players": list(self.players),
                "verdict": visible(self.verdict), "ok": self.ok,
                "head": self.head, "version": self.version, "live": live,
                "parts": self.parts, "frames": self.frames, "pics": self.pics}
        if self.components is not None:  # judged with other values: the page says so
            data["judged"] = self.components.note()
        return data


def log_verdict(result: engine.Replay) -> tuple[bool, str]:
    """Returns whether a replayed log is valid and the verdict in a few words."""
    e = result.error
    if isinstance(e, TornTail):
        return False, f"torn at line {e.line} (the last write was interrupted)"
    if isinstance(e, ChainError):
        return False, f"chain broken at line {e.line}"
    if isinstance(e, LogFormatError):
        return False, f"unreadable at line {e.line}"
    if e is not None:
        return False, f"unreadable: {e}"
    problems = result.problems
    if problems:
        first = problems[0]
        rule = getattr(first, "rule", None)
        return False, f"invalid at seq {first.seq}" + (f" [{rule}]" if rule else "")
    return True, "valid"


# States whose drawings are reused when the fold comes back to them: an undo restores a
# state drawn before, and a note leaves the state as it was. A bounded number (the undo
# stack holds most of them anyway: states are frozen and share their unchanged parts). On a long session where half
# the lines are undos this halves the drawing.
STATES_KEPT = 1024


class _Drawer:
    """The fold's visitor for the viewer: draws each seq's tables as the fold passes it and
    hands out its frame as far as it is known then (`stepper.marks_after` adds what later
    lines say, once the fold is done).

    Subclasses say where parts get their numbers (`number`) and where each seq goes (`put`).
    """

    def __init__(self) -> None:
        self.views: list[str | None] = [None]
        # id(state) -> the state (kept alive, so that its id is not reused) and its pictures
        self.drawn_states: dict[int, tuple[Any, list[list[int]]]] = {}

    def __call__(self, j: engine.Judged) -> None:
        fold, seq = j.fold, j.seq
        if fold is None:
            return
        if seq == 0:
            self.views.extend(fold.header.players)
            self.start(fold)
        state = fold.state
        pics = self.reused(seq, j.record.digest)
        if pics is None:
            pics = self.pictures(fold.ruleset, state)
        self.put(seq, _frame(fold, seq, j.event, j.problem), pics, j.record.digest)

    def pictures(self, rs: engine.Ruleset[Any, Any, Any], state: Any) -> list[list[int]]:
        """Returns the part numbers of the state's tables, one list per view (drawn unless
        this very state object was drawn lately: states are frozen, drawing is pure)."""
        known = self.drawn_states.pop(id(state), None)
        if known is not None and known[0] is state:
            self.drawn_states[id(state)] = known  # now the latest used
            return known[1]
        pics = []
        for narrow in (False, True):  # each view as on a screen, then as on a phone
            for v in self.views:
                d = pictures.draw(rs, state, v, narrow=narrow)
                pics.append([self.number(d.open_tag()), *(self.number(p) for p in d.parts)])
        if STATES_KEPT:
            if len(self.drawn_states) >= STATES_KEPT:
                del self.drawn_states[next(iter(self.drawn_states))]  # the least recently used
            self.drawn_states[id(state)] = (state, pics)
        return pics

    def start(self, fold: engine.Fold) -> None:
        """Called on the header, before seq 0 is drawn."""

    def reused(self, seq: int, digest: str) -> list[list[int]] | None:
        """Returns the pictures of a seq drawn before (the same line), or None to draw it."""
        return None

    def number(self, part: str) -> int:
        raise NotImplementedError

    def put(self, seq: int, frame: dict[str, Any], pics: list[list[int]], digest: str) -> None:
        raise NotImplementedError


class _BookDrawer(_Drawer):
    """Keeps everything in a Book: the live page's data, which it re-sends as it grows."""

    def __init__(self, book: Book, before: Book | None):
        super().__init__()
        self.book, self.before, self.reuse = book, before, False

    def start(self, fold: engine.Fold) -> None:
        before = self.before
        self.reuse = (before is not None and before.players == tuple(fold.header.players)
                      and before.game == fold.ruleset.id)
        if self.reuse and before is not None:
            self.book.parts, self.book.index = list(before.parts), dict(before.index)

    def reused(self, seq: int, digest: str) -> list[list[int]] | None:
        before = self.before
        if self.reuse and before is not None and seq < len(before.digests) \
                and before.digests[seq] == digest:
            return before.pics[seq]
        return None

    def number(self, part: str) -> int:
        return self.book.intern(part)

    def put(self, seq: int, frame: dict[str, Any], pics: list[list[int]], digest: str) -> None:
        self.book.frames.append(frame)
        self.book.pics.append(pics)
        self.book.digests.append(digest)


def _fold(path: str, drawer: _Drawer, book: Book) -> engine.Fold:
    """Folds the log through `drawer`; fills in `book`'s summary; returns the final fold."""
    result = engine.replay(path, visit=drawer, version=book.rules, components=book.components)
    fold, rs = result.fold, result.ruleset
    if fold is None or rs is None:
        raise result.error or UsageError("unreadable log", file=path)
    book.game, book.title, book.players = rs.id, rs.title, tuple(fold.header.players)
    book.recorded, book.judged_by = fold.header.rules_version, result.judged_by or ""
    book.head, book.events = result.head or "", result.events
    book.ok, book.verdict = log_verdict(result)
    return fold


def build(path: str, before: Book | None = None, rules: str | None = None,
          components: Whatif | None = None) -> Book:
    """Folds the log at `path` and draws every seq's tables; reuses `before`'s drawings for
    the seqs whose lines are unchanged (the table after a seq depends on the lines up to
    it only), so that following a growing log draws only what is new.

    The Book holds the whole page, so it grows with the log; `write` streams it instead.
    `rules` judges by another rules version than the recorded one, `components` with
    other component data than the header's.
    """
    book = Book(path, rules=rules, components=components)
    fold = _fold(path, _BookDrawer(book, before), book)
    for seq in _amended(fold):
        book.frames[seq]["m"].extend(stepper.marks_after(fold, seq))
    return book


def _frame(fold: engine.Fold, seq: int, event: Any, problem: Any) -> dict[str, Any]:
    """Returns one event as the page shows it, as far as it is known once it is folded (short
    keys: thousands of these ship). Its ruling is final then; later lines may add marks."""
    rs = fold.ruleset
    text = engine.describe(rs, event)
    if seq == 0:
        ruling = "the header: who plays, the options, the components"
    else:
        verdict, _ = stepper.verdict(fold, seq, problem)
        ruling = f"ruling: {verdict}" + (f" — {problem.reason}" if problem else "")
    frame: dict[str, Any] = {"t": text, "r": ruling,
                             "m": stepper.marks_at(fold, stepper.Frame(seq, event, text, problem),
                                                   ruled=True)}  # the reason: in "r"
    if event.by:
        frame["b"] = event.by
    if problem is not None:
        frame["k"] = "i"
    elif isinstance(event, Note) and event.dispute:
        frame["k"] = "d"
    return frame


def _amended(fold: engine.Fold) -> Iterator[int]:
    """Yields the seqs that later lines put marks on (undone, disputed), in order, without
    a set of them (on a long log, every other game event may be undone)."""
    last = -1
    for seq in heapq.merge(fold.retracted, sorted({r.about for r in fold.disputes})):
        if seq != last:
            yield seq
        last = seq


def data_json(book: Book, live: bool = False) -> bytes:
    """Returns the page's data as JSON, safe inside a `<script>` element."""
    return _safe(msgspec.json.encode(book.data(live)))


def _safe(js: bytes) -> bytes:
    return js.replace(b"</", b"<\\/")


def html(book: Book, live: bool = False) -> str:
    """Returns the viewer page: one file, everything inline.

    The data is gzipped and base64-encoded (the page unpacks it with the browser's own
    DecompressionStream): neighbouring tables repeat each other, so this makes the page
    about ten times smaller. The bytes are the same for the same log.
    """
    return html_packed(book, gzip.compress(data_json(book, live), compresslevel=9, mtime=0))


def html_packed(book: Book, data_gz: bytes) -> str:
    """Returns the viewer page around its data, given gzipped (`tabletape serve` packs it
    once per version, at its own level)."""
    top, bottom = _page(book)
    return top + base64.b64encode(data_gz).decode() + bottom


def _page(book: Book) -> tuple[str, str]:
    """Returns the page around its data: what goes before it and what after."""
    from tabletape.app.viewer_page import PAGE

    title = _esc(visible(f"{book.title}: {os.path.basename(book.file)}"))
    top, bottom = PAGE.split("{{DATA}}")
    return top.replace("{{TITLE}}", title), bottom


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- the export: the page written as it is drawn -----------------------------------------
CHUNK = 1 << 16


class _Spool:
    """Bytes parked in an unnamed temporary file, zlib-compressed (fast), read back once."""

    def __init__(self, directory: str):
        self.file = tempfile.TemporaryFile(dir=directory)
        self.z = zlib.compressobj(1)
        self.buf = bytearray()

    def write(self, b: bytes) -> None:
        self.buf += b
        if len(self.buf) >= CHUNK:
            self.file.write(self.z.compress(self.buf))
            self.buf.clear()

    def chunks(self) -> Iterator[bytes]:
        """Yields what was written, in order, a bounded piece at a time."""
        self.file.write(self.z.compress(self.buf) + self.z.flush())
        self.file.seek(0)
        d = zlib.decompressobj()
        while block := self.file.read(CHUNK):
            while block:
                yield d.decompress(block, CHUNK)
                block = d.unconsumed_tail
        yield d.flush()

    def close(self) -> None:
        self.file.close()


class _Packed:
    """Writes bytes to a file gzipped (as `gzip.compress(..., mtime=0)` would) and in base64."""

    def __init__(self, f: Any):
        self.f = f
        self.z = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip wrapper, mtime 0
        self.buf = bytearray()
        self.rest = b""  # the bytes short of a multiple of 3, which base64 encodes together

    def write(self, b: bytes) -> None:
        self.buf += b
        if len(self.buf) >= CHUNK:
            self._out(self.z.compress(self.buf))
            self.buf.clear()

    def close(self) -> None:
        self._out(self.z.compress(self.buf) + self.z.flush())
        self.f.write(base64.b64encode(self.rest))

    def _out(self, b: bytes) -> None:
        b = self.rest + b
        n = len(b) - len(b) % 3
        self.f.write(base64.b64encode(b[:n]))
        self.rest = b[n:]


class _Seen:
    """The distinct parts met so far, each by its 16-byte BLAKE2b digest, numbered in the
    order first met. The digests are packed one after another (a part's number is its place)
    and found through an open-addressed index of numbers (linear probing, at most two
    thirds full): ~25-35 bytes a part, where a dict of digests takes ~120. It grows with
    the distinct parts, which grow with the log (about one a seq on a long session)."""

    def __init__(self) -> None:
        self.keys = bytearray()
        self._index(1 << 12)

    @property
    def count(self) -> int:
        return len(self.keys) // 16

    def _index(self, size: int) -> None:
        """(Re)builds the index with `size` slots (a power of two)."""
        self.mask = mask = size - 1
        self.slots = slots = array("i", [-1]) * size  # -1: an empty slot
        keys = self.keys
        for n in range(len(keys) // 16):
            i = int.from_bytes(keys[16 * n:16 * n + 8], "little") & mask
            while slots[i] >= 0:
                i = (i + 1) & mask
            slots[i] = n

    def number(self, key: bytes) -> tuple[int, bool]:
        """Returns the number of the part with this digest, and whether it is new."""
        keys, slots, mask = self.keys, self.slots, self.mask
        i = int.from_bytes(key[:8], "little") & mask
        while (n := slots[i]) >= 0:
            if keys[16 * n:16 * n + 16] == key:
                return n, False
            i = (i + 1) & mask
        n = len(keys) // 16
        keys += key
        slots[i] = n
        if 3 * (n + 1) > 2 * len(slots):
            self._index(2 * len(slots))
        return n, True


class _Export(_Drawer):
    """Draws the page's data to spools as the fold passes: parts as they first appear, each
    seq's frame and pictures. What it keeps is a digest per distinct part (`_Seen`), the
    parts of the last drawing (most of the next one's) and a few drawn states, not the page."""

    def __init__(self, directory: str):
        super().__init__()
        self.parts, self.frames, self.pics = (_Spool(directory) for _ in range(3))
        self.seen = _Seen()  # every distinct part, by its digest
        self.recent: dict[str, int] = {}  # the parts of the last drawing -> their numbers
        self.drawn: dict[str, int] = {}  # the parts of the drawing under way

    def number(self, part: str) -> int:
        n = self.recent.get(part)
        if n is None:
            n, new = self.seen.number(hashlib.blake2b(part.encode(), digest_size=16).digest())
            if new:
                self.parts.write(b"," if n else b"")
                self.parts.write(_safe(msgspec.json.encode(part)))
        self.drawn[part] = n
        return n

    def put(self, seq: int, frame: dict[str, Any], pics: list[list[int]], digest: str) -> None:
        if self.drawn:  # this seq was drawn: its parts are the ones to look for first next
            self.recent, self.drawn = self.drawn, {}
        self.frames.write(_safe(msgspec.json.encode(frame)) + b"\n")
        self.pics.write((b"," if seq else b"") + msgspec.json.encode(pics))

    def data(self, out: _Packed, book: Book, fold: engine.Fold) -> None:
        """Writes the page's data, as `data_json` gives it, with the marks later lines add."""
        head = {k: v for k, v in book.data().items() if k not in ("parts", "frames", "pics")}
        out.write(_safe(msgspec.json.encode(head))[:-1] + b',"parts":[')
        for chunk in self.parts.chunks():
            out.write(chunk)
        out.write(b'],"frames":[')
        amended, seq, rest = _amended(fold), 0, b""
        due = next(amended, None)
        for chunk in self.frames.chunks():
            *lines, rest = (rest + chunk).split(b"\n")
            for line in lines:
                if seq == due:
                    frame = msgspec.json.decode(line)
                    frame["m"].extend(stepper.marks_after(fold, seq))
                    line = _safe(msgspec.json.encode(frame))
                    due = next(amended, None)
                out.write((b"," if seq else b"") + line)
                seq += 1
        out.write(b'],"pics":[')
        for chunk in self.pics.chunks():
            out.write(chunk)
        out.write(b"]}")

    def close(self) -> None:
        for spool in (self.parts, self.frames, self.pics):
            spool.close()


def write(path: str, out: str, *, force: bool = False, rules: str | None = None,
          components: Whatif | None = None) -> Book:
    """Writes the viewer of the log at `path` to `out` (atomically); returns the book's
    summary (events, verdict, head: its frames and parts went to the file, not to memory).
    An existing `out` is replaced only with `force`, and the log itself never.

    The page is `html(build(path))`, byte for byte, written as it is drawn: memory stays
    flat but for a digest per distinct part.
    """
    files.check_target(out, force=force, reading=(path,))  # before the work, not after
    book = Book(path, rules=rules, components=components)
    export = _Export(os.path.dirname(os.path.abspath(out)))
    try:
        fold = _fold(path, export, book)
        top, bottom = _page(book)
        with files.writing(out, force=force, reading=(path,)) as f:
            f.write(top.encode())
            packed = _Packed(f)
            export.data(packed, book, fold)
            packed.close()
            f.write(bottom.encode())
    finally:
        export.close()
    return book


class Page(msgspec.Struct, frozen=True):
    """`view --json`: the page written, its log, the lines drawn, the verdict, the rules
    versions (recorded, judged by), its size."""

    file: str
    log: str
    lines: int
    verdict: str
    rules_version: RulesVersion
    bytes: int
    components: Rejudged | UnsetType = UNSET  # judged with other component data


def view(path: str, out: str, *, force: bool = False, rules: str | None = None,
         components: Whatif | None = None) -> tuple[Page, bool]:
    """Writes the viewer of the log at `path` to `out` (judged by the rules version `rules`,
    None: the recorded one; with the component data `components`, None: the header's);
    returns what was written, and whether the log is clean (the page is written either
    way)."""
    book = write(path, out, force=force, rules=rules, components=components)
    return Page(out, path, book.events, book.verdict,
                RulesVersion(book.recorded, book.judged_by), os.path.getsize(out),
                components.report() if components else UNSET), book.ok


__all__ = ["Book", "Page", "build", "data_json", "html", "html_packed", "log_verdict", "view",
           "write"]
