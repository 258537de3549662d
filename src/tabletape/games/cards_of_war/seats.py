"""The seats: who enters each event, and what each seat may know (engine.seats).

Cards of War hides one thing: the hands. Everything else is played face up (Playing a
Round: a deployed card lies face up; the discards are a face-up pile, whose top card
Alternative Reinforce takes). So the one secret event is a draw into a hand: the card is
known to its drawer alone until it is deployed or discarded, face up.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from tabletape.engine.kit.multiset import swapped
from tabletape.engine.kit.turns import head
from tabletape.engine.seats import Held, Secret
from tabletape.tape.events import Event

from . import legality, lookups
from .components import Lookups
from .events import CardDeployed, CardDiscarded, CardDrawn, CowEvent, HandReported, OpeningCardDrawn
from .state import COMMON, Phase, State

# The field naming the seat that enters each event; ANY_PLAYER: a public chance outcome.
OWNERS: dict[type, str | None] = {
    # Setup: each player turns up a card to choose the first player (seen by both, then put
    # back): a public outcome, entered by the player who turns it up (a draw is its drawer's)
    OpeningCardDrawn: "player",
    # Playing a Round (refill), Special Abilities 2 (reinforce), Joint deployment (two
    # refills): the card goes into the drawer's hand, so the drawer enters it
    CardDrawn: "player",
    CardDeployed: "player",  # Playing a Round: the player deploys their own card
    HandReported: "player",  # Special Abilities 3: the RECON's opponent answers for a hand
    CardDiscarded: "player",  # Strategic exhaustion: the loser gives up a card of their hand
}

# What some seats may not know: a drawn card, which only its drawer sees (whichever pile it
# comes from: the common deck, their own under the 2 Deck Version, and the reinforcement's
# card under Alternative Reinforce, which is shown only when it is deployed or discarded).
# The rest is public: deployments are face up, the RECON answer is said aloud (Special
# Abilities 3), a card discarded goes face up onto the discards, the opening cards are
# turned up for both to see (Setup).
SECRETS: dict[type, Secret] = {
    CardDrawn: Secret(fields=("card",), seen_by=("player",)),
}


def candidates(lk: Lookups, state: State, player: str) -> Iterable[CowEvent]:
    """Returns the outcomes of `player`'s own draw as they can tell them apart: each card of
    which a copy is not in sight of them (the box's counts less their hand and the face-up
    cards of the pile they draw from), read from their own view; any other decision's legal
    events (the opening cards are public)."""
    h = head(state)
    if state.phase is not Phase.PLAY or h is None or h.step not in legality.DRAWS \
            or h.player != player:
        return list(legality.legal(lk, state))
    left = _unseen(lk, lookups.view(state, player), player)
    return [CardDrawn(player=player, card=name) for name in sorted(left)]


def _unseen(lk: Lookups, mine: State, player: str) -> dict[str, int]:
    """Returns, card -> copies, what of the pile `player` draws from they cannot see: the full
    deck (2 Deck Version: their own) less their hand, and the cards on the table, face down
    after a won battle and on the discards that belong to that pile. Another hand is not
    subtracted: its cards are among what the player cannot rule out."""
    two = mine.options.two_decks
    sources = [p for p in mine.players if p == player or not two]  # whose cards share the pile
    pile = player if two else COMMON
    seen = [*mine.hands[player], *mine.discards[pile]]
    for p in sources:
        seen += mine.face_down[p]
        for b in mine.battles:
            seen += b.piles[p]
    left = dict(lk.full_deck)
    for name in seen:
        if name in left:
            left[name] -= 1
    return {name: n for name, n in left.items() if n > 0}


def held(lk: Lookups, view: State, player: str) -> tuple[Held, ...]:
    """Returns a player's own hidden cards: their hand (the only cards kept face down from
    the other player; a won battle's face-down cards were all deployed face up)."""
    return (Held("Hand", view.hands[player]),)


def drawable(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state with the card a draw names put in its pile in place of another
    (`engine.seats.drawable`): a player's own draw the pile cannot hold, which the table
    plays on as made while the umpire rules."""
    if not isinstance(event, CardDrawn):
        return state
    own = lookups.owner(state, event.player)
    return replace(state, decks=swapped(state.decks, own, event.card))
