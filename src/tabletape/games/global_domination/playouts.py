"""Global Domination: a random playout's fast paths (engine.playout, declared in the game's
`extras`), beside legality: they answer what `legal`, `weights` and `pending` answer,
without making every event.

A random playout draws one event without making every one: chance's odds in `legal`'s order,
and the i-th event `legal` yields where that is cheap: a card drawn, an Action stack chosen,
a play on one's own turn or at scoring (the groups `_count_plays` counts skipped whole, the
group of the i-th through the same checks as `_legal_plays`), a Build or Reduction; None
elsewhere: the playout counts through `legal`. `actor` is pending's actor without its sentence.
tests/app/test_balance_speed.py pins both to `legal` and `weights` on simulated games.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

from tabletape.engine import CHANCE

from . import lookups as q
from .components import Lookups, Restriction
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
from .legality import USES, check, discard_sets
from .plays import (
    check_discarder,
    check_use,
)
from .state import Owed, Phase, State, Step
from .turn import over as over  # who decides next: the rules' `over` and `pending` are these
from .turn import pending as pending


def odds(lk: Lookups, state: State) -> list[int] | None:
    """Returns `weights(legal(state))` without making the events where chance draws a card,
    else None."""
    steps = state.steps
    if state.phase is Phase.STACKS:  # (each stack left alike)
        return [1] * sum(1 for c in lk.actions if c not in state.stacks)
    if state.phase is Phase.OVER or not steps or steps[0].step is not Step.DRAW:
        return None
    return list(state.decks[steps[0].player].values())


def nth(lk: Lookups, state: State, i: int) -> GdEvent | None:
    """Returns the i-th event `legal` yields where that is cheap (see above), else None."""
    steps = state.steps
    if state.phase is Phase.OVER:
        return None
    if steps:
        h = steps[0]
        if h.step is Step.DRAW:
            return CardDrawn(player=h.player, card=next(islice(state.decks[h.player], i, None)))
        if h.step is Step.BUILD or h.step is Step.REDUCE or h.step is Step.LAND_MIX:
            return _nth_point(lk, state, h, i)
        return None
    if state.phase is Phase.SCORING:
        return _nth_scoring(lk, state, i)
    if state.phase is Phase.STACKS:
        return next(islice((ActionStackChosen(card=c) for c in lk.actions
                            if c not in state.stacks), i, None), None)
    if state.phase is not Phase.PLAY or not state.current:
        return None
    p, hands, other = state.current, state.hands, lk.anytime_text
    for who in state.players:  # each held kind's plays: (on another's turn, its text alone)
        for c in dict.fromkeys(hands[who]):
            n = lk.uses.get(c, 0) if who == p else c in other
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
    return _nth_discard(lk, state, p, _discards(lk, state, p), i)


def _discards(lk: Lookups, state: State, p: str) -> tuple[list[str], list[tuple[str, ...]]]:
    """Returns the stacks a Discard of the player whose turn it is may take and the sets of
    cards it may name (`_legal_plays`): the stacks as check_taken reads them (in use, not
    empty, the cost payable by the Logistical marker), none if `check_discarder` refuses."""
    if check_discarder(lk, state, p) is not None:
        return [], []
    lg, low, cards = state.logistics[p], lk.tracks.logistics.low, lk.cards
    taken = [k for k, left in state.stacks.items()
             if left and not ((cost := cards[k].cost) and lg - cost < low)]
    return taken, discard_sets(state.hands[p], lk.discard_any_order) if taken else []


def _nth_discard(lk: Lookups, state: State, p: str,
                 discards: tuple[list[str], list[tuple[str, ...]]], i: int) -> GdEvent | None:
    """The i-th of a turn's Discards (each set of cards by each stack), then its end."""
    taken, sets = discards
    if taken:
        j = i // len(taken)
        if j < len(sets):
            return CardsDiscarded(player=p, cards=sets[j], taken=taken[i % len(taken)])
        i -= len(sets) * len(taken)
    return TurnEnded(player=p) if i == 0 else None  # (always legal on one's turn: `count`)


