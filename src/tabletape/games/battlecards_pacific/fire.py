"""BATTLECARDS Pacific, Firing a Unit: the arithmetic (who may fire in a phase, at what, with
which support and Kept Card, and the window a Conflict card's Action Number must fall in).

Read alongside the rulebook's sections Game Phases, Firing a Unit and Stalemate: `check`
and `legal` (legality) and the battle's flow (reducer) read these. Every function takes
the bound game's `Lookups` (`lk`) first.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from tabletape.engine.kit.multiset import without
from tabletape.engine.provenance import Deriving

from . import lookups as q
from .components import Lookups, Unit
from .state import Battle, State

# `targetable` (bcp.fire.target, bcp.fire.equal) is in components: `lk.reach` tabulates it
# for every pair of units once per game, and these read the table (tests/games/test_fast_paths.py
# pins the table and `targets` to `targetable`).

def reach(lk: Lookups, state: State, battle: Battle, player: str, name: str) -> frozenset[str]:
    """Returns the enemy units (by name) that `player`'s `name` may fire at, in or out of the battle."""
    enemy = q.opponent(battle, player)
    return lk.reach[state.sides[player]][name][state.sides[enemy]]


def targets(lk: Lookups, state: State, battle: Battle, player: str, name: str
            ) -> tuple[str, ...]:
    """Returns the distinct enemy units in the battle that `name` may fire at."""
    r = reach(lk, state, battle, player, name)
    return tuple(n for n in dict.fromkeys(battle.forces[q.opponent(battle, player)]) if n in r)


def can_fire(lk: Lookups, state: State, battle: Battle, player: str, name: str) -> bool:
    """Returns whether `name` has any enemy unit in the battle to fire at."""
    return not reach(lk, state, battle, player, name).isdisjoint(
        battle.forces[q.opponent(battle, player)])


def ready(lk: Lookups, state: State, battle: Battle, player: str, names: tuple[str, ...]
          ) -> tuple[str, ...]:
    """Returns those of `names` that `can_fire`: the tables and the enemy's units read once,
    not once per unit (the battle's flow asks it as every event settles;
    tests/games/test_fast_paths.py pins it to `can_fire`)."""
    enemy = battle.defender if player == battle.aggressor else battle.aggressor  # q.opponent
    table, enemy_side = lk.reach[state.sides[player]], state.sides[enemy]
    theirs = battle.forces[enemy]
    return tuple([n for n in names if not table[n][enemy_side].isdisjoint(theirs)])


def volley(lk: Lookups, state: State, battle: Battle, player: str, phase: int
           ) -> tuple[str, ...]:
    """bcp.fire.phase: the player's engaged units that list this firing phase."""
    units = lk.units[state.sides[player]]
    return tuple([n for n in battle.forces[player] if phase in units[n].phases])


def supporters(lk: Lookups, state: State, battle: Battle, player: str, name: str
               ) -> tuple[str, ...]:
    """The player's other engaged units that support `name`'s type (a sorted multiset)."""
    units = lk.units[state.sides[player]]
    kind = units[name].type
    others = without(battle.forces[player], name) if name in battle.forces[player] else ()
    return tuple(n for n in others if kind in units[n].supports)


def support_bonus(lk: Lookups, state: State, battle: Battle, player: str, name: str) -> int:
    """Returns `support` of every supporter (bcp.fire.support): the units of `lk.backers` for
    `name`'s type, each as many times as the player has it engaged (`name` itself once less),
    not the engaged units one by one (tests/games/battlecards_pacific/test_fast_paths.py pins
    it to the sum over `supporters`)."""
    units, engaged = lk.units[state.sides[player]], battle.forces[player]
    if name not in engaged:
        return 0
    bonus = 0
    for n in lk.backers[state.sides[player]][units[name].type]:
        copies = engaged.count(n) - (n == name)
        if copies > 0:
            bonus += units[n].support * copies
    return bonus


def support(lk: Lookups, state: State, battle: Battle, player: str, name: str,
            allocated: tuple[str, ...] | None = None) -> int:
    """bcp.fire.support: the bonus the player's other engaged units give `name` (all of
    them); bcp.fire.support-allocated: the bonus of the units `allocated` to the shot."""
    backing = supporters(lk, state, battle, player, name) if allocated is None else allocated
    return sum(q.unit(lk, state, player, n).support for n in backing)


def allocations(lk: Lookups, state: State, battle: Battle, player: str, name: str
                ) -> Iterator[tuple[str, ...]]:
    """bcp.fire.support-allocated: every distinct choice of supporters for `name`'s shot,
    among those not yet allocated in this volley (with none first)."""
    free = list(supporters(lk, state, battle, player, name))
    for n in battle.backed:
        if n in free:
            free.remove(n)
    seen: set[tuple[str, ...]] = set()
    for k in range(len(free) + 1):
        for pick in combinations(free, k):
            if pick not in seen:
                seen.add(pick)
                yield pick


