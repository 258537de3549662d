"""Plain sentences for BATTLECARDS events, the rules that govern each kind, and the card values
those rules read, for the provenance of a ruling (each a `match` over the event type)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tabletape.tape.events import Event

from .components import Lookups
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


Consulted = Iterator[tuple[str, Any, tuple[str, ...]]]


def consulted(lk: Lookups, state: Any, event: Event) -> Consulted:
    """Yields the cards the governing rules read for this event, and which of their values:
    a draw reads how many the deck holds; a deployment the unit's type; a shot the firing
    unit's type, attack and phases, its target's type and defence, a kept card's bonus and
    the supporters' support; a turned Conflict card its Action Number against the window
    the shot's units and the shooter's other units (their support) set."""
    def unit(player: str, name: str | None, *fields: str, enemy: bool = False) -> Consulted:
        own = state.sides.get(player)
        for side, units in lk.units.items():
            if (side != own) == enemy and name in units:
                yield str(name), units[name], fields
                return

    def card(name: str | None, *fields: str) -> Consulted:
        if name is not None and name in lk.cards:
            yield name, lk.cards[name], fields
    match event:
        case ArsenalDrawn(player=p, unit=u):
            yield from unit(p, u, "count")
        case UnitDeployed(player=p, unit=u):
            yield from unit(p, u, "type")
        case ConflictDrawn(card=c):
            yield from card(c, "count")
        case UnitFired(player=p, unit=u, target=t):
            yield from unit(p, u, "type", "attack", "phases")
            yield from unit(p, t, "type", "defence", enemy=True)
            yield from card(event.kept, "bonus", "bonus_types")
            for s in event.support:
                yield from unit(p, s, "support", "supports")
        case ConflictTurned(player=p, unit=u, target=t, card=c):
            yield from card(c, "action")
            yield from unit(p, u, "type", "attack")
            yield from unit(p, t, "type", "defence", enemy=True)
            b = state.battle  # the window counts the support of the shooter's other units
            for s in sorted(set(b.forces.get(p, ())) - {u}) if b is not None else ():
                yield from unit(p, s, "support", "supports")