def pick(lk: Lookups, state: State, below: Callable[[int], int]) -> GdEvent | None:
    """Returns the event a uniform random draw picks on a player's turn: `legal`'s event at
    `below(count)`, the groups of card plays and the Discards made once for both (None,
    `below` not asked, elsewhere)."""
    if state.phase is not Phase.PLAY or state.steps or not state.current:
        return None
    p, hands, other, uses = state.current, state.hands, lk.anytime_text, lk.uses
    groups = []  # each held kind's plays (on another's turn, its text alone): `nth`'s groups
    for who in state.players:
        for c in dict.fromkeys(hands[who]):
            n = uses.get(c, 0) if who == p else c in other
            if n:
                groups.append((who, c, n))
    discards = _discards(lk, state, p)
    i = below(sum(g[2] for g in groups) + len(discards[0]) * len(discards[1]) + 1)
    for who, c, n in groups:
        if i >= n:
            i -= n
            continue
        for u in USES:
            ev = CardPlayed(player=who, card=c, use=u)
            if check_use(lk, state, ev) is None:
                if not i:
                    return ev
                i -= 1
        break
    else:
        event = _nth_discard(lk, state, p, discards, i)
        if event is not None:
            return event
    raise AssertionError("Global Domination's pick disagrees with count")  # (pinned: tests)


def _nth_point(lk: Lookups, state: State, h: Owed, i: int) -> GdEvent | None:
    """The i-th Build, Reduction or forgoing of a step owed (`_legal_step`), where its
    restriction is none or an Area's kind (as `_count_builds` and `_count_reductions` count
    them), else None."""
    p, board, restriction, target = h.player, state.board, h.restriction, h.target
    if restriction is Restriction.ANY:
        kind = None
    elif restriction is Restriction.LAND or restriction is Restriction.SEA:
        kind = lk.land_set if restriction is Restriction.LAND else lk.sea_set
    else:
        return None
    if h.step is not Step.REDUCE:
        free = q.has_supply(lk, state, p)
        for a in lk.areas:
            f = board.get(a)
            if (kind is None or a in kind) and (
                    f is None and free or f is not None and f.owner == p and not f.full):
                if not i:
                    return ForceBuilt(player=p, area=a)
                i -= 1
    if h.step is not Step.BUILD:
        for a, f in board.items():
            if (kind is None or a in kind) and (f.owner == target if target else f.owner != p):
                if not i:
                    return ForceReduced(player=p, area=a)
                i -= 1
    forgo = PointsForgone(player=p)
    return forgo if i == 0 and check(lk, state, forgo) is None else None


def _nth_scoring(lk: Lookups, state: State, i: int) -> GdEvent | None:
    """The i-th event of the scoring step (`_legal_plays`): each held kind of card that may be
    played now (at one's say, the scoring cards; else those usable at any time, as
    `_count_plays` counts them), through the same checks, then the pass of whose say it is."""
    who_scores, hands = q.scorer(state), state.hands
    for who in state.players:
        allowed = lk.at_scoring if who == who_scores else lk.anytime
        for c in dict.fromkeys(hands[who]):
            if c not in allowed:
                continue
            if i:
                i -= 1
                continue
            for u in USES:
                ev = CardPlayed(player=who, card=c, use=u)
                if check_use(lk, state, ev) is None:
                    return ev
            return None
    return ScoringPassed(player=who_scores) if not i and who_scores else None


def actor(lk: Lookups, state: State) -> str | None:
    """Returns `pending(lk, state).actor` without the sentence (None once over)."""
    phase = state.phase
    if phase is Phase.OVER:
        return None
    if phase is Phase.FIRST or phase is Phase.STACKS:
        return CHANCE
    steps = state.steps
    if steps:
        h = steps[0]
        return CHANCE if h.step is Step.DRAW else h.player
    if phase is Phase.PLAY:
        return state.current or ""
    return q.scorer(state) or ""
