"""`tabletape balance`: one configuration's figures, or two side by side, as a report.

`measure` runs the games (balance.run), stops early when the SPRT decides, and returns a
`Report`: the CLI prints it, writes it as JSON (`msgspec.to_builtins`), as Markdown
(`markdown`) or as a page (balance_page).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import msgspec

from tabletape.app import balance_stats as st
from tabletape.app.balance import Chunk, Config, GameRow, check_config, run, seat_names
from tabletape.tape.errors import UsageError


class SprtAsk(msgspec.Struct, frozen=True):
    """The stopping rule asked for: the effect size and the two error rates."""

    delta: float = 0.05
    alpha: float = 0.05
    beta: float = 0.05


class Played(msgspec.Struct, frozen=True):
    """One game of a side, as the JSON report lists it."""

    index: int
    seed: int
    agents: list[str]
    winners: list[str]
    completed: bool
    events: int
    turns: int
    rounds: int


class Side(msgspec.Struct, frozen=True):
    """One configuration and its figures."""

    label: str
    config: Config
    players: list[str]
    summary: st.Summary
    games: list[Played]


class Comparison(msgspec.Struct, frozen=True):
    """B less A, figure by figure, with 95% intervals over the paired games."""

    seats: list[st.Diff]
    completed: st.Diff
    draws: st.Diff
    events: st.Diff
    turns: st.Diff
    rounds: st.Diff


class Report(msgspec.Struct, frozen=True):
    """`balance --json`: everything the report shows, and every game."""

    game: str
    seed: int
    games: int  # per side
    asked: int  # games asked for (the SPRT may stop sooner)
    a: Side
    b: Side | None = None
    compare: Comparison | None = None
    sprt: st.Sprt | None = None


def measure(a: Config, b: Config | None, *, seed: int, games: int, jobs: int = 1,
            scheduler: str | None = None, cache_dir: str | None = None,
            sprt: SprtAsk | None = None, progress: Callable[[int, int], None] | None = None
            ) -> Report:
    """Plays up to `games` games of `a` (and of `b`, paired by seed) and returns the report;
    with `sprt` it stops after the first chunk where the test decides."""
    if games < 1:
        raise UsageError(f"--games must be at least 1, got {games}")
    if sprt is not None and b is None:
        raise UsageError("--sprt compares two configurations: give --against")
    if sprt is not None and not (0 < sprt.delta < 1 and 0 < sprt.alpha < 0.5
                                 and 0 < sprt.beta < 0.5):
        raise UsageError("--sprt DELTA,ALPHA,BETA: delta between 0 and 1, the error rates "
                         "between 0 and 0.5 (e.g. 0.05,0.05,0.05)")
    configs = [a] if b is None else [a, b]
    for c in configs:
        check_config(c)
    if b is not None and b.players != a.players:
        raise UsageError("--against must keep the number of players")
    got: list[list[Chunk]] = [[] for _ in configs]
    test = None
    pairs: list[float] = []
    done = 0
    stream = run(configs, seed, games, jobs=jobs, scheduler=scheduler, cache_dir=cache_dir)
    try:
        for chunks in stream:
            for k, chunk in enumerate(chunks):
                got[k].append(chunk)
            done += len(chunks[0].games)
            if progress is not None:
                progress(done, games)
            if sprt is not None:
                pairs += [st.share(y, 0) - st.share(x, 0)
                          for x, y in zip(chunks[0].games, chunks[1].games, strict=True)]
                test = st.sprt(pairs, sprt.delta, sprt.alpha, sprt.beta)
                if test.verdict != "undecided":
                    break
    finally:
        stream.close()
    sides = [_side(c, g) for c, g in zip(configs, got, strict=True)]
    compare = _compare(sides[0], sides[1], got) if b is not None else None
    return Report(game=a.game, seed=seed, games=done, asked=games, a=sides[0],
                  b=sides[1] if b is not None else None, compare=compare, sprt=test)


def _side(config: Config, chunks: list[Chunk]) -> Side:
    names = list(seat_names(config.players))
    rows = [g for c in chunks for g in c.games]
    games = [Played(g.index, g.seed, list(config.seat_agents(g.index)),
                    [names[w] for w in g.winners], g.completed, g.events, g.turns, g.rounds)
             for g in rows]
    return Side(config.label(), config, names, st.summarize(chunks, config.players), games)


def _share(g: GameRow, seat: int) -> float:
    return st.share(g, seat)


def _compare(a: Side, b: Side, chunks: list[list[Chunk]]) -> Comparison:
    """Returns B less A, each figure over the pairs of games that share a seed."""
    ra = [g for c in chunks[0] for g in c.games]
    rb = [g for c in chunks[1] for g in c.games]

    def pair(f: Callable[[GameRow], float]) -> st.Diff:  # (a mean: length)
        return st.paired([f(g) for g in ra], [f(g) for g in rb])

    def rates(f: Callable[[GameRow], float]) -> st.Diff:  # (a rate: each game's in [0, 1])
        return st.paired_rates([f(g) for g in ra], [f(g) for g in rb])

    return Comparison(
        seats=[rates(functools.partial(_share, seat=s)) for s in range(a.config.players)],
        completed=rates(lambda g: float(g.completed)),
        draws=rates(lambda g: float(g.completed and not g.winners)),
        events=pair(lambda g: g.events), turns=pair(lambda g: g.turns),
        rounds=pair(lambda g: g.rounds))


# -- words -----------------------------------------------------------------------------------

def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def rate_text(r: st.Rate) -> str:
    return f"{pct(r.value)} [{pct(r.low)}, {pct(r.high)}]"


def diff_text(d: st.Diff, percent: bool = True) -> str:
    f: Callable[[float], str] = (lambda x: f"{100 * x:+.1f} pts") if percent else \
        (lambda x: f"{x:+.1f}")
    if not math.isfinite(d.low) or not math.isfinite(d.high):  # (a mean over one pair)
        return f"{f(d.diff)} (one pair: no interval)"
    return f"{f(d.diff)} [{f(d.low)}, {f(d.high)}]" + (" *" if d.moved else "")


def verdict(report: Report) -> str:
    """Returns the one-line answer: does B move seat 1's win rate (SPRT, or the interval)?"""
    if report.sprt is not None:
        s = report.sprt
        what = {"moved": f"moves seat 1's win rate by at least {pct(s.delta)}",
                "not moved": f"does not move seat 1's win rate (by {pct(s.delta)} or more)",
                "undecided": "is undecided: more games needed"}[s.verdict]
        return (f"SPRT: B {what} (LLR {s.llr:+.2f}, bounds [{s.lower:.2f}, {s.upper:.2f}], "
                f"{s.pairs} pairs, alpha={s.alpha:g}, beta={s.beta:g})")
    if report.compare is not None:
        d = report.compare.seats[0]
        return (f"seat 1's win rate: {pct(d.a)} (A) -> {pct(d.b)} (B), "
                f"{diff_text(d)}: " + ("moved (95% interval excludes 0)" if d.moved
                                       else "no change shown at 95%"))
    r = report.a.summary.seats[0]
    return f"seat 1's win rate: {rate_text(r)} over {report.games} games"


