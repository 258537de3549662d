"""Judging one log for an archive check: what a baseline and the cache keep of it (`Entry`).

`judge` replays a log through the engine's one loop and returns its verdict, its
illegal events and their rules, its outcome, a digest of its final state and of the
number of legal next events at every seq, and the rules version it was recorded
under; `judge_keyed` also returns the cache key of the very bytes it judged, and
`rules_fingerprint` what judges a game's logs. Never raises for a bad log.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from tabletape import __version__, engine
from tabletape.engine import registry
from tabletape.engine.reading import Judged, Replay, walk
from tabletape.tape.codec import MAX_LINE
from tabletape.tape.errors import TapeError, UnknownGame, UsageError
from tabletape.tape.events import Header
from tabletape.tape.reader import Record, open_log, read_records

CHECK_VERSION = 1  # what an Entry measures; a change invalidates every cache
BLOCK = 64  # seqs per digest of legal-move counts: a change is located to its block
VALID, INVALID, BROKEN = "valid", "invalid", "broken"


class Entry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What judging one log found: what a baseline keeps, and what the cache keeps."""

    game: str | None
    rules_version: str | None  # the version the log was recorded under (its header)
    judged_by: str | None = None  # the version that judged it, when not the recorded one
    events: int
    verdict: str  # valid | invalid | broken
    illegal: list[tuple[int, str]] = []  # (seq, rule) of every illegal event, even if undone
    error: str | None = None  # why reading stopped (broken), without the file name
    error_seq: int | None = None
    winners: list[str] | None = None
    scores: dict[str, int] | None = None
    state: str | None = None  # digest of the final state
    legal: list[str] = []  # digest of the legal-move counts, one per BLOCK seqs

    @property
    def first_illegal(self) -> tuple[int, str] | None:
        return self.illegal[0] if self.illegal else None


def parse_components(specs: Iterable[tuple[str, str]]) -> dict[str, bytes]:
    """Returns {game: component JSON} for `--components GAME=FILE`, each checked against
    the game's schema; raises UsageError for an unknown game or data that does not fit."""
    out: dict[str, bytes] = {}
    for game, path in specs:
        rs = engine.get(game)
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_LINE + 1)
        except OSError as e:
            raise UsageError(f"cannot read components file: {e.strerror}", file=path) from None
        try:
            msgspec.json.decode(raw, type=rs.Components)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise UsageError(f"components do not fit the {game} schema: {e}", file=path) from None
        out[game] = raw
    return out


@functools.lru_cache(maxsize=16)
def _decoded(game: str, raw: bytes) -> Any:
    return msgspec.json.decode(raw, type=engine.get(game).Components)


def _with_components(records: Iterator[Record], components: dict[str, bytes]
                     ) -> Iterator[Record]:
    """Yields the records, the header's component data replaced by the given game's own."""
    for rec in records:
        if rec.line == 1 and isinstance(rec.event, Header) and rec.event.game in components:
            data = _decoded(rec.event.game, components[rec.event.game])
            rec = msgspec.structs.replace(rec, event=msgspec.structs.replace(rec.event,
                                                                              components=data))
        yield rec


def digest(data: Any) -> str:
    """Returns a short, stable digest of plain data (dict keys sorted)."""
    return hashlib.sha256(msgspec.json.encode(data, order="sorted")).hexdigest()[:16]


