"""An archive of logs judged as a whole: checks, baselines, a cache, parallel and Dask runs.

The rules maintainer's question: which recorded games does my rules change affect, and
how? `check` replays every log under some paths (in processes, or on a Dask cluster)
and returns one `Entry` per log (app.judge): its verdict, its first illegal event and
rule, its outcome and the seq that decided it, a digest of its final state, the number
of legal next events at every seq, and the rules version it was recorded under. A
baseline is the same entries, written as deterministic JSON beside the archive;
`compare` (app.baseline) says what changed and at which seq; app.report totals a run,
covers the rules and writes a Markdown report. The cache keeps entries between runs,
keyed by the log's bytes and a fingerprint of the code and component data that judged it.

Nothing here prints: the command line (tabletape.cli.corpus) and the pytest plugin
(tabletape.pytest_plugin) report what these return.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

import msgspec

from tabletape.app.archive import Run, find_logs, key_of, names_of
from tabletape.app.baseline import (
    BASELINE_FORMAT,
    Aspect,
    Change,
    baseline_to_update,
    compare,
    difference,
    look_closer,
    read_baseline,
    rules_changed_since,
    write_baseline,
)
from tabletape.app.judge import (
    BROKEN,
    CHECK_VERSION,
    INVALID,
    NOT_A_LOG,
    VALID,
    Entry,
    Hashed,
    Key,
    Latest,
    Unjudged,
    decode_counts,
    encode_counts,
    judge,
    judge_keyed,
    parse_components,
    rules_fingerprint,
    source_fingerprint,
    written,
)
from tabletape.app.parallel import DASK_TIMEOUT, RunFailed, dask_client, needs_dask, pmap
from tabletape.app.report import (
    Covered,
    Report,
    RuleCoverage,
    Summary,
    Tally,
    WinnerChange,
    changed_rules,
    columns,
    coverage,
    covered,
    markdown,
    report,
    rule_coverage,
    summary,
    tally,
    winner_change,
    winners_words,
)
from tabletape.engine import registry
from tabletape.tape import files
from tabletape.tape import log as tapelog
from tabletape.tape.errors import TapeError, UsageError
from tabletape.tape.events import visible
from tabletape.tape.words import counted

# The names callers use, from the modules that hold them: finding and naming logs
# (app.archive), judging one log (app.judge), baselines (app.baseline) and the report with
# coverage (app.report). This module keeps the cache, runs many and takes a subset of a
# baseline; none of those modules imports it.
__all__ = [
    "ANY", "BASELINE_FORMAT", "BROKEN", "CACHE_KEEP", "CACHE_NAME", "CHECK_VERSION",
    "DASK_TIMEOUT", "INVALID", "NOT_A_LOG", "VALID", "Aspect", "Change", "Covered", "Entry",
    "Checked", "Filter", "Latest", "Report", "RuleCoverage", "Run", "RunFailed", "Summary", "Tally",
    "Unjudged", "WinnerChange", "baseline_to_update", "cache_key", "changed_rules", "check", "check_archive",
    "columns", "compare", "coverage",
    "covered", "decode_counts", "default_cache_dir", "difference", "encode_counts",
    "find_logs", "in_scope", "judge", "judge_keyed", "key_of", "load_cache", "look_closer",
    "markdown", "merged", "names_of", "parse_components", "parse_options", "read_baseline",
    "report", "rule_coverage", "rules_changed_since", "rules_fingerprint", "run_dask",
    "run_local", "save_cache", "source_fingerprint", "summary", "tally", "under",
    "winner_change", "winners_words", "write_baseline", "written",
]


class Filter(msgspec.Struct, frozen=True):
    """Which logs a check takes: of these games (none: any), with these option values,
    recorded under these rules versions (none: any)."""

    games: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()  # (name, value as written: true, short, 2)
    recorded: tuple[str, ...] = ()  # the header's rules_version

    def __bool__(self) -> bool:
        return bool(self.games or self.options or self.recorded)

    def described(self) -> str:
        """Returns what the filter asks, as a reader would say it."""
        said = [f"of {' or '.join(self.games)}"] if self.games else []
        said += [f"played with {n}={v}" for n, v in self.options]
        if self.recorded:
            said.append(f"recorded under rules {' or '.join(self.recorded)}")
        return ", ".join(said)

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
        if self.recorded and getattr(header, "rules_version", None) not in self.recorded:
            return False
        if not self.options:
            return True
        opts = getattr(header, "options", None)
        values = msgspec.structs.asdict(opts) if isinstance(opts, msgspec.Struct) else {}
        return all(name in values and written(values[name]) == value
                   for name, value in self.options)


ANY = Filter()  # every log


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



def _from_cache(path: str, components: dict[str, bytes], cache: dict[str, _Cached],
                rules: str | None = None) -> Entry | None:
    """Returns a log's cached entry when its bytes and rules fingerprint are the ones cached,
    else None (judge it).

    Reads the header line for the game (and so the fingerprint); every byte is read and
    hashed only when an entry of that size is cached for it: a log not in the cache (a
    first run) is read once, by the judge, not twice.
    """
    try:
        with open(path, "rb") as f:
            hashed = Hashed(f)
            first = hashed.readline(tapelog.MAX_LINE + 1)
            if not first.endswith(b"\n"):
                return None
            try:
                game = registry.ruleset_for(first[:-1], path).id
            except TapeError:
                return None
            fingerprint = rules_fingerprint(game, components.get(game), rules)
            hit = cache.get(cache_key(path, fingerprint))
            if hit is None or hit.rules != fingerprint or hit.size != os.fstat(f.fileno()).st_size:
                return None
            hashed.finish()
    except OSError:
        return None
    return hit.entry if (hashed.size, hashed.h.hexdigest()) == (hit.size, hit.content) else None


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
    results = pmap(functools.partial(judge_keyed, components=components, rules=rules), paths,
                   jobs)
    try:
        yield from zip(paths, results, strict=True)
    finally:
        results.close()


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
    needs_dask("--dask")
    from dask.distributed import as_completed
    if not paths:
        return  # (every log from the cache: no cluster needed)
    with dask_client(scheduler, "--dask", workers, processes, timeout) as client:
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
        taken = [p for p in logs if only.takes(p)]
        if logs and not taken:  # a filter that takes nothing is a typo, not a green run
            raise UsageError(f"none of the {counted(len(logs), 'log')} under "
                             f"{', '.join(paths)} is {only.described()}")
        logs = taken
    names = names_of(logs, root)
    run = Run(root)
    cache = load_cache(cache_dir) if cache_dir is not None else {}
    keys: dict[str, Key | None] = {}
    todo: list[str] = []
    found: dict[str, Entry] = {}
    for p in logs:
        hit = _from_cache(p, components, cache, rules) if cache else None
        if hit is not None:
            found[p] = hit
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



# -- a check against a baseline --------------------------------------------------------------

class Checked(NamedTuple):
    """What `corpus check` found: the run, how it differs from the baseline (None: no
    baseline compared), the baseline written (`update`) and the coverage of the rules
    involved in the changes (None: no change names a rule)."""

    run: Run
    changes: list[Change] | None
    written: dict[str, Entry] | None
    covered: dict[str, Any] | None
    updated: bool

    @property
    def ok(self) -> bool:
        """Whether the check passes: an update always does (its results are the baseline
        now); against a baseline, when nothing changed; else when every log is valid."""
        if self.updated:
            return True
        if self.changes is not None:
            return not self.changes
        total = tally(self.run.entries.values())
        return not (total.invalid or total.broken)


def check_archive(paths: Sequence[str], *, baseline: str | None = None, update: bool = False,
                  jobs: int = 1, rules: str | None = None, only: Filter = ANY,
                  **run: Any) -> Checked:
    """Checks the logs under `paths` (`check`; `run` holds its other arguments) and, with a
    baseline, compares the part of it they cover, or with `update` rewrites that part. The
    logs' names are relative to the baseline's folder (else to the current one)."""
    root = os.path.dirname(os.path.abspath(baseline)) if baseline else "."
    old = None if not baseline else baseline_to_update(baseline) if update \
        else in_scope(read_baseline(baseline), paths, root, only)
    found = check(paths, root=root, jobs=jobs, rules=rules, only=only, **run)
    written = None
    if baseline and update:
        written = merged(old or {}, found.entries, paths, root, only)
        write_baseline(baseline, written, reading=[os.path.join(root, k) for k in found.entries])
    changes = compare(old, found.entries, root, rules) if old is not None and not update \
        else None
    # the coverage of the rules involved in the changes: the logs checked walked again
    covered = coverage(paths, jobs, only.takes if only else None) \
        if changes and changed_rules(changes) else None
    return Checked(found, changes, written, covered, update)


# -- subsets of a baseline ------------------------------------------------------------------

def under(name: str, paths: Sequence[str], root: str, only: Filter = ANY,
          entry: Entry | None = None) -> bool:
    """Returns whether a log named `name` (from `root`) lies under one of the paths (and,
    with a filter, is of its games and options: a log gone is judged by its entry's game;
    its options unknown, it is left out)."""
    if only and entry is not None and only.games and entry.game not in only.games:
        return False
    if only and entry is not None and only.recorded and \
            entry.rules_version not in only.recorded:
        return False
    if (only.options or only.recorded) and not only.takes(os.path.join(root, name)):
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


