"""An archive of logs judged as a whole: checks, baselines, a cache, parallel and Dask runs.

The rules maintainer's question: which recorded games does my rules change affect, and
how? `check` replays every log under some paths (in processes, or on a Dask cluster)
and returns one `Entry` per log: its verdict, its first illegal event and rule, its
outcome, a digest of its final state and of the number of legal next events at every
seq, and the rules version it was recorded under. A baseline is the same entries,
written as deterministic JSON beside the archive; `compare` says what changed and
from which seq. The cache keeps entries between runs, keyed by the log's bytes and a
fingerprint of the rules code and component data that judged it.

Nothing here prints: the command line (tabletape.cli.corpus) and the pytest plugin
(tabletape.pytest_plugin) report what these return.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import msgspec

from tabletape.app.baseline import (
    Change,
    compare,
    difference,
    read_baseline,
    rules_changed_since,
    write_baseline,
)
from tabletape.app.judge import (
    BROKEN,
    INVALID,
    VALID,
    Entry,
    Hashed,
    Key,
    judge,
    judge_keyed,
    parse_components,
    rules_fingerprint,
)
from tabletape.engine import registry
from tabletape.tape import files
from tabletape.tape import log as tapelog
from tabletape.tape.errors import TapeError, UsageError
from tabletape.tape.events import visible

# The names callers use, from the modules that hold them: judging one log (app.judge) and
# baselines (app.baseline). This module finds logs, keeps the cache and runs many.
__all__ = [
    "BROKEN", "CACHE_NAME", "INVALID", "VALID", "Change",
    "Entry", "Run", "check", "compare", "default_cache_dir", "difference", "find_logs",
    "judge", "judge_keyed", "key_of", "load_cache", "names_of", "parse_components",
    "read_baseline", "report", "rules_changed_since", "rules_fingerprint", "run_dask",
    "run_local", "save_cache", "summary", "tally", "write_baseline",
]


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


# -- the cache -----------------------------------------------------------------------------

class _Cached(msgspec.Struct, array_like=True):
    size: int
    content: str  # hash of every byte of the log
    rules: str  # fingerprint of the code and component data that judged it
    entry: Entry


class _CacheFile(msgspec.Struct, array_like=True):
    version: int
    entries: dict[str, _Cached]


CACHE_VERSION = 1
CACHE_NAME = "corpus-cache.msgpack"


def default_cache_dir() -> str:
    """Returns $TABLETAPE_CACHE, else $XDG_CACHE_HOME/tabletape, else ~/.cache/tabletape."""
    if os.environ.get("TABLETAPE_CACHE"):
        return os.environ["TABLETAPE_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tabletape")


def load_cache(cache_dir: str) -> dict[str, _Cached]:
    """Returns the cached entries by absolute path; none when missing, corrupt or foreign."""
    try:
        with open(os.path.join(cache_dir, CACHE_NAME), "rb") as f:
            data = msgspec.msgpack.decode(f.read(), type=_CacheFile)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return {}
    return data.entries if data.version == CACHE_VERSION else {}


def save_cache(cache_dir: str, entries: dict[str, _Cached]) -> None:
    """Writes the cache atomically (temp file, then rename); a failure only costs speed.

    Entries of logs that are gone are left out.
    """
    entries = {p: c for p, c in entries.items() if os.path.exists(p)}
    try:
        os.makedirs(cache_dir, exist_ok=True)
        files.write(os.path.join(cache_dir, CACHE_NAME),
                    msgspec.msgpack.encode(_CacheFile(CACHE_VERSION, entries)), force=True,
                    durable=False)
    except (OSError, TapeError):
        pass


def _log_key(path: str, components: dict[str, bytes], rules: str | None = None) -> Key | None:
    """Returns (size, content hash, rules fingerprint) of a log, or None if it has none.

    Only to look the log up: an entry is cached under the key of the bytes it judged.
    Reads a block at a time, and at most one line's bound of the header.
    """
    try:
        with open(path, "rb") as f:
            hashed = Hashed(f)
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
    return [judge_keyed(p, components, rules) for p in paths]


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


def run_dask(paths: Sequence[str], components: dict[str, bytes], scheduler: str,
             workers: int = 2, processes: bool = True, batch: int = 16,
             rules: str | None = None) -> Iterator[tuple[str, Verdict]]:
    """Yields (path, (entry, key)) for every log, judged on a Dask cluster (in the order done).

    `scheduler` is the address of a running scheduler (tcp://host:8786), or "local" for a
    LocalCluster of `workers` workers (processes, or threads when `processes` is False).
    The workers open the paths themselves: they must see the same files (shared storage).
    """
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UsageError("--dask needs the dask extra: pip install 'tabletape[dask]'") from None
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        batches = [list(paths[i:i + batch]) for i in range(0, len(paths), batch)]
        futures = client.map(_judge_batch, batches, components=components, rules=rules,
                             pure=False)
        index = {f.key: b for f, b in zip(futures, batches, strict=True)}
        for fut in as_completed(futures):
            yield from zip(index[fut.key], fut.result(), strict=True)
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
          progress: Callable[[int, int], None] | None = None, rules: str | None = None) -> Run:
    """Judges every log under `paths` and returns the entries named from `root`.

    With `cache_dir`, an entry whose log bytes and rules fingerprint are unchanged is
    taken from the cache, and the cache is rewritten with this run's entries.
    `progress(done, total)` is called as logs are judged. `rules` judges every log by
    that rules version (or `latest`) instead of the one it was recorded under.
    """
    components = components or {}
    logs = find_logs(paths)
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
        hit = cache.get(os.path.abspath(p))
        if k is not None and hit is not None and (hit.size, hit.content, hit.rules) == k:
            found[p] = hit.entry
        else:
            todo.append(p)
    run.cached = len(found)
    done = len(found)
    if progress:
        progress(done, len(logs))
    results = run_dask(todo, components, dask, processes=dask_processes, rules=rules) if dask \
        else run_local(todo, components, jobs, rules)
    for p, (entry, judged) in results:
        found[p], keys[p] = entry, judged  # cached under the bytes it judged
        done += 1
        if progress:
            progress(done, len(logs))
    if cache_dir is not None:
        for p in todo:
            k, where = keys[p], os.path.abspath(p)
            if k is not None and visible(where) == where:  # (else not UTF-8: judged each time)
                cache[where] = _Cached(*k, entry=found[p])
        save_cache(cache_dir, cache)
    run.entries = {k: found[p] for k, p in names.items()}
    return run


# -- the report ----------------------------------------------------------------------------

class Tally(msgspec.Struct):
    """How many logs and events, and how many logs of each verdict."""

    logs: int = 0
    events: int = 0
    valid: int = 0
    invalid: int = 0
    broken: int = 0


def tally(entries: Iterable[Entry]) -> Tally:
    out = Tally()
    for e in entries:
        out.logs += 1
        out.events += e.events
        setattr(out, e.verdict, getattr(out, e.verdict) + 1)  # valid, invalid or broken
    return out


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """The totals, by game and by `GAME VERSION` (the rules version recorded under)."""

    total: Tally
    by_game: dict[str, Tally]
    by_version: dict[str, Tally]


def summary(run: Run) -> Summary:
    """Returns the totals, by game and by (game, rules version recorded under)."""
    by_game: dict[str, list[Entry]] = {}
    by_version: dict[str, list[Entry]] = {}
    for e in run.entries.values():
        g = e.game or "(unreadable)"
        by_game.setdefault(g, []).append(e)
        by_version.setdefault(f"{g} {e.rules_version or '?'}", []).append(e)
    return Summary(total=tally(run.entries.values()),
                   by_game={g: tally(v) for g, v in sorted(by_game.items())},
                   by_version={g: tally(v) for g, v in sorted(by_version.items())})


# -- baselines -------------------------------------------------------------------------------

class Report(msgspec.Struct, frozen=True, kw_only=True):
    """`corpus check --json`: the totals, every log's entry, and (with a baseline) the
    logs whose judgement changed."""

    total: Tally
    by_game: dict[str, Tally]
    by_version: dict[str, Tally]
    logs: dict[str, Entry]
    changes: list[Change] | msgspec.UnsetType = msgspec.UNSET


def report(run: Run, changes: list[Change] | None) -> Report:
    """Returns the whole report (what --json prints)."""
    s = summary(run)
    return Report(total=s.total, by_game=s.by_game, by_version=s.by_version,
                  logs=dict(run.entries), changes=msgspec.UNSET if changes is None else changes)
