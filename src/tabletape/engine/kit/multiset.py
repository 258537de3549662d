"""Hands and decks as multisets: a shuffled deck's order is unknown, so only counts matter.

A hand is a sorted tuple of cards (names, or numbers); a deck is a dict of card -> count,
sorted, that holds no zero counts. Every function returns a new value and leaves its
arguments alone.

The steps of turn flow that games share on them: a card drawn from a deck into a hand
(`drawn`), every deck that has run out given its discard pile back (`reshuffled`), and a
draw the deck cannot hold played on as made (`swapped`). A game calls them from its own
functions, named after its rules; the kit knows no game's cards or rule ids.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from typing import TypeVar

K = TypeVar("K")  # what a game keys its decks by: a player, a side, a theatre
P = TypeVar("P")  # what a game keys its hands by: a player
C = TypeVar("C", str, int)  # a card: its name (or its number)


def without(cards: tuple[C, ...], name: C) -> tuple[C, ...]:
    """Returns a hand with one `name` removed."""
    i = cards.index(name)
    return cards[:i] + cards[i + 1:]


def with_cards(cards: tuple[C, ...], *names: C) -> tuple[C, ...]:
    """Returns a hand with `names` added."""
    return tuple(sorted(cards + names))


def with_card(cards: tuple[C, ...], name: C) -> tuple[C, ...]:
    """Returns a hand with one `name` added: `with_cards(cards, name)`, put in its place
    rather than sorting the whole hand again."""
    i = bisect_right(cards, name)
    return cards[:i] + (name,) + cards[i:]


def take(deck: dict[C, int], name: C) -> dict[C, int]:
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


def merge(deck: dict[C, int], cards: tuple[C, ...]) -> dict[C, int]:
    """Returns a deck with cards shuffled in (order is forgotten)."""
    out = dict(deck)
    for name in cards:
        out[name] = out.get(name, 0) + 1
    return dict(sorted(out.items()))


def drawn(decks: dict[K, dict[C, int]], key: K, hands: dict[P, tuple[C, ...]], player: P,
          name: C) -> tuple[dict[K, dict[C, int]], dict[P, tuple[C, ...]]]:
    """Returns the decks and the hands with one `name` drawn from `key`'s deck (a player's own,
    a side's, a common pile) into `player`'s hand: a draw, in any game that deals or draws
    cards into hands. The deck must hold `name` (the game's legality says so first)."""
    # `take` and `with_card`, written out: a draw is one of the commonest events
    deck = decks[key].copy()
    left = deck[name] - 1
    if left:
        deck[name] = left
    else:  # a deck holds no zero counts
        del deck[name]
    hand = hands[player]
    i = bisect_right(hand, name)
    out, held = decks.copy(), hands.copy()  # (copied, then the one entry set: order kept)
    out[key] = deck
    held[player] = hand[:i] + (name,) + hand[i:]
    return out, held


def reshuffle(decks: dict[K, dict[C, int]], discards: dict[K, tuple[C, ...]], key: K
              ) -> tuple[dict[K, dict[C, int]], dict[K, tuple[C, ...]]]:
    """Returns the decks and the discard piles (keyed by player, side or theatre) with `key`'s
    pile shuffled back into its deck, the pile left empty."""
    return {**decks, key: merge(decks[key], discards[key])}, {**discards, key: ()}


def reshuffled(decks: dict[K, dict[C, int]], discards: dict[K, tuple[C, ...]], most: int = 0
               ) -> tuple[dict[K, dict[C, int]], dict[K, tuple[C, ...]]] | None:
    """Returns the decks and the discard piles (keyed alike) with every deck down to `most`
    cards or fewer given its own pile back, shuffled (`reshuffle`); None when no such deck
    has a card on its pile. How a game refreshes decks that ran out: `most` is 0 where a
    deck is reshuffled once empty, 1 where its last card is reshuffled in with the pile."""
    out: tuple[dict[K, dict[C, int]], dict[K, tuple[C, ...]]] | None = None
    for key, deck in decks.items():
        # (no zero counts: a deck of more than `most` kinds holds more than `most` cards)
        if len(deck) <= most and discards[key] and sum(deck.values()) <= most:
            out = reshuffle(*(out or (decks, discards)), key)
    return out


def swapped(decks: dict[K, dict[C, int]], key: K, name: C) -> dict[K, dict[C, int]]:
    """Returns the decks with `key`'s deck holding one `name` in place of another card
    (`swapped_in`): a game's `drawable` for a draw from one of its decks."""
    return {**decks, key: swapped_in(decks[key], name)}


def swapped_in(deck: dict[C, int], name: C) -> dict[C, int]:
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


def chosen(deck: dict[C, int], random: Callable[[], float]) -> C:
    """Returns the kind of card `random.choices(list(deck), deck.values())` draws with the same
    generator (its `random`, asked once): the first whose running total exceeds `random()`
    times the whole (the bisect `choices` makes), else the last. A playout's chance draw.

    Counted card by card: on the decks as play leaves them (~14 kinds in Liberation and in
    BATTLECARDS) this is ~0.3 us a draw faster than bisecting running totals made in C,
    whose two lists cost more than the few steps of the loop. A running total (a whole
    number) exceeds the number drawn exactly when it exceeds that number's whole part, so
    the loop counts down from it in whole numbers (~10% faster than comparing with a float).
    The card at that place is the same counted from either end, so the loop starts from the
    nearer one (half the steps on average)."""
    total = sum(deck.values())
    left = int(random() * total)  # (an int below 2**53 times a float: exact)
    cards: Iterable[tuple[C, int]] = deck.items()
    if left + left >= total:  # in the back half: its place counted from the end
        left = total - 1 - left
        cards = reversed(deck.items())
    for card, n in cards:
        left -= n
        if left < 0:
            return card
    return card
