"""Liberation's words: one plain sentence per event, the rules that govern each kind, and
the card values those rules read (for the provenance of a ruling)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tabletape.engine.provenance import Derivation, Deriving
from tabletape.tape.events import Event

from .components import Ability, Lookups, Trigger
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
from .legality import check
from .state import Step


def describe(event: Event) -> str:
    """Returns one plain sentence for a Liberation event."""
    match event:
        case CountryTurned(player=p, country=c):
            return f"{p} turns up {c}"
        case ForceCardDealt(player=p, card=c):
            return f"{p} is dealt {c}"
        case ForceCardDrawn(player=p, card=c):
            return f"{p} draws {c}"
        case TieBreakDrawn(player=p, card=c):
            return f"{p} draws {c} to break the tie"
        case ForceCardPlayed(player=p, card=c):
            return f"{p} plays {c} face up"
        case TurnPassed(player=p):
            return f"{p} passes"
        case PlayedCardTurned(player=p, owner=o, slot=s, face_up=up):
            whose = "their own" if o == p else f"{o}'s"
            return f"{p} turns {whose} card at slot {s} " + ("back face up" if up else "face down")
        case TurnOverPrevented(player=p, card=c):
            return f"{p} discards {c} to keep their card face up"
        case TurnOverAccepted(player=p):
            return f"{p} lets the turn-over stand"
        case TurnOverDeclined(player=p):
            return f"{p} turns no more cards over"
        case PlayedCardTaken(player=p, owner=o, slot=s):
            return f"{p} takes {o}'s card at slot {s} in trade"
        case HandsTraded(player=p, other=o):
            return f"{p} trades hands with {o}"
    return type(event).__name__


def governing(event: Event) -> tuple[str, ...]:
    """Returns the ids of the rules that decide whether this kind of event is legal."""
    match event:
        case CountryTurned():
            return ("lib.turn.step", "lib.turn.order", "lib.country.turn", "lib.country.next")
        case ForceCardDealt():
            return ("lib.turn.step", "lib.deal.count", "lib.draw.in-deck", "lib.deck.refresh")
        case ForceCardDrawn():
            return ("lib.turn.step", "lib.draw.in-deck", "lib.ability.first-draw",
                    "lib.ability.draw-two", "lib.country.draw-type")
        case TieBreakDrawn():
            return ("lib.turn.step", "lib.tie.draw", "lib.draw.in-deck")
        case ForceCardPlayed():
            return ("lib.turn.order", "lib.round.count", "lib.play.in-hand",
                    "lib.country.double-play", "lib.tie.double-play", "lib.opt.tie-one-card",
                    "lib.country.forbid-type")
        case TurnPassed():
            return ("lib.turn.order", "lib.play.pass", "lib.country.double-play")
        case PlayedCardTurned():
            return ("lib.turn.step", "lib.ability.turn-over", "lib.ability.turn-up",
                    "lib.ability.turn-over.count", "lib.ability.all-turn-down",
                    "lib.ability.protected", "lib.country.turn-over-type")
        case TurnOverDeclined():
            return ("lib.turn.step", "lib.ability.turn-over.compulsory",
                    "lib.opt.turn-over-optional")
        case TurnOverPrevented():
            return ("lib.turn.step", "lib.ability.prevent", "lib.ability.prevent.forced")
        case TurnOverAccepted():
            return ("lib.turn.step", "lib.ability.prevent")
        case PlayedCardTaken():
            return ("lib.turn.step", "lib.ability.trade-card")
        case HandsTraded():
            return ("lib.turn.step", "lib.ability.trade-hands")
    return ()


def consulted(lk: Lookups, state: Any, event: Event) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """Yields the card values the ruling on this event rests on that the state carries from
    earlier reads (what the check reads as it runs is recorded: `Ruleset.reads`): a draw
    reads how many the deck holds, and the deck was filled from the cards' counts."""
    match event:
        case ForceCardDealt(card=c) | ForceCardDrawn(card=c) | TieBreakDrawn(card=c):
            if c in lk.cards and _on_the_deck(lk, state, event):
                yield c, lk.cards[c], ("count",)


def derive(lk: Lookups, state: Any, event: Event) -> Derivation | None:
    """Returns the arithmetic a ruling on a legal event computes, as its terms: a force card
    play, the player's face-up force points with the card (How to Play: the highest
    face-up total liberates the country; Further Explanations: a face-down card counts
    nothing), with the country's bonus for a card type; a card dealt, how many each player
    is dealt for the country (How to Play: its victory points, lib.deal.count). None for
    other events and for refusals (whose turn it is, a card not held or forbidden: no sum)."""
    if check(lk, state, event) is not None:
        return None
    if isinstance(event, ForceCardDealt) and state.country in lk.countries:
        return _dealt(lk, state, event.player)
    if not isinstance(event, ForceCardPlayed):
        return None
    land = lk.countries[state.country] if state.country else None
    how = Deriving()
    placed = lk.cards[event.card].ability is not Ability.TRADE_CARD  # else placed later
    cards = [p.card for p in state.played[event.player] if p.up]
    for name in (*cards, *((event.card,) if placed else ())):
        c = lk.cards[name]
        how.term(name, c.points, name, c, "points")
        if land is not None and how.read(land.name, land, "trigger") is Trigger.BONUS \
                and how.read(land.name, land, "card_type") == c.type:
            how.term(f"{land.name}'s bonus", land.amount, land.name, land, "amount",
                     f"{c.type} card {name}")
    total = sum(t.value for t in how.terms)
    return how.done(f"{event.player}'s face-up force points with {event.card}", total)


def _dealt(lk: Lookups, state: Any, player: str) -> Derivation:
    land = lk.countries[state.country]
    how = Deriving()
    vp = how.term(f"{land.name}'s victory points", land.vp, land.name, land, "vp")
    left = sum(o.step is Step.DEAL and o.player == player for o in state.steps)
    return how.done(f"force cards dealt to {player} for {land.name} (this is card "
                    f"{vp - left + 1})", vp)


def _on_the_deck(lk: Lookups, state: Any, event: Event) -> bool:
    """Whether a draw's ruling turns on the pile (it passed, or the card is not in it): a
    draw refused on whose turn or which step it is reads no card's count."""
    v = check(lk, state, event)
    return v is None or v.rule == "lib.draw.in-deck"
