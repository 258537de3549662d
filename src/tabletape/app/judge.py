"""Judging one log for an archive check: what a baseline and the cache keep of it (`Entry`).

`judge` replays a log through the engine's one loop and returns its verdict, its
illegal events and their rules, its outcome and the seq that decided it, a digest of its
final state, the number of legal next events at every seq, the rules version it was
recorded under and (judged both ways) its verdict under the latest rules; `judge_keyed`
also returns the cache key of the very bytes it judged, and `rules_fingerprint` what
judges a game's logs (a content hash of every source file that can change a verdict).
Never raises for a bad log.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, BinaryIO

import msgspec

from tabletape import __version__, engine
from tabletape.app.whatif import read_components
from tabletape.engine import fingerprint, registry
from tabletape.engine.fold import Fold
from tabletape.engine.reading import Each, Replay, walk
from tabletape.tape.codec import MAX_LINE
from tabletape.tape.errors import TapeError, UnknownGame, UsageError
from tabletape.tape.events import Header
from tabletape.tape.reader import Record, open_log, read_records

CHECK_VERSION = 4  # what an Entry measures, and how a log's bytes are hashed (4: SHA-256);
#                   a change invalidates every cache
VALID, INVALID, BROKEN = "valid", "invalid", "broken"
NOT_A_LOG = "not a log"  # a stray file: its first line is no tabletape header; not a game


class Latest(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A log's verdict under the game's latest rules, kept when it differs from the verdict
    under the version the log was recorded under (issue 24: judged both ways)."""

    version: str  # the latest rules version
    verdict: str
    illegal: list[tuple[int, str]] = []  # as Entry.illegal, under the latest rules
    error: str | None = None
    rules_changed: list[str] = []  # the rule ids the changelog changed between the two


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
    over_at: int | None = None  # the seq that ended the game (its outcome decided there)
    moves: str = ""  # the number of legal next events after every seq (`counts`)
    latest: Latest | None = None  # the verdict under the latest rules, where it differs
    options: dict[str, str] = {}  # the options it was played with, as its header writes them
    #                               (defaults left out), each value as written: true, short, 2

    @property
    def first_illegal(self) -> tuple[int, str] | None:
        return self.illegal[0] if self.illegal else None



