"""The seats: who enters each event, and what each seat may know (engine.seats).

What the table sees (rulebook, Player Decks and Each Game Turn): every player keeps an
own Draw Deck and discard pile; a card drawn goes face down into its drawer's hand, and
only they know it until it is used. Every use is made in the open: a card played for its
Builds, Reductions or text is shown, and a Discard puts its cards on the discard pile and
takes a card from a stack laid face up on the table (Start of the Game: Action Cards).
The discard pile is face up (decision: every card in it was shown as it was used or
discarded, so it is no one's secret; option hands=discard puts the hands there after
scoring, in the open too). The First Player and the stacks are chosen at random in front
of everyone (Start of the Game).

So the one secret is the card drawn, known to its drawer alone. A player can always tell
their own Draw Deck apart card by card: it holds their own cards less those in their hand
and on their discard pile, all of which they have seen (its order is never recorded).
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from tabletape.engine.kit.multiset import swapped
from tabletape.engine.seats import ANY_PLAYER, Held, Secret
from tabletape.tape.events import Event

from . import legality
from . import lookups as q
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
    GdEvent,
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
)
from .state import State, Step

# The field naming the seat that enters each event; ANY_PLAYER: a public chance outcome.
OWNERS: dict[type, str | None] = {
    # Start of the Game: chance chooses in the open; `player` is who is chosen, not who enters
    FirstPlayerChosen: ANY_PLAYER,
    ActionStackChosen: ANY_PLAYER,  # a stack laid face up by the board
    CardDrawn: "player",  # Start of Each Game Turn: the drawer, from their own Draw Deck
    # Each Game Turn: whoever uses the card (an anytime card may be played out of turn)
    CardPlayed: "player",
    CardsDiscarded: "player",
    # Game Terms and The Cards: the player who owes the step (`target` is who is aimed at)
    ForceBuilt: "player",
    ForceReduced: "player",
    ForceRemoved: "player",
    ForceSeized: "player",
    PlayerTargeted: "player",
    ChainAnswered: "player",  # Bio Weapons: the player on the left, who joins or declines
    PointsForgone: "player",
    TurnEnded: "player",
    ScoringPassed: "player",  # End of Each Game Turn: the player whose say it is
}

# What some seats may not know: the card a player draws into their hand (Player Decks),
# known to the drawer alone. Every other event is made in the open (the module's docstring).
SECRETS: dict[type, Secret] = {
    CardDrawn: Secret(fields=("card",), seen_by=("player",)),
}


def candidates(lk: Lookups, state: State, player: str) -> Iterable[GdEvent]:
    """Returns the cards `player` may draw as they can tell them apart: each kind of card in
    their own Draw Deck as their own view shows it (Player Decks), sorted by name.

    Their deck is theirs alone: what another player holds never enters it, and the player
    knows its content (not its order, which no log records). Not their draw: the legal events.
    """
    h = q.head(state)
    if h is None or h.step is not Step.DRAW or h.player != player:
        return legality.legal(lk, state)
    mine = q.view(state, player).decks[player]
    return [CardDrawn(player=player, card=c) for c in sorted(mine)]


def held(lk: Lookups, view: State, player: str) -> tuple[Held, ...]:
    """Returns a player's own hidden cards, from their own view: their hand (Player Decks;
    the Draw Deck is face down to its owner too, and the discard pile is face up)."""
    return (Held("Hand", view.hands.get(player, ())),)


def drawable(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state with the card a draw names put in its drawer's Draw Deck in place of
    another (`engine.seats.drawable`): the table plays on while the umpire rules."""
    if not isinstance(event, CardDrawn):
        return state
    return replace(state, decks=swapped(state.decks, event.player, event.card))
