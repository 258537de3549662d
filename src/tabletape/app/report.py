"""The report of an archive check: the totals (by game, by rules version), what
`--json` prints, the coverage of the rules (which rule ids the logs exercise) and a
Markdown report for a pull request. Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from tabletape import engine
from tabletape.app.archive import Run, find_logs
from tabletape.app.baseline import Change
from tabletape.app.judge import BROKEN, INVALID, NOT_A_LOG, VALID, Entry
from tabletape.app.parallel import pmap
from tabletape.engine import registry
from tabletape.engine.reading import Judged, Replay, WatchAll, walk
from tabletape.tape.errors import TapeError
from tabletape.tape.reader import read_records

# -- the totals --------------------------------------------------------------------------------

class Tally(msgspec.Struct):
    """How many logs and events, and how many logs of each verdict; compared with a
    baseline, how many changed and how many of those name another winner (or none)."""

    logs: int = 0
    events: int = 0
    valid: int = 0
    invalid: int = 0
    broken: int = 0
    changed: int | msgspec.UnsetType = msgspec.UNSET  # (unset: no baseline compared)
    winner_changed: int | msgspec.UnsetType = msgspec.UNSET


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


class WinnerChange(msgspec.Struct, frozen=True, kw_only=True):
    """A log whose outcome now names another winner, or none (`None`: not over)."""

    log: str
    game: str | None
    seq: int | None  # the seq that decided the outcome (before or now, the first)
    before: list[str] | None
    after: list[str] | None


def winner_change(change: Change, game: str | None = None) -> WinnerChange | None:
    """Returns how a changed log's winners changed, or None when they did not."""
    for a in change.aspects:
        if a.aspect == "outcome":
            before, after = ((o or {}).get("winners") for o in (a.before, a.after))
            if before != after:
                return WinnerChange(log=change.log, game=game, seq=a.seq, before=before,
                                    after=after)
    return None


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """The totals, the files that are not logs, by game, by `GAME VERSION` (the rules
    version recorded under) and by game and option value (`NAME=VALUE`, as the header
    writes it: the logs played with an option other than its default); compared with a
    baseline, the logs whose winner changed."""

    total: Tally
    not_logs: list[str]
    by_game: dict[str, Tally]
    by_version: dict[str, Tally]
    by_option: dict[str, dict[str, Tally]]
    winner_changed: list[WinnerChange] | msgspec.UnsetType = msgspec.UNSET


def summary(run: Run, changes: Sequence[Change] | None = None) -> Summary:
    """Returns the totals, by game, by (game, rules version recorded under, and the version
    that judged when another: `versions`) and by (game,
    option value); with `changes` (a baseline compared), each total also counts the logs
    that changed and those whose winner changed."""
    by_game: dict[str, list[str]] = {}
    by_version: dict[str, list[str]] = {}
    by_option: dict[str, dict[str, list[str]]] = {}
    for k, e in run.entries.items():
        if e.verdict == NOT_A_LOG:
            continue
        g = e.game or "(unreadable)"
        by_game.setdefault(g, []).append(k)
        by_version.setdefault(f"{g} {versions(e)}", []).append(k)
        for name, value in e.options.items():
            by_option.setdefault(g, {}).setdefault(f"{name}={value}", []).append(k)
    changed = {c.log: c for c in changes or () if c.kind != "removed"}
    winners = {c.log: w for c in changed.values()
               if (w := winner_change(c, _game(run.entries.get(c.log)))) is not None}

    def count(names: Iterable[str]) -> Tally:
        names = list(names)
        t = tally(run.entries[k] for k in names)
        if changes is not None:
            logs = [k for k in names if run.entries[k].verdict != NOT_A_LOG]
            t.changed = sum(1 for k in logs if k in changed)
            t.winner_changed = sum(1 for k in logs if k in winners)
        return t

    return Summary(total=count(run.entries),
                   not_logs=sorted(k for k, e in run.entries.items() if e.verdict == NOT_A_LOG),
                   by_game={g: count(v) for g, v in sorted(by_game.items())},
                   by_version={g: count(v) for g, v in sorted(by_version.items())},
                   by_option={g: {o: count(v) for o, v in sorted(opts.items())}
                              for g, opts in sorted(by_option.items())},
                   winner_changed=msgspec.UNSET if changes is None else list(winners.values()))


