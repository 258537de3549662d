"""Plain sentences for BATTLECARDS events, and the rules that govern each kind (both a `match`
over the event type)."""

from __future__ import annotations

from tabletape.tape.events import Event

from .events import (
    ArsenalDrawn,
    BattleDecided,
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


def describe(event: Event) -> str:
    """Returns one plain sentence for a game event."""
    match event:
        case ArsenalDrawn(player=p, unit=u):
            return f"{p} draws {u} from the Arsenal deck into the Reserve Hand"
        case UnitDeployed(player=p, unit=u, stack=s):
            return f"{p} deploys {u} face down on the {s} stack"
        case DeploymentFinished(player=p):
            return f"{p} deploys nothing more"
        case EmergencyDeployed(player=p, units=us):
            return f"{p} emergency deploys the whole Reserve Hand: {', '.join(us)}"
        case EmergencyDeclined(player=p):
            return f"{p} keeps the Reserve Hand rather than emergency deploy"
        case ConflictDrawn(player=p, card=c):
            return f"{p} draws the Conflict card {c}"
        case BattleDecided(player=p, fight=yes):
            return f"{p} {'fights' if yes else 'declines'} the battle"
        case UnitFired(player=p, unit=u, target=tg, kept=k, support=sup):
            return (f"{p}'s {u} takes aim at {tg}" + (f", playing the Kept Card {k}" if k else "")
                    + (f", backed by {', '.join(sup)}" if sup else ""))
        case CardsRevealed(player=p, to=to, what=w, cards=cs):
            shown = {"reserve": "Reserve Hand", "kept": "Kept Cards", "stacks": "deployed stacks"}
            return f"{p} shows {to} their {shown[w]}: {', '.join(cs) or 'nothing'}"
        case ConflictTurned(player=p, unit=u, target=tg, card=c, action=a, above=lo, upto=hi):
            needs = f"needs {lo + 1}-{hi}" if hi > lo else f"cannot hit (defence {lo}, attack {hi})"
            result = "destroyed" if event.hit else "no effect"
            return f"{p}'s {u} fires at {tg}: {needs}, turned {a} ({c}): {result}"
        case UnitWithdrawn(player=p, unit=u):
            return f"{p} withdraws {u} from the battle"
        case WithdrawalFinished(player=p):
            return f"{p} withdraws nothing more this round"
    return type(event).__name__


def governing(event: Event) -> tuple[str, ...]:
    """Returns the ids of the rules that decide whether this kind of event is legal."""
    match event:
        case ArsenalDrawn():
            return ("bcp.setup.deal", "bcp.conflict.draw", "bcp.draw.in-deck", "bcp.turn.step")
        case UnitDeployed():
            return ("bcp.setup.deploy", "bcp.conflict.deploy", "bcp.deploy.in-hand",
                    "bcp.deploy.stack", "bcp.turn.order")
        case DeploymentFinished():
            return ("bcp.conflict.deploy", "bcp.setup.deploy")
        case EmergencyDeployed() | EmergencyDeclined():
            return ("bcp.emergency.turn", "bcp.emergency.homeland", "bcp.emergency.all",
                    "bcp.turn.order")
        case ConflictDrawn():
            return ("bcp.turn.order", "bcp.emergency.turn", "bcp.draw.in-deck")
        case CardsRevealed():
            return ("bcp.conflict.reveal", "bcp.turn.order")
        case BattleDecided():
            return ("bcp.battle.decide", "bcp.battle.aggressor-decides",
                    "bcp.battle.prerequisites")
        case UnitFired():
            return ("bcp.battle.rounds", "bcp.fire.phase", "bcp.fire.each-phase",
                    "bcp.fire.target", "bcp.fire.equal", "bcp.fire.kept", "bcp.fire.support",
                    "bcp.fire.support-allocated")
        case ConflictTurned():
            return ("bcp.fire.hit", "bcp.fire.support", "bcp.fire.support-allocated",
                    "bcp.draw.in-deck")
        case UnitWithdrawn() | WithdrawalFinished():
            return ("bcp.withdraw.phase",)
    return ()
