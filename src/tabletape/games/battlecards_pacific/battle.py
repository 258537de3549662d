"""Fighting a battle: engagement, firing windows, casualties, withdrawal, stalemate, the end.

Read alongside the rulebook's sections Fighting a Battle, Game Phases, Firing a
Unit and Stalemate. Everything here is pure: states in, states out.
"""

from __future__ import annotations

from msgspec.structs import replace

from . import table as t
from .components import Unit
from .state import Battle, Result, Shot, State

# -- firing arithmetic ---------------------------------------------------------------------

def opponent(battle: Battle, player: str) -> str:
    return battle.defender if player == battle.aggressor else battle.aggressor


def targetable(attacker: Unit, target: Unit) -> bool:
    """bcp.fire.target / bcp.fire.equal: attack not N/A and not below the target's defence."""
    attack = attacker.attack.of(target.type)
    return attack is not None and attack >= (target.defence.of(attacker.type) or 0)


def targets(state: State, battle: Battle, player: str, name: str) -> tuple[str, ...]:
    """Returns the distinct enemy units in the battle that `name` may fire at."""
    me = t.unit(state, player, name)
    enemy = opponent(battle, player)
    return tuple(n for n in dict.fromkeys(battle.forces[enemy])
                 if targetable(me, t.unit(state, enemy, n)))


def can_fire(state: State, battle: Battle, player: str, name: str) -> bool:
    """Returns whether `name` has any enemy unit in the battle to fire at."""
    me = t.unit(state, player, name)
    enemy = opponent(battle, player)
    return any(targetable(me, t.unit(state, enemy, n)) for n in battle.forces[enemy])


def support(state: State, battle: Battle, player: str, name: str) -> int:
    """bcp.fire.support: the bonus the player's other engaged units give `name`."""
    kind = t.unit(state, player, name).type
    others = t.without(battle.forces[player], name) if name in battle.forces[player] else ()
    total = 0
    for n in others:
        u = t.unit(state, player, n)
        if kind in u.supports:
            total += u.support
    return total


def kept_bonus(state: State, kept: str, unit: Unit) -> int | None:
    """Returns a Kept Card's bonus for this unit, or None when it cannot be played for it."""
    c = t.card(state, kept)
    if not c.keep or not c.bonus:
        return None
    if c.bonus_types and unit.type not in c.bonus_types:
        return None
    return c.bonus


def window(state: State, battle: Battle, player: str, name: str, target: str,
           kept: str | None) -> tuple[int, int]:
    """Returns (above, upto): the target falls when above < Action Number <= upto."""
    me = t.unit(state, player, name)
    them = t.unit(state, opponent(battle, player), target)
    above = them.defence.of(me.type) or 0
    upto = (me.attack.of(them.type) or 0) + support(state, battle, player, name)
    if kept is not None:
        upto += kept_bonus(state, kept, me) or 0
    return above, upto


def can_hit(state: State, battle: Battle, player: str) -> bool:
    """bcp.stalemate.test: some engaged unit could destroy some target with some Action Number."""
    actions = t.idx(state).actions
    for name in dict.fromkeys(battle.forces[player]):
        me = t.unit(state, player, name)
        if not me.phases:
            continue
        best = max((kept_bonus(state, k, me) or 0 for k in state.kept[player]), default=0)
        for target in targets(state, battle, player, name):
            above, upto = window(state, battle, player, name, target, None)
            if any(above < a <= upto + best for a in actions):
                return True
    return False


# -- the flow of a battle ------------------------------------------------------------------

def begin(state: State) -> State:
    """Fighting a Battle: engage the called stacks, or settle a battle with no fight in it."""
    name = state.drawn
    assert name is not None and state.turn is not None
    bc = t.battlecard(state, name)
    aggressor = t.players_of(state, bc.aggressor)[0]
    defender = t.enemy_of(state, aggressor)
    assert defender is not None
    kinds = [k.value for k in bc.forces]
    forces = {p: t.with_cards((), *(u for k in kinds for u in state.stacks[p][k]))
              for p in (aggressor, defender)}
    if not forces[aggressor] and not forces[defender]:  # bcp.battle.forces: ignored
        return t.to_discard(replace(state, drawn=None, steps=()), name)
    if not forces[aggressor] or not forces[defender]:  # bcp.battle.forces: won by default
        winner = aggressor if forces[aggressor] else defender
        return finish(state, winner, "by default: the enemy had none of the forces called")
    stacks = {**state.stacks}
    for p in (aggressor, defender):
        stacks[p] = {k: (v if k not in kinds else ()) for k, v in stacks[p].items()}
    battle = Battle(card=name, aggressor=aggressor, defender=defender, forces=forces,
                    withdrawn={aggressor: (), defender: ()})
    return start_round(replace(state, stacks=stacks, battle=battle))


def volley(state: State, battle: Battle, player: str, phase: int) -> tuple[str, ...]:
    """bcp.fire.phase: the player's engaged units that list this firing phase."""
    return tuple(n for n in battle.forces[player] if phase in t.unit(state, player, n).phases)


def start_round(state: State) -> State:
    """A combat round opens with phase 1, aggressor first, unless it is a stalemate."""
    b = state.battle
    assert b is not None
    if not can_hit(state, b, b.aggressor) and not can_hit(state, b, b.defender):
        # bcp.stalemate: the aggressor must pull out; the defender wins
        b = replace(b, withdrawn={**b.withdrawn, b.aggressor: t.with_cards(
            b.withdrawn[b.aggressor], *b.forces[b.aggressor])},
            forces={**b.forces, b.aggressor: ()})
        return finish(replace(state, battle=b), b.defender,
                      "by stalemate: neither side could hit the other")
    b = replace(b, phase=1, side=b.aggressor, to_fire=volley(state, b, b.aggressor, 1))
    return replace(state, battle=b)


