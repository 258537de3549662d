"""A world a seat cannot tell from the table it sees: the cards it cannot see dealt at random
into the places it cannot see (the game's `determinize`, engine.kit.contract.Extras).

Read from the seat's own view alone (lookups.view): the Reserve Hands, stacks and Kept Cards
of the other seats are face down, and both decks are counts. What the seat cannot rule out
is the box less every card its view shows (the unseen pool, as `seats.candidates` reads it,
here with the units engaged in a battle too); those cards are shuffled and dealt: each face-
down stack takes units of its own type (bcp.deploy.stack), each face-down Kept Card a card
that is kept (bcp.conflict.keep), each face-down Reserve Hand any of the side's units (To Set
Up the Game), and the rest is the deck, whose size the view shows.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from msgspec.structs import replace

from tabletape.engine.kit.multiset import with_cards
from tabletape.engine.kit.turns import HIDDEN

from .components import Lookups, Unit
from .state import State


def determinize(lk: Lookups, view: State, player: str, rng: random.Random) -> State | None:
    """Returns a state whose view by `player` is `view`, the cards `player` cannot see dealt
    at random (with `rng`) from the cards the view does not show; None when the view shows
    more of some card than the box holds, or places the unseen cards cannot fill."""
    arsenal = dict(view.arsenal)
    reserve = dict(view.reserve)
    stacks = {p: dict(s) for p, s in view.stacks.items()}
    for side, box in lk.arsenal.items():
        mine = [p for p in view.players if view.sides[p] == side]
        pool = _unseen(box, (view.arsenal_discard[side], *_units_shown(view, mine)))
        if pool is None:
            return None
        rng.shuffle(pool)
        units = lk.units[side]
        for p in mine:  # a face-down stack holds units of its own type
            for kind, cards in view.stacks[p].items():
                if HIDDEN in cards:
                    dealt = _deal(pool, cards.count(HIDDEN), _of_type(units, kind))
                    if dealt is None:
                        return None
                    stacks[p][kind] = with_cards(tuple(c for c in cards if c != HIDDEN), *dealt)
        for p in mine:
            cards = view.reserve[p]
            if HIDDEN in cards:
                dealt = _deal(pool, cards.count(HIDDEN), None)
                if dealt is None:
                    return None
                reserve[p] = with_cards(tuple(c for c in cards if c != HIDDEN), *dealt)
        deck = _deck(pool, view.arsenal[side])
        if deck is None:
            return None
        arsenal[side] = deck
    th = lk.theatre
    shown = (view.conflict_discard[th], *(view.kept[p] for p in view.players),
             *(view.won[p] for p in view.players), (view.drawn,) if view.drawn else ())
    pool = _unseen(lk.conflict, shown)
    if pool is None:
        return None
    rng.shuffle(pool)
    kept = dict(view.kept)
    for p in view.players:  # a face-down Kept Card is a card that says to keep it
        cards = view.kept[p]
        if HIDDEN in cards:
            dealt = _deal(pool, cards.count(HIDDEN), lambda c: lk.cards[c].keep)
            if dealt is None:
                return None
            kept[p] = tuple(c for c in cards if c != HIDDEN) + tuple(dealt)
    deck = _deck(pool, view.conflict[th])
    if deck is None:
        return None
    return replace(view, arsenal=arsenal, reserve=reserve, stacks=stacks, kept=kept,
                   conflict={**view.conflict, th: deck})


def _of_type(units: dict[str, Unit], kind: str) -> Callable[[str], bool]:
    """Returns whether a unit of `units` is of type `kind` (the stack it may join)."""
    return lambda name: units[name].type == kind


def _units_shown(view: State, players: list[str]) -> list[tuple[str, ...]]:
    """Returns the piles of units of `players` that the view shows (face down ones as `?`):
    their Reserve Hands, stacks, and the units engaged in a battle or pulled out of it."""
    piles = [view.reserve[p] for p in players]
    piles.extend(s for p in players for s in view.stacks[p].values())
    b = view.battle
    if b is not None:
        piles.extend(b.forces.get(p, ()) for p in players)
        piles.extend(b.withdrawn.get(p, ()) for p in players)
    return piles


def _unseen(box: dict[str, int], shown: tuple[tuple[str, ...], ...] | list[tuple[str, ...]]
            ) -> list[str] | None:
    """Returns the cards of `box` that no pile of `shown` shows, one entry per copy, sorted
    (so that the deal depends on the seed alone); None when a pile shows a card too many."""
    pool = Counter(box)
    for pile in shown:
        pool.subtract(c for c in pile if c != HIDDEN)
    if any(n < 0 for n in pool.values()):
        return None
    return sorted(pool.elements())


def _deal(pool: list[str], n: int, fits: Callable[[str], bool] | None) -> list[str] | None:
    """Takes out of `pool` (shuffled) its first `n` cards that `fits` (any, when None) and
    returns them; None when it has fewer."""
    if fits is None:
        dealt, pool[:n] = pool[:n], []
    else:
        at = [i for i, c in enumerate(pool) if fits(c)][:n]
        dealt = [pool[i] for i in at]
        for i in reversed(at):
            del pool[i]
    return dealt if len(dealt) == n else None


def _deck(pool: list[str], shown: dict[str, int]) -> dict[str, int] | None:
    """Returns the cards left in `pool` as a deck (name -> copies, sorted), or None when their
    number is not the deck's size the view shows."""
    if len(pool) != sum(shown.values()):
        return None
    return dict(sorted(Counter(pool).items()))
