"""BATTLECARDS Pacific as a pure fold: `initial`, `apply`, and the bookkeeping between decisions.

`apply` assumes `check` passed. After every event the game settles (`resolve`, one
step at a time): reshuffles, skipped draws, a battle moving on, passing the turn.
Every function that needs the card set takes the bound game's `Lookups` (`lk`) first.
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from tabletape.engine.kit import turns
from tabletape.engine.kit.multiset import drawn, with_cards, without
from tabletape.tape.events import Event

from . import lookups as q
from .components import Lookups, UnitType
from .decks import discarded, refillable, taken, to_discard
from .events import (
    ArsenalDrawn,
    BattleDecided,
    BcpStarted,
    CardsRevealed,
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
from .fire import can_hit, volley, window
from .fire import ready as fire_ready
from .state import Battle, Owed, Shot, State, Step
from .victory import battle_live, on_points, victory
from .victory import outcome as outcome  # (the ruleset's `outcome`: kit.packaged reads it here)

# the steps the plays owe most often, named once (each `Step.X` is an enum lookup)
CHOOSE, DRAW_CONFLICT, DECIDE = Step.CHOOSE, Step.DRAW_CONFLICT, Step.DECIDE

# -- To Set Up the Game ------------------------------------------------------------------------

def assign_sides(players: tuple[str, ...], sides: tuple[str, ...], first: str) -> dict[str, str]:
    """bcp.setup.sides: the first player named takes `first`, the others the remaining sides."""
    rest = [s for s in sides if s != first]
    return {p: (first if i == 0 else rest[(i - 1) % len(rest)]) for i, p in enumerate(players)}


def initial(lk: Lookups, header: BcpStarted) -> State:
    """Returns the table after shuffling, before the deal (To Set Up the Game)."""
    players = tuple(header.players)
    # bcp.turn.order: lk.sides puts the first-turn side (Japan) first, whatever the file
    # says; under rules 1.0 the file's order alone (bcp.turn.first-side, a switch)
    in_turn = lk.sides if lk.first_side_named else lk.file_sides
    sides = assign_sides(players, in_turn, header.options.first_side)
    order = tuple(sorted(players, key=lambda p: in_turn.index(sides[p])))
    numbers = lk.rules
    steps = tuple(Owed(Step.DEAL, p, numbers.reserve_hand) for p in order) + tuple(
        Owed(Step.FIRST_DEPLOY, p, numbers.first_deployment) for p in order)
    state = State(
        players=players, sides=sides, order=order, options=header.options,
        arsenal={s: dict(d) for s, d in lk.arsenal.items()},
        arsenal_discard={s: () for s in in_turn}, conflict={lk.theatre: dict(lk.conflict)},
        conflict_discard={lk.theatre: ()}, reserve={p: () for p in players},
        stacks={p: {k.value: () for k in UnitType} for p in players},
        kept={p: () for p in players}, won={p: () for p in players}, vp={p: 0 for p in players},
        steps=steps)
    return settle(lk, state)


# -- apply: one small function per event -------------------------------------------------------

def apply(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state after a legal event."""
    state = APPLY[type(event)](lk, state, event)
    while (after := resolve(lk, state)) is not None:  # turns.settle, written out: no
        state = after                                   # partial, no frame per event
    return state


def _stacked(lk: Lookups, state: State, player: str, units: tuple[str, ...]
             ) -> dict[str, tuple[str, ...]]:
    """bcp.deploy.stack: returns the player's stacks once each of `units` has gone face down
    onto the stack of its own type (each stack sorted once, with all that joins it)."""
    stacks = dict(state.stacks[player])
    kinds = lk.units[state.sides[player]]
    joining: dict[str, list[str]] = {}
    for u in units:  # (a unit type is a StrEnum: it finds its stack's key, a plain str)
        joining.setdefault(kinds[u].type, []).append(u)
    for kind, more in joining.items():
        stacks[kind] = with_cards(stacks[kind], *more)
    return stacks


def _deployed(lk: Lookups, state: State, player: str, units: tuple[str, ...]
              ) -> tuple[dict[str, dict[str, tuple[str, ...]]], dict[str, tuple[str, ...]]]:
    """bcp.deploy.stack: returns the stacks and the Reserve Hands once each unit has gone from
    the hand face down onto the stack of its own type."""
    reserve = state.reserve[player]
    for u in units:
        reserve = without(reserve, u)
    return ({**state.stacks, player: _stacked(lk, state, player, units)},
            {**state.reserve, player: reserve})


