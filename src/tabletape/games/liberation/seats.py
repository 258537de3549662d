"""The seats: who enters each event, and what each seat may know (engine.seats).

How to Play: force cards are dealt face down, and each player looks at their own
cards only; a bonus draw (Further Explanations: the first-card and draw-two cards, a
country's draw instruction) goes from the top of the deck into the hand, unseen by the
others. Everything else happens in the open: the country card turned up, the force
cards played face up (and so known when later turned face down), a played card taken in
trade, a prevent card shown before it is discarded, the tie-break cards compared. A hand
trade moves two hands unseen, but its event names no card. The country deck's ten cards
are public; only their order is secret, and no state or event holds it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from msgspec.structs import replace

from tabletape.engine.kit.multiset import swapped_in
from tabletape.engine.kit.turns import head
from tabletape.engine.seats import ANY_PLAYER, Held, Secret
from tabletape.tape.events import Event

from . import legality, lookups
from .components import Lookups
from .events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    LiberationEvent,
    PlayedCardTaken,
    PlayedCardTurned,
    TieBreakDrawn,
    TurnOverAccepted,
    TurnOverDeclined,
    TurnOverPrevented,
    TurnPassed,
)
from .state import STEP_TAKE, State

# The field naming the seat that enters each event; ANY_PLAYER: a public chance outcome.
OWNERS: dict[type, str | None] = {
    CountryTurned: ANY_PLAYER,  # How to Play: turned face up for the whole table to see
    ForceCardDealt: "player",  # How to Play: only the player it is dealt to looks at it
    ForceCardDrawn: "player",  # Further Explanations: the drawer adds it to their hand
    TieBreakDrawn: "player",  # How to Play: each tied player draws their own
    ForceCardPlayed: "player",  # How to Play: the player whose turn it is
    TurnPassed: "player",
    PlayedCardTurned: "player",  # who turns it (`owner` names whose card it is)
    TurnOverDeclined: "player",  # the player of the turn-over card
    TurnOverPrevented: "player",  # the owner of the targeted card shows the prevent card
    TurnOverAccepted: "player",  # the owner of the targeted card lets it stand
    PlayedCardTaken: "player",  # the player of the trade card (`owner` is who loses one)
    HandsTraded: "player",  # the player of the trade card (`other` only hands over theirs)
}

_INTO_HAND = Secret(fields=("card",), seen_by=("player",))  # a card only its drawer sees
# What some seats may not know: which card went into a hand. A tie-break card is compared
# face up (How to Play), a prevent card shown (Further Explanations): both public.
SECRETS: dict[type, Secret] = {ForceCardDealt: _INTO_HAND, ForceCardDrawn: _INTO_HAND}

def candidates(lk: Lookups, state: State, player: str) -> Iterable[LiberationEvent]:
    """Returns the outcomes of a player's own draw as they can tell them apart: every card
    they cannot rule out (`unseen`), sorted by name; the legal events for any other decision.

    A tie-break card is public once drawn, but which cards the deck can hold is not: the
    others' hands are in neither pile, so it is offered the same way.
    """
    view = lookups.view(state, player)
    h = head(view)
    kind = legality.DRAWN_AT.get(h.step) if h is not None and h.player == player else None
    if kind is None:
        return legality.legal(lk, state)
    return [kind(player=player, card=name) for name in unseen(lk, view, player)]


def unseen(lk: Lookups, view: State, player: str) -> tuple[str, ...]:
    """Returns the force cards a player cannot rule out being drawn, by name, from their own
    view: the box's copies less those they can see (their hand, the cards on the table face
    up or down, all of which were played face up, a trade card waiting for its place, the
    tie-break cards and the discards). What the others hold stays in: they cannot see it."""
    seen = Counter(view.hands[player])
    seen.update(p.card for row in view.played.values() for p in row)
    seen.update(o.card for o in view.steps if o.step is STEP_TAKE)
    seen.update(c for cards in view.tie_cards.values() for c in cards)
    seen.update(view.discards)
    return tuple(sorted(name for name, n in lk.full_deck.items() if n > seen[name]))


def held(lk: Lookups, view: State, player: str) -> tuple[Held, ...]:
    """Returns a player's own hidden cards: their hand (How to Play), from their own view."""
    return (Held("Hand", view.hands[player]),)


def drawable(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state with the card a draw names put in the force deck in place of another
    (`engine.seats.drawable`): the table plays on while the umpire rules."""
    if not isinstance(event, (ForceCardDealt, ForceCardDrawn, TieBreakDrawn)):
        return state
    return replace(state, deck=swapped_in(state.deck, event.card))
