"""Cards of War's moves as a player makes them (engine.kit.moves): a card of the hand, then
its battle, then what it does there; a draw names the card, its theatre first when the
deck holds many. Words from the game's own sentences (text.py)."""

from __future__ import annotations

from typing import Any

from tabletape.engine.kit.moves import Pick
from tabletape.tape.events import Event

from .components import Lookups
from .events import CardDeployed, CardDiscarded, CardDrawn, HandReported, OpeningCardDrawn

# Set-up (Setup): the card each player turns up to decide who starts, in the open and put
# back: drawn at random by the server on one tap, or each named by its player.
SETUP: frozenset[type] = frozenset({OpeningCardDrawn})


def _theatre(lk: Lookups, card: str) -> str:
    c = lk.cards.get(card) if lk is not None else None
    return str(c.theatre) if c is not None else ""


def steps(lk: Lookups, view: Any, event: Event) -> tuple[Pick, ...]:
    """Returns the steps that build `event` on its player's page."""
    match event:
        case OpeningCardDrawn(card=c):
            return (Pick("What do you do?", "Turn up a card to decide who starts"),
                    Pick("Which card was turned up?", c, _theatre(lk, c)))
        case CardDrawn(card=c):
            return (Pick("What do you do?", "Draw a card"),
                    Pick("Which card did you draw?", c, _theatre(lk, c)))
        case HandReported():
            return (Pick("What do you do?", f"Report your hand: {event.air} Air, {event.sea} "
                         f"Sea, {event.ground} Ground, {event.intel} Intel"),)
        case CardDiscarded(card=c):
            return (Pick("What do you do?", "Discard a card (strategic exhaustion)"),
                    Pick("Which card of your hand do you discard?", c, _theatre(lk, c)))
        case CardDeployed(card=c, battle=b):
            source = " from the discard pile" if event.from_discard else ""
            return (Pick("What do you do?", "Deploy a card"),
                    Pick("Which card do you deploy?", c + source, _theatre(lk, c)),
                    Pick(f"Deploy {c} to which battle?", f"Deploy {c} to battle {b}"),
                    Pick(f"{c} in battle {b}: how?", _how(event)))
    return ()


def _how(event: CardDeployed) -> str:
    """Returns what a deployment does besides landing, in the words of its sentence."""
    said = []
    if event.theatre:
        said.append(f"name it the {event.theatre} theatre")
    if event.kill:
        said.append(f"kill the opponent's {event.target or 'top card'}")
    elif event.target is None and not event.joint and not event.theatre:
        said.append("no kill")
    if event.joint:
        said.append("its pair partner to follow")
    text = ", ".join(said) or "just deploy"
    return text[0].upper() + text[1:]