def _arsenal_drawn(lk: Lookups, state: State, ev: ArsenalDrawn) -> State:
    """bcp.setup.deal, bcp.conflict.draw: one Arsenal card into the Reserve Hand (and one
    fewer owed, in the same change)."""
    arsenal, reserve = drawn(state.arsenal, state.sides[ev.player], state.reserve, ev.player,
                             ev.unit)
    h = state.steps[0]
    return replace(state, arsenal=arsenal, reserve=reserve,
                   steps=(replace(h, count=h.count - 1),) + state.steps[1:])


def _unit_deployed(lk: Lookups, state: State, ev: UnitDeployed) -> State:
    """bcp.setup.deploy, bcp.conflict.deploy (and one fewer owed, at once)."""
    stacks, reserve = _deployed(lk, state, ev.player, (ev.unit,))
    h = state.steps[0]
    return replace(state, stacks=stacks, reserve=reserve,
                   steps=(replace(h, count=h.count - 1),) + state.steps[1:])


def _deployment_finished(lk: Lookups, state: State, ev: DeploymentFinished) -> State:
    """bcp.conflict.deploy: up to the card's number, and no more."""
    return turns.done(state)


def _emergency_deployed(lk: Lookups, state: State, ev: EmergencyDeployed) -> State:
    """bcp.emergency.turn (instead of the turn's draw), bcp.emergency.homeland."""
    stacks, reserve = _deployed(lk, state, ev.player, state.reserve[ev.player])
    return replace(state, stacks=stacks, reserve=reserve,
                   steps=() if state.steps[0].step is CHOOSE else state.steps[1:])


def _emergency_declined(lk: Lookups, state: State, ev: EmergencyDeclined) -> State:
    """At a turn's start, keeping the Reserve Hand means drawing a Conflict card."""
    rest = state.steps[1:]
    if state.steps[0].step is CHOOSE:
        rest = (Owed(DRAW_CONFLICT, ev.player),)
    return replace(state, steps=rest)


def _conflict_drawn(lk: Lookups, state: State, ev: ConflictDrawn) -> State:
    """Playing the Game: the drawn Conflict card's instruction (the card taken from the deck
    and the instruction's changes made at once)."""
    player, name = ev.player, ev.card
    card = lk.cards[name]
    conflict = taken(lk, state, name)
    if card.battle is not None:
        bc = card.battle
        aggressors = q.players_of(state, bc.aggressor)
        if not aggressors or not set(bc.requires) <= q.side_won(state, bc.aggressor):
            # bcp.battle.prerequisites: discarded, and the turn is lost
            return replace(state, conflict=conflict,
                           conflict_discard=discarded(lk, state, (name,)), steps=())
        return replace(state, conflict=conflict, drawn=name,
                       steps=(Owed(DECIDE, aggressors[0]),))
    if card.keep:  # bcp.conflict.keep
        return replace(state, conflict=conflict, steps=(),
                       kept={**state.kept, player: state.kept[player] + (name,)})
    owed: tuple[Owed, ...] = ()
    if card.draw:  # bcp.conflict.draw
        owed += (Owed(Step.DRAW_ARSENAL, player, card.draw),)
    if card.deploy:  # bcp.conflict.deploy
        owed += (Owed(Step.DEPLOY, player, card.deploy),)
    if card.reveal and (enemy := q.enemy_of(state, player)) is not None:  # bcp.conflict.reveal
        owed += (Owed(Step.REVEAL, enemy, what=card.reveal),)
    return replace(state, conflict=conflict, steps=owed,  # bcp.conflict.discard
                   conflict_discard=discarded(lk, state, (name,)))


def _cards_revealed(lk: Lookups, state: State, ev: CardsRevealed) -> State:
    """bcp.conflict.reveal: the drawer has seen; nothing on the table moves."""
    return turns.done(state)