def markdown(report: Report) -> str:
    """Returns the report as Markdown, for a pull request."""
    sides: list[tuple[str, Side]] = [("A", report.a)] + ([("B", report.b)] if report.b else [])
    out = [f"## Balance: {report.game}", "",
           f"{report.games} games per configuration, seed {report.seed}.", ""]
    for name, side in sides:
        out.append(f"- **{name}**: {side.label}")
    out += ["", f"**{verdict(report)}**", "", "| figure | " +
            " | ".join(n for n, _ in sides) + (" | B - A (95%) |" if report.b else " |"),
            "|---|" + "---|" * len(sides) + ("---|" if report.b else "")]
    c = report.compare
    for i, name in enumerate(report.a.players):
        cells = [rate_text(s.summary.seats[i]) for _, s in sides]
        out.append(f"| seat {i + 1} ({name}) wins | " + " | ".join(cells) +
                   (f" | {diff_text(c.seats[i])} |" if c else " |"))
    rows: list[tuple[str, Callable[[Side], str], Any]] = [
        ("completed", lambda s: rate_text(s.summary.completed), c.completed if c else None),
        ("draws", lambda s: f"{s.summary.draws}", c.draws if c else None),
        ("shared wins", lambda s: f"{s.summary.shared}", None),
        ("events (mean, median)", lambda s: f"{s.summary.events.mean:.1f}, "
         f"{s.summary.events.median:g}", c.events if c else None),
        ("turns (mean)", lambda s: f"{s.summary.turns.mean:.1f}", c.turns if c else None),
        ("rounds (mean)", lambda s: f"{s.summary.rounds.mean:.1f}", c.rounds if c else None),
        ("winner led for good from (median)", lambda s: pct(s.summary.lead_from.median)
         if s.summary.lead_from else "n/a", None)]
    for label, cell, diff in rows:
        tail = (f" | {diff_text(diff, percent=label in ('completed', 'draws'))} |"
                if diff is not None else (" | |" if report.b else " |"))
        out.append(f"| {label} | " + " | ".join(cell(s) for _, s in sides) + tail)
    for name, side in sides:
        if len(side.summary.agents) > 1:
            out += ["", f"Agents ({name}): " + "; ".join(
                f"{a} {rate_text(r)}" for a, r in side.summary.agents.items())]
    out += ["", f"What wins ({sides[0][0]}): share of winning vs losing seats whose own "
            "events used it (95% interval of the difference)", "",
            "| rule or card | winners | losers | difference |", "|---|---|---|---|"]
    for f in report.a.summary.features:
        out.append(f"| {f.name} | {pct(f.winners.value)} | {pct(f.losers.value)} | "
                   f"{100 * f.diff:+.1f} pts [{100 * f.low:+.1f}, {100 * f.high:+.1f}] |")
    return "\n".join(out) + "\n"