JUDGED_BY = ", judged by "  # a total's rules: "1.1, judged by 1.2" (corpus check --rules)


def versions(e: Entry) -> str:
    """Returns the rules a log was judged by, for a total's key: the version it was recorded
    under, and the version that judged it when another (`--rules`)."""
    recorded = e.rules_version or "?"
    return recorded if e.judged_by in (None, recorded) else f"{recorded}{JUDGED_BY}{e.judged_by}"


def _game(e: Entry | None) -> str | None:
    return None if e is None else e.game


class RuleCoverage(msgspec.Struct, frozen=True, kw_only=True):
    """How many logs (and events) of a game exercise a rule id involved in a change."""

    rule: str
    game: str | None
    logs: int  # the logs of the game that exercise it
    events: int  # the events it governs or refuses in them
    of: int  # the logs of the game checked


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """`corpus check --json`: the totals (by game, rules version and option), how many
    entries came from the cache, every log's entry, and (with a baseline) the logs whose
    judgement changed, those whose winner changed, and the coverage of the rule ids
    involved in the changes (how many of the logs checked exercise each)."""

    total: Tally
    not_logs: list[str]
    by_game: dict[str, Tally]
    by_version: dict[str, Tally]
    by_option: dict[str, dict[str, Tally]]
    cached: int
    logs: dict[str, Entry]
    changes: list[Change] | msgspec.UnsetType = msgspec.UNSET
    winner_changed: list[WinnerChange] | msgspec.UnsetType = msgspec.UNSET
    changed_rules: list[RuleCoverage] | msgspec.UnsetType = msgspec.UNSET


def report(run: Run, changes: list[Change] | None,
           covered: dict[str, Any] | None = None) -> Report:
    """Returns the whole report (what --json prints); `covered` is `coverage` of the logs
    checked (for the rules involved in the changes)."""
    s = summary(run, changes)
    return Report(total=s.total, not_logs=s.not_logs, by_game=s.by_game,
                  by_version=s.by_version, by_option=s.by_option, cached=run.cached,
                  logs=dict(run.entries),
                  changes=msgspec.UNSET if changes is None else changes,
                  winner_changed=s.winner_changed,
                  changed_rules=msgspec.UNSET if changes is None
                  else rule_coverage(run, changes, covered))


def rule_coverage(run: Run, changes: Iterable[Change], covered: dict[str, Any] | None
                  ) -> list[RuleCoverage]:
    """Returns, for each rule id involved in a change (with the game of the changed log),
    how many logs and events of that game in `covered` (`coverage`) exercise it."""
    pairs = {(_game(run.entries.get(c.log)), r) for c in changes for a in c.aspects
             for r in a.rules}
    out = []
    for game, rule in sorted(pairs, key=lambda p: (p[1], p[0] or "")):
        g = (covered or {}).get(game or "") or {}
        seen = g.get("rules", {}).get(rule) or {}
        out.append(RuleCoverage(rule=rule, game=game, logs=seen.get("logs", 0),
                                events=seen.get("events", 0), of=g.get("logs", 0)))
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
        result = walk(Replay(path), read_records(path, registry.codec_for), WatchAll(visit))
    except TapeError:
        return Covered(game=None)
    return Covered(game=getattr(result.header, "game", None), events=result.events,
                   rules=visit.rules, ending=visit.ending)