def _battle_decided(lk: Lookups, state: State, ev: BattleDecided) -> State:
    """bcp.battle.decide; on an invasion the defender may first emergency deploy."""
    name = state.drawn
    assert name is not None
    if not ev.fight:
        return to_discard(lk, replace(state, drawn=None, steps=()), name)
    bc = q.battlecard(lk, name)
    owed: tuple[Owed, ...] = ()
    aggressor = q.players_of(state, bc.aggressor)[0]
    defender = q.enemy_of(state, aggressor)
    if defender is not None and bc.eliminates == state.sides[defender]:
        owed += (Owed(Step.HOMELAND, defender),)  # bcp.emergency.homeland
    return replace(state, steps=owed + (Owed(Step.BATTLE, aggressor),))


def _unit_fired(lk: Lookups, state: State, ev: UnitFired) -> State:
    """A unit fires: it leaves the volley, a Kept Card is spent, the shot awaits its card."""
    b = state.battle
    assert b is not None
    player, name = ev.player, ev.unit
    above, upto = window(lk, state, b, player, name, ev.target, ev.kept, ev.support)
    b = replace(b, to_fire=without(b.to_fire, name),
                backed=with_cards(b.backed, *ev.support) if ev.support else b.backed,
                shot=Shot(player, name, ev.target, above, upto, ev.kept,
                          tuple(sorted(ev.support)) if ev.support else ()))
    if ev.kept is not None:  # bcp.fire.kept: the card is played and discarded
        return replace(state, battle=b, conflict_discard=discarded(lk, state, (ev.kept,)),
                       kept={**state.kept, player: without(state.kept[player], ev.kept)})
    return replace(state, battle=b)


def _conflict_turned(lk: Lookups, state: State, ev: ConflictTurned) -> State:
    """The turned Conflict card decides the shot (bcp.fire.hit); casualties go at once
    (bcp.fire.casualties), and a battle may end with them (bcp.battle.special)."""
    b = state.battle
    assert b is not None and b.shot is not None
    shot = b.shot
    conflict, discard = taken(lk, state, ev.card), discarded(lk, state, (ev.card,))
    if not ev.hit:  # a miss may still have spent the Kept Card that made a hit possible
        return _stalemate_again(lk, replace(state, conflict=conflict, conflict_discard=discard,
                                            battle=replace(b, shot=None)))
    enemy = q.opponent(b, shot.player)
    side = state.sides[enemy]
    b = replace(b, shot=None, forces={**b.forces, enemy: without(b.forces[enemy], shot.target)})
    state = replace(state, battle=b, conflict=conflict, conflict_discard=discard,
                    arsenal_discard={**state.arsenal_discard,
                                     side: state.arsenal_discard[side] + (shot.target,)})
    if not b.forces[enemy]:
        return _finish(lk, state, shot.player, "every enemy unit in it was destroyed or withdrawn")
    special = lk.battles[b.card].special
    if special is not None:
        units = lk.units[side]
        if units[shot.target].type == special and not any(
                units[n].type == special for n in b.forces[enemy]):
            return _finish(lk, state, shot.player,
                           f"special victory: the last enemy {special} unit fell", special=True)
    return _stalemate_again(lk, state)


def _unit_withdrawn(lk: Lookups, state: State, ev: UnitWithdrawn) -> State:
    """bcp.withdraw.phase: one unit leaves the battle; a side with none left has lost."""
    b = state.battle
    assert b is not None
    player, name = ev.player, ev.unit
    b = replace(b, forces={**b.forces, player: without(b.forces[player], name)},
                withdrawn={**b.withdrawn, player: with_cards(b.withdrawn[player], name)})
    state = replace(state, battle=b)
    if not b.forces[player]:
        return _finish(lk, state, q.opponent(b, player), f"{player} withdrew every unit")
    return _stalemate_again(lk, state)


def _withdrawal_finished(lk: Lookups, state: State, ev: WithdrawalFinished) -> State:
    """After the aggressor, the defender may withdraw; then the next round begins."""
    b = state.battle
    assert b is not None
    if ev.player == b.aggressor:
        return replace(state, battle=replace(b, side=b.defender))
    return _start_round(lk, replace(state, battle=replace(b, round=b.round + 1)))


APPLY = turns.by_event(_arsenal_drawn, _unit_deployed, _deployment_finished, _emergency_deployed,
                       _emergency_declined, _conflict_drawn, _cards_revealed, _battle_decided,
                       _unit_fired, _conflict_turned, _unit_withdrawn, _withdrawal_finished)


# -- Fighting a Battle: the flow -----------------------------------------------------------------

