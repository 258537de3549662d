"""Global Domination: a random playout's fast paths (engine.playout, declared in the game's
`extras`), beside legality: they answer what `legal`, `weights` and `pending` answer,
without making every event.

A random playout draws one event without making every one: chance's odds in `legal`'s order,
and the i-th event `legal` yields where that is cheap: a card drawn, an Action stack chosen,
a play on one's own turn or at scoring (the groups `_count_plays` counts skipped whole, the
group of the i-th through the same checks as `_legal_plays`), a Build or Reduction; None
elsewhere: the playout counts through `legal`. `pick` reads a turn, the scoring step or a
Build or Reduction step once for both the count and the event drawn, and makes that event
alone. `actor` is pending's actor without its sentence. tests/app/test_balance_speed.py pins
them to `legal` and `weights` on simulated games, tests/games/global_domination/
test_fast_paths.py on varied states.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

from tabletape.engine import CHANCE

from . import lookups as q
from .components import RESTRICTION_ANY, RESTRICTION_LAND, RESTRICTION_SEA, Lookups
from .events import (
    ActionStackChosen,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    ForceBuilt,
    ForceReduced,
    GdEvent,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
)
from .legality import USES, ZERO, check, count_sets, nth_set
from .plays import (
    check_use,
)
from .state import (
    PHASE_FIRST,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SCORING,
    PHASE_STACKS,
    STEP_BUILD,
    STEP_DRAW,
    STEP_LAND_MIX,
    STEP_REDUCE,
    Owed,
    State,
)
from .turn import over as over  # who decides next: the rules' `over` and `pending` are these
from .turn import pending as pending


def odds(lk: Lookups, state: State) -> list[int] | None:
    """Returns `weights(legal(state))` without making the events where chance draws a card,
    else None."""
    steps = state.steps
    if state.phase is PHASE_STACKS:  # (each stack left alike)
        return [1] * sum(1 for c in lk.actions if c not in state.stacks)
    if state.phase is PHASE_OVER or not steps or steps[0].step is not STEP_DRAW:
        return None
    return list(state.decks[steps[0].player].values())


def nth(lk: Lookups, state: State, i: int) -> GdEvent | None:
    """Returns the i-th event `legal` yields where that is cheap (see above), else None."""
    steps = state.steps
    if state.phase is PHASE_OVER:
        return None
    if steps:
        h = steps[0]
        if h.step is STEP_DRAW:
            return CardDrawn(player=h.player, card=next(islice(state.decks[h.player], i, None)))
        if h.step is STEP_BUILD or h.step is STEP_REDUCE or h.step is STEP_LAND_MIX:
            points = _points(lk, state, h)
            return None if points is None else _point_event(h, points, i)
        return None
    if state.phase is PHASE_SCORING:
        return _scoring_event(lk, state, _scoring(lk, state), i)
    if state.phase is PHASE_STACKS:
        return next(islice((ActionStackChosen(card=c) for c in lk.actions
                            if c not in state.stacks), i, None), None)
    if state.phase is not PHASE_PLAY or not state.current:
        return None
    return _turn_event(lk, state, _turn(lk, state), i)


def pick(lk: Lookups, state: State, below: Callable[[int], int]) -> GdEvent | None:
    """Returns the event a uniform random draw picks for a player: `legal`'s event at
    `below(count)`, the choices counted and the one drawn found from one reading of the
    state (`nth`'s); None, `below` not asked, where `nth` reads none (chance's draws, the
    rarer steps owed) or nothing is legal."""
    phase, steps = state.phase, state.steps
    if steps:
        h = steps[0]
        if h.step is not STEP_BUILD and h.step is not STEP_REDUCE and h.step is not STEP_LAND_MIX:
            return None
        points = _points(lk, state, h)
        if points is None or not (n := len(points[0]) + len(points[1]) + len(points[2])):
            return None
        event = _point_event(h, points, below(n))
    elif phase is PHASE_PLAY and state.current:
        turn = _turn(lk, state)
        event = _turn_event(lk, state, turn, below(sum(turn[0]) + turn[3] * len(turn[1]) + 1))
    elif phase is PHASE_SCORING:
        scoring = _scoring(lk, state)
        if not (n := sum(scoring[1]) + bool(scoring[0])):
            return None
        event = _scoring_event(lk, state, scoring, below(n))
    else:
        return None
    if event is None:
        raise AssertionError("Global Domination's pick disagrees with count")  # (pinned: tests)
    return event


# A player's turn (`_legal_plays`): each seat's card plays (on another's turn, the texts usable
# at any time alone), the Discards (each set of cards by each stack it may take), the end of
# the turn. The turn's player may make a Discard (`check_discarder`: it is their turn, nothing
# is owed) and may always end the turn. Read as: the plays of each seat, the stacks a Discard
# may take, the kinds of card in hand and how many sets of them a Discard may name.
Turn = tuple[list[int], list[str], tuple[str, ...], int]


def _turn(lk: Lookups, state: State) -> Turn:
    """Returns how many card plays each seat has (counted as `_count_plays` counts them), the
    stacks a Discard may take (as check_taken reads them: in use, not empty, the cost payable
    by the Logistical marker) and the sets of cards it may name (`discard_sets`, counted)."""
    p, hands, other = state.current or "", state.hands, lk.anytime_text
    hand = hands[p]
    kinds = tuple(dict.fromkeys(hand))  # (a hand is sorted: its kinds in `legal`'s order)
    plays = [sum(map(lk.uses.get, kinds, ZERO)) if who == p
             else 0 if other.isdisjoint(hands[who]) else len(other.intersection(hands[who]))
             for who in state.players]
    stacks, lg, low = state.stacks, state.logistics[p], lk.tracks.logistics.low
    if lg - lk.dearest >= low:  # every cost payable (lk.dearest: the highest)
        taken = [k for k, left in stacks.items() if left]
    else:
        costs = lk.costs
        taken = [k for k, left in stacks.items()
                 if left and (not (cost := costs.get(k, 0)) or lg - cost >= low)]
    return plays, taken, kinds, count_sets(hand, kinds, lk.discard_any_order) if taken else 0


def _turn_event(lk: Lookups, state: State, turn: Turn, i: int) -> GdEvent | None:
    """Returns the i-th event of a player's turn (None past the last)."""
    plays, taken, kinds, sets = turn
    for who, n in zip(state.players, plays, strict=True):
        if i < n:
            return _nth_play(lk, state, who, i)
        i -= n
    p = state.current or ""
    if i < sets * len(taken):
        cards = nth_set(state.hands[p], kinds, i // len(taken), lk.discard_any_order)
        return CardsDiscarded(player=p, cards=cards, taken=taken[i % len(taken)])
    return TurnEnded(player=p) if i == sets * len(taken) else None


def _nth_play(lk: Lookups, state: State, who: str, i: int) -> GdEvent | None:
    """The i-th card play of a seat (`_legal_plays`): its held kinds' uses through `check_use`
    (on another's turn, a card's text usable at any time alone)."""
    own, other = who == state.current, lk.anytime_text
    for c in dict.fromkeys(state.hands[who]):
        n = lk.uses.get(c, 0) if own else c in other
        if i >= n:
            i -= n
            continue
        for u in USES:
            ev = CardPlayed(player=who, card=c, use=u)
            if check_use(lk, state, ev) is None:
                if not i:
                    return ev
                i -= 1
        return None
    return None


# The scoring step (`_legal_plays`): each seat's held kinds of card that may be played now (at
# one's say, the scoring cards; else those usable at any time, as `_count_plays` counts them),
# each for the first use `check_use` accepts, then the pass of whose say it is.
Scoring = tuple[str | None, list[int]]  # whose say it is, the kinds each seat may play


def _scoring(lk: Lookups, state: State) -> Scoring:
    who_scores, hands = q.scorer(state), state.hands
    return who_scores, [len((lk.at_scoring if who == who_scores else lk.anytime)
                            .intersection(hands[who])) for who in state.players]


def _scoring_event(lk: Lookups, state: State, scoring: Scoring, i: int) -> GdEvent | None:
    """Returns the i-th event of the scoring step (None past the last)."""
    who_scores, plays = scoring
    for who, n in zip(state.players, plays, strict=True):
        if i >= n:
            i -= n
            continue
        allowed = lk.at_scoring if who == who_scores else lk.anytime
        c = next(islice((c for c in dict.fromkeys(state.hands[who]) if c in allowed), i, None))
        return next((ev for u in USES if check_use(lk, state, ev := CardPlayed(
            player=who, card=c, use=u)) is None), None)
    return ScoringPassed(player=who_scores) if not i and who_scores else None


# A step owed of Builds or Reductions (`_legal_step`), where its restriction is none or an
# Area's kind (as `_count_builds` and `_count_reductions` count them): the Areas to Build in,
# the Forces to Reduce, forgoing the rest (where `check` lets it be forgone).
Points = tuple[list[str], list[str], tuple[PointsForgone, ...]]


def _points(lk: Lookups, state: State, h: Owed) -> Points | None:
    p, board, restriction, target = h.player, state.board, h.restriction, h.target
    if restriction is RESTRICTION_ANY:
        kind = None
    elif restriction is RESTRICTION_LAND or restriction is RESTRICTION_SEA:
        kind = lk.land_set if restriction is RESTRICTION_LAND else lk.sea_set
    else:
        return None
    builds: list[str] = []
    if h.step is not STEP_REDUCE:
        free = q.has_supply(lk, state, p)
        builds = [a for a in lk.areas if (kind is None or a in kind) and (
            (f := board.get(a)) is None and free or f is not None and f.owner == p and not f.full)]
    hits: list[str] = []
    if h.step is not STEP_BUILD:
        hits = [a for a, f in board.items()
                if (kind is None or a in kind) and (f.owner == target if target else f.owner != p)]
    forgo = PointsForgone(player=p)
    return builds, hits, (forgo,) if check(lk, state, forgo) is None else ()


def _point_event(h: Owed, points: Points, i: int) -> GdEvent | None:
    """Returns the i-th Build, Reduction or forgoing of the step (None past the last)."""
    builds, hits, forgo = points
    if i < len(builds):
        return ForceBuilt(player=h.player, area=builds[i])
    i -= len(builds)
    if i < len(hits):
        return ForceReduced(player=h.player, area=hits[i])
    i -= len(hits)
    return forgo[i] if i < len(forgo) else None


def actor(lk: Lookups, state: State) -> str | None:
    """Returns `pending(lk, state).actor` without the sentence (None once over)."""
    phase = state.phase
    if phase is PHASE_OVER:
        return None
    if phase is PHASE_FIRST or phase is PHASE_STACKS:
        return CHANCE
    steps = state.steps
    if steps:
        h = steps[0]
        return CHANCE if h.step is STEP_DRAW else h.player
    if phase is PHASE_PLAY:
        return state.current or ""
    return q.scorer(state) or ""