def coverage(paths: Sequence[str], jobs: int = 1,
             only: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Returns, per game, how many logs and events exercise each rule id of its catalogue,
    the rule ids no log exercises, and the endings present (how each game ended); with
    `only`, of the logs it takes (a check's filter)."""
    logs = [p for p in find_logs(paths) if only is None or only(p)]
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


COLUMNS = ("logs", "events", VALID, INVALID, BROKEN)  # a summary's columns
COMPARED = ("changed", "winner_changed")  # and with a baseline compared
HEADS = {"winner_changed": "winner changed"}


def columns(s: Summary) -> tuple[str, ...]:
    """Returns the Tally fields a summary's tables show (the changes: with a baseline)."""
    return COLUMNS + (COMPARED if s.total.changed is not msgspec.UNSET else ())


def markdown(run: Run, changes: list[Change] | None, baseline: str | None = None,
             covered: dict[str, Any] | None = None) -> list[str]:
    """Returns a report to paste into a pull request, line by line: the summary tables by
    game and rules version and by option value (with a baseline: how many logs changed,
    how many name another winner), every changed log with its first differing seq, what
    changed, the rule ids and a command to look closer, and the coverage of the changed
    rules (`covered`: `coverage` of the logs checked)."""
    s = summary(run, changes)
    cols = columns(s)
    heads = " | ".join(HEADS.get(c, c) for c in cols)
    out = ["### tabletape corpus check", "",
           f"| game | rules | {heads} |", "|---|---|" + "---:|" * len(cols)]
    for key, t in s.by_version.items():
        game, _, version = key.partition(" ")
        out.append(f"| {_md(game)} | {_md(version)} | "
                   + " | ".join(f"{getattr(t, c):,}" for c in cols) + " |")
    t = s.total
    out.append("| **all** | | " + " | ".join(f"**{getattr(t, c):,}**" for c in cols) + " |")
    if s.by_option:
        out += ["", f"| game | option | {heads} |", "|---|---|" + "---:|" * len(cols)]
        for game, opts in s.by_option.items():
            for option, t in opts.items():
                out.append(f"| {_md(game)} | {_code(option)} | "
                           + " | ".join(f"{getattr(t, c):,}" for c in cols) + " |")
    if s.not_logs:
        out += ["", f"Not logs (left out): {', '.join(_code(n) for n in s.not_logs)}"]
    if changes is None:
        bad = [(n, e) for n, e in run.entries.items() if e.verdict in (INVALID, BROKEN)]
        out += ["", f"**{len(bad)} of {s.total.logs:,} logs are invalid or broken.**" if bad
                else f"All {s.total.logs:,} logs are valid."]
        return out
    where = f" {_code(baseline)}" if baseline else ""
    if not changes:
        return [*out, "", f"All {len(run.entries):,} logs match the baseline{where}."]
    winners = s.winner_changed or []
    out += ["", f"**{len(changes)} of {len(run.entries):,} logs differ from the "
            f"baseline{where}** ({len(winners)} with another winner, or none).", "",
            "| log | first seq | what changed | rules | look closer |", "|---|---:|---|---|---|"]
    for c in changes:
        rules = sorted({r for a in c.aspects for r in a.rules})
        first = "" if c.first_seq is None else str(c.first_seq)
        out.append(f"| {_code(c.log)} | {first} | {'<br>'.join(_md(w) for w in c.what)} | "
                   f"{', '.join(_code(r) for r in rules)} | "
                   f"{_code(c.look) if c.look else ''} |")
    if winners:
        out += ["", "Another winner (or none):", "", "| log | seq | before | after |",
                "|---|---:|---|---|"]
        for w in winners:
            out.append(f"| {_code(w.log)} | {'' if w.seq is None else w.seq} | "
                       f"{_md(winners_words(w.before))} | {_md(winners_words(w.after))} |")
    cover = rule_coverage(run, changes, covered) if covered is not None else []
    if cover:
        out += ["", "Coverage of the changed rules (the logs checked that exercise each):",
                "", "| rule | game | logs | of | events |", "|---|---|---:|---:|---:|"]
        for r in cover:
            out.append(f"| {_code(r.rule)} | {_md(r.game or '?')} | {r.logs:,} | {r.of:,} | "
                       f"{r.events:,} |")
    return out


def winners_words(winners: list[str] | None) -> str:
    """Returns who won as a report says it: `alice`, `alice, bob`, `nobody`, `not over`."""
    return "not over" if winners is None else ", ".join(winners) or "nobody"
