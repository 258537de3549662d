"""Small pure helpers over the Cards of War state: owners, piles, scores, multisets."""

from __future__ import annotations

from tabletape.engine.kit.multiset import merge, take, with_cards, without  # noqa: F401  (used as table.<name>)

from .components import Card, Index, index
from .state import COMMON, Battle, State


def idx(state: State) -> Index:
    """Returns the lookup tables of the deck in play."""
    assert state.components is not None  # set by initial()
    return index(state.components)


def card(state: State, name: str) -> Card:
    return idx(state).cards[name]


def other(state: State, player: str) -> str:
    """Returns the opponent of `player`."""
    a, b = state.players
    return b if player == a else a


def owner(state: State, player: str) -> str:
    """Returns whose deck and discard pile `player` uses (2 Deck Version: their own)."""
    return player if state.options.two_decks else COMMON


def deck_size(state: State, player: str) -> int:
    return sum(state.decks[owner(state, player)].values())


def top_discard(state: State, player: str) -> str | None:
    pile = state.discards[owner(state, player)]
    return pile[-1] if pile else None


def total(state: State, battle: Battle, player: str) -> int:
    """Returns a pile's score; under Theatres of War only cards of the battle's theatre count."""
    cards = idx(state).cards
    pile = battle.piles[player]
    theatre = battle.theatre if state.options.theatres_of_war else None
    if theatre is None:  # the common case, without a test per card
        return sum(cards[n].value for n in pile)
    return sum(cards[n].value for n in pile if cards[n].theatre == theatre)






def theatre_counts(state: State, hand: tuple[str, ...]) -> dict[str, int]:
    """Returns how many cards of each theatre a hand holds (the RECON answer)."""
    counts = {"air": 0, "sea": 0, "ground": 0, "intel": 0}
    cards = idx(state).cards
    for name in hand:
        counts[cards[name].theatre.value.lower()] += 1
    return counts