def kept_bonus(lk: Lookups, kept: str, unit: Unit) -> int | None:
    """Returns a Kept Card's bonus for this unit, or None when it cannot be played for it."""
    c = q.card(lk, kept)
    if not c.keep or not c.bonus:
        return None
    if c.bonus_types and unit.type not in c.bonus_types:
        return None
    return c.bonus


def window(lk: Lookups, state: State, battle: Battle, player: str, name: str, target: str,
           kept: str | None, allocated: tuple[str, ...] = (), how: Deriving | None = None
           ) -> tuple[int, int]:
    """Returns (above, upto): the target falls when above < Action Number <= upto.

    With support="allocated" only the units `allocated` to the shot add their bonus
    (bcp.fire.support-allocated), else every supporter does (bcp.fire.support). With `how`,
    each term of `upto` is written down as it is added, and each value read (to explain a
    ruling: the sentence and the check then use the same numbers)."""
    if how is None:  # the shot being applied: nothing to write down
        return _window(lk, state, battle, player, name, target, kept, allocated)
    me = q.unit(lk, state, player, name)
    them = q.unit(lk, state, q.opponent(battle, player), target)
    above = them.defence.of(me.type) or 0
    upto = me.attack.of(them.type) or 0
    if how is not None:
        for who, unit, f in ((target, them, "defence"), (target, them, "type"), (name, me, "type")):
            how.read(who, unit, f)
        how.term("attack", upto, name, me, "attack", f"{name}, {_kind(them.type)}")
    each = state.options.support == "every-shot"
    if how is not None and each:  # whether each other engaged unit supports it: read too
        units = lk.units[state.sides[player]]
        for n in dict.fromkeys(without(battle.forces[player], name)
                               if name in battle.forces[player] else battle.forces[player]):
            how.read(n, units[n], "supports")
    for n in supporters(lk, state, battle, player, name) if each else allocated:
        backer = q.unit(lk, state, player, n)
        upto += backer.support
        if how is not None:
            how.read(n, backer, "supports")
            how.term("support", backer.support, n, backer, "support", n)
    if kept is not None:
        bonus = kept_bonus(lk, kept, me) or 0
        upto += bonus
        if how is not None:
            c = q.card(lk, kept)
            for f in ("keep", "bonus_types"):
                how.read(kept, c, f)
            how.term(kept, bonus, kept, c, "bonus")
    return above, upto


def _window(lk: Lookups, state: State, battle: Battle, player: str, name: str, target: str,
            kept: str | None, allocated: tuple[str, ...]) -> tuple[int, int]:
    """`window` without a derivation to write: the same sums, the defence and attack read
    from `lk.bare`, no test of `how` at each term (the play of every shot reads it;
    tests/games/battlecards_pacific/test_fast_paths.py pins it to `window` written down)."""
    side = state.sides[player]
    enemy = battle.defender if player == battle.aggressor else battle.aggressor  # q.opponent
    above, upto = lk.bare[side][name][state.sides[enemy]][target]  # defence, attack
    if state.options.support == "every-shot":
        upto += support_bonus(lk, state, battle, player, name)
    else:
        units = lk.units[side]
        for n in allocated:
            upto += units[n].support
    if kept is not None:
        upto += kept_bonus(lk, kept, lk.units[side][name]) or 0
    return above, upto


def _kind(kind: object) -> str:
    return str(getattr(kind, "value", kind)).lower()


def can_hit(lk: Lookups, state: State, battle: Battle, player: str) -> bool:
    """bcp.stalemate.test: some engaged unit could destroy some target with some Action Number,
    with every supporter backing it (however support is allocated) and its best Kept Card."""
    # `window(..., None, supporters(...))` for each target, read from `lk.need` (each pair's
    # need beyond the attack, least first: `components.shortfall`, which has the reach, the
    # firing phases and the Action Numbers in it): a unit could hit when the least need among
    # the enemy units in the battle is covered by its support and its best Kept Card
    # (tests/games/test_fast_paths.py pins it to that form)
    opponent = battle.defender if player == battle.aggressor else battle.aggressor
    side, enemy_side = state.sides[player], state.sides[opponent]
    need, units = lk.need[side], lk.units[side]
    theirs = battle.forces[opponent]
    last = None
    for name in battle.forces[player]:  # (a sorted multiset: each name's copies together)
        if name == last:
            continue
        last = name
        for n, target in need[name][enemy_side]:  # (a loop, not `next` over a generator:
            if target in theirs:                  # no function made per unit)
                least = n
                break
        else:
            continue  # nothing it may fire at in the battle could ever fall to it
        if least <= 0:
            return True  # some Action Number falls in the bare window
        me = units[name]
        if least <= support_bonus(lk, state, battle, player, name) + max(
                (kept_bonus(lk, k, me) or 0 for k in state.kept[player]), default=0):
            return True
    return False
