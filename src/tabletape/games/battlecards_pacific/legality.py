"""BATTLECARDS Pacific legality: who decides next, `check` with rule ids and `legal` (the
firing arithmetic they read is in `fire`).

Read alongside the rulebook's sections: To Set Up the Game, Playing the Game, If a
BATTLECARD Is Drawn, Fighting a Battle, Game Phases, Firing a Unit, Stalemate,
Emergency Deployment. Every function that needs the card set takes the bound
game's `Lookups` (`lk`) first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any, cast

from tabletape.engine import CHANCE, Decision, Violation
from tabletape.engine.kit.turns import Owing, by_event, head, not_in_deck
from tabletape.tape.events import Event
from tabletape.tape.words import a

from . import lookups as q
from .components import Lookups, targetable
from .events import (
    ArsenalDrawn,
    BattleDecided,
    BcpEvent,
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
from .fire import allocations, can_fire, kept_bonus, targets
from .fire import can_hit as can_hit  # the firing arithmetic, read as legality's too
from .fire import supporters as supporters
from .fire import window as window
from .state import WITHDRAWAL, Battle, Owed, State, Step

DRAWS = (Step.DEAL, Step.DRAW_ARSENAL)
DEPLOYS = (Step.FIRST_DEPLOY, Step.DEPLOY)
EMERGENCY = (Step.CHOOSE, Step.HOMELAND)
TWO_WAYS = (*EMERGENCY, Step.DECIDE)  # emergency deploy or not; fight or not
# the steps `check` and `count` name, once (each `Step.X` is an enum lookup)
CHOOSE, DRAW_CONFLICT, DEPLOY, DECIDE = Step.CHOOSE, Step.DRAW_CONFLICT, Step.DEPLOY, Step.DECIDE
TURN_START = (CHOOSE, DRAW_CONFLICT)  # a turn's first decision: emergency deploy, or draw

REVEALED = {"reserve": "Reserve Hand", "kept": "Kept Cards", "stacks": "deployed stacks"}

# Owed steps are only owed outside a battle: a battle begins once the BATTLE step is
# taken off the queue and ends with the queue empty, so `head` is None during one.


# -- who decides next ------------------------------------------------------------------------

def over(state: State) -> bool:
    """Returns whether the game is over (exactly when `pending` is None)."""
    return state.result is not None


def pending(lk: Lookups, state: State) -> Decision | None:
    """Returns who must decide next and what, or None once the game is over."""
    if state.result is not None:
        return None
    b = state.battle
    if b is not None:
        if b.shot is not None:
            return Decision(CHANCE, "turn", f"the Conflict card turned for {b.shot.player}'s "
                            f"{b.shot.unit} firing at {b.shot.target}")
        if b.phase == WITHDRAWAL:
            return Decision(b.side, "withdraw", f"{b.side} may withdraw units from {b.card}")
        return Decision(b.side, "fire", f"{b.side} fires in phase {b.phase} of {b.card}")
    h = head(state)
    assert h is not None  # settle leaves a decision owed while the game goes on
    if h.step in DRAWS:
        return Decision(CHANCE, "draw", f"the Arsenal card {h.player} draws ({h.count} to go)")
    if h.step is Step.DRAW_CONFLICT:
        return Decision(CHANCE, "draw", f"the Conflict card {h.player} draws")
    if h.step in DEPLOYS:
        return Decision(h.player, "deploy", f"{h.player} must {h.step} ({h.count} left)")
    if h.step is Step.REVEAL and h.what is not None:
        return Decision(h.player, "reveal", f"{h.player} must show {state.turn} their "
                        f"{REVEALED[h.what]}")
    return Decision(h.player, h.step.name.lower(), f"{h.player} must {h.step}")


# -- check -----------------------------------------------------------------------------------

def check(lk: Lookups, state: State, event: Event) -> Violation | None:
    """Returns why the event is illegal in this state, or None."""
    judge = CHECK.get(type(event))
    if judge is None:
        return Violation("bcp.turn.step", f"{type(event).__name__} is not a BATTLECARDS event")
    return judge(lk, state, event)


# the step owed now, by whom: "no firing now: ... first" (bcp.turn.step), "bob must ..., not
# alice" (bcp.turn.order)
OWING: Owing[Lookups, State, Owed] = Owing("bcp.turn.step", "bcp.turn.order", pending)


# To Set Up the Game; Playing the Game

def _check_arsenal(lk: Lookups, state: State, ev: ArsenalDrawn) -> Violation | None:
    """bcp.setup.deal, bcp.conflict.draw, bcp.draw.in-deck."""
    if v := OWING.refuse(lk, state, DRAWS, ev.player, "Arsenal draw"):
        return v
    side = state.sides[ev.player]
    if ev.unit not in state.arsenal[side]:
        return not_in_deck("bcp.draw.in-deck", f"{ev.player} cannot draw {ev.unit!r}: it is "
                           f"not in {side}'s Arsenal deck", state.arsenal[side])
    return None


def _check_deploy(lk: Lookups, state: State, ev: UnitDeployed) -> Violation | None:
    """bcp.setup.deploy, bcp.conflict.deploy, bcp.deploy.in-hand, bcp.deploy.stack."""
    if v := OWING.refuse(lk, state, DEPLOYS, ev.player, "deployment"):
        return v
    if ev.unit not in state.reserve[ev.player]:
        return Violation("bcp.deploy.in-hand", f"{ev.player}'s Reserve Hand holds no {ev.unit!r}")
    kind = q.unit(lk, state, ev.player, ev.unit).type
    if ev.stack is not kind:
        return Violation("bcp.deploy.stack", f"{ev.player}'s {ev.unit} is {a(kind)} unit; it "
                         f"cannot go on the {ev.stack} stack")
    return None


def _check_finish_deploy(lk: Lookups, state: State, ev: DeploymentFinished) -> Violation | None:
    """bcp.setup.deploy: exactly three at set-up; bcp.conflict.deploy: up to the card's number."""
    h = head(state)
    if h is not None and h.step is Step.FIRST_DEPLOY:
        return Violation("bcp.setup.deploy", f"{h.player} must still deploy {h.count} more "
                         "at set-up")
    return OWING.refuse(lk, state, (Step.DEPLOY,), ev.player, "end of deployment")