class _LegalCounts:
    """A visitor: the number of legal next events after every seq, digested per BLOCK seqs."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self._h = hashlib.blake2b(digest_size=4)
        self._block = 0

    def __call__(self, j: Judged) -> None:
        fold = j.fold
        if fold is None:
            return
        if j.seq // BLOCK != self._block:
            self._close()
            self._block = j.seq // BLOCK
        rs, state = fold.ruleset, fold.state
        n = 0 if rs.over(state) else sum(1 for _ in rs.legal(state))
        self._h.update(b"%d:%d;" % (j.seq, n))

    def _close(self) -> None:
        self.blocks.append(self._h.hexdigest())
        self._h = hashlib.blake2b(digest_size=4)

    def done(self, events: int) -> list[str]:
        if events:
            self._close()
        return self.blocks


Key = tuple[int, str, str]  # a log's size, the hash of its bytes, the rules that judge it


def judge(path: str, components: dict[str, bytes] | None = None, rules: str | None = None
          ) -> Entry:
    """Replays one log (the engine's one loop) and returns what a baseline keeps of it.

    `components` replaces the component data of the named games' logs (a what-if for a
    rules maintainer). `rules` judges by another rules version than the recorded one.
    Never raises for a bad log: an unreadable one is `broken`.
    """
    return judge_keyed(path, components, rules)[0]


def judge_keyed(path: str, components: dict[str, bytes] | None = None,
                rules: str | None = None) -> tuple[Entry, Key | None]:
    """Returns a log's entry and the cache key of the very bytes it judged (one read).

    The file is read once: the bytes judged are the bytes hashed, even if the log is
    replaced meanwhile. The key is None when the log names no game.
    """
    components = components or {}
    try:
        f = open_log(path)
    except TapeError as e:
        return _broken(e, path), None
    with f:
        hashed = Hashed(f)
        entry = _judge(path, components, hashed, rules)
        hashed.finish()
    if entry.game is None:
        return entry, None
    return entry, (hashed.size, hashed.h.hexdigest(),
                   rules_fingerprint(entry.game, components.get(entry.game), rules))


class Hashed:
    """A log file that hashes every byte read from it, in order (reading starts at 0)."""

    def __init__(self, f) -> None:
        self.f, self.h, self.size = f, hashlib.blake2b(), 0

    def _eat(self, data: bytes) -> bytes:
        self.h.update(data)
        self.size += len(data)
        return data

    def read(self, n: int = -1) -> bytes:
        return self._eat(self.f.read(n))

    def readline(self, n: int = -1) -> bytes:
        return self._eat(self.f.readline(n))

    def seek(self, offset: int, whence: int = 0) -> int:
        if (offset, whence) != (self.size, 0):
            raise OSError("a hashed log is read in order")
        return self.f.seek(offset)

    def fileno(self) -> int:
        return self.f.fileno()

    def finish(self) -> None:
        """Reads (and hashes) what the judge left unread, a block at a time."""
        while self.read(1 << 20):
            pass


def _broken(e: TapeError, path: str) -> Entry:
    return Entry(game=None, rules_version=None, events=0, verdict=BROKEN,
                 error=_reason(e, path), error_seq=e.seq)


def _judge(path: str, components: dict[str, bytes], f: Hashed, rules: str | None = None
           ) -> Entry:
    counts = _LegalCounts()
    try:
        records = read_records(path, registry.codec_for, opened=f)
        result = walk(Replay(path, version=rules), _with_components(records, components),
                      visit=counts)
    except TapeError as e:
        if rules is not None and isinstance(e, UsageError) and not isinstance(e, UnknownGame):
            raise  # a rules version the game never had: the command's usage, not this log's
        return _broken(e, path)
    header, fold = result.header, result.fold
    illegal: dict[int, str] = {}
    if fold is not None:
        for s, err in fold.corrected.items():
            illegal[s] = err.rule or ""
    for problem in result.problems:
        if problem is not result.error and problem.seq is not None:
            illegal[problem.seq] = getattr(problem, "rule", None) or ""
    out: dict[str, Any] = {}
    if fold is not None and result.ruleset is not None:
        o = result.ruleset.outcome(fold.state)
        if o is not None:
            out = {"winners": list(o.winners), "scores": dict(o.scores)}
        state = msgspec.to_builtins(fold.state)
        if isinstance(state, dict):
            state.pop("components", None)  # (in the header; an override shows in its effects)
        out["state"] = digest(state)
    stop = result.error
    recorded = getattr(header, "rules_version", None)
    judged = result.judged_by
    return Entry(game=getattr(header, "game", None), rules_version=recorded,
                 judged_by=judged if judged != recorded else None, events=result.events,
                 verdict=BROKEN if stop is not None else VALID if result.ok else INVALID,
                 illegal=sorted(illegal.items()), error=_reason(stop, path) if stop else None,
                 error_seq=stop.seq if stop else None, legal=counts.done(result.events), **out)


def _reason(e: TapeError, path: str) -> str:
    """Returns why reading stopped, the log's path left out (a baseline names logs its way)."""
    return e.reason.replace(path, "<log>")


@functools.lru_cache(maxsize=64)
def rules_fingerprint(game: str, components: bytes | None, rules: str | None = None) -> str:
    """Returns a fingerprint of what judges a game's logs: its rules code, the engine's,
    this module's measures, and the component data that replaces the headers' (if any)."""
    from tabletape.engine.index import code_fingerprint
    h = hashlib.sha256(f"{__version__} {CHECK_VERSION} {BLOCK}".encode())
    h.update(code_fingerprint(engine.get(game)).encode())
    h.update(hashlib.sha256(components).digest() if components is not None else b"header")
    h.update(f" rules {rules or 'recorded'}".encode())
    return h.hexdigest()
