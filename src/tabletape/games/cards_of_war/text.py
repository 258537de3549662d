"""Cards of War in words: one sentence per event, the rules that govern each kind, and the
card values those rules read (for the provenance of a ruling)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tabletape.tape.events import Event

from .components import Lookups
from .events import CardDeployed, CardDiscarded, CardDrawn, HandReported, OpeningCardDrawn


def describe(event: Event) -> str:
    """Returns one plain sentence for a game event."""
    match event:
        case OpeningCardDrawn(player=p, card=c):
            return f"{p} turns up {c} to decide who starts"
        case CardDrawn(player=p, card=c):
            return f"{p} draws {c}"
        case CardDiscarded(player=p, card=c):
            return f"{p} discards {c} (strategic exhaustion)"
        case HandReported(player=p):
            return (f"{p} reports for recon: {event.air} Air, {event.sea} Sea, "
                    f"{event.ground} Ground, {event.intel} Intel")
        case CardDeployed(player=p, card=c, battle=b):
            s = f"{p} deploys {c}" + (" from the discard pile" if event.from_discard else "")
            s += f" to battle {b}"
            if event.theatre:
                s += f", naming it the {event.theatre} theatre"
            if event.kill:
                s += f", killing the opponent's {event.target or 'top card'} there"
            if event.joint:
                s += ", its pair partner to follow"
            return s
    return type(event).__name__


def governing(event: Event) -> tuple[str, ...]:
    """Returns the ids of the rules that decide whether this kind of event is legal."""
    match event:
        case OpeningCardDrawn():
            return ("cow.setup.opening", "cow.draw.in-deck")
        case CardDrawn():
            return ("cow.turn.step", "cow.draw.refill", "cow.draw.in-deck")
        case HandReported():
            return ("cow.recon.report",)
        case CardDiscarded():
            return ("cow.turn.step", "cow.opt.exhaustion.discard")
        case CardDeployed():
            ids = ["cow.turn.order", "cow.deploy.in-hand", "cow.deploy.open-battle"]
            if event.kill or event.target:
                ids += ["cow.kill.ability", "cow.kill.target", "cow.kill.top-only",
                        "cow.kill.type-match"]
            if event.joint:
                ids += ["cow.opt.joint", "cow.opt.joint.pair"]
            if event.from_discard:
                ids += ["cow.opt.alt-reinforce"]
            if event.theatre:
                ids += ["cow.opt.theatres.choose"]
            return tuple(ids)
    return ()


def consulted(lk: Lookups, state: Any, event: Event) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """Yields the card values the ruling on this event rests on that the state carries from
    earlier reads (what the check reads as it runs is recorded: `Ruleset.reads`): a draw
    reads how many the deck holds, and the deck was filled from the cards' counts."""
    match event:
        case OpeningCardDrawn(card=c) | CardDrawn(card=c):
            if c in lk.cards:
                yield c, lk.cards[c], ("count",)