def _begin(lk: Lookups, state: State) -> State:
    """Fighting a Battle: engage the called stacks, or settle a battle with no fight in it."""
    name = state.drawn
    assert name is not None and state.turn is not None
    bc = q.battlecard(lk, name)
    aggressor = q.players_of(state, bc.aggressor)[0]
    defender = q.enemy_of(state, aggressor)
    assert defender is not None
    kinds = [k.value for k in bc.forces]
    forces = {p: with_cards((), *(u for k in kinds for u in state.stacks[p][k]))
              for p in (aggressor, defender)}
    if not forces[aggressor] and not forces[defender]:  # bcp.battle.forces: ignored
        return to_discard(lk, replace(state, drawn=None, steps=()), name)
    if not forces[aggressor] or not forces[defender]:  # bcp.battle.forces: won by default
        winner = aggressor if forces[aggressor] else defender
        return _finish(lk, state, winner, "by default: the enemy had none of the forces called")
    stacks = {**state.stacks}
    for p in (aggressor, defender):
        stacks[p] = {k: (v if k not in kinds else ()) for k, v in stacks[p].items()}
    battle = Battle(card=name, aggressor=aggressor, defender=defender, forces=forces,
                    withdrawn={aggressor: (), defender: ()})
    return _start_round(lk, replace(state, stacks=stacks, battle=battle))


def _stalemate_again(lk: Lookups, state: State) -> State:
    """bcp.stalemate.test (1.1): the test again after a shot or a withdrawal; rules 1.0
    tested only as a combat round opened."""
    return _stalemate(lk, state) if lk.stalemate_every_shot else state


def _stalemate(lk: Lookups, state: State) -> State:
    """bcp.stalemate, bcp.stalemate.test: when neither side's units left in the battle could
    hit, the aggressor must pull out and the defender wins; otherwise the battle goes on."""
    b = state.battle
    assert b is not None
    if _either_can_hit(lk, state, b):
        return state
    b = replace(b, withdrawn={**b.withdrawn, b.aggressor: with_cards(
        b.withdrawn[b.aggressor], *b.forces[b.aggressor])},
        forces={**b.forces, b.aggressor: ()}, to_fire=(), backed=(), shot=None)
    return _finish(lk, replace(state, battle=b), b.defender,
                   "by stalemate: neither side could hit the other")


# The stalemate test runs after every shot; what it reads is the units in the battle
# (`battle.forces`, a new dict only when a unit leaves it), the Kept Cards (`state.kept`, a new
# dict only when one is kept or played), the sides and the box. After a miss with no Kept Card
# all are the same objects as at the test before, so its answer is kept with them and given
# again (identity, as `victory.battle_live`; tests/games/test_fast_paths.py pins it to `can_hit`).
_last_hit: tuple[object, object, object, object, bool] = (None, None, None, None, True)


def _either_can_hit(lk: Lookups, state: State, b: Battle) -> bool:
    """Returns `can_hit(aggressor) or can_hit(defender)`, from the last answer when the battle's
    units, the Kept Cards, the sides and the box are the very objects it was worked out on."""
    global _last_hit
    last = _last_hit  # read once: another thread may replace it, never half of it
    if last[0] is b.forces and last[1] is state.kept and last[2] is state.sides \
            and last[3] is lk:
        return last[4]
    hit = can_hit(lk, state, b, b.aggressor) or can_hit(lk, state, b, b.defender)
    _last_hit = (b.forces, state.kept, state.sides, lk, hit)
    return hit


def _start_round(lk: Lookups, state: State) -> State:
    """bcp.battle.rounds: a combat round opens with phase 1, aggressor first, unless it is a
    stalemate."""
    state = _stalemate(lk, state)
    b = state.battle
    if b is None:
        return state
    b = replace(b, phase=1, side=b.aggressor, to_fire=volley(lk, state, b, b.aggressor, 1),
                backed=())
    return replace(state, battle=b)


# The battle's flow asks, as every event settles, whether each unit of the volley still has
# something to fire at (`fire.ready`, bcp.fire.phase). That reads the volley's units, the
# enemy's (`battle.forces`, a new dict only when a unit leaves the battle), the sides and the
# box; so the units last found ready are kept with the very objects they were found on, and a
# volley made only of them is ready again (identity, as `_either_can_hit`; a miss changes
# neither side's units). tests/games/battlecards_pacific/test_fast_paths.py pins it to `ready`.
_last_ready: tuple[object, object, object, object, frozenset[str]] = (None, None, None, None,
                                                                     frozenset())


