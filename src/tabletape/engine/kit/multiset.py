"""Hands and decks as multisets: a shuffled deck's order is unknown, so only counts matter.

A hand is a sorted tuple of card names; a deck is a dict of name -> count, sorted.
Every function returns a new value and leaves its arguments alone.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")  # what a game keys its decks by: a player, a side, a theatre


def without(cards: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Returns a hand with one `name` removed."""
    i = cards.index(name)
    return cards[:i] + cards[i + 1:]


def with_cards(cards: tuple[str, ...], *names: str) -> tuple[str, ...]:
    """Returns a hand with `names` added."""
    return tuple(sorted((*cards, *names)))


def take(deck: dict[str, int], name: str) -> dict[str, int]:
    """Returns a deck with one `name` drawn from it."""
    # (`dict.copy` clones the table of a deck that has lost kinds, where `dict(deck)` inserts
    # each card again: a draw is the commonest play of every game)
    out = dict.copy(deck)
    left = out[name] - 1
    if left:
        out[name] = left
    else:
        del out[name]
    return out


def merge(deck: dict[str, int], cards: tuple[str, ...]) -> dict[str, int]:
    """Returns a deck with cards shuffled in (order is forgotten)."""
    out = dict(deck)
    for name in cards:
        out[name] = out.get(name, 0) + 1
    return dict(sorted(out.items()))


def reshuffle(decks: dict[K, dict[str, int]], discards: dict[K, tuple[str, ...]], key: K
              ) -> tuple[dict[K, dict[str, int]], dict[K, tuple[str, ...]]]:
    """Returns the decks and the discard piles (keyed by player, side or theatre) with `key`'s
    pile shuffled back into its deck, the pile left empty."""
    return {**decks, key: merge(decks[key], discards[key])}, {**discards, key: ()}


def swapped_in(deck: dict[str, int], name: str) -> dict[str, int]:
    """Returns a deck holding one `name` in place of another card (the first by name that it
    holds): how a draw the deck cannot hold is played on, the deck's size unchanged
    (`engine.seats.drawable`); the deck itself when it holds `name` already."""
    if deck.get(name, 0) > 0:
        return deck
    out = dict(deck)
    other = next((c for c in sorted(out) if out[c] > 0), None)
    if other is not None:
        out[other] -= 1
        if not out[other]:
            del out[other]
    out[name] = out.get(name, 0) + 1
    return dict(sorted(out.items()))