def _check_conflict(lk: Lookups, state: State, ev: ConflictDrawn) -> Violation | None:
    """bcp.turn.order, bcp.emergency.turn, bcp.draw.in-deck."""
    h = head(state)
    if (lk.turn_order_cited and h is not None and h.step in TURN_START
            and ev.player != h.player):  # rules 1.0: bcp.emergency.turn below, or the step's
        # whoever's turn is over (an emergency deployment ends it too) draws no more
        return Violation("bcp.turn.order", f"it is {h.player}'s turn: {ev.player} may not "
                         f"draw a Conflict card now; {h.player} must {h.step}")
    if h is not None and h.step is CHOOSE:
        other = f" ({ev.player} may not draw now)" if ev.player != h.player else ""
        return Violation("bcp.emergency.turn", f"{h.player} holds a Reserve Hand: first record "
                         f"whether they emergency deploy it instead of drawing{other}")
    if v := OWING.refuse(lk, state, TURN_START[1:], ev.player, "Conflict draw"):
        return v
    if ev.card not in q.deck(lk, state):
        return not_in_deck("bcp.draw.in-deck", f"{ev.player} cannot draw {ev.card!r}: it is "
                           "not in the Conflict deck", q.deck(lk, state))
    return None


def shown(lk: Lookups, state: State, player: str, what: str) -> tuple[str, ...]:
    """bcp.conflict.reveal: what `player` shows of theirs: Reserve Hand, Kept Cards or stacks."""
    match what:
        case "reserve":
            return state.reserve[player]
        case "kept":
            return state.kept[player]
    return q.deployed(state, player)


def _check_revealed(lk: Lookups, state: State, ev: CardsRevealed) -> Violation | None:
    """bcp.conflict.reveal, bcp.turn.order."""
    if v := OWING.refuse(lk, state, (Step.REVEAL,), ev.player, "revealing"):
        return v
    h = state.steps[0]
    if h.what is None:  # (every REVEAL step names what it shows)
        return None
    if (ev.to, ev.what) != (state.turn, h.what):
        return Violation("bcp.conflict.reveal", f"the card shows {state.turn} {h.player}'s "
                         f"{REVEALED[h.what]}, not {ev.to} their {REVEALED[ev.what]}")
    cards = shown(lk, state, h.player, h.what)
    if not same(lk.reveal_any_order, ev.cards, cards):
        return Violation("bcp.conflict.reveal", f"{h.player}'s {REVEALED[h.what]} is "
                         f"{', '.join(cards) or 'empty'}; the record must show exactly that")
    return None