def _ready(lk: Lookups, state: State, b: Battle) -> tuple[str, ...]:
    """Returns `fire.ready(lk, state, b, b.side, b.to_fire)`: the volley itself when each of
    its units was found ready against the very same battle's units."""
    global _last_ready
    last = _last_ready  # read once: another thread may replace it, never half of it
    if last[0] is b.forces and last[1] == b.side and last[2] is state.sides \
            and last[3] is lk and last[4].issuperset(b.to_fire):
        return b.to_fire
    ready = fire_ready(lk, state, b, b.side, b.to_fire)  # each that `can_fire`
    if ready:
        _last_ready = (b.forces, b.side, state.sides, lk, frozenset(ready))
    return ready


def _advance(lk: Lookups, state: State, b: Battle) -> State | None:
    """Moves the battle on while nobody can act: units without targets, empty volleys
    (bcp.fire.phase, bcp.withdraw.phase). Returns None when it need not move."""
    moved = False
    while b.phase <= 4 and b.shot is None:
        ready = _ready(lk, state, b) if b.to_fire else ()
        if ready:
            if ready == b.to_fire:  # (the volley moved to is ready whole: nothing to drop)
                return replace(state, battle=b) if moved else None
            return replace(state, battle=replace(b, to_fire=ready))
        moved = True
        if b.side == b.aggressor:
            b = replace(b, side=b.defender, to_fire=volley(lk, state, b, b.defender, b.phase),
                        backed=())
        else:
            phase = b.phase + 1
            b = replace(b, phase=phase, side=b.aggressor, backed=(),
                        to_fire=volley(lk, state, b, b.aggressor, phase) if phase <= 4 else ())
    return replace(state, battle=b) if moved else None


def _finish(lk: Lookups, state: State, winner: str, how: str, *, special: bool = False) -> State:
    """The battle is over: forces go home (bcp.battle.survivors), the winner takes the card
    and its VP (bcp.battle.end), and an invaded homeland falls (bcp.victory.total)."""
    name = state.drawn
    assert name is not None
    bc = q.battlecard(lk, name)
    b = state.battle
    stacks = dict(state.stacks)
    discard = dict(state.arsenal_discard)
    if b is not None:
        loser = q.opponent(b, winner)
        for p in (b.aggressor, b.defender):
            home = b.withdrawn[p] + b.forces[p]
            if special and p == loser and bc.special_losers == "discard":
                discard[state.sides[p]] += b.forces[p]
                home = b.withdrawn[p]
            stacks[p] = _stacked(lk, state, p, home)
    state = replace(state, battle=None, drawn=None, steps=(), stacks=stacks,
                    arsenal_discard=discard,
                    won={**state.won, winner: state.won[winner] + (name,)},
                    vp={**state.vp, winner: state.vp[winner] + bc.vp},
                    last_battle=f"{winner} won {name}: {how}")
    return victory(lk, state, winner, bc.eliminates)


# -- Playing the Game: what needs no decision -----------------------------------------------------

def settle(lk: Lookups, state: State) -> State:
    """Resolves everything that needs no decision, until a decision is pending."""
    return turns.settle(state, functools.partial(resolve, lk))


# `resolve` asks whether every Arsenal holds a card at every step; `state.arsenal` is a new
# dict only when a unit is drawn or a deck refilled, so the last one found full is kept and
# known again by identity (as `_last_hit`; holding it keeps its id from being reused).
_full_arsenal: object = None


def _all_full(arsenal: dict[str, dict[str, int]]) -> bool:
    """Returns whether every side's Arsenal holds a card, remembering the dict if so."""
    global _full_arsenal
    if all(arsenal.values()):
        _full_arsenal = arsenal
        return True
    return False