def parse_components(specs: Iterable[tuple[str, str]]) -> dict[str, bytes]:
    """Returns {game: component JSON} for `--components GAME=FILE`, each checked against
    the game's schema; raises UsageError for an unknown game or data that does not fit."""
    return {game: read_components(game, path)[0] for game, path in specs}


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
    """The number of legal next events after every seq, and the seq that ended the game:
    called with each seq and the fold after it (the visitor `Each`), seqs in order from 0."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.over_at: int | None = None
        self._state: Any = self  # the last state counted (no state is this object)
        self._n = 0  # and its count

    def __call__(self, seq: int, fold: Fold) -> None:
        counts = self.counts
        if seq != len(counts):  # (never in a pass from line 1: every seq is folded)
            del counts[seq:]
            counts.extend([-1] * (seq - len(counts)))
        state = fold.state
        if state is self._state:  # a note, an illegal event, a signature: the same state
            counts.append(self._n)  # (an immutable value), so the same count
            return
        rs = fold.ruleset
        over = rs.over(state)
        if over and self.over_at is None:
            self.over_at = seq
        n = self._n = 0 if over else rs.count(state)
        self._state = state
        counts.append(n)


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def encode_counts(counts: Sequence[int]) -> str:
    """Returns legal-move counts as a compact string: one character per seq for a count
    below 62 (0-9, a-z, A-Z), `~N.` for a larger one, `?` for a seq not judged."""
    if counts and min(counts) >= 0 and max(counts) < len(_DIGITS):
        return "".join(map(_DIGITS.__getitem__, counts))  # the usual case, each a digit
    return "".join("?" if n < 0 else _DIGITS[n] if n < len(_DIGITS) else f"~{n}."
                   for n in counts)


def decode_counts(text: str) -> list[int]:
    """Returns the counts `encode_counts` wrote (-1: a seq not judged)."""
    out: list[int] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "~":
            end = text.index(".", i)
            out.append(int(text[i + 1:end]))
            i = end + 1
            continue
        out.append(-1 if c == "?" else _DIGITS.index(c))
        i += 1
    return out


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
    except TapeError as e:  # the file is not there to judge: the run's failure, not the log's
        raise Unjudged(f"cannot judge {path}: {e.reason}", file=path) from None
    with f:
        hashed = Hashed(f)
        entry = _judge(path, components, hashed, rules)
        hashed.finish()
    game = entry.game
    if game is None:
        return _stray(path, entry), None
    if rules is None:
        entry = _both_ways(path, components, entry, hashed.h.hexdigest())
    return entry, (hashed.size, hashed.h.hexdigest(),
                   rules_fingerprint(game, components.get(game), rules))


class Hashed:
    """A log file that hashes every byte read from it, in order (reading starts at 0)."""

    def __init__(self, f: BinaryIO) -> None:
        # SHA-256, as the chain: faster than BLAKE2b where the CPU has SHA instructions
        self.f, self.h, self.size = f, hashlib.sha256(), 0

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


class Unjudged(UsageError):
    """A log that could not be judged where it was to be judged (gone, unreadable, a
    worker's failure): the run fails (exit 2) and nothing is cached for it."""


def _both_ways(path: str, components: dict[str, bytes], entry: Entry, content: str) -> Entry:
    """Returns the entry with the verdict under the latest rules, when the log was judged by
    an older version and the latest judges it otherwise (the same bytes, read again)."""
    from tabletape.engine.versions import LATEST, changed_between
    try:
        rs = engine.get(entry.game or "")
    except TapeError:
        return entry
    judged = entry.judged_by or entry.rules_version
    if judged is None or judged == rs.version or judged not in rs.versions:
        return entry
    try:
        f = open_log(path)
    except TapeError as e:
        raise Unjudged(f"cannot judge {path}: {e.reason}", file=path) from None
    with f:
        hashed = Hashed(f)
        under = _judge(path, components, hashed, LATEST)
        hashed.finish()
    if hashed.h.hexdigest() != content:
        raise Unjudged(f"{path} changed while it was judged; check it again", file=path)
    if (under.verdict, under.illegal, under.error) == (entry.verdict, entry.illegal, entry.error):
        return entry
    ids = sorted({r for rules in changed_between(rs.changelog, judged, rs.version).values()
                  for r in rules})
    return msgspec.structs.replace(entry, latest=Latest(
        version=rs.version, verdict=under.verdict, illegal=under.illegal, error=under.error,
        rules_changed=ids))


def _stray(path: str, entry: Entry) -> Entry:
    """Returns the entry of a file that names no game: `not a log` when its first line is no
    tabletape header at all (a stray file among the logs), else the broken entry."""
    try:
        with open(path, "rb") as f:
            first = f.readline(MAX_LINE + 1)
    except OSError:
        return entry
    if not first.strip():
        return entry  # empty, or a torn first line: a log that lost its header
    try:
        head = msgspec.json.decode(first)
    except msgspec.DecodeError:
        head = None
    if isinstance(head, dict) and head.get("type") == "game_started":
        return entry
    return msgspec.structs.replace(entry, verdict=NOT_A_LOG,
                                   error="its first line is not a tabletape header")


def _broken(e: TapeError, path: str) -> Entry:
    return Entry(game=None, rules_version=None, events=0, verdict=BROKEN,
                 error=_reason(e, path), error_seq=e.seq)


def _judge(path: str, components: dict[str, bytes], f: Hashed, rules: str | None = None
           ) -> Entry:
    counts = _LegalCounts()
    try:
        records = read_records(path, registry.codec_for, opened=f)
        if components:
            records = _with_components(records, components)
        result = walk(Replay(path, version=rules), records, Each(counts))
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
    options = msgspec.to_builtins(getattr(header, "options", None))
    judged = result.judged_by
    return Entry(game=getattr(header, "game", None), rules_version=recorded,
                 judged_by=judged if judged != recorded else None, events=result.events,
                 verdict=BROKEN if stop is not None else VALID if result.ok else INVALID,
                 illegal=sorted(illegal.items()), error=_reason(stop, path) if stop else None,
                 error_seq=stop.seq if stop else None, over_at=counts.over_at,
                 moves=encode_counts(counts.counts), options={
                     k: written(v) for k, v in sorted(options.items())
                 } if isinstance(options, dict) else {}, **out)


def written(v: Any) -> str:
    """Returns an option's value as `--option NAME=VALUE` writes it (true, false, short, 2)."""
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _reason(e: TapeError, path: str) -> str:
    """Returns why reading stopped, the log's path left out (a baseline names logs its way)."""
    return e.reason.replace(path, "<log>")



@functools.lru_cache(maxsize=64)
def rules_fingerprint(game: str, components: bytes | None, rules: str | None = None) -> str:
    """Returns a fingerprint of what judges a game's logs: the content of every source and
    data file that can change a verdict (`source_fingerprint`), this module's measures,
    and the component data that replaces the headers' (if any)."""
    h = hashlib.sha256(f"{__version__} {CHECK_VERSION}".encode())
    h.update(source_fingerprint(game).encode())
    h.update(hashlib.sha256(components).digest() if components is not None else b"header")
    h.update(f" rules {rules or 'recorded'}".encode())
    return h.hexdigest()


def game_package(game: str) -> str:
    """Returns the folder of the package that holds a game's rules (its code and data)."""
    return fingerprint.game_package(type(engine.get(game)).__module__)


@functools.lru_cache(maxsize=64)
def source_fingerprint(game: str) -> str:
    """Returns a content hash of every file that can change how a game's logs are judged:
    the engine's fingerprint of the game's rules code (`engine.fingerprint`: tape, engine
    with its kit, games/__init__, the game's package with its data, msgspec's and
    Python's versions) and this layer, `app`, whose checks the cache also remembers.
    Computed once per process; about 100 files, 1 MB: a few milliseconds."""
    return fingerprint.code_fingerprint(type(engine.get(game)).__module__, ("app",))