def advance(state: State) -> State:
    """Moves the battle on while nobody can act: units without targets, empty volleys."""
    b = state.battle
    assert b is not None
    while b.phase <= 4 and b.shot is None:
        ready = tuple(n for n in b.to_fire if can_fire(state, b, b.side, n))
        if ready:
            return replace(state, battle=replace(b, to_fire=ready))
        if b.side == b.aggressor:
            b = replace(b, side=b.defender, to_fire=volley(state, b, b.defender, b.phase))
        else:
            phase = b.phase + 1
            b = replace(b, phase=phase, side=b.aggressor,
                        to_fire=volley(state, b, b.aggressor, phase) if phase <= 4 else ())
    return replace(state, battle=b)


def fire(state: State, player: str, name: str, target: str, kept: str | None) -> State:
    """A unit fires: it leaves the volley, a Kept Card is spent, the shot awaits its card."""
    b = state.battle
    assert b is not None
    above, upto = window(state, b, player, name, target, kept)
    if kept is not None:  # bcp.fire.kept: the card is played and discarded
        state = t.to_discard(replace(state, kept={
            **state.kept, player: t.without(state.kept[player], kept)}), kept)
    b = replace(b, to_fire=t.without(b.to_fire, name), shot=Shot(player, name, target, above, upto))
    return replace(state, battle=b)


def resolve(state: State, card: str, hit: bool) -> State:
    """The turned Conflict card decides the shot (bcp.fire.hit); casualties go at once."""
    b = state.battle
    assert b is not None and b.shot is not None
    shot = b.shot
    state = t.to_discard(t.take_conflict(state, card), card)
    b = replace(b, shot=None)
    if not hit:
        return replace(state, battle=b)
    enemy = opponent(b, shot.player)
    side = state.sides[enemy]
    b = replace(b, forces={**b.forces, enemy: t.without(b.forces[enemy], shot.target)})
    state = replace(state, battle=b, arsenal_discard={
        **state.arsenal_discard, side: state.arsenal_discard[side] + (shot.target,)})
    if not b.forces[enemy]:
        return finish(state, shot.player, "every enemy unit in it was destroyed or withdrawn")
    special = t.battlecard(state, b.card).special
    kind = t.unit(state, enemy, shot.target).type
    if special is not None and kind == special and not any(
            t.unit(state, enemy, n).type == special for n in b.forces[enemy]):
        return finish(state, shot.player, f"special victory: the last enemy {special} unit fell",
                      special=True)
    return state


def withdraw(state: State, player: str, name: str) -> State:
    """bcp.withdraw.phase: one unit leaves the battle; a side with none left has lost."""
    b = state.battle
    assert b is not None
    b = replace(b, forces={**b.forces, player: t.without(b.forces[player], name)},
                withdrawn={**b.withdrawn, player: t.with_cards(b.withdrawn[player], name)})
    state = replace(state, battle=b)
    if not b.forces[player]:
        return finish(state, opponent(b, player), f"{player} withdrew every unit")
    return state


def withdrawal_done(state: State, player: str) -> State:
    """After the aggressor, the defender may withdraw; then the next round begins."""
    b = state.battle
    assert b is not None
    if player == b.aggressor:
        return replace(state, battle=replace(b, side=b.defender))
    return start_round(replace(state, battle=replace(b, round=b.round + 1)))


def finish(state: State, winner: str, how: str, *, special: bool = False) -> State:
    """The battle is over: forces go home (bcp.battle.survivors), the winner takes the card
    and its VP (bcp.battle.end), and an invaded homeland falls (bcp.victory.total)."""
    name = state.drawn
    assert name is not None
    bc = t.battlecard(state, name)
    b = state.battle
    stacks = {p: dict(s) for p, s in state.stacks.items()}
    discard = dict(state.arsenal_discard)
    if b is not None:
        loser = opponent(b, winner)
        for p in (b.aggressor, b.defender):
            home = b.withdrawn[p] + b.forces[p]
            if special and p == loser and bc.special_losers == "discard":
                discard[state.sides[p]] += b.forces[p]
                home = b.withdrawn[p]
            for n in home:
                kind = t.unit(state, p, n).type.value
                stacks[p][kind] = t.with_cards(stacks[p][kind], n)
    state = replace(state, battle=None, drawn=None, steps=(), stacks=stacks,
                    arsenal_discard=discard,
                    won={**state.won, winner: state.won[winner] + (name,)},
                    vp={**state.vp, winner: state.vp[winner] + bc.vp},
                    last_battle=f"{winner} won {name}: {how}")
    return victory(state, winner, bc.eliminates)


def victory(state: State, winner: str, eliminates: str | None) -> State:
    """Winning the War: Total Victory by an invasion, or Standard Victory on points."""
    if eliminates is not None and state.sides[winner] != eliminates:
        out = tuple(p for p in state.players if state.sides[p] == eliminates)
        state = replace(state, eliminated=tuple(dict.fromkeys(state.eliminated + out)))
        left = {state.sides[p] for p in state.players if p not in state.eliminated}
        if len(left) == 1:
            survivors = tuple(p for p in state.players if p not in state.eliminated)
            return replace(state, result=Result(survivors, f"Total Victory: {eliminates} is "
                                                f"eliminated by the loss of its homeland"))
    goal = t.idx(state).rules.standard_victory
    if state.vp[winner] >= goal:
        return replace(state, result=Result((winner,), f"Standard Victory: {winner} holds "
                                            f"{state.vp[winner]} VP (needs {goal})"))
    return state