# If a BATTLECARD Is Drawn

def _check_decide(lk: Lookups, state: State, ev: BattleDecided) -> Violation | None:
    """bcp.battle.decide, bcp.battle.aggressor-decides."""
    h = head(state)
    if h is None or h.step is not DECIDE:
        return OWING.not_now(lk, state, "battle decision", ev.player)
    if ev.player != h.player:
        return Violation("bcp.battle.aggressor-decides", f"{state.drawn} names "
                         f"{state.sides[h.player]} as aggressor: {h.player} decides, "
                         f"not {ev.player}")
    return None


# Fighting a Battle; Game Phases; Firing a Unit

def _check_fire(lk: Lookups, state: State, ev: UnitFired) -> Violation | None:
    """bcp.battle.rounds, bcp.fire.phase, bcp.fire.each-phase, then the target and kept card."""
    b = state.battle
    if b is None or b.shot is not None or b.phase == WITHDRAWAL:
        return OWING.not_now(lk, state, "firing", ev.player)
    if ev.player != b.side:
        return Violation("bcp.battle.rounds", f"{b.side} fires now in phase {b.phase}, "
                         f"not {ev.player}")
    if ev.unit not in b.to_fire:
        if ev.unit not in b.forces[ev.player]:
            return Violation("bcp.fire.target", f"{ev.player} has no {ev.unit!r} in {b.card}")
        if b.phase not in q.unit(lk, state, ev.player, ev.unit).phases:
            return Violation("bcp.fire.phase", f"{ev.player}'s {ev.unit} does not list phase "
                             f"{b.phase}")
        if not can_fire(lk, state, b, ev.player, ev.unit):  # passed over: nothing to attack
            return _check_target(lk, state, ev) or Violation(
                "bcp.fire.target", f"{ev.player}'s {ev.unit} may attack no enemy unit in "
                f"{b.card}")
        return Violation("bcp.fire.each-phase", f"every {ev.unit} of {ev.player} has already "
                         f"fired in phase {b.phase}")
    v = _check_target(lk, state, ev)  # then the Kept Card and the supporters, when named
    if v is None and ev.kept is not None:
        v = _check_kept(lk, state, ev)
    if v is None and ev.support:
        v = _check_support(lk, state, ev)
    return v


def _check_target(lk: Lookups, state: State, ev: UnitFired) -> Violation | None:
    """bcp.fire.target, bcp.fire.equal."""
    b = state.battle
    assert b is not None
    enemy = q.opponent(b, ev.player)
    if ev.target not in b.forces[enemy]:
        return Violation("bcp.fire.target", f"{ev.player} cannot fire at {ev.target!r}: "
                         f"{enemy} has none in {b.card}")
    me, them = q.unit(lk, state, ev.player, ev.unit), q.unit(lk, state, enemy, ev.target)
    if not targetable(me, them):
        attack = me.attack.of(them.type)
        return Violation("bcp.fire.target", f"{ev.player}'s {ev.unit}'s attack against "
                         f"{them.type} is "
                         f"{'N/A' if attack is None else attack}, below {ev.target}'s "
                         f"defence of {them.defence.of(me.type) or 0}")
    return None


def _check_kept(lk: Lookups, state: State, ev: UnitFired) -> Violation | None:
    """bcp.fire.kept."""
    if ev.kept is None:
        return None
    if ev.kept not in state.kept[ev.player]:
        return Violation("bcp.fire.kept", f"{ev.player} keeps no {ev.kept!r}")
    if kept_bonus(lk, ev.kept, q.unit(lk, state, ev.player, ev.unit)) is None:
        return Violation("bcp.fire.kept", f"{ev.kept} gives no bonus to {ev.player}'s "
                         f"{ev.unit}")
    return None


