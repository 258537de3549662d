"""The figures of a balance run, their 95% intervals, two runs compared, and the SPRT.

Intervals: a rate's is Wilson's score interval. A difference of two rates is Newcombe's
square-and-add (hybrid score) interval, made from the two Wilson intervals (Newcombe 1998,
Statistics in Medicine 17: 873-890, method 10; for paired games with the pairs'
correlation, 17: 2635-2650): it stays within [-1, 1] and keeps a width where a rate is 0
or 1 or the pairs are all alike, as a normal interval does not at a few games. A
difference of two means over paired games is the normal interval of the mean difference.
The stopping rule is a sequential probability ratio test on paired games (game i of both
configurations shares its seed): each pair gives d_i = seat 1's share of the win under B
less under A; H1 "B moves seat 1's win rate by at least delta" (d = +delta or -delta, an
even mixture) against H0 "it does not move it" (d = 0), with d_i normal (the variance
estimated from the pairs so far, as fishtest's GSPRT does). It stops at the first chunk
whose log-likelihood ratio leaves [log(beta/(1-alpha)), log((1-beta)/alpha)].
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import msgspec

from tabletape.app.balance import Chunk, GameRow

Z = 1.959964  # the 97.5% quantile of the normal: 95% two-sided intervals
TOP_FEATURES = 12


class Rate(msgspec.Struct, frozen=True):
    """A proportion with its 95% interval (Wilson)."""

    value: float
    low: float
    high: float
    n: int


class Diff(msgspec.Struct, frozen=True):
    """B less A, with its 95% interval; `moved`: the interval excludes 0."""

    a: float
    b: float
    diff: float
    low: float
    high: float
    moved: bool


class Spread(msgspec.Struct, frozen=True):
    """A distribution: mean, standard deviation, quantiles, and a histogram (bin edges)."""

    mean: float
    sd: float
    p10: float
    median: float
    p90: float
    edges: list[float]
    counts: list[int]


class Feature(msgspec.Struct, frozen=True):
    """A rule or card: how often winning seats' own events used it, and losing seats'."""

    name: str
    winners: Rate
    losers: Rate
    diff: float
    low: float
    high: float


class Summary(msgspec.Struct, frozen=True):
    """The figures of one configuration."""

    games: int
    seats: list[Rate]  # share of the win by seat (a shared win counts 1/k)
    sole_wins: list[int]
    shared: int  # games won by more than one seat
    draws: int  # games over with no winner
    completed: Rate  # games that ended before the event cap
    events: Spread
    turns: Spread
    rounds: Spread
    lead_from: Spread | None  # when the winner took the lead for good (share of the game)
    decided_early: Rate | None  # winner led for good from the first half on
    agents: dict[str, Rate]
    features: list[Feature]


class Sprt(msgspec.Struct, frozen=True):
    """The stopping rule's state: the verdict (`moved`, `not moved`, or `undecided`)."""

    delta: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float
    pairs: int
    mean: float  # the mean of the pairs' differences
    verdict: str


def wilson(successes: float, n: int) -> Rate:
    """Returns the share `successes/n` with its Wilson 95% interval."""
    if n == 0:
        return Rate(0.0, 0.0, 1.0, 0)
    p = successes / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return Rate(round(p, 6), round(max(0.0, c - h), 6), round(min(1.0, c + h), 6), n)


