"""The replay viewer: one self-contained HTML file that steps through a whole log.

`build(path)` folds the log once and draws the table after every seq, for everyone
and as each player sees it (the game's `view`). Tables of neighbouring seqs differ in
a part or two, so every distinct SVG part (tabletape.engine.kit.svg) is shipped once
and each table is a list of part numbers: the page joins them (no drawing code in
JavaScript, the same SVG as `tabletape svg`). Beside it: each event's sentence, its
ruling (as `explain` gives it), undo and disputes (as `replay --step` gives them).

`html(book)` is the page: no network, no CDN, nothing but the file. `tabletape serve`
serves the same page with `live=True`, which polls for the log's new events.
"""

from __future__ import annotations

import base64
import gzip
import os
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tabletape import engine
from tabletape.app import pictures, stepper
from tabletape.tape.errors import ChainError, LogFormatError, TornTail, UsageError
from tabletape.tape.events import Note


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
    pics: list[list[list[int]]] = field(default_factory=list)  # seq -> view -> part numbers
    digests: list[str] = field(default_factory=list)  # seq -> its line's hash (for reuse)

    @property
    def version(self) -> str:
        """Returns what changes whenever the log does: the count of events and the head."""
        return f"{self.events}-{self.head[:16]}"

    def intern(self, part: str) -> int:
        n = self.index.get(part)
        if n is None:
            n = self.index[part] = len(self.parts)
            self.parts.append(part)
        return n

    def data(self, live: bool = False) -> dict[str, Any]:
        """Returns what the page is given: plain data, JSON-ready."""
        return {"file": os.path.basename(self.file), "game": self.game, "title": self.title,
                "players": list(self.players), "verdict": self.verdict, "ok": self.ok,
                "head": self.head, "version": self.version, "live": live,
                "parts": self.parts, "frames": self.frames, "pics": self.pics}


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


def build(path: str, before: Book | None = None) -> Book:
    """Folds the log at `path` and draws every seq's tables; reuses `before`'s drawings for
    the seqs whose lines are unchanged (the table after a seq depends on the lines up to
    it only), so that following a growing log draws only what is new.

    Each seq's tables are drawn as the fold passes it, so no state is kept: what grows
    with the log is the page itself (each seq's part numbers and frame, each distinct part).
    """
    book = Book(path)
    rows: list[tuple[int, Any, Any]] = []  # seq, event, problem: the frames need the final fold
    views: list[str | None] = [None]
    last: list[Any] = [None, []]  # the last state drawn and its pictures
    reuse = False

    def visit(j: engine.Judged) -> None:
        nonlocal reuse
        fold, seq = j.fold, j.seq
        if fold is None:
            return
        if seq == 0:
            views.extend(fold.header.players)
            reuse = (before is not None and before.players == tuple(fold.header.players)
                     and before.game == fold.ruleset.id)
            if reuse and before is not None:
                book.parts, book.index = list(before.parts), dict(before.index)
        rows.append((seq, j.event, j.problem))
        digest, state = j.record.digest, fold.state
        book.digests.append(digest)
        if reuse and before is not None and seq < len(before.digests) \
                and before.digests[seq] == digest:
            pics = before.pics[seq]
        elif state is last[0] and last[1]:
            pics = last[1]
        else:
            pics = []
            for v in views:
                d = pictures.draw(fold.ruleset, state, v)
                pics.append([book.intern(d.open_tag()), *(book.intern(p) for p in d.parts)])
        book.pics.append(pics)
        last[0], last[1] = state, pics

    result = engine.replay(path, visit=visit)
    fold, rs = result.fold, result.ruleset
    if fold is None or rs is None:
        raise result.error or UsageError("unreadable log", file=path)
    book.game, book.title, book.players = rs.id, rs.title, tuple(fold.header.players)
    book.head, book.events = result.head or "", result.events
    book.ok, book.verdict = log_verdict(result)
    for seq, event, problem in rows:
        book.frames.append(_frame(rs, fold, seq, event, problem))
    return book


def _frame(rs: engine.Ruleset, fold: engine.Fold, seq: int, event: Any,
           problem: Any) -> dict[str, Any]:
    """Returns one event as the page shows it (short keys: thousands of these ship)."""
    text = engine.describe(rs, event)
    if seq == 0:
        ruling = "the header: who plays, the options, the components"
    else:
        verdict, _ = stepper.verdict(fold, seq, problem)
        ruling = f"ruling: {verdict}" + (f" — {problem.reason}" if problem else "")
    frame: dict[str, Any] = {"t": text, "r": ruling,
                             "m": stepper.marks(fold, stepper.Frame(seq, event, text, problem))}
    if event.by:
        frame["b"] = event.by
    if problem is not None:
        frame["k"] = "i"
    elif isinstance(event, Note) and event.dispute:
        frame["k"] = "d"
    return frame


def data_json(book: Book, live: bool = False) -> bytes:
    """Returns the page's data as JSON, safe inside a `<script>` element."""
    return msgspec.json.encode(book.data(live)).replace(b"</", b"<\\/")


def html(book: Book, live: bool = False) -> str:
    """Returns the viewer page: one file, everything inline.

    The data is gzipped and base64-encoded (the page unpacks it with the browser's own
    DecompressionStream): neighbouring tables repeat each other, so this makes the page
    about ten times smaller. The bytes are the same for the same log.
    """
    from tabletape.app.viewer_page import PAGE

    title = f"{book.title}: {os.path.basename(book.file)}"
    packed = base64.b64encode(gzip.compress(data_json(book, live), compresslevel=9, mtime=0))
    return PAGE.replace("{{TITLE}}", _esc(title)).replace("{{DATA}}", packed.decode())


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write(path: str, out: str) -> Book:
    """Writes the viewer of the log at `path` to `out`; returns the book it drew."""
    book = build(path)
    page = html(book)
    tmp = out + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(page)
        os.replace(tmp, out)
    except OSError:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return book


__all__ = ["Book", "build", "data_json", "html", "log_verdict", "write"]