def _check_support(lk: Lookups, state: State, ev: UnitFired) -> Violation | None:
    """bcp.fire.support, bcp.fire.support-allocated."""
    if not ev.support:
        return None
    if state.options.support == "every-shot":
        return Violation("bcp.fire.support", f"{ev.player} names supporters, but support adds "
                         "to every shot at this table (option support=every-shot): no "
                         "supporters are named")
    b = state.battle
    assert b is not None
    support = tuple(sorted(ev.support))
    if support != ev.support and not lk.support_any_order:  # rules 1.1: alphabetical
        return Violation("bcp.fire.support-allocated", f"{ev.player} names the supporters in "
                         "sorted order")
    if support not in set(allocations(lk, state, b, ev.player, ev.unit)):
        return Violation("bcp.fire.support-allocated", f"{', '.join(ev.support)} cannot all "
                         f"back {ev.unit}: a supporter must be another of {ev.player}'s units "
                         f"in the battle, support {ev.unit}'s type, and not yet back another "
                         f"shot in this volley (already allocated: "
                         f"{', '.join(b.backed) or 'none'})")
    return None


def _check_turned(lk: Lookups, state: State, ev: ConflictTurned) -> Violation | None:
    """bcp.fire.hit (the window includes bcp.fire.support), bcp.draw.in-deck."""
    b = state.battle
    if b is None or b.shot is None:
        return OWING.not_now(lk, state, "Conflict card for a shot", ev.player)
    s = b.shot
    if (ev.player, ev.unit, ev.target) != (s.player, s.unit, s.target):
        return Violation("bcp.turn.step", f"the shot owed is {s.player}'s {s.unit} at "
                         f"{s.target}, not {ev.player}'s {ev.unit} at {ev.target}")
    if ev.card not in q.deck(lk, state):
        return Violation("bcp.draw.in-deck", f"the card turned for {ev.player}'s shot, "
                         f"{ev.card!r}, is not in the Conflict deck")
    action = q.card(lk, ev.card).action
    if ev.action != action:
        return Violation("bcp.fire.hit", f"{ev.card}, turned for {ev.player}'s shot, carries "
                         f"Action Number {action}, not {ev.action}")
    if (ev.above, ev.upto) != (s.above, s.upto):
        return Violation("bcp.fire.hit", f"{ev.player}'s shot needs more than {s.above} and "
                         f"at most {s.upto}, not {ev.above}-{ev.upto}")
    hit = s.above < action <= s.upto
    if ev.hit != hit:
        return Violation("bcp.fire.hit", f"Action Number {action} against the window "
                         f"{s.above + 1}-{s.upto} of {ev.player}'s shot is a "
                         f"{'hit' if hit else 'miss'}")
    return None


def _check_withdraw(lk: Lookups, state: State, ev: UnitWithdrawn | WithdrawalFinished
                    ) -> Violation | None:
    """bcp.withdraw.phase."""
    b = state.battle
    if b is None or b.shot is not None or b.phase != WITHDRAWAL:
        return OWING.not_now(lk, state, "withdrawal", ev.player)
    if ev.player != b.side:
        return Violation("bcp.withdraw.phase", f"{b.side} may withdraw now, not {ev.player}")
    if isinstance(ev, UnitWithdrawn) and ev.unit not in b.forces[ev.player]:
        return Violation("bcp.withdraw.phase", f"{ev.player} has no {ev.unit!r} in {b.card}")
    return None


def same(any_order: bool, listed: tuple[str, ...], held: tuple[str, ...]) -> bool:
    """Returns whether a record lists exactly the cards held: in any order (rules 1.2: the
    rulebook gives a hand or a set of cards no order), else in the table's own order."""
    return sorted(listed) == sorted(held) if any_order else listed == held


# Emergency Deployment

def _check_emergency(lk: Lookups, state: State, ev: EmergencyDeployed | EmergencyDeclined
                     ) -> Violation | None:
    """bcp.emergency.turn, bcp.emergency.homeland, bcp.emergency.all, bcp.turn.order."""
    h = head(state)
    if h is None or h.step not in EMERGENCY:
        d = pending(lk, state)
        return Violation("bcp.emergency.turn", f"{ev.player} cannot answer an emergency "
                         "deployment now: it is only possible at the start of one's turn or "
                         "when one's homeland is invaded; now " + (d.detail if d else "nothing"))
    if ev.player != h.player:
        return Violation("bcp.turn.order", f"{h.player} must {h.step} now, not {ev.player}")
    if isinstance(ev, EmergencyDeployed) and not same(lk.emergency_any_order, ev.units,
                                                      state.reserve[ev.player]):
        return Violation("bcp.emergency.all", f"{ev.player}'s emergency deployment puts the "
                         f"whole Reserve Hand down: {', '.join(state.reserve[ev.player])}")
    return None