def spread(values: Sequence[float], bins: int = 20, edges: list[float] | None = None) -> Spread:
    """Returns the distribution of the values (histogram over `edges` if given)."""
    if not values:
        return Spread(0.0, 0.0, 0.0, 0.0, 0.0, [], [])
    xs = sorted(values)
    q = statistics.quantiles(xs, n=10, method="inclusive") if len(xs) > 1 else [xs[0]] * 9
    if edges is None:
        lo, hi = xs[0], xs[-1]
        step = max(1.0, math.ceil((hi - lo + 1) / bins)) if hi > 1 else (hi - lo) / bins or 1.0
        edges = [lo + i * step for i in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for x in xs:
        i = min(len(counts) - 1, max(0, int((x - edges[0]) / (edges[1] - edges[0]))))
        counts[i] += 1
    sd = statistics.pstdev(xs) if len(xs) > 1 else 0.0
    return Spread(round(statistics.fmean(xs), 4), round(sd, 4), q[0], q[4], q[8],
                  [round(e, 4) for e in edges], counts)


def share(row: GameRow, seat: int) -> float:
    """Returns the seat's share of the game's win (1/k of a win shared by k)."""
    return 1 / len(row.winners) if seat in row.winners else 0.0


def summarize(chunks: Sequence[Chunk], players: int) -> Summary:
    """Returns the figures of a run's chunks."""
    rows = [g for c in chunks for g in c.games]
    n = len(rows)
    over = [g for g in rows if g.completed]
    tally: dict[str, list[int]] = {}
    agents: dict[str, list[float]] = {}
    for c in chunks:
        for f, (w, lo) in c.tally.items():
            t = tally.setdefault(f, [0, 0])
            t[0] += w
            t[1] += lo
        for a, (s, k) in c.agent_share.items():
            t2 = agents.setdefault(a, [0.0, 0.0])
            t2[0] += s
            t2[1] += k
    win_seats = sum(len(g.winners) for g in rows)
    lose_seats = sum(players - len(g.winners) for g in rows if g.winners)
    leads = [g.lead_from for g in rows if g.lead_from is not None]
    return Summary(
        games=n,
        seats=[wilson(sum(share(g, s) for g in rows), n) for s in range(players)],
        sole_wins=[sum(1 for g in rows if g.winners == (s,)) for s in range(players)],
        shared=sum(1 for g in rows if len(g.winners) > 1),
        draws=sum(1 for g in over if not g.winners),
        completed=wilson(len(over), n),
        events=spread([g.events for g in rows]),
        turns=spread([g.turns for g in rows]),
        rounds=spread([g.rounds for g in rows]),
        lead_from=spread(leads, edges=[i / 10 for i in range(11)]) if leads else None,
        decided_early=wilson(sum(1 for x in leads if x <= 0.5), len(leads)) if leads else None,
        agents={a: wilson(s, int(k)) for a, (s, k) in sorted(agents.items())},
        features=_features(tally, win_seats, lose_seats))


def _features(tally: dict[str, list[int]], wins: int, losses: int) -> list[Feature]:
    """Returns the features whose use differs most between winners and losers."""
    out = []
    for name, (w, lo) in tally.items():
        a, b = wilson(w, wins), wilson(lo, losses)
        d, low, high = newcombe(a, b)
        out.append(Feature(name, a, b, d, low, high))
    out.sort(key=lambda f: (-abs(f.diff), f.name))
    return out[:TOP_FEATURES]


def newcombe(a: Rate, b: Rate, phi: float = 0.0) -> tuple[float, float, float]:
    """Returns a - b and its 95% interval from the two rates' Wilson intervals (Newcombe's
    hybrid score interval); `phi`: the correlation of paired observations (0: independent)."""
    d = a.value - b.value
    a_low, a_high = a.value - a.low, a.high - a.value  # each rate's reach below and above
    b_low, b_high = b.value - b.low, b.high - b.value
    # (max(0, ...): a correlation near 1 leaves only rounding below zero)
    below = math.sqrt(max(0.0, a_low ** 2 - 2 * phi * a_low * b_high + b_high ** 2))
    above = math.sqrt(max(0.0, a_high ** 2 - 2 * phi * a_high * b_low + b_low ** 2))
    return round(d, 6), round(max(-1.0, d - below), 6), round(min(1.0, d + above), 6)


def sprt(pairs: Sequence[float], delta: float, alpha: float, beta: float) -> Sprt:
    """Returns the SPRT's state after these paired differences (see the module's doc)."""
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(pairs)
    mean = statistics.fmean(pairs) if pairs else 0.0
    var = statistics.pvariance(pairs) if n > 1 else 0.0
    # A change that moves the rate by delta changes at least a delta share of the pairs (by 1
    # at most each): the variance is at least about delta under H1. The floor keeps a run of
    # identical pairs (a variance of 0) from deciding at once.
    var = max(var, delta)
    s = sum(pairs)
    # log L(d)/L(0) for normal pairs = (d * S - n d^2 / 2) / var; H1 is the mixture of +-delta.
    up = (delta * s - n * delta * delta / 2) / var
    down = (-delta * s - n * delta * delta / 2) / var
    top = max(up, down)
    llr = top + math.log(0.5 * math.exp(up - top) + 0.5 * math.exp(down - top)) if n else 0.0
    verdict = "moved" if llr >= upper else "not moved" if llr <= lower else "undecided"
    return Sprt(delta, alpha, beta, round(llr, 4), round(lower, 4), round(upper, 4), n,
                round(mean, 6), verdict)


def paired_rates(xs: Sequence[float], ys: Sequence[float]) -> Diff:
    """Returns mean(ys) - mean(xs) of rates over paired games (each value in [0, 1]: a seat's
    share of the win, 1 or 0 for completed), with Newcombe's interval for paired data: the
    Wilson intervals of the two rates and the pairs' correlation (`_phi`)."""
    n = len(xs)
    if n == 0:
        return Diff(0.0, 0.0, 0.0, 0.0, 0.0, False)
    a, b = wilson(sum(xs), n), wilson(sum(ys), n)
    d, low, high = newcombe(b, a, _phi(xs, ys))
    return Diff(a.value, b.value, d, low, high, not low <= 0 <= high)


def _phi(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Returns the pairs' correlation as Newcombe's paired interval takes it: the phi of their
    2x2 table (for 0s and 1s, AD - BC over the root of the margins' product; a shared win's
    fraction generalises it), its numerator less n/2 where it exceeds n/2 and 0 up to n/2
    (his continuity correction); 0 where a side's values are all alike (an empty margin)."""
    n = len(xs)
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    vx = math.fsum((x - mx) ** 2 for x in xs)  # n times each side's variance
    vy = math.fsum((y - my) ** 2 for y in ys)
    if vx == 0 or vy == 0:
        return 0.0
    ad_bc = n * math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    ad_bc = ad_bc - n / 2 if ad_bc > n / 2 else 0.0 if ad_bc >= 0 else ad_bc
    return ad_bc / (n * math.sqrt(vx * vy))


def paired(xs: Sequence[float], ys: Sequence[float]) -> Diff:
    """Returns mean(ys) - mean(xs) over paired games (game i of both shares its seed), with
    the 95% interval of the mean difference: pairs that play alike cancel out."""
    n = len(xs)
    if n == 0:
        return Diff(0.0, 0.0, 0.0, 0.0, 0.0, False)
    ds = [y - x for x, y in zip(xs, ys, strict=True)]
    d = statistics.fmean(ds)
    h = Z * statistics.pstdev(ds) / math.sqrt(n) if n > 1 else math.inf
    return Diff(round(statistics.fmean(xs), 6), round(statistics.fmean(ys), 6), round(d, 6),
                round(d - h, 6), round(d + h, 6), not d - h <= 0 <= d + h)
