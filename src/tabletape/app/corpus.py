"""An archive of logs judged as a whole: checks, baselines, a cache, parallel and Dask runs.

The rules maintainer's question: which recorded games does my rules change affect, and
how? `check` replays every log under some paths (in processes, or on a Dask cluster)
and returns one `Entry` per log: its verdict, its first illegal event and rule, its
outcome and the seq that decided it, a digest of its final state, the number of legal
next events at every seq, and the rules version it was recorded under. A baseline is the same entries,
written as deterministic JSON beside the archive; `compare` says what changed and
from which seq. The cache keeps entries between runs, keyed by the log's bytes and a
fingerprint of the rules code and component data that judged it.

Nothing here prints: the command line (tabletape.cli.corpus) and the pytest plugin
(tabletape.pytest_plugin) report what these return.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tabletape import __version__, engine
from tabletape.engine import registry
from tabletape.engine.reading import Judged, Replay, walk
from tabletape.tape import files
from tabletape.tape import log as tapelog
from tabletape.tape.errors import TapeError, UnknownGame, UsageError
from tabletape.tape.events import Header, visible

CHECK_VERSION = 2  # what an Entry measures; a change invalidates every cache
BASELINE_FORMAT = 1
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

    @property
    def first_illegal(self) -> tuple[int, str] | None:
        return self.illegal[0] if self.illegal else None


# -- finding logs --------------------------------------------------------------------------

def find_logs(paths: Iterable[str]) -> list[str]:
    """Returns every log under the paths (files named *.jsonl, hidden ones left out), sorted."""
    from tabletape.engine.index import is_index
    found: set[str] = set()
    for p in paths:
        if os.path.isdir(p):
            for d, dirs, files in os.walk(p):
                dirs[:] = [x for x in dirs if not x.startswith(".")]
                found.update(os.path.join(d, f) for f in files
                             if f.endswith(".jsonl") and not f.startswith("."))
        elif os.path.exists(p):
            if not is_index(p):
                found.add(p)
        else:
            raise UsageError(f"no such file or folder: {p}", file=p)
    return sorted(found)


def key_of(path: str, root: str) -> str:
    """Returns a log's name in a report or a baseline: its path from `root`, with `/`,
    printable (a file name holding a control character, or bytes that are not UTF-8, is
    named with them escaped by `visible`: a baseline is JSON a terminal can show)."""
    return visible(os.path.relpath(os.path.abspath(path), os.path.abspath(root))
                   .replace(os.sep, "/"))


def names_of(logs: Iterable[str], root: str) -> dict[str, str]:
    """Returns {name: path} (`key_of`); two logs whose names read alike are refused."""
    out: dict[str, str] = {}
    for p in logs:
        k = key_of(p, root)
        if k in out:
            raise UsageError(f"two logs read alike as {k} (one file name holds a control "
                             "character or bytes that are not UTF-8, shown escaped): rename it")
        out[k] = p
    return out


class Filter(msgspec.Struct, frozen=True):
    """Which logs a check takes: of these games (none: any), with these option values."""

    games: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()  # (name, value as written: true, short, 2)

    def __bool__(self) -> bool:
        return bool(self.games or self.options)

    def takes(self, path: str) -> bool:
        """Returns whether the log at `path` is of the games with the options (its header,
        the options' defaults filled in); a log whose header cannot be read is not."""
        try:
            rec = next(iter(tapelog.read_records(path, registry.codec_for)))
        except (TapeError, StopIteration, OSError):
            return False
        header = rec.event
        if self.games and getattr(header, "game", None) not in self.games:
            return False
        if not self.options:
            return True
        opts = getattr(header, "options", None)
        values = msgspec.structs.asdict(opts) if isinstance(opts, msgspec.Struct) else {}
        return all(name in values and _written(values[name]) == value
                   for name, value in self.options)


ANY = Filter()  # every log


def _written(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def parse_options(specs: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """Returns the NAME=VALUE pairs of `--option`; raises UsageError for another shape."""
    out = []
    for spec in specs:
        name, sep, value = spec.partition("=")
        if not sep or not name:
            raise UsageError(f"--option takes NAME=VALUE, got {spec!r}")
        out.append((name.replace("-", "_"), value.lower() if value.lower() in (
            "true", "false") else value))
    return tuple(out)


# -- judging one log -----------------------------------------------------------------------

def parse_components(specs: Iterable[tuple[str, str]]) -> dict[str, bytes]:
    """Returns {game: component JSON} for `--components GAME=FILE`, each checked against
    the game's schema; raises UsageError for an unknown game or data that does not fit."""
    out: dict[str, bytes] = {}
    for game, path in specs:
        rs = engine.get(game)
        try:
            with open(path, "rb") as f:
                raw = f.read(tapelog.MAX_LINE + 1)
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


def _with_components(records: Iterator[tapelog.Record], components: dict[str, bytes]
                     ) -> Iterator[tapelog.Record]:
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
    """A visitor: the number of legal next events after every seq, and the seq that ended
    the game."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.over_at: int | None = None

    def __call__(self, j: Judged) -> None:
        fold = j.fold
        if fold is None:
            return
        rs, state = fold.ruleset, fold.state
        over = rs.over(state)
        if over and self.over_at is None:
            self.over_at = j.seq
        del self.counts[j.seq:]  # (seqs are visited in order, from 0)
        self.counts.extend([-1] * (j.seq - len(self.counts)))
        self.counts.append(0 if over else sum(1 for _ in rs.legal(state)))


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def encode_counts(counts: Sequence[int]) -> str:
    """Returns legal-move counts as a compact string: one character per seq for a count
    below 62 (0-9, a-z, A-Z), `~N.` for a larger one, `?` for a seq not judged."""
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
        f = tapelog.open_log(path)
    except TapeError as e:  # the file is not there to judge: the run's failure, not the log's
        raise Unjudged(f"cannot judge {path}: {e.reason}", file=path) from None
    with f:
        hashed = _Hashed(f)
        entry = _judge(path, components, hashed, rules)
        hashed.finish()
    game = entry.game
    if game is None:
        return _stray(path, entry), None
    if rules is None:
        entry = _both_ways(path, components, entry, hashed.h.hexdigest())
    return entry, (hashed.size, hashed.h.hexdigest(),
                   rules_fingerprint(game, components.get(game), rules))


class _Hashed:
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


class Unjudged(UsageError):
    """A log that could not be judged where it was to be judged (gone, unreadable, a
    worker's failure): the run fails (exit 2) and nothing is cached for it."""


class RunFailed(UsageError):
    """A run that could not judge its logs (no workers, a worker's error): exit 2."""


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
        f = tapelog.open_log(path)
    except TapeError as e:
        raise Unjudged(f"cannot judge {path}: {e.reason}", file=path) from None
    with f:
        hashed = _Hashed(f)
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
            first = f.readline(tapelog.MAX_LINE + 1)
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


def _judge(path: str, components: dict[str, bytes], f: _Hashed, rules: str | None = None
           ) -> Entry:
    counts = _LegalCounts()
    try:
        records = tapelog.read_records(path, registry.codec_for, opened=f)
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
                 error_seq=stop.seq if stop else None, over_at=counts.over_at,
                 moves=encode_counts(counts.counts), **out)


def _reason(e: TapeError, path: str) -> str:
    """Returns why reading stopped, the log's path left out (a baseline names logs its way)."""
    return e.reason.replace(path, "<log>")


# -- the cache -----------------------------------------------------------------------------

class _Cached(msgspec.Struct, array_like=True):
    size: int
    content: str  # hash of every byte of the log
    rules: str  # fingerprint of the code and component data that judged it
    entry: Entry


class _CacheFile(msgspec.Struct, array_like=True):
    version: int
    entries: dict[str, _Cached]


CACHE_VERSION = 2  # 2: one entry per (log, rules fingerprint), merged on save
CACHE_NAME = "corpus-cache.msgpack"
CACHE_KEEP = 4  # entries kept per log (other components, rules versions, code): no thrashing


def cache_key(path: str, fingerprint: str) -> str:
    """Returns where a log's entry judged under `fingerprint` is cached: one entry per (log
    bytes, components, rules version, code), so that alternating runs do not evict each other."""
    return f"{os.path.abspath(path)}\n{fingerprint}"


def default_cache_dir() -> str:
    """Returns $TABLETAPE_CACHE, else $XDG_CACHE_HOME/tabletape, else ~/.cache/tabletape."""
    if os.environ.get("TABLETAPE_CACHE"):
        return os.environ["TABLETAPE_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tabletape")


def load_cache(cache_dir: str) -> dict[str, _Cached]:
    """Returns the cached entries by `cache_key`; none when missing, corrupt or foreign."""
    try:
        with open(os.path.join(cache_dir, CACHE_NAME), "rb") as f:
            data = msgspec.msgpack.decode(f.read(), type=_CacheFile)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return {}
    return data.entries if data.version == CACHE_VERSION else {}


def save_cache(cache_dir: str, entries: dict[str, _Cached]) -> None:
    """Merges a run's entries into the cache and writes it atomically (temp file, then
    rename, under a lock: concurrent runs on different parts of an archive keep each
    other's entries); a failure only costs speed.

    Entries of logs that are gone are left out, and a log keeps its CACHE_KEEP newest.
    """
    try:
        os.makedirs(cache_dir, exist_ok=True)
        with _locked(os.path.join(cache_dir, f".{CACHE_NAME}.lock")):
            merged = {k: c for k, c in load_cache(cache_dir).items() if k not in entries}
            merged.update(entries)  # (the newest last)
            per_log: dict[str, list[str]] = {}
            for k in merged:
                per_log.setdefault(k.partition("\n")[0], []).append(k)
            keep = {k for path, ks in per_log.items() if os.path.exists(path)
                    for k in ks[-CACHE_KEEP:]}
            files.write(os.path.join(cache_dir, CACHE_NAME),
                        msgspec.msgpack.encode(_CacheFile(CACHE_VERSION, {
                            k: c for k, c in merged.items() if k in keep})),
                        force=True, durable=False)
    except (OSError, TapeError):
        pass


@contextlib.contextmanager
def _locked(path: str) -> Iterator[None]:
    """Holds an exclusive lock on `path` (created if need be) for the block (POSIX)."""
    try:
        import fcntl
    except ImportError:  # (no POSIX locks: the atomic rename has to do)
        yield
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


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


PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # src/tabletape
SOURCE_SUFFIXES = (".py", ".json", ".pyi")
# What cannot change a verdict: the front ends above `app` (the layers in pyproject.toml).
NOT_JUDGING = ("cli", "pytest_plugin.py", "__main__.py")


def game_package(game: str) -> str:
    """Returns the folder of the package that holds a game's rules (its code and data)."""
    import importlib
    module = type(engine.get(game)).__module__
    parts = module.split(".")
    top = ".".join(parts[:3] if module.startswith("tabletape.games.") else parts[:1])
    return os.path.dirname(os.path.abspath(importlib.import_module(top).__file__ or ""))


@functools.lru_cache(maxsize=64)
def source_fingerprint(game: str) -> str:
    """Returns a content hash of every file that can change how a game's logs are judged:
    tabletape's own modules and data (tape, engine with its kit, games/__init__, app;
    not the front ends), the game's package with its data, and the versions of msgspec
    and Python. Computed once per process (a process runs the code it loaded); ~100 files,
    about 1 MB: a few milliseconds."""
    import platform
    h = hashlib.sha256(f"msgspec {msgspec.__version__} python {platform.python_version()} "
                       f"{platform.python_implementation()}".encode())
    games_dir = os.path.join(PACKAGE, "games")
    h.update(tree_fingerprint(PACKAGE, skip=(*NOT_JUDGING, games_dir)).encode())
    h.update(tree_fingerprint(games_dir, skip=tuple(
        os.path.join(games_dir, d) for d in os.listdir(games_dir)
        if os.path.isdir(os.path.join(games_dir, d)))).encode())
    h.update(tree_fingerprint(game_package(game)).encode())
    return h.hexdigest()


def tree_fingerprint(root: str, skip: tuple[str, ...] = ()) -> str:
    """Returns a hash of the names and bytes of every source and data file under `root`
    (recursively, caches and hidden files left out). `skip`: names relative to `root`, or
    absolute paths, of files and folders left out."""
    h = hashlib.sha256()
    skipped = {os.path.join(root, s) for s in skip}
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith((".", "__pycache__"))
                         and os.path.join(d, x) not in skipped)
        for name in sorted(names):
            path = os.path.join(d, name)
            if name.startswith(".") or not name.endswith(SOURCE_SUFFIXES) or path in skipped:
                continue
            with open(path, "rb") as f:
                data = f.read()
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            h.update(b"%s %d\n" % (rel.encode(), len(data)))
            h.update(data)
    return h.hexdigest()


def _log_key(path: str, components: dict[str, bytes], rules: str | None = None) -> Key | None:
    """Returns (size, content hash, rules fingerprint) of a log, or None if it has none.

    Only to look the log up: an entry is cached under the key of the bytes it judged.
    Reads a block at a time, and at most one line's bound of the header.
    """
    try:
        with open(path, "rb") as f:
            hashed = _Hashed(f)
            first = hashed.readline(tapelog.MAX_LINE + 1)
            hashed.finish()
    except OSError:
        return None
    if not first.endswith(b"\n"):
        return None
    try:
        game = registry.ruleset_for(first[:-1], path).id
    except TapeError:
        return None
    return hashed.size, hashed.h.hexdigest(), rules_fingerprint(game, components.get(game), rules)


# -- running many ----------------------------------------------------------------------------

Verdict = tuple[Entry, Key | None]  # an entry and the key of the bytes it judged


def _judge_batch(paths: Sequence[str], components: dict[str, bytes], rules: str | None = None
                 ) -> list[Verdict]:
    """Judges a batch on a Dask worker; a log it cannot open names the worker and its folder."""
    try:
        return [judge_keyed(p, components, rules) for p in paths]
    except Unjudged as e:
        from dask.distributed import get_worker
        raise Unjudged(f"{e.reason} (on the Dask worker {get_worker().address}, in "
                       f"{os.getcwd()}: do the workers see the same files?)") from None


def run_local(paths: Sequence[str], components: dict[str, bytes], jobs: int,
              rules: str | None = None) -> Iterator[tuple[str, Verdict]]:
    """Yields (path, (entry, key)) for every log, judged in `jobs` processes."""
    from tabletape.app.parallel import pmap
    results = pmap(functools.partial(judge_keyed, components=components, rules=rules), paths,
                   jobs)
    try:
        yield from zip(paths, results, strict=True)
    finally:
        results.close()


DASK_TIMEOUT = 30.0  # seconds to reach a scheduler and to see its first worker


def run_dask(paths: Sequence[str], components: dict[str, bytes], scheduler: str,
             workers: int = 2, processes: bool = True, batch: int = 16,
             rules: str | None = None, timeout: float = DASK_TIMEOUT
             ) -> Iterator[tuple[str, Verdict]]:
    """Yields (path, (entry, key)) for every log, judged on a Dask cluster (in the order done).

    `scheduler` is the address of a running scheduler (tcp://host:8786), or "local" for a
    LocalCluster of `workers` workers (processes, or threads when `processes` is False).
    The workers open the paths themselves, made absolute here: they must see the same
    files (shared storage). A scheduler that cannot be reached, or has no worker within
    `timeout` seconds, fails the run (RunFailed); so does a worker's error, naming the
    logs it was judging.
    """
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UsageError("--dask needs the dask extra: pip install 'tabletape[dask]'") from None
    if not paths:
        return  # (every log from the cache: no cluster needed)
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError) as e:
            raise RunFailed(f"cannot reach the Dask scheduler {scheduler} within {timeout:g} s: "
                            f"{e}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise RunFailed(f"the Dask scheduler {scheduler} has no workers (waited "
                            f"{timeout:g} s): start some with `dask worker {scheduler}`"
                            ) from None
        absolute = {os.path.abspath(p): p for p in paths}
        batches = [list(absolute)[i:i + batch] for i in range(0, len(absolute), batch)]
        futures = client.map(_judge_batch, batches, components=components, rules=rules,
                             pure=False)
        index = {f.key: b for f, b in zip(futures, batches, strict=True)}
        for fut in as_completed(futures):
            done = index[fut.key]
            try:
                verdicts = fut.result()
            except Unjudged as e:
                raise Unjudged(e.reason) from None
            except UsageError:
                raise
            except Exception as e:  # noqa: BLE001 - a worker's failure, whatever it is
                more = f" (and {len(done) - 1} more logs of its batch)" if len(done) > 1 else ""
                raise RunFailed(f"a Dask worker failed judging {absolute[done[0]]}{more}: "
                                f"{type(e).__name__}: {e}") from None
            yield from zip((absolute[p] for p in done), verdicts, strict=True)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@dataclass
class Run:
    """What one check of an archive found: every log's entry by name, and how."""

    root: str  # names are relative to it
    entries: dict[str, Entry] = field(default_factory=dict)
    cached: int = 0  # entries taken from the cache


def check(paths: Sequence[str], *, root: str = ".", jobs: int = 1, dask: str | None = None,
          dask_processes: bool = True, components: dict[str, bytes] | None = None,
          cache_dir: str | None = None,
          progress: Callable[[int, int], None] | None = None, rules: str | None = None,
          dask_timeout: float = DASK_TIMEOUT, only: Filter = ANY) -> Run:
    """Judges every log under `paths` and returns the entries named from `root`.

    With `cache_dir`, an entry whose log bytes and rules fingerprint are unchanged is
    taken from the cache, and the cache is rewritten with this run's entries.
    `progress(done, total)` is called as logs are judged. `rules` judges every log by
    that rules version (or `latest`) instead of the one it was recorded under.
    A log that cannot be opened where it is judged, or a worker's failure, fails the
    whole run (Unjudged, RunFailed: exit 2) and nothing of it is cached.
    """
    components = components or {}
    logs = find_logs(paths)
    if only:
        logs = [p for p in logs if only.takes(p)]
    names = names_of(logs, root)
    run = Run(root)
    cache = load_cache(cache_dir) if cache_dir is not None else {}
    keys: dict[str, Key | None] = {}
    todo: list[str] = []
    found: dict[str, Entry] = {}
    for p in logs:
        if cache_dir is None:
            todo.append(p)
            continue
        k = keys[p] = _log_key(p, components, rules)
        hit = cache.get(cache_key(p, k[2])) if k is not None else None
        if k is not None and hit is not None and (hit.size, hit.content, hit.rules) == k:
            found[p] = hit.entry
        else:
            todo.append(p)
    run.cached = len(found)
    done = len(found)
    if progress:
        progress(done, len(logs))
    results = run_dask(todo, components, dask, processes=dask_processes, rules=rules,
                       timeout=dask_timeout) if dask else run_local(todo, components, jobs, rules)
    for p, (entry, judged) in results:
        found[p], keys[p] = entry, judged  # cached under the bytes it judged
        done += 1
        if progress:
            progress(done, len(logs))
    if cache_dir is not None:
        new: dict[str, _Cached] = {}
        for p in todo:
            k, where = keys[p], os.path.abspath(p)
            if k is not None and visible(where) == where:  # (else not UTF-8: judged each time)
                new[cache_key(p, k[2])] = _Cached(*k, entry=found[p])
        if new:
            save_cache(cache_dir, new)
    run.entries = {k: found[p] for k, p in names.items()}
    return run


# -- the report ----------------------------------------------------------------------------

def tally(entries: Iterable[Entry]) -> dict[str, int]:
    """Returns the games' totals (files that are not logs left out)."""
    out = {"logs": 0, "events": 0, VALID: 0, INVALID: 0, BROKEN: 0}
    for e in entries:
        if e.verdict == NOT_A_LOG:
            continue
        out["logs"] += 1
        out["events"] += e.events
        out[e.verdict] += 1
    return out


def summary(run: Run) -> dict[str, Any]:
    """Returns the totals, by game and by (game, rules version recorded under)."""
    by_game: dict[str, list[Entry]] = {}
    by_version: dict[str, list[Entry]] = {}
    for e in run.entries.values():
        if e.verdict == NOT_A_LOG:
            continue
        g = e.game or "(unreadable)"
        by_game.setdefault(g, []).append(e)
        by_version.setdefault(f"{g} {e.rules_version or '?'}", []).append(e)
    return {"total": tally(run.entries.values()),
            "not_logs": sorted(k for k, e in run.entries.items() if e.verdict == NOT_A_LOG),
            "by_game": {g: tally(v) for g, v in sorted(by_game.items())},
            "by_version": {g: tally(v) for g, v in sorted(by_version.items())}}


# -- baselines -------------------------------------------------------------------------------

def write_baseline(path: str, entries: dict[str, Entry], reading: Iterable[str] = ()) -> None:
    """Writes a baseline manifest: deterministic JSON, keys sorted, one log per line (over
    the old one, never over a log in `reading`)."""
    enc = msgspec.json.Encoder(order="sorted")
    lines = [f"  {enc.encode(k).decode()}: {enc.encode(entries[k]).decode()}"
             for k in sorted(entries)]
    text = (f'{{\n "format": {BASELINE_FORMAT},\n "logs": {{\n' + ",\n".join(lines)
            + ("\n" if lines else "") + " }\n}\n")
    old = _baseline_there(path)
    files.write(path, text.encode(), force=old, reading=reading,
                exists="it appeared while the baseline was written; nothing was replaced")


_BASELINE_START = b'{\n "format": '  # how write_baseline begins every baseline


def _baseline_there(path: str) -> bool:
    """Returns True when `path` holds a baseline or nothing (to replace), False when there is
    no file; raises UsageError for any other file: --update replaces a baseline, never a log."""
    try:
        with open(path, "rb") as f:
            start = f.read(len(_BASELINE_START))
    except FileNotFoundError:
        return False
    except OSError as e:
        raise UsageError(f"cannot read the baseline: {e.strerror}", file=path) from None
    if start not in (b"", _BASELINE_START):  # (an empty file holds nothing to lose)
        raise UsageError(f"{path} is not a baseline manifest; --update replaces only a "
                         "baseline; nothing was written", file=path)
    return True


class _Baseline(msgspec.Struct):
    format: int
    logs: dict[str, Entry]


def read_baseline(path: str) -> dict[str, Entry]:
    """Returns a baseline's entries by log name; raises UsageError when it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = msgspec.json.decode(f.read(), type=_Baseline)
    except OSError as e:
        raise UsageError(f"cannot read the baseline: {e.strerror}", file=path) from None
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise UsageError(f"not a baseline manifest: {e}", file=path) from None
    if data.format != BASELINE_FORMAT:
        raise UsageError(f"baseline format {data.format} is not supported", file=path)
    return data.logs


def baseline_to_update(path: str) -> dict[str, Entry]:
    """Returns the entries of the baseline `--update` will rewrite ({} when there is none
    yet, or it is empty); raises UsageError when the file is not a baseline."""
    if not _baseline_there(path) or os.path.getsize(path) == 0:
        return {}
    return read_baseline(path)


def under(name: str, paths: Sequence[str], root: str, only: Filter = ANY,
          entry: Entry | None = None) -> bool:
    """Returns whether a log named `name` (from `root`) lies under one of the paths (and,
    with a filter, is of its games and options: a log gone is judged by its entry's game;
    its options unknown, it is left out)."""
    if only and entry is not None and only.games and entry.game not in only.games:
        return False
    if only.options and not only.takes(os.path.join(root, name)):
        return False
    for p in paths:
        k = key_of(p, root)
        if k == "." or name == k or name.startswith(k + "/"):
            return True
    return False


def in_scope(baseline: dict[str, Entry], paths: Sequence[str], root: str,
             only: Filter = ANY) -> dict[str, Entry]:
    """Returns the baseline's entries of the logs under the paths (and the filter's): a
    check of part of an archive is compared with that part only (the others are not
    "removed")."""
    return {k: e for k, e in baseline.items() if under(k, paths, root, only, e)}


def merged(baseline: dict[str, Entry], entries: dict[str, Entry], paths: Sequence[str],
           root: str, only: Filter = ANY) -> dict[str, Entry]:
    """Returns the baseline updated with a run over `paths`: the entries under the paths
    (and the filter's) replaced by the run's (a log gone from them is dropped), every
    other entry kept."""
    out = {k: e for k, e in baseline.items() if not under(k, paths, root, only, e)}
    out.update(entries)
    return out


class Aspect(msgspec.Struct, frozen=True, omit_defaults=True):
    """One way a log's judgement changed: where (`seq`), what it was and is, which rules."""

    aspect: str  # broken | verdict | illegal | outcome | legal | state | events | latest
    #              | recorded
    seq: int | None = None  # where it first differs (None: not located, e.g. the final state)
    before: Any = None
    after: Any = None
    rules: list[str] = []  # the rule ids involved there


class Change(msgspec.Struct, frozen=True, omit_defaults=True):
    """How one log's result differs from its baseline (fields, not sentences: `what` words
    them for a person)."""

    log: str
    kind: str  # changed | added | removed
    aspects: list[Aspect] = []  # the break (if any) first, then in the order of `ASPECTS`
    first_seq: int | None = None  # the first seq judged differently (None: not located)
    rules_changed: list[str] = []  # the rule ids changed since the log's rules version
    look: str | None = None  # a command line to look closer (explain at first_seq)

    @property
    def what(self) -> list[str]:
        """Returns one sentence per aspect (what the text report and the plugin print)."""
        if self.kind == "added":
            return ["not in the baseline"]
        if self.kind == "removed":
            return ["in the baseline, not in the archive"]
        return [_sentence(a) for a in self.aspects]

    @property
    def broken_at(self) -> Aspect | None:
        """Returns the break (format or chain) where reading now stops, if that changed."""
        a = self.aspects[0] if self.aspects else None
        return a if a is not None and a.aspect == "broken" and a.after is not None else None


def _sentence(a: Aspect) -> str:
    k = a.aspect
    if k == "broken":
        return (f"reading stopped: {a.before or 'no'} -> {a.after or 'no'}"
                + (f" (seq {a.seq})" if a.seq is not None else ""))
    if k == "verdict":
        return f"verdict: {a.before} -> {a.after}"
    if k == "illegal":
        return (f"first illegal: {_illegal_text(a.before)} -> {_illegal_text(a.after)}")
    if k == "outcome":
        return (f"outcome: {_outcome_words(a.before)} -> {_outcome_words(a.after)}"
                + (f" (decided at seq {a.seq})" if a.seq is not None else ""))
    if k == "legal":
        return f"the events legal as seq {a.seq} first differ ({a.before} -> {a.after} of them)"
    if k == "state":
        return "final state differs"
    if k == "events":
        return f"events: {a.before} -> {a.after}"
    if k == "latest":
        return f"under the latest rules: {_latest_words(a.before)} -> {_latest_words(a.after)}"
    if k == "recorded":
        return f"recorded as: {a.before} -> {a.after}"
    return f"{k}: {a.before} -> {a.after}"


def rules_changed_since(game: str | None, version: str | None) -> list[str]:
    """Returns the ids of the rules a game's changelog lists after `version` (sorted)."""
    if game is None or version is None:
        return []
    try:
        rs = engine.get(game)
    except TapeError:
        return []
    ids: set[str] = set()
    for v, rules in rs.changelog.items():
        if _version_key(v) > _version_key(version):
            ids.update(rules)
    return sorted(ids)


def _version_key(v: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in v.split("."))


def _illegal_text(i: Sequence[Any] | None) -> str:
    return "none" if not i else f"seq {i[0]} [{i[1]}]"


def _outcome(e: Entry) -> dict[str, Any] | None:
    return None if e.winners is None else {"winners": e.winners, "scores": e.scores or {}}


def _outcome_words(o: dict[str, Any] | None) -> str:
    if o is None:
        return "not over"
    scores = ", ".join(f"{p} {s}" for p, s in (o.get("scores") or {}).items())
    return f"won by {', '.join(o['winners']) or 'nobody'}" + (f" ({scores})" if scores else "")


def _latest_words(u: dict[str, Any] | None) -> str:
    if u is None:
        return "as under its own version"
    first = u.get("first_illegal")
    return f"{u['verdict']} ({u['version']})" + (f", {_illegal_text(first)}" if first else "")


def _first_count_change(old: str, new: str) -> tuple[int, int | None, int | None] | None:
    """Returns (seq, before, after) of the first seq whose legal-move count differs."""
    a, b = decode_counts(old), decode_counts(new)
    for seq, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return seq, x, y
    if len(a) != len(b):
        seq = min(len(a), len(b))
        return seq, a[seq] if seq < len(a) else None, b[seq] if seq < len(b) else None
    return None


def difference(log: str, old: Entry, new: Entry) -> Change | None:
    """Returns how `new` differs from `old` (the baseline), or None when it does not.

    Every aspect names the first seq where it differs, when it has one; a break of the
    log (format or chain) is always the first aspect: tampering is reported before any
    illegal event found on the way to it.
    """
    if old == new:
        return None
    aspects: list[Aspect] = []
    if (old.error, old.error_seq) != (new.error, new.error_seq):
        seqs = [x for x in (old.error_seq, new.error_seq) if x is not None]
        aspects.append(Aspect("broken", min(seqs) if seqs else None, old.error, new.error))
    if old.verdict != new.verdict:
        aspects.append(Aspect("verdict", None, old.verdict, new.verdict))
    if old.illegal != new.illegal:
        was, now = dict(old.illegal), dict(new.illegal)
        seq = min(set(old.illegal) ^ set(new.illegal))[0]
        # Every seq before it was judged alike (the fold is the same).
        aspects.append(Aspect("illegal", seq, old.first_illegal, new.first_illegal,
                              sorted({r for r in (was.get(seq), now.get(seq)) if r})))
    if (old.winners, old.scores) != (new.winners, new.scores):
        ends = [x for x in (old.over_at, new.over_at) if x is not None]
        aspects.append(Aspect("outcome", min(ends) if ends else None, _outcome(old),
                              _outcome(new)))
    if old.moves != new.moves and old.moves and new.moves:  # (none: an older baseline)
        first = _first_count_change(old.moves, new.moves)
        if first is not None:
            seq, before, after = first  # the counts after `seq`: the events that may be seq + 1
            aspects.append(Aspect("legal", seq + 1, before, after))
    if old.state != new.state:
        aspects.append(Aspect("state", None, old.state, new.state))
    if old.events != new.events:
        aspects.append(Aspect("events", None, old.events, new.events))
    if old.latest != new.latest:
        aspects.append(_latest_aspect(old, new))
    if (old.game, old.rules_version) != (new.game, new.rules_version):
        aspects.append(Aspect("recorded", None, f"{old.game} {old.rules_version}",
                              f"{new.game} {new.rules_version}"))
    if (old.verdict == NOT_A_LOG) != (new.verdict == NOT_A_LOG) and not aspects:
        aspects.append(Aspect("verdict", None, old.verdict, new.verdict))
    if not aspects:
        return None  # (only what an older baseline did not measure)
    seqs = [a.seq for a in aspects if a.seq is not None]
    return Change(log, "changed", aspects, min(seqs) if seqs else None,
                  rules_changed_since(new.game, new.rules_version))


def _under_latest(e: Entry) -> dict[str, Any] | None:
    if e.latest is None:
        return None  # (the same as under its recorded version, or it is the latest)
    out: dict[str, Any] = {"version": e.latest.version, "verdict": e.latest.verdict}
    if e.latest.illegal:
        out["first_illegal"] = list(e.latest.illegal[0])
    return out


def _latest_aspect(old: Entry, new: Entry) -> Aspect:
    """The verdict under the latest rules changed (the log's own version judged alike)."""
    was = dict(old.latest.illegal if old.latest else old.illegal)
    now = dict(new.latest.illegal if new.latest else new.illegal)
    differ = set(was.items()) ^ set(now.items())
    seq = min(differ)[0] if differ else None
    return Aspect("latest", seq, _under_latest(old), _under_latest(new),
                  sorted(new.latest.rules_changed if new.latest else
                         old.latest.rules_changed if old.latest else []))


def look_closer(change: Change, path: str, rules: str | None = None) -> str | None:
    """Returns the command line that explains a changed log at its first differing seq
    (the break, when it broke), or None when there is no seq to look at."""
    import shlex
    seq = change.broken_at.seq if change.broken_at is not None else change.first_seq
    if seq is None or change.kind != "changed":
        return None
    return " ".join(["tabletape", "explain", shlex.quote(path), str(seq),
                     *(["--rules", shlex.quote(rules)] if rules else [])])


def compare(baseline: dict[str, Entry], entries: dict[str, Entry], root: str | None = None,
            rules: str | None = None) -> list[Change]:
    """Returns every log whose result differs from the baseline, and those added or removed.

    With `root` (where the names start), each change carries a command to look closer.
    """
    out: list[Change] = []
    for log in sorted({*baseline, *entries}):
        if log not in baseline:
            out.append(Change(log, "added"))
        elif log not in entries:
            out.append(Change(log, "removed"))
        else:
            c = difference(log, baseline[log], entries[log])
            if c is not None and root is not None:
                path = os.path.relpath(os.path.join(root, log))
                c = msgspec.structs.replace(c, look=look_closer(c, path, rules))
            if c is not None:
                out.append(c)
    return out


def report(run: Run, changes: list[Change] | None) -> dict[str, Any]:
    """Returns the whole report as plain data (what --json prints)."""
    out: dict[str, Any] = {**summary(run), "cached": run.cached,
                           "logs": {k: msgspec.to_builtins(v) for k, v in run.entries.items()}}
    if changes is not None:
        out["changes"] = [msgspec.to_builtins(c) for c in changes]
    return out


# -- coverage --------------------------------------------------------------------------------

class Covered(msgspec.Struct, frozen=True, kw_only=True):
    """Which rules one log exercises: the rule ids governing its events (and refusing its
    illegal ones), each with the number of events, and how the game ended."""

    game: str | None
    events: int = 0
    rules: dict[str, int] = {}  # rule id -> events it governed or refused
    ending: str | None = None  # the kind of event that ended the game (None: not over)


class _Rules:
    """A visitor: the rule ids governing every event (or refusing it), and the ending."""

    def __init__(self) -> None:
        self.rules: dict[str, int] = {}
        self.ending: str | None = None

    def __call__(self, j: Judged) -> None:
        fold = j.fold
        if fold is None or j.seq == 0:
            return
        ids: set[str] = set()
        if j.problem is not None and getattr(j.problem, "rule", None):
            ids.update(r.strip() for r in str(j.problem.rule).split(","))
        try:
            ids.update(fold.ruleset.governing(j.event))
        except Exception:  # noqa: BLE001 - an event the game has no words for (a core event)
            pass
        for r in ids:
            self.rules[r] = self.rules.get(r, 0) + 1
        if self.ending is None and j.before is not None and fold.ruleset.over(fold.state):
            self.ending = getattr(j.event, "type", None) or type(j.event).__name__


def covered(path: str) -> Covered:
    """Returns the rules one log exercises (a broken log: those up to its break)."""
    visit = _Rules()
    try:
        result = walk(Replay(path), tapelog.read_records(path, registry.codec_for), visit=visit,
                      keep_going=True)
    except TapeError:
        return Covered(game=None)
    return Covered(game=getattr(result.header, "game", None), events=result.events,
                   rules=visit.rules, ending=visit.ending)


def coverage(paths: Sequence[str], jobs: int = 1,
             only: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Returns, per game, how many logs and events exercise each rule id of its catalogue,
    the rule ids no log exercises, and the endings present (how each game ended)."""
    from tabletape.app.parallel import pmap
    logs = find_logs(paths)
    games: dict[str, dict[str, Any]] = {}
    for c in pmap(covered, logs, jobs):
        if c.game is None:
            continue
        g = games.setdefault(c.game, {"logs": 0, "events": 0, "rules": {}, "endings": {}})
        g["logs"] += 1
        g["events"] += c.events
        for r, n in c.rules.items():
            seen = g["rules"].setdefault(r, {"logs": 0, "events": 0})
            seen["logs"] += 1
            seen["events"] += n
        ending = c.ending or "not over"
        g["endings"][ending] = g["endings"].get(ending, 0) + 1
    out: dict[str, Any] = {}
    for game in sorted(games):
        g = games[game]
        try:
            catalogue = sorted(engine.get(game).catalogue())
        except TapeError:
            catalogue = []
        out[game] = {"logs": g["logs"], "events": g["events"],
                     "rules": {r: g["rules"].get(r, {"logs": 0, "events": 0})
                               for r in sorted({*catalogue, *g["rules"]})},
                     "unexercised": [r for r in catalogue if r not in g["rules"]],
                     "endings": dict(sorted(g["endings"].items()))}
    return out


# -- a report for a pull request -----------------------------------------------------------

def _md(text: object) -> str:
    """Returns text as literal Markdown in a table cell: what Markdown would read escaped."""
    out = str(text)
    for c in "\\`*_[]<|#":
        out = out.replace(c, "\\" + c)
    return out


def _code(text: str) -> str:
    """Returns text as inline code in a table cell (a backtick or a bar cannot close it)."""
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`"


def changed_rules(changes: Iterable[Change]) -> list[str]:
    """Returns the rule ids involved in the changes (where they differ), sorted."""
    return sorted({r for c in changes for a in c.aspects for r in a.rules})


def markdown(run: Run, changes: list[Change] | None, baseline: str | None = None,
             covered: dict[str, Any] | None = None) -> list[str]:
    """Returns a report to paste into a pull request, line by line: the summary table by
    game and rules version, every changed log with its first differing seq, what changed,
    the rule ids and a command to look closer, and the coverage of the changed rules
    (`covered`: `coverage` of the archive)."""
    s = summary(run)
    cols = ("logs", "events", VALID, INVALID, BROKEN)
    out = ["### tabletape corpus check", "",
           "| game | rules | " + " | ".join(cols) + " |",
           "|---|---|" + "---:|" * len(cols)]
    for key, t in s["by_version"].items():
        game, _, version = key.rpartition(" ")
        out.append(f"| {_md(game)} | {_md(version)} | "
                   + " | ".join(f"{t[c]:,}" for c in cols) + " |")
    t = s["total"]
    out.append("| **all** | | " + " | ".join(f"**{t[c]:,}**" for c in cols) + " |")
    if s["not_logs"]:
        out += ["", f"Not logs (left out): {', '.join(_code(n) for n in s['not_logs'])}"]
    if changes is None:
        bad = [(n, e) for n, e in run.entries.items() if e.verdict in (INVALID, BROKEN)]
        out += ["", f"**{len(bad)} of {t['logs']:,} logs are invalid or broken.**" if bad
                else f"All {t['logs']:,} logs are valid."]
        return out
    where = f" {_code(baseline)}" if baseline else ""
    if not changes:
        return [*out, "", f"All {len(run.entries):,} logs match the baseline{where}."]
    winners = sum(1 for c in changes for a in c.aspects if a.aspect == "outcome"
                  and (a.before or {}).get("winners") != (a.after or {}).get("winners"))
    out += ["", f"**{len(changes)} of {len(run.entries):,} logs differ from the "
            f"baseline{where}** ({winners} with another winner, or none).", "",
            "| log | first seq | what changed | rules | look closer |", "|---|---:|---|---|---|"]
    for c in changes:
        rules = sorted({r for a in c.aspects for r in a.rules})
        first = "" if c.first_seq is None else str(c.first_seq)
        out.append(f"| {_code(c.log)} | {first} | {'<br>'.join(_md(w) for w in c.what)} | "
                   f"{', '.join(_code(r) for r in rules)} | "
                   f"{_code(c.look) if c.look else ''} |")
    rules = changed_rules(changes)
    if rules and covered is not None:
        out += ["", "Coverage of the changed rules (the logs checked that exercise each):",
                "", "| rule | logs | events |", "|---|---:|---:|"]
        for r in rules:
            seen = next((g["rules"][r] for g in covered.values() if r in g["rules"]),
                        {"logs": 0, "events": 0})
            out.append(f"| {_code(r)} | {seen['logs']:,} | {seen['events']:,} |")
    return out
