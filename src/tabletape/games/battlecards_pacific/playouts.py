"""BATTLECARDS Pacific: a random playout's fast paths (engine.playout, declared in the game's
`extras`), beside legality: they answer what `legal`, `weights` and `pending` answer,
without making every event.

A random playout draws one event without making every one: chance's odds in `legal`'s order,
the i-th event `legal` yields (a card drawn or turned, a shot, a deployment, a withdrawal,
an answer to an emergency, a battle or a reveal), a volley's shot drawn whole (`pick`),
chance's card drawn whole (`chance`), who decides (`actor`, pending's actor without its
sentence), and the move whole (`draw`: who decides and what, the state read once).
tests/app/test_balance_speed.py pins each to `legal`, `weights` and `pending` on the states
of simulated games; none judges anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import islice

from tabletape.engine import CHANCE
from tabletape.engine.kit.multiset import chosen

from . import lookups as q
from .components import Lookups, UnitType
from .events import (
    ArsenalDrawn,
    BattleDecided,
    BcpEvent,
    ConflictDrawn,
    ConflictTurned,
    DeploymentFinished,
    EmergencyDeclined,
    EmergencyDeployed,
    UnitDeployed,
    UnitFired,
    UnitWithdrawn,
    WithdrawalFinished,
)
from .fire import allocations
from .fire import can_hit as can_hit  # the firing arithmetic, read as legality's too
from .fire import supporters as supporters
from .fire import window as window
from .legality import DECIDE, DEPLOY, DEPLOYS, DRAW_CONFLICT, DRAWS, EMERGENCY, legal
from .state import WITHDRAWAL, Battle, Owed, State

CHANCE_STEPS = frozenset((*DRAWS, DRAW_CONFLICT))  # the steps owed that chance decides


def odds(lk: Lookups, state: State) -> list[int] | None:
    """Returns `weights(legal(state))` without making the events, where chance draws or
    turns a card (None: another decision)."""
    b = state.battle
    if state.result is not None or (b is not None and b.shot is None):
        return None
    if b is not None:
        return list(state.conflict[lk.theatre].values())  # q.deck's
    h = state.steps[0]
    step = h.step
    if step in DRAWS:
        return list(state.arsenal[state.sides[h.player]].values())
    if step is DRAW_CONFLICT:
        return list(state.conflict[lk.theatre].values())
    return None


def nth(lk: Lookups, state: State, i: int) -> BcpEvent | None:
    """Returns the i-th event `legal` yields where it is a card drawn or turned or a shot,
    else None."""
    b = state.battle
    if state.result is not None:
        return None
    if b is not None and b.shot is None:
        if b.phase == WITHDRAWAL:
            return _nth_withdrawal(b, tuple(dict.fromkeys(b.forces[b.side])), i)
        return _nth_fire(lk, state, b, i)
    if b is not None:
        return _turned(lk, b, _key(state.conflict[lk.theatre], i))  # q.deck's
    h = state.steps[0]
    if h.step in DRAWS:
        return ArsenalDrawn(player=h.player, unit=_key(state.arsenal[state.sides[h.player]], i))
    if h.step is DRAW_CONFLICT:
        return ConflictDrawn(player=h.player, card=_key(state.conflict[lk.theatre], i))
    return _nth_step(lk, state, h, i)


def chance(lk: Lookups, state: State, random: Callable[[], float]) -> BcpEvent:
    """Returns what chance draws or turns where it decides: the card `random.choices` picks
    from `legal` by `weights` (`odds`'s, summed once), `random()` asked once."""
    b = state.battle
    if b is not None:  # in a battle chance decides only a shot, by the card it turns
        return _turned(lk, b, chosen(state.conflict[lk.theatre], random))  # q.deck's
    return _drawn(lk, state, state.steps[0], random)


def _drawn(lk: Lookups, state: State, h: Owed, random: Callable[[], float]) -> BcpEvent:
    """The card chance draws for the step owed outside a battle: a Conflict card, or an
    Arsenal card from the drawing player's deck."""
    if h.step is DRAW_CONFLICT:
        return ConflictDrawn(player=h.player, card=chosen(state.conflict[lk.theatre], random))
    return ArsenalDrawn(player=h.player, unit=chosen(state.arsenal[state.sides[h.player]], random))


def _turned(lk: Lookups, b: Battle, card: str) -> ConflictTurned:
    """The shot pending in battle `b` decided by the Conflict card `card` turned."""
    s = b.shot
    assert s is not None
    a = lk.cards[card].action
    return ConflictTurned(player=s.player, unit=s.unit, target=s.target, card=card, action=a,
                          above=s.above, upto=s.upto, hit=s.above < a <= s.upto)


def _key(counts: dict[str, int], i: int) -> str:
    """Returns the i-th key of a dict (a deck's i-th kind of card)."""
    return next(islice(counts, i, None))


def _nth_step(lk: Lookups, state: State, h: Owed, i: int) -> BcpEvent | None:
    """The i-th event `legal` yields for a player's step owed outside a battle: a unit of the
    Reserve Hand deployed (then, for a Conflict card's deployment, no more), the emergency
    deployment or not, the fight or not, the reveal."""
    p, step = h.player, h.step
    if step in DEPLOYS:
        return _nth_deployment(lk, state, h, tuple(dict.fromkeys(state.reserve[p])), i)
    if step in EMERGENCY:
        return EmergencyDeployed(player=p, units=state.reserve[p]) if not i else \
            EmergencyDeclined(player=p) if i == 1 else None
    if step is DECIDE:
        return BattleDecided(player=p, fight=not i) if i < 2 else None
    return None  # a reveal: `legal`'s one event


def _nth_deployment(lk: Lookups, state: State, h: Owed, kinds: tuple[str, ...], i: int
                    ) -> BcpEvent | None:
    """The i-th deployment `legal` yields, `kinds` the Reserve Hand's kinds of unit: each of
    them, then (for a Conflict card's deployment) no more."""
    p = h.player
    if i < len(kinds):
        u = kinds[i]
        return UnitDeployed(player=p, unit=u, stack=q.unit(lk, state, p, u).type)
    return DeploymentFinished(player=p) if i == len(kinds) and h.step is DEPLOY else None


def _nth_withdrawal(b: Battle, kinds: tuple[str, ...], i: int) -> BcpEvent | None:
    """The i-th withdrawal `_legal_battle` yields, `kinds` the kinds of unit engaged: each of
    them, then no more."""
    if i < len(kinds):
        return UnitWithdrawn(player=b.side, unit=kinds[i])
    return WithdrawalFinished(player=b.side) if i == len(kinds) else None


def _nth_fire(lk: Lookups, state: State, b: Battle, i: int) -> BcpEvent | None:
    """The i-th shot `_legal_battle` yields: its unit found by the numbers of shots of each
    (`_volley`), then its target, Kept Card and supporters by place (`_shot_of`)."""
    return _shot_of(lk, state, b, _volley(lk, state, b)[0], i)


# One unit's shots as `_legal_battle` orders them: its targets, times its choices of Kept
# Card (None first), times its number of choices of supporters (1 with support every-shot);
# and their number, that product.
Shots = tuple[str, list[str], list[str | None], int, int]


def _volley(lk: Lookups, state: State, b: Battle) -> tuple[list[Shots], int]:
    """Returns each unit of the volley that has a target, with its shots as `_count_fire`
    counts them, in order, and the number of shots in all: each table read once, each
    distinct enemy unit and Kept Card listed once."""
    p = b.side
    side = state.sides[p]
    enemy = b.defender if p == b.aggressor else b.aggressor  # q.opponent
    table, units, enemy_side = lk.reach[side], lk.units[side], state.sides[enemy]
    bonuses = lk.kept_bonuses
    theirs = dict.fromkeys(b.forces[enemy])
    kept = state.kept[p]
    if kept:
        kept = tuple(dict.fromkeys(kept))
    every = state.options.support == "every-shot"
    out: list[Shots] = []
    total = 0
    for u in dict.fromkeys(b.to_fire):
        aims = list(filter(table[u][enemy_side].__contains__, theirs))  # those it can reach
        if aims:
            plays = _plays(bonuses, units[u].type, kept) if kept else NO_KEPT
            backing = 1 if every else _backings(lk, state, b, u)
            n = len(aims) * len(plays) * backing
            out.append((u, aims, plays, backing, n))
            total += n
    return out, total


NO_KEPT: list[str | None] = [None]  # a unit's Kept Card choices when none applies (never changed)
NO_BONUS: dict[UnitType, int] = {}  # a card that is not kept for a bonus (never changed)


def _plays(bonuses: dict[str, dict[UnitType, int]], kind: UnitType, kept: tuple[str, ...]
           ) -> list[str | None]:
    """A unit's choices of Kept Card, as `_legal_battle` orders them: none, then each distinct
    Kept Card that may be played for a unit of its type (`kept_bonus`'s, tabulated)."""
    plays: list[str | None] = [None]
    for c in kept:
        if kind in bonuses.get(c, NO_BONUS):
            plays.append(c)
    return plays


def _backings(lk: Lookups, state: State, b: Battle, u: str) -> int:
    """Returns how many distinct choices of supporters `allocations` gives `u`'s shot (support
    allocated): each kind of free supporter taken 0 to its number of copies times."""
    free = list(supporters(lk, state, b, b.side, u))
    for s in b.backed:
        if s in free:
            free.remove(s)
    backing = 1
    for copies in Counter(free).values():
        backing *= copies + 1
    return backing


def _shot_of(lk: Lookups, state: State, b: Battle, volley: list[Shots], i: int
             ) -> BcpEvent | None:
    """Returns the i-th shot of the volley (`_volley`'s): its unit found by the numbers of
    shots, then its target, Kept Card and supporters by place, as `_legal_battle` nests them."""
    for u, aims, kept, backing, n in volley:
        if i >= n:
            i -= n
            continue
        if backing == 1:  # no supporter to choose (or every one backs every shot): none named
            t, k = divmod(i, len(kept))
            return UnitFired(player=b.side, unit=u, target=aims[t], kept=kept[k])
        t, rest = divmod(i, len(kept) * backing)
        k, sup = divmod(rest, backing)
        support = next(islice(allocations(lk, state, b, b.side, u), sup, None))
        return UnitFired(player=b.side, unit=u, target=aims[t], kept=kept[k], support=support)
    return None


def pick(lk: Lookups, state: State, below: Callable[[int], int]) -> BcpEvent | None:
    """Returns the event a uniform random draw picks where a player decides: the event
    `below(count)` indexes in `legal`'s order, what `count` counts listed once for both (a
    volley's shots, the units that may withdraw or deploy); None, `below` not asked, where
    chance decides, for a reveal (`legal`'s one event) and once the game is over."""
    b = state.battle
    if state.result is not None:
        return None
    if b is None:
        h = state.steps[0]
        return None if h.step in CHANCE_STEPS else _pick_step(lk, state, h, below)
    if b.shot is not None:
        return None
    if b.phase == WITHDRAWAL:
        return _pick_withdrawal(b, below)
    return _pick_fire(lk, state, b, below)


def _pick_withdrawal(b: Battle, below: Callable[[int], int]) -> BcpEvent:
    """A withdrawal drawn uniformly: each kind of unit engaged, then no more."""
    kinds = tuple(dict.fromkeys(b.forces[b.side]))
    event = _nth_withdrawal(b, kinds, below(len(kinds) + 1))
    assert event is not None  # (`below` is below the count)
    return event


def _pick_fire(lk: Lookups, state: State, b: Battle, below: Callable[[int], int]) -> BcpEvent:
    """A volley's shot drawn uniformly: the volley's shots counted, `below` asked once of their
    number, the shot at that index in `_legal_battle`'s order. With every supporter backing
    every shot (the usual option) a unit's shots are its targets times its Kept Card choices
    (targets outer): each unit's targets are the set of enemy units in its reach, counted, and
    only the chosen unit's are put in the enemy's order. With support allocated: `_volley`'s
    count and `_shot_of`'s shot."""
    if state.options.support != "every-shot":
        volley, shots = _volley(lk, state, b)
        shot = _shot_of(lk, state, b, volley, below(shots))
        assert shot is not None  # (`below(shots)` is below the volley's shots)
        return shot
    p = b.side
    enemy = b.defender if p == b.aggressor else b.aggressor  # q.opponent
    side = state.sides[p]
    table, enemy_side = lk.reach[side], state.sides[enemy]
    theirs = frozenset(b.forces[enemy])  # the distinct enemy units, made a set once
    kept = state.kept[p]
    if kept:
        kept = tuple(dict.fromkeys(kept))
        units, bonuses = lk.units[side], lk.kept_bonuses
    each, total, last = [], 0, None
    for u in b.to_fire:  # (a sorted multiset: each name's copies together, listed once)
        if u == last:
            continue
        last = u
        aims = table[u][enemy_side] & theirs  # the enemy units it can reach
        plays = _plays(bonuses, units[u].type, kept) if kept else NO_KEPT
        n = len(aims) * len(plays)
        each.append((u, aims, plays, n))
        total += n
    i = below(total)
    for u, aims, plays, n in each:
        if i < n:
            t, k = divmod(i, len(plays))
            # its t-th target in the enemy's order: the battle's units are a sorted multiset
            return UnitFired(player=p, unit=u, target=sorted(aims)[t], kept=plays[k])
        i -= n
    raise AssertionError("below(total) is below the volley's shots")


def _pick_step(lk: Lookups, state: State, h: Owed, below: Callable[[int], int]
               ) -> BcpEvent | None:
    """`_nth_step` at `below(count)`, the Reserve Hand's kinds listed once for both (None,
    `below` not asked, for a reveal)."""
    step = h.step
    if step in DEPLOYS:  # each unit of the Reserve Hand, then (a Conflict card's) no more
        kinds = tuple(dict.fromkeys(state.reserve[h.player]))
        return _nth_deployment(lk, state, h, kinds, below(len(kinds) + (step is DEPLOY)))
    if step in EMERGENCY or step is DECIDE:  # deployed or declined; fight or not
        return _nth_step(lk, state, h, below(2))
    return None


def draw(lk: Lookups, state: State, random: Callable[[], float], below: Callable[[int], int]
         ) -> tuple[str, BcpEvent] | None:
    """Returns who decides and the event random play draws (None once the game is over):
    `actor`, then `chance`'s card or `pick`'s event, the state read once for all three."""
    if state.result is not None:
        return None
    b = state.battle
    if b is not None:
        if b.shot is not None:  # chance turns the shot's card
            return CHANCE, _turned(lk, b, chosen(state.conflict[lk.theatre], random))
        if b.phase == WITHDRAWAL:
            return b.side, _pick_withdrawal(b, below)
        return b.side, _pick_fire(lk, state, b, below)
    h = state.steps[0]
    if h.step in CHANCE_STEPS:
        return CHANCE, _drawn(lk, state, h, random)
    event = _pick_step(lk, state, h, below)
    return h.player, event if event is not None else next(legal(lk, state))  # a reveal


def actor(lk: Lookups, state: State) -> str | None:
    """Returns `pending(lk, state).actor` without the sentence (None once over)."""
    if state.result is not None:
        return None
    b = state.battle
    if b is not None:
        return CHANCE if b.shot is not None else b.side
    h = state.steps[0]
    return CHANCE if h.step in CHANCE_STEPS else h.player