CHECK = by_event(_check_arsenal, _check_deploy, _check_finish_deploy, _check_emergency,
                 _check_conflict, _check_revealed, _check_decide, _check_fire, _check_turned,
                 _check_withdraw)


# -- legal -----------------------------------------------------------------------------------

def legal(lk: Lookups, state: State) -> Iterator[BcpEvent]:
    """Yields every legal next event; chance outcomes once per kind of card left."""
    if state.result is not None:
        return
    b = state.battle
    if b is not None:
        yield from _legal_battle(lk, state, b)
        return
    h = head(state)
    assert h is not None
    p = h.player
    match h.step:
        case Step.DEAL | Step.DRAW_ARSENAL:
            for u in state.arsenal[state.sides[p]]:
                yield ArsenalDrawn(player=p, unit=u)
        case Step.FIRST_DEPLOY | Step.DEPLOY:
            for u in dict.fromkeys(state.reserve[p]):
                yield UnitDeployed(player=p, unit=u, stack=q.unit(lk, state, p, u).type)
            if h.step is Step.DEPLOY:
                yield DeploymentFinished(player=p)
        case Step.CHOOSE | Step.HOMELAND:
            yield EmergencyDeployed(player=p, units=state.reserve[p])
            yield EmergencyDeclined(player=p)
        case Step.DRAW_CONFLICT:
            for c in q.deck(lk, state):
                yield ConflictDrawn(player=p, card=c)
        case Step.DECIDE:
            yield BattleDecided(player=p, fight=True)
            yield BattleDecided(player=p, fight=False)
        case Step.REVEAL:
            assert state.turn is not None and h.what is not None
            yield CardsRevealed(player=p, to=state.turn, what=h.what,
                                cards=shown(lk, state, p, h.what))


def implied(lk: Lookups, state: State, body: dict[str, Any]) -> dict[str, Any]:
    """Returns what the table decides of an event being entered (the recorder fills it in):
    a shot's Conflict card gets the shot owed, the card's Action Number, the window and
    whether it hits (bcp.fire.hit); a deployed unit its own stack (bcp.deploy.stack); a
    reveal whom it is shown to and what (bcp.conflict.reveal). `check` still judges them."""
    kind, player = body.get("type"), body.get("player")
    b, h = state.battle, head(state)
    if kind == "conflict_turned" and b is not None and b.shot is not None:
        s = b.shot
        out: dict[str, Any] = {"player": s.player, "unit": s.unit, "target": s.target,
                               "above": s.above, "upto": s.upto}
        card = lk.cards.get(str(body.get("card")))
        if card is not None:
            out["action"] = card.action
            action = body.get("action", card.action)
            if isinstance(action, int):
                out["hit"] = s.above < action <= s.upto
        return out
    if kind == "unit_deployed" and isinstance(player, str) and player in state.sides:
        unit = lk.units[state.sides[player]].get(str(body.get("unit")))
        return {} if unit is None else {"stack": unit.type.value}
    if kind == "cards_revealed" and h is not None and h.step is Step.REVEAL and \
            h.what is not None and state.turn is not None:
        return {"player": h.player, "to": state.turn, "what": h.what,
                "cards": list(shown(lk, state, h.player, h.what))}
    return {}


def _legal_battle(lk: Lookups, state: State, b: Battle) -> Iterator[BcpEvent]:
    if b.shot is not None:
        s, cards = b.shot, lk.cards
        yield from [ConflictTurned(player=s.player, unit=s.unit, target=s.target, card=c,
                                   action=(a := cards[c].action), above=s.above, upto=s.upto,
                                   hit=s.above < a <= s.upto) for c in q.deck(lk, state)]
    elif b.phase == WITHDRAWAL:
        for u in dict.fromkeys(b.forces[b.side]):
            yield UnitWithdrawn(player=b.side, unit=u)
        yield WithdrawalFinished(player=b.side)
    else:
        p = b.side
        for u in dict.fromkeys(b.to_fire):
            me = q.unit(lk, state, p, u)
            kept = [k for k in dict.fromkeys(state.kept[p]) if kept_bonus(lk, k, me) is not None]
            backing = [()] if state.options.support == "every-shot" else list(
                allocations(lk, state, b, p, u))
            for target in targets(lk, state, b, p, u):
                for k in (None, *kept):
                    for sup in backing:
                        yield UnitFired(player=p, unit=u, target=target, kept=k, support=sup)