def resolve(lk: Lookups, state: State) -> State | None:
    """Returns the state one step on, or None when a decision is pending or the game is over."""
    if state.result is not None:
        return None
    # bcp.deck.reshuffle, asked only when a deck is empty (the Arsenals: `_all_full`; the
    # game's one Conflict deck read by its theatre) and has a pile to take back (an Arsenal
    # often has none: each unit in play or in hand); the function of the judging version (a
    # pin: decks.reshuffled, or 1.1's before 1.2)
    b = state.battle
    arsenal = state.arsenal
    if not ((arsenal is _full_arsenal or _all_full(arsenal)) and state.conflict[lk.theatre]) \
            and refillable(state):
        shuffled = lk.reshuffled(lk, state)
        if shuffled is not None:
            return shuffled
    if b is not None:
        if b.shot is not None:  # the shot's card is owed (`_advance` would not move)
            if state.conflict[lk.theatre]:
                return None
            # bcp.deck.exhausted: nothing to turn for the shot, a miss
            return replace(state, battle=replace(b, shot=None))
        if b.phase > 4:  # the withdrawal phase: a decision (`_advance` would not move)
            return None
        return _advance(lk, state, b)
    if not state.steps:
        return _next_turn(lk, state)
    h = state.steps[0]
    # the step owed now, by a table of steps (not `match`: each `Step.X` is an enum lookup)
    return _SETTLE[h.step](lk, state, h)


# -- resolving the step owed now, one function per step (`resolve` looks it up) ----------------

def _battle_step(lk: Lookups, state: State, h: Owed) -> State | None:
    """Fighting a Battle: the battle begins as soon as it is owed."""
    return _begin(lk, turns.done(state))


def _choose_step(lk: Lookups, state: State, h: Owed) -> State | None:
    """bcp.emergency.turn: with an empty Reserve Hand there is nothing to choose: draw."""
    if state.reserve[h.player]:
        return None
    return replace(state, steps=(Owed(Step.DRAW_CONFLICT, h.player),) + state.steps[1:])


def _draw_conflict_step(lk: Lookups, state: State, h: Owed) -> State | None:
    """bcp.deck.exhausted: no Conflict card left to draw ends the game on points."""
    if state.conflict[lk.theatre]:
        return None
    return on_points(state, "the Conflict deck ran out")


def _draw_step(lk: Lookups, state: State, h: Owed) -> State | None:
    """Owed draws end with the count, or with the deck (bcp.deck.exhausted)."""
    if h.count > 0 and state.arsenal[state.sides[h.player]]:
        return None
    return turns.done(state)


def _deploy_step(lk: Lookups, state: State, h: Owed) -> State | None:
    """Owed deployments end with the count, or with the Reserve Hand."""
    if h.count > 0 and state.reserve[h.player]:
        return None
    return turns.done(state)


def _homeland_step(lk: Lookups, state: State, h: Owed) -> State | None:
    """bcp.emergency.homeland: with an empty Reserve Hand there is nothing to deploy."""
    return None if state.reserve[h.player] else turns.done(state)


def _reveal_step(lk: Lookups, state: State, h: Owed) -> State | None:
    """bcp.conflict.reveal: an eliminated player shows nothing."""
    return turns.done(state) if h.player in state.eliminated else None


def _decide_step(lk: Lookups, state: State, h: Owed) -> State | None:
    """bcp.battle.decide: always a decision."""
    return None


_SETTLE = {Step.BATTLE: _battle_step, Step.CHOOSE: _choose_step,
           Step.DRAW_CONFLICT: _draw_conflict_step, Step.DEAL: _draw_step,
           Step.DRAW_ARSENAL: _draw_step, Step.FIRST_DEPLOY: _deploy_step,
           Step.DEPLOY: _deploy_step, Step.HOMELAND: _homeland_step,
           Step.REVEAL: _reveal_step, Step.DECIDE: _decide_step}
assert set(_SETTLE) == set(Step)


def _next_turn(lk: Lookups, state: State) -> State:
    """bcp.turn.order: the next player in turn order who is still in the game draws.

    bcp.emergency.turn: they choose between drawing and an emergency deployment; with an empty
    Reserve Hand they draw at once (the step `_choose_step` would settle CHOOSE into next)."""
    order, turn = state.order, state.turn
    if not state.eliminated and turn in order:  # `turns.next_in` with nobody out: the next seat
        nxt: str | None = order[(order.index(turn) + 1) % len(order)]
    else:
        nxt = turns.next_in(order, turn, state.eliminated)
    assert nxt is not None  # the game ends before every side is out
    if not battle_live(lk, state):  # bcp.victory.no-battles
        return on_points(state, "no BATTLECARD is left that could still be fought")
    owed = Owed(CHOOSE if state.reserve[nxt] else DRAW_CONFLICT, nxt)
    return replace(state, turn=nxt, turns=state.turns + 1, steps=(owed,))
