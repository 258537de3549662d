"""BATTLECARDS Pacific as a pure fold: `initial`, `apply`, and the bookkeeping between decisions.

`apply` assumes `check` passed. After every event `settle` resolves whatever needs no
decision: reshuffles, skipped draws, a battle moving on, passing the turn.
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from tabletape.engine import Outcome
from tabletape.tape.events import Event

from . import battle as fight
from . import table as t
from .components import UnitType, index
from .events import (
    ArsenalDrawn,
    BattleDecided,
    BcpStarted,
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
from .state import Owed, Result, State, Step


def assign_sides(players: tuple[str, ...], sides: tuple[str, ...], first: str) -> dict[str, str]:
    """bcp.setup.sides: the first player named takes `first`, the others the remaining sides."""
    rest = [s for s in sides if s != first]
    return {p: (first if i == 0 else rest[(i - 1) % len(rest)]) for i, p in enumerate(players)}


def initial(header: BcpStarted) -> State:
    """Returns the table after shuffling, before the deal (To Set Up the Game)."""
    players = tuple(header.players)
    ix = index(header.components)
    sides = assign_sides(players, ix.sides, header.options.first_side)
    order = tuple(sorted(players, key=lambda p: ix.sides.index(sides[p])))
    numbers = ix.rules
    steps = tuple(Owed(Step.DEAL, p, numbers.reserve_hand) for p in order) + tuple(
        Owed(Step.FIRST_DEPLOY, p, numbers.first_deployment) for p in order)
    state = State(
        players=players, sides=sides, order=order, options=header.options,
        arsenal={s: dict(d) for s, d in ix.arsenal.items()},
        arsenal_discard={s: () for s in ix.sides}, conflict={ix.theatre: dict(ix.conflict)},
        conflict_discard={ix.theatre: ()}, reserve={p: () for p in players},
        stacks={p: {k.value: () for k in UnitType} for p in players},
        kept={p: () for p in players}, won={p: () for p in players}, vp={p: 0 for p in players},
        steps=steps, components=header.components)
    return settle(state)


def apply(state: State, event: Event) -> State:
    """Returns the state after a legal event."""
    match event:
        case ArsenalDrawn(player=p, unit=u):
            side = state.sides[p]
            state = replace(state, arsenal={**state.arsenal, side: t.take(state.arsenal[side], u)},
                            reserve={**state.reserve, p: t.with_cards(state.reserve[p], u)})
            state = _count_down(state)
        case UnitDeployed(player=p, unit=u):
            state = _count_down(_deploy(state, p, (u,)))
        case DeploymentFinished():
            state = replace(state, steps=state.steps[1:])
        case EmergencyDeployed(player=p):
            state = _deploy(state, p, state.reserve[p])
            state = replace(state, steps=() if state.steps[0].step is Step.CHOOSE
                            else state.steps[1:])
        case EmergencyDeclined(player=p):
            rest = state.steps[1:]
            if state.steps[0].step is Step.CHOOSE:
                rest = (Owed(Step.DRAW_CONFLICT, p),)
            state = replace(state, steps=rest)
        case ConflictDrawn(player=p, card=c):
            state = _follow(state, p, c)
        case BattleDecided(fight=yes):
            state = _decided(state, yes)
        case UnitFired(player=p, unit=u, target=tg, kept=k):
            state = fight.fire(state, p, u, tg, k)
        case ConflictTurned(card=c, hit=hit):
            state = fight.resolve(state, c, hit)
        case UnitWithdrawn(player=p, unit=u):
            state = fight.withdraw(state, p, u)
        case WithdrawalFinished(player=p):
            state = fight.withdrawal_done(state, p)
    return settle(state)


def _count_down(state: State) -> State:
    head = state.steps[0]
    return replace(state, steps=(replace(head, count=head.count - 1),) + state.steps[1:])


def _deploy(state: State, player: str, units: tuple[str, ...]) -> State:
    """bcp.deploy.stack: each unit goes face down onto the stack of its own type."""
    stacks = dict(state.stacks[player])
    reserve = state.reserve[player]
    for u in units:
        kind = t.unit(state, player, u).type.value
        stacks[kind] = t.with_cards(stacks[kind], u)
        reserve = t.without(reserve, u)
    return replace(state, stacks={**state.stacks, player: stacks},
                   reserve={**state.reserve, player: reserve})


def _follow(state: State, player: str, name: str) -> State:
    """Playing the Game: the drawn Conflict card's instruction."""
    card = t.card(state, name)
    state = replace(t.take_conflict(state, name), steps=state.steps[1:])
    if card.battle is not None:
        bc = card.battle
        aggressors = t.players_of(state, bc.aggressor)
        if not aggressors or not set(bc.requires) <= t.side_won(state, bc.aggressor):
            # bcp.battle.prerequisites: discarded, and the turn is lost
            return replace(t.to_discard(state, name), steps=())
        return replace(state, drawn=name, steps=(Owed(Step.DECIDE, aggressors[0]),))
    if card.keep:  # bcp.conflict.keep
        return replace(state, kept={**state.kept, player: state.kept[player] + (name,)}, steps=())
    owed = ()
    if card.draw:  # bcp.conflict.draw
        owed += (Owed(Step.DRAW_ARSENAL, player, card.draw),)
    if card.deploy:  # bcp.conflict.deploy
        owed += (Owed(Step.DEPLOY, player, card.deploy),)
    return replace(t.to_discard(state, name), steps=owed)