# -- count -----------------------------------------------------------------------------------
# `len(list(legal(lk, state)))` without building the events (corpus check asks it after every
# event): each branch of `legal` counted, a product where it nests loops
# (tests/games/battlecards_pacific/test_fast_paths.py pins it to `legal` on every state).

def count(lk: Lookups, state: State) -> int:
    """Returns the number of events `legal` yields."""
    if state.result is not None:
        return 0
    b = state.battle
    if b is not None:
        if b.shot is not None:
            return len(q.deck(lk, state))  # a ConflictTurned per kind of card left
        if b.phase == WITHDRAWAL:
            return len(set(b.forces[b.side])) + 1  # each unit's withdrawal, or none more
        return _count_fire(lk, state, b)
    h = state.steps[0]
    step = h.step  # (tested against tuples of steps: `Step.X` costs an enum lookup each)
    if step in DRAWS:
        return len(state.arsenal[state.sides[h.player]])
    if step in DEPLOYS:  # each unit of the Reserve Hand, or (a Conflict card's) no more
        return len(set(state.reserve[h.player])) + (step is DEPLOY)
    if step in TWO_WAYS:  # deployed or declined; fight or not
        return 2
    if step is DRAW_CONFLICT:
        return len(q.deck(lk, state))
    return 1  # REVEAL: the cards it shows


def _count_fire(lk: Lookups, state: State, b: Battle) -> int:
    """`_legal_battle`'s shots counted: for each unit of the volley, its targets (the distinct
    enemy units in the battle it may fire at: `targets`, read from `lk.reach` as `fire.ready`
    does) times its Kept Cards' choices (none, or one that gives it a bonus) times its choices
    of supporters (every-shot: none named; allocated: each distinct sub-multiset of the free
    supporters, the product of each name's copies plus one)."""
    p = b.side
    side = state.sides[p]
    enemy = b.defender if p == b.aggressor else b.aggressor  # q.opponent
    table, units, enemy_side = lk.reach[side], lk.units[side], state.sides[enemy]
    theirs = set(b.forces[enemy])
    kept = state.kept[p]
    if kept:
        kept = tuple(dict.fromkeys(kept))
    choices: dict[object, int] = {}  # unit type -> 1 + its Kept Cards with a bonus
    every = state.options.support == "every-shot"
    total = 0
    for u in dict.fromkeys(b.to_fire):
        n = len(table[u][enemy_side] & theirs)
        if not n:
            continue
        if kept:
            me = units[u]
            k = choices.get(me.type)
            if k is None:  # (a Kept Card's bonus depends on the unit's type alone)
                k = choices[me.type] = 1 + sum(1 for c in kept
                                               if kept_bonus(lk, c, me) is not None)
            n *= k
        if not every:
            free = list(supporters(lk, state, b, p, u))
            for s in b.backed:
                if s in free:
                    free.remove(s)
            for copies in Counter(free).values():
                n *= copies + 1
        total += n
    return total


def weight(lk: Lookups, state: State, event: Event) -> int:
    """Returns how many copies of the drawn card the deck holds (chance's odds)."""
    match event:
        case ArsenalDrawn(player=p, unit=u):
            return state.arsenal[state.sides[p]].get(u, 0)
        case ConflictDrawn(card=c) | ConflictTurned(card=c):
            return q.deck(lk, state).get(c, 0)
    return 1


def weights(lk: Lookups, state: State, events: list[BcpEvent]) -> list[int]:
    """Returns each event's `weight`, with the Conflict deck looked up once."""
    deck, arsenal, sides = q.deck(lk, state), state.arsenal, state.sides
    if {type(e) for e in events} <= {ConflictTurned, ConflictDrawn}:  # the usual draws
        return [deck.get(e.card, 0) for e in cast(list[ConflictTurned | ConflictDrawn], events)]
    return [deck.get(e.card, 0) if isinstance(e, (ConflictTurned, ConflictDrawn))
            else arsenal[sides[e.player]].get(e.unit, 0) if isinstance(e, ArsenalDrawn)
            else 1 for e in events]
