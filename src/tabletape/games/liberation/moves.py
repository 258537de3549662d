"""Liberation's moves as a player makes them (engine.kit.moves): the card of the hand to
play; whose card to turn, then which; a draw names its card. Words from the game's own
sentences (text.py)."""

from __future__ import annotations

from typing import Any

from tabletape.engine.kit.moves import Pick
from tabletape.tape.events import Event

from .events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    PlayedCardTaken,
    PlayedCardTurned,
    TieBreakDrawn,
    TurnOverAccepted,
    TurnOverDeclined,
    TurnOverPrevented,
    TurnPassed,
)

# Set-up (How to Play): the country turned face up for the whole table at the start of a
# round: drawn at random by the server on one tap, or chosen on one seat.
SETUP: frozenset[type] = frozenset({CountryTurned})
WHAT = "What do you do?"


def _whose(player: str, owner: str) -> str:
    return "Your own card" if owner == player else f"{owner}'s card"


def steps(lk: Any, view: Any, event: Event) -> tuple[Pick, ...]:
    """Returns the steps that build `event` on its player's page."""
    match event:
        case CountryTurned(country=c):
            return (Pick(WHAT, "Turn up a country"), Pick("Which country is turned up?", c))
        case ForceCardDealt(card=c):
            return (Pick(WHAT, "Take the card you are dealt"),
                    Pick("Which card were you dealt?", c))
        case ForceCardDrawn(card=c):
            return (Pick(WHAT, "Draw a card"), Pick("Which card did you draw?", c))
        case TieBreakDrawn(card=c):
            return (Pick(WHAT, "Draw to break the tie"), Pick("Which card did you draw?", c))
        case ForceCardPlayed(card=c):
            return (Pick(WHAT, "Play a card face up"), Pick("Which card do you play?", c))
        case TurnPassed():
            return (Pick(WHAT, "Pass"),)
        case PlayedCardTurned(player=p, owner=o, slot=s, face_up=up):
            return (Pick(WHAT, "Turn a card back face up" if up else "Turn a card face down"),
                    Pick("Whose card?", _whose(p, o)), Pick("Which slot?", f"Slot {s}"))
        case TurnOverPrevented(card=c):
            return (Pick(WHAT, "Keep your card face up"), Pick("Discard which card?", c))
        case TurnOverAccepted():
            return (Pick(WHAT, "Let the turn-over stand"),)
        case TurnOverDeclined():
            return (Pick(WHAT, "Turn no more cards over"),)
        case PlayedCardTaken(player=p, owner=o, slot=s):
            return (Pick(WHAT, "Take a played card in trade"), Pick("Whose card?", _whose(p, o)),
                    Pick("Which slot?", f"Slot {s}"))
        case HandsTraded(other=o):
            return (Pick(WHAT, "Trade hands"), Pick("With whom?", o))
    return ()