def _decided(state: State, yes: bool) -> State:
    """bcp.battle.decide; on an invasion the defender may first emergency deploy."""
    name = state.drawn
    assert name is not None
    if not yes:
        return t.to_discard(replace(state, drawn=None, steps=()), name)
    bc = t.battlecard(state, name)
    owed: tuple[Owed, ...] = ()
    aggressor = t.players_of(state, bc.aggressor)[0]
    defender = t.enemy_of(state, aggressor)
    if defender is not None and bc.eliminates == state.sides[defender]:
        owed += (Owed(Step.HOMELAND, defender),)  # bcp.emergency.homeland
    return replace(state, steps=owed + (Owed(Step.BATTLE, aggressor),))


def settle(state: State) -> State:
    """Resolves everything that needs no decision, until a decision is pending."""
    while state.result is None:
        state = _reshuffle(state)
        if state.battle is not None:
            state = fight.advance(state)
            if state.battle is not None and state.battle.shot is not None \
                    and not t.deck(state):  # bcp.deck.exhausted: nothing to turn, a miss
                state = replace(state, battle=replace(state.battle, shot=None))
                continue
            return state
        if not state.steps:
            state = _next_turn(state)
            continue
        h = state.steps[0]
        if h.step is Step.BATTLE:
            state = fight.begin(replace(state, steps=state.steps[1:]))
            continue
        if h.step is Step.CHOOSE and not state.reserve[h.player]:
            state = replace(state, steps=(Owed(Step.DRAW_CONFLICT, h.player),) + state.steps[1:])
            continue
        if h.step is Step.DRAW_CONFLICT and not t.deck(state):
            return _on_points(state, "the Conflict deck ran out")  # bcp.deck.exhausted
        if not _skippable(state, h):
            return state
        state = replace(state, steps=state.steps[1:])
    return state


def _skippable(state: State, h: Owed) -> bool:
    """Owed steps that nothing can fulfil are dropped (bcp.deck.exhausted, empty hands)."""
    match h.step:
        case Step.DEAL | Step.DRAW_ARSENAL:
            return h.count <= 0 or not state.arsenal[state.sides[h.player]]
        case Step.FIRST_DEPLOY | Step.DEPLOY:
            return h.count <= 0 or not state.reserve[h.player]
        case Step.HOMELAND:
            return not state.reserve[h.player]
    return False


def _reshuffle(state: State) -> State:
    """bcp.deck.reshuffle: an empty deck takes its discard pile back, shuffled."""
    for side, deck in state.arsenal.items():
        if not deck and state.arsenal_discard[side]:
            state = replace(state, arsenal={**state.arsenal, side: t.merge(
                {}, state.arsenal_discard[side])}, arsenal_discard={
                **state.arsenal_discard, side: ()})
    for th, pile in state.conflict.items():
        if not pile and state.conflict_discard[th]:
            state = replace(state, conflict={**state.conflict, th: t.merge(
                {}, state.conflict_discard[th])}, conflict_discard={**state.conflict_discard, th: ()})
    return state


def _next_turn(state: State) -> State:
    """bcp.turn.order: the next player in turn order who is still in the game draws."""
    alive = [p for p in state.order if p not in state.eliminated]
    if state.turn is None or state.turn not in state.order:
        nxt = alive[0]
    else:
        i = state.order.index(state.turn)
        later = [p for p in state.order[i + 1:] + state.order[:i + 1] if p in alive]
        nxt = later[0]
    if not _live_battles(state):  # bcp.victory.no-battles
        return _on_points(state, "no BATTLECARD is left that could still be fought")
    return replace(state, turn=nxt, turns=state.turns + 1, steps=(Owed(Step.CHOOSE, nxt),))


def _live_battles(state: State) -> list[str]:
    """Returns the BATTLECARDS not yet won whose prerequisites can still be met."""
    ix = t.idx(state)
    held = {c for p in state.players for c in state.won[p]}
    memo: dict[str, bool] = {}

    @functools.cache  # once per side, not once per BATTLECARD
    def won_by(side: str) -> set[str]:
        return t.side_won(state, side)

    def live(name: str) -> bool:
        if name in memo:
            return memo[name]
        memo[name] = False  # a cycle of prerequisites can never be met
        bc = ix.battles[name]
        ours = won_by(bc.aggressor)
        ok = name not in held and all(r in ours or (r not in held and live(r))
                                      for r in bc.requires)
        memo[name] = ok
        return ok

    return [n for n in ix.battles if live(n)]


def _on_points(state: State, why: str) -> State:
    """Ends the game on VP: the most VP wins; equal VP is a draw."""
    best = max(state.vp.values())
    top = tuple(p for p in state.players if state.vp[p] == best and p not in state.eliminated)
    winners = top if len(top) == 1 else ()
    return replace(state, steps=(), result=Result(winners, f"{why}; decided on VP"))


def outcome(state: State) -> Outcome | None:
    """Returns the winners and VP once the game is over."""
    if state.result is None:
        return None
    return Outcome(state.result.winners, dict(state.vp), state.result.how)
