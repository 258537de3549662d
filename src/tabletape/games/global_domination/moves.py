"""Global Domination's moves as a player makes them (engine.kit.moves): a card, then its
use; the card to take, then the cards of the hand that pay for it, ticked; an Area by its
Region (the Seas apart) when there are many. Words from the game's own sentences (text.py).
"""

from __future__ import annotations

from typing import Any

from tabletape.engine.kit.moves import Pick
from tabletape.tape.events import Event

from .components import Lookups
from .events import (
    ActionStackChosen,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    ChainAnswered,
    FirstPlayerChosen,
    ForceBuilt,
    ForceReduced,
    ForceRemoved,
    ForceSeized,
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
    Use,
)

# Set-up (Start of the Game): the First Player and the Action stacks, chosen by chance in
# the open: drawn at random by the server on one tap, or chosen on one seat.
SETUP: frozenset[type] = frozenset((FirstPlayerChosen, ActionStackChosen))

USES = {Use.BUILD: "For its Build points", Use.ATTACK: "For its Reductions",
        Use.TEXT: "For its text"}
WHAT = "What do you do?"


def _region(lk: Lookups, area: str) -> str:
    """Returns the section an Area is listed under: its Region, or "Seas"."""
    a = lk.areas.get(area) if lk is not None else None
    if a is None:
        return ""
    return a.region or "Seas"


def steps(lk: Lookups, view: Any, event: Event) -> tuple[Pick, ...]:
    """Returns the steps that build `event` on its player's page."""
    match event:
        case FirstPlayerChosen(player=p):
            return (Pick(WHAT, "Choose the First Player"), Pick("Who plays first?", p))
        case ActionStackChosen(card=c):
            return (Pick(WHAT, "Lay out an Action stack"),
                    Pick("Which Action stack is in use?", c))
        case CardDrawn(card=c):
            return (Pick(WHAT, "Draw a card"), Pick("Which card did you draw?", c))
        case CardPlayed(card=c, use=u):
            return (Pick(WHAT, "Play a card"), Pick("Which card do you play?", c),
                    Pick(f"Play {c} for what?", USES[u]))
        case CardsDiscarded(cards=cs, taken=k):
            return (Pick(WHAT, "Discard to take an Action card"),
                    Pick("Which card do you take?", k),
                    Pick(f"Which cards pay for {k}? (one or two)", " and ".join(cs),
                         ticks=cs))
        case ForceBuilt(area=a):
            return (Pick(WHAT, "Build a Force"), Pick("Build where?", a, _region(lk, a)))
        case ForceReduced(area=a):
            return (Pick(WHAT, "Reduce a Force"), Pick("Reduce the Force where?", a,
                                                       _region(lk, a)))
        case ForceRemoved(area=a):
            return (Pick(WHAT, "Remove a Force"), Pick("Remove the Force where?", a,
                                                       _region(lk, a)))
        case ForceSeized(area=a):
            return (Pick(WHAT, "Take an Area with Insurgents"),
                    Pick("Which Area do the insurgents take?", a, _region(lk, a)))
        case PlayerTargeted(target=q):
            return (Pick(WHAT, "Aim the card at a player"), Pick("At whom?", q))
        case ChainAnswered(joined=j):
            return (Pick(WHAT, "Join the Bio Weapons chain" if j
                         else "Decline the Bio Weapons chain"),)
        case PointsForgone():
            return (Pick(WHAT, "Leave the rest of the points unused"),)
        case TurnEnded():
            return (Pick(WHAT, "End your turn"),)
        case ScoringPassed():
            return (Pick(WHAT, "Play nothing more before scoring"),)
    return ()
