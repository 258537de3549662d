"""Battlecards Pacific's moves as a player makes them (engine.kit.moves): the firing unit,
then its target, then the Kept Card or support it plays; a unit to deploy, then its stack;
a card drawn names its card. Words from the game's own sentences (text.py)."""

from __future__ import annotations

from typing import Any

from tabletape.engine.kit.moves import Pick
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

# Set-up (To Set Up the Game): every draw lands in a player's own hidden Reserve Hand, so
# nothing sets the table up in the open: each player names their own cards.
SETUP: frozenset[type] = frozenset()
WHAT = "What do you do?"


def steps(lk: Any, view: Any, event: Event) -> tuple[Pick, ...]:
    """Returns the steps that build `event` on its player's page."""
    match event:
        case ArsenalDrawn(unit=u):
            return (Pick(WHAT, "Draw from the Arsenal deck"), Pick("Which unit did you draw?", u))
        case UnitDeployed(unit=u, stack=s):
            return (Pick(WHAT, "Deploy a unit face down"), Pick("Which unit?", u),
                    Pick(f"{u} on which stack?", f"The {s} stack"))
        case DeploymentFinished():
            return (Pick(WHAT, "Deploy nothing more"),)
        case EmergencyDeployed(units=us):
            return (Pick(WHAT, f"Emergency deploy the whole Reserve Hand ({len(us)} units)"),)
        case EmergencyDeclined():
            return (Pick(WHAT, "Keep the Reserve Hand"),)
        case ConflictDrawn(card=c):
            return (Pick(WHAT, "Draw a Conflict card"), Pick("Which Conflict card?", c))
        case BattleDecided(fight=yes):
            return (Pick(WHAT, "Fight the battle" if yes else "Decline the battle"),)
        case UnitFired(unit=u, target=t, kept=k, support=sup):
            extra = ([f"play the Kept Card {k}"] if k else []) + (
                [f"backed by {', '.join(sup)}"] if sup else [])
            how = ", ".join(extra) or "nothing more"
            return (Pick(WHAT, "Fire a unit"), Pick("Which unit fires?", u),
                    Pick(f"{u} fires at which unit?", t),
                    Pick(f"{u} at {t}: with what?", how[0].upper() + how[1:]))
        case ConflictTurned(card=c):
            return (Pick(WHAT, "Turn a Conflict card for the shot"),
                    Pick("Which Conflict card was turned?", c))
        case CardsRevealed(to=to):
            return (Pick(WHAT, f"Show {to} your cards"),)
        case UnitWithdrawn(unit=u):
            return (Pick(WHAT, "Withdraw a unit"), Pick("Which unit?", u))
        case WithdrawalFinished():
            return (Pick(WHAT, "Withdraw nothing more this round"),)
    return ()
