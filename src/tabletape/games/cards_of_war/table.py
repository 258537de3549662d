"""Small pure helpers over the Cards of War state: owners, piles, scores, multisets."""

from __future__ import annotations

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
    theatre = battle.theatre if state.options.theatres_of_war else None
    return sum(cards[n].value for n in battle.piles[player]
               if theatre is None or cards[n].theatre == theatre)


def without(cards: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Returns a multiset (sorted tuple) with one `name` removed."""
    i = cards.index(name)
    return cards[:i] + cards[i + 1:]


def with_card(cards: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Returns a multiset (sorted tuple) with one `name` added."""
    return tuple(sorted((*cards, name)))


def take(deck: dict[str, int], name: str) -> dict[str, int]:
    """Returns a deck with one `name` drawn from it."""
    out = dict(deck)
    out[name] -= 1
    if not out[name]:
        del out[name]
    return out


def merge(deck: dict[str, int], cards: tuple[str, ...]) -> dict[str, int]:
    """Returns a deck with cards shuffled in (a multiset: order is forgotten)."""
    out = dict(deck)
    for name in cards:
        out[name] = out.get(name, 0) + 1
    return dict(sorted(out.items()))


def theatre_counts(state: State, hand: tuple[str, ...]) -> dict[str, int]:
    """Returns how many cards of each theatre a hand holds (the RECON answer)."""
    counts = {"air": 0, "sea": 0, "ground": 0, "intel": 0}
    cards = idx(state).cards
    for name in hand:
        counts[cards[name].theatre.value.lower()] += 1
    return counts
