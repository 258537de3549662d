"""BATTLECARDS Pacific legality: who decides next, `check` with rule ids, and `legal`.

Read alongside the rulebook's sections: To Set Up the Game, Playing the Game, If a
BATTLECARD Is Drawn, Fighting a Battle, Game Phases, Firing a Unit, Stalemate,
Emergency Deployment.
"""

from __future__ import annotations

from collections.abc import Iterator

from tabletape.engine import CHANCE, Decision, Violation
from tabletape.tape.events import Event

from . import battle as fight
from . import table as t
from .events import (
    ArsenalDrawn,
    BattleDecided,
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
from .state import WITHDRAWAL, Owed, State, Step

DRAWS = (Step.DEAL, Step.DRAW_ARSENAL)
DEPLOYS = (Step.FIRST_DEPLOY, Step.DEPLOY)
EMERGENCY = (Step.CHOOSE, Step.HOMELAND)


def head(state: State) -> Owed | None:
    return state.steps[0] if state.steps and state.battle is None else None


def over(state: State) -> bool:
    """Returns whether the game is over (exactly when `pending` is None)."""
    return state.result is not None


def pending(state: State) -> Decision | None:
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
    return Decision(h.player, h.step.name.lower(), f"{h.player} must {h.step}")


# -- check ---------------------------------------------------------------------------------

def check(state: State, event: Event) -> Violation | None:
    """Returns why the event is illegal in this state, or None."""
    match event:
        case ArsenalDrawn():
            return _check_arsenal(state, event)
        case UnitDeployed():
            return _check_deploy(state, event)
        case DeploymentFinished():
            return _check_finish_deploy(state, event)
        case EmergencyDeployed() | EmergencyDeclined():
            return _check_emergency(state, event)
        case ConflictDrawn():
            return _check_conflict(state, event)
        case BattleDecided():
            return _check_decide(state, event)
        case UnitFired():
            return _check_fire(state, event)
        case ConflictTurned():
            return _check_turned(state, event)
        case UnitWithdrawn() | WithdrawalFinished():
            return _check_withdraw(state, event)
    return Violation("bcp.turn.step", f"{type(event).__name__} is not a BATTLECARDS event")


def _not_now(state: State, what: str) -> Violation:
    """Returns the refusal of an event that does not answer the pending decision."""
    d = pending(state)
    assert d is not None  # the engine refuses every event once the game is over
    return Violation("bcp.turn.step", f"no {what} now: {d.detail} first")


def _owed(state: State, steps: tuple[Step, ...], player: str, what: str
          ) -> tuple[Owed | None, Violation | None]:
    """Returns the owed step an event answers, or why it answers none."""
    h = head(state)
    if h is None or h.step not in steps:
        return None, _not_now(state, what)
    if player != h.player:
        return None, Violation("bcp.turn.order", f"{h.player} must {h.step} now, not {player}")
    return h, None


def _check_arsenal(state: State, ev: ArsenalDrawn) -> Violation | None:
    _, v = _owed(state, DRAWS, ev.player, "Arsenal draw")
    if v:
        return v
    side = state.sides[ev.player]
    if ev.unit not in state.arsenal[side]:
        return Violation("bcp.draw.in-deck", f"{ev.unit!r} is not in {side}'s Arsenal deck "
                         f"({sum(state.arsenal[side].values())} cards left)")
    return None


def _check_deploy(state: State, ev: UnitDeployed) -> Violation | None:
    _, v = _owed(state, DEPLOYS, ev.player, "deployment")
    if v:
        return v
    if ev.unit not in state.reserve[ev.player]:
        return Violation("bcp.deploy.in-hand", f"{ev.player}'s Reserve Hand holds no {ev.unit!r}")
    kind = t.unit(state, ev.player, ev.unit).type
    if ev.stack is not kind:
        return Violation("bcp.deploy.stack", f"{ev.unit} is a {kind} unit; it cannot go on "
                         f"the {ev.stack} stack")
    return None


def _check_finish_deploy(state: State, ev: DeploymentFinished) -> Violation | None:
    h = head(state)
    if h is not None and h.step is Step.FIRST_DEPLOY:
        return Violation("bcp.setup.deploy", f"{h.player} must still deploy {h.count} more "
                         "at set-up")
    _, v = _owed(state, (Step.DEPLOY,), ev.player, "end of deployment")
    return v


def _check_emergency(state: State, ev: EmergencyDeployed | EmergencyDeclined) -> Violation | None:
    h = head(state)
    if h is None or h.step not in EMERGENCY:
        return Violation("bcp.emergency.turn", "an emergency deployment is only possible at "
                         "the start of one's turn or when one's homeland is invaded; now "
                         + (pending(state).detail if pending(state) else "nothing"))
    if ev.player != h.player:
        return Violation("bcp.turn.order", f"{h.player} must {h.step} now, not {ev.player}")
    if isinstance(ev, EmergencyDeployed) and ev.units != state.reserve[ev.player]:
        return Violation("bcp.emergency.all", f"an emergency deployment puts the whole Reserve "
                         f"Hand down: {', '.join(state.reserve[ev.player])}")
    return None


def _check_conflict(state: State, ev: ConflictDrawn) -> Violation | None:
    h = head(state)
    if h is not None and h.step is Step.CHOOSE:
        return Violation("bcp.emergency.turn", f"{h.player} holds a Reserve Hand: first record "
                         "whether they emergency deploy it instead of drawing")
    _, v = _owed(state, (Step.DRAW_CONFLICT,), ev.player, "Conflict draw")
    if v:
        return v
    if ev.card not in t.deck(state):
        return Violation("bcp.draw.in-deck", f"{ev.card!r} is not in the Conflict deck "
                         f"({sum(t.deck(state).values())} cards left)")
    return None


def _check_decide(state: State, ev: BattleDecided) -> Violation | None:
    h = head(state)
    if h is None or h.step is not Step.DECIDE:
        return _not_now(state, "battle decision")
    if ev.player != h.player:
        return Violation("bcp.battle.aggressor-decides", f"{state.drawn} names "
                         f"{state.sides[h.player]} as aggressor: {h.player} decides, "
                         f"not {ev.player}")
    return None


def _check_fire(state: State, ev: UnitFired) -> Violation | None:
    b = state.battle
    if b is None or b.shot is not None or b.phase == WITHDRAWAL:
        return _not_now(state, "firing")
    if ev.player != b.side:
        return Violation("bcp.battle.rounds", f"{b.side} fires now in phase {b.phase}, "
                         f"not {ev.player}")
    if ev.unit not in b.to_fire:
        if ev.unit not in b.forces[ev.player]:
            return Violation("bcp.fire.target", f"{ev.player} has no {ev.unit!r} in {b.card}")
        if b.phase not in t.unit(state, ev.player, ev.unit).phases:
            return Violation("bcp.fire.phase", f"{ev.unit} does not list phase {b.phase}")
        if not fight.can_fire(state, b, ev.player, ev.unit):  # passed over: nothing to attack
            return _check_target(state, ev) or Violation(
                "bcp.fire.target", f"{ev.unit} may attack no enemy unit in {b.card}")
        return Violation("bcp.fire.each-phase", f"every {ev.unit} of {ev.player} has already "
                         f"fired in phase {b.phase}")
    return _check_target(state, ev) or _check_kept(state, ev)


def _check_target(state: State, ev: UnitFired) -> Violation | None:
    b = state.battle
    assert b is not None
    enemy = fight.opponent(b, ev.player)
    if ev.target not in b.forces[enemy]:
        return Violation("bcp.fire.target", f"{enemy} has no {ev.target!r} in {b.card}")
    me, them = t.unit(state, ev.player, ev.unit), t.unit(state, enemy, ev.target)
    if not fight.targetable(me, them):
        attack = me.attack.of(them.type)
        return Violation("bcp.fire.target", f"{ev.unit}'s attack against {them.type} is "
                         f"{'N/A' if attack is None else attack}, below {ev.target}'s "
                         f"defence of {them.defence.of(me.type) or 0}")
    return None


def _check_kept(state: State, ev: UnitFired) -> Violation | None:
    if ev.kept is None:
        return None
    if ev.kept not in state.kept[ev.player]:
        return Violation("bcp.fire.kept", f"{ev.player} keeps no {ev.kept!r}")
    if fight.kept_bonus(state, ev.kept, t.unit(state, ev.player, ev.unit)) is None:
        return Violation("bcp.fire.kept", f"{ev.kept} gives no bonus to {ev.unit}")
    return None


def _check_turned(state: State, ev: ConflictTurned) -> Violation | None:
    b = state.battle
    if b is None or b.shot is None:
        return _not_now(state, "Conflict card for a shot")
    s = b.shot
    if (ev.player, ev.unit, ev.target) != (s.player, s.unit, s.target):
        return Violation("bcp.turn.step", f"the shot owed is {s.player}'s {s.unit} at {s.target}")
    if ev.card not in t.deck(state):
        return Violation("bcp.draw.in-deck", f"{ev.card!r} is not in the Conflict deck")
    action = t.card(state, ev.card).action
    if ev.action != action:
        return Violation("bcp.fire.hit", f"{ev.card} carries Action Number {action}, "
                         f"not {ev.action}")
    if (ev.above, ev.upto) != (s.above, s.upto):
        return Violation("bcp.fire.hit", f"this shot needs more than {s.above} and at most "
                         f"{s.upto}, not {ev.above}-{ev.upto}")
    hit = s.above < action <= s.upto
    if ev.hit != hit:
        return Violation("bcp.fire.hit", f"Action Number {action} against the window "
                         f"{s.above + 1}-{s.upto} is a {'hit' if hit else 'miss'}")
    return None


def _check_withdraw(state: State, ev: UnitWithdrawn | WithdrawalFinished) -> Violation | None:
    b = state.battle
    if b is None or b.shot is not None or b.phase != WITHDRAWAL:
        return _not_now(state, "withdrawal")
    if ev.player != b.side:
        return Violation("bcp.withdraw.phase", f"{b.side} may withdraw now, not {ev.player}")
    if isinstance(ev, UnitWithdrawn) and ev.unit not in b.forces[ev.player]:
        return Violation("bcp.withdraw.phase", f"{ev.player} has no {ev.unit!r} in {b.card}")
    return None


# -- legal ---------------------------------------------------------------------------------

def legal(state: State) -> Iterator[Event]:
    """Yields every legal next event; chance outcomes once per kind of card left."""
    if pending(state) is None:
        return
    b = state.battle
    if b is not None:
        yield from _legal_battle(state)
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
                yield UnitDeployed(player=p, unit=u, stack=t.unit(state, p, u).type)
            if h.step is Step.DEPLOY:
                yield DeploymentFinished(player=p)
        case Step.CHOOSE | Step.HOMELAND:
            yield EmergencyDeployed(player=p, units=state.reserve[p])
            yield EmergencyDeclined(player=p)
        case Step.DRAW_CONFLICT:
            for c in t.deck(state):
                yield ConflictDrawn(player=p, card=c)
        case Step.DECIDE:
            yield BattleDecided(player=p, fight=True)
            yield BattleDecided(player=p, fight=False)


def _legal_battle(state: State) -> Iterator[Event]:
    b = state.battle
    assert b is not None
    if b.shot is not None:
        s = b.shot
        for c in t.deck(state):
            a = t.card(state, c).action
            yield ConflictTurned(player=s.player, unit=s.unit, target=s.target, card=c, action=a,
                                 above=s.above, upto=s.upto, hit=s.above < a <= s.upto)
    elif b.phase == WITHDRAWAL:
        for u in dict.fromkeys(b.forces[b.side]):
            yield UnitWithdrawn(player=b.side, unit=u)
        yield WithdrawalFinished(player=b.side)
    else:
        p = b.side
        for u in dict.fromkeys(b.to_fire):
            me = t.unit(state, p, u)
            kept = [k for k in dict.fromkeys(state.kept[p])
                    if fight.kept_bonus(state, k, me) is not None]
            for target in fight.targets(state, b, p, u):
                for k in (None, *kept):
                    yield UnitFired(player=p, unit=u, target=target, kept=k)


def weight(state: State, event: Event) -> int:
    """Returns how many copies of the drawn card the deck holds (chance's odds)."""
    match event:
        case ArsenalDrawn(player=p, unit=u):
            return state.arsenal[state.sides[p]].get(u, 0)
        case ConflictDrawn(card=c) | ConflictTurned(card=c):
            return t.deck(state).get(c, 0)
    return 1
