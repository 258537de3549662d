"""The report of an archive check: the totals (by game, by rules version), what
`--json` prints, the coverage of the rules (which rule ids the logs exercise) and a
Markdown report for a pull request. Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from tabletape import engine
from tabletape.app.baseline import Change
from tabletape.app.judge import BROKEN, INVALID, NOT_A_LOG, VALID, Entry
from tabletape.engine import registry
from tabletape.engine.reading import Judged, Replay, walk
from tabletape.tape.errors import TapeError
from tabletape.tape.reader import read_records

if TYPE_CHECKING:
    from tabletape.app.corpus import Run


# -- the totals --------------------------------------------------------------------------------

class Tally(msgspec.Struct):
    """How many logs and events, and how many logs of each verdict."""

    logs: int = 0
    events: int = 0
    valid: int = 0
    invalid: int = 0
    broken: int = 0


def tally(entries: Iterable[Entry]) -> Tally:
    """Returns the games' totals (files that are not logs left out)."""
    out = Tally()
    for e in entries:
        if e.verdict == NOT_A_LOG:
            continue
        out.logs += 1
        out.events += e.events
        setattr(out, e.verdict, getattr(out, e.verdict) + 1)  # valid, invalid or broken
    return out


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """The totals, the files that are not logs, by game and by `GAME VERSION` (the rules
    version recorded under)."""

    total: Tally
    not_logs: list[str]
    by_game: dict[str, Tally]
    by_version: dict[str, Tally]


def summary(run: Run) -> Summary:
    """Returns the totals, by game and by (game, rules version recorded under)."""
    by_game: dict[str, list[Entry]] = {}
    by_version: dict[str, list[Entry]] = {}
    for e in run.entries.values():
        if e.verdict == NOT_A_LOG:
            continue
        g = e.game or "(unreadable)"
        by_game.setdefault(g, []).append(e)
        by_version.setdefault(f"{g} {e.rules_version or '?'}", []).append(e)
    return Summary(total=tally(run.entries.values()),
                   not_logs=sorted(k for k, e in run.entries.items() if e.verdict == NOT_A_LOG),
                   by_game={g: tally(v) for g, v in sorted(by_game.items())},
                   by_version={g: tally(v) for g, v in sorted(by_version.items())})


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """`corpus check --json`: the totals, how many entries came from the cache, every log's
    entry, and (with a baseline) the logs whose judgement changed."""

    total: Tally
    not_logs: list[str]
    by_game: dict[str, Tally]
    by_version: dict[str, Tally]
    cached: int
    logs: dict[str, Entry]
    changes: list[Change] | msgspec.UnsetType = msgspec.UNSET


def report(run: Run, changes: list[Change] | None) -> Report:
    """Returns the whole report (what --json prints)."""
    s = summary(run)
    return Report(total=s.total, not_logs=s.not_logs, by_game=s.by_game,
                  by_version=s.by_version, cached=run.cached, logs=dict(run.entries),
                  changes=msgspec.UNSET if changes is None else changes)

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
        result = walk(Replay(path), read_records(path, registry.codec_for), visit=visit,
                      keep_going=True)
    except TapeError:
        return Covered(game=None)
    return Covered(game=getattr(result.header, "game", None), events=result.events,
                   rules=visit.rules, ending=visit.ending)


def coverage(paths: Sequence[str], jobs: int = 1,
             only: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Returns, per game, how many logs and events exercise each rule id of its catalogue,
    the rule ids no log exercises, and the endings present (how each game ended)."""
    from tabletape.app.corpus import find_logs  # (corpus re-exports this module's names)
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
    for key, t in s.by_version.items():
        game, _, version = key.rpartition(" ")
        out.append(f"| {_md(game)} | {_md(version)} | "
                   + " | ".join(f"{getattr(t, c):,}" for c in cols) + " |")
    t = s.total
    out.append("| **all** | | " + " | ".join(f"**{getattr(t, c):,}**" for c in cols) + " |")
    if s.not_logs:
        out += ["", f"Not logs (left out): {', '.join(_code(n) for n in s.not_logs)}"]
    if changes is None:
        bad = [(n, e) for n, e in run.entries.items() if e.verdict in (INVALID, BROKEN)]
        out += ["", f"**{len(bad)} of {t.logs:,} logs are invalid or broken.**" if bad
                else f"All {t.logs:,} logs are valid."]
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
