"""Small pure queries over the Liberation state: cards, seats, totals, victory points, views.

Each takes the state (and, where a card or country must be looked up, the game's
`Lookups` first); none changes anything. Seats and hidden hands are the shared
machinery of engine.kit.turns.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine.kit import turns

from .components import TRIGGER_BONUS, Ability, CardType, Country, Lookups
from .state import STAGE_EXTRA, STAGE_ROUNDS, WIN_POINTS, WIN_POINTS_FOUR, State


def country(lk: Lookups, state: State) -> Country | None:
    """Returns the country card being fought over, if any."""
    return lk.countries[state.country] if state.country else None


def stage(state: State) -> str:
    """Returns where the fight for the country stands, in words: `round 2`, `extra round for
    the tied players (round 4)`; the deal and the tie-break draws are in no round."""
    if state.stage is STAGE_ROUNDS:
        return f"round {state.round}"
    if state.stage is STAGE_EXTRA:
        return f"{state.stage} (round {state.round})"
    return str(state.stage)


def target(state: State) -> int:
    """Returns the victory points that win the game (How to Win, lib.win.points)."""
    if state.options.victory_points:
        return state.options.victory_points
    return WIN_POINTS_FOUR if len(state.players) == 4 else WIN_POINTS


def vp(lk: Lookups, state: State, player: str) -> int:
    """Returns the victory points of the countries a player has liberated."""
    countries = lk.countries
    return sum(countries[c].vp for c in state.liberated[player])


def left_of(state: State, player: str) -> str:
    """Returns the next player clockwise (seat order is clockwise)."""
    return turns.left_of(state.players, player)


def clockwise(state: State, start: str, among: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Returns the players (or those of `among`) in turn order beginning with `start`."""
    order = turns.seats_from(state.players, start)
    return order if among is None else tuple(p for p in order if p in among)


def bonus(lk: Lookups, state: State) -> tuple[CardType | None, int]:
    """Returns the card type the country in play rewards and by how much (lib.country.bonus-type):
    (None, 0) where none is in play or its trigger is no bonus."""
    land = country(lk, state)
    return (land.card_type, land.amount) if land and land.trigger is TRIGGER_BONUS else (None, 0)


def points(lk: Lookups, state: State, name: str) -> int:
    """Returns a card's force points, with the country's bonus for its type."""
    c = lk.cards[name]
    kind, amount = bonus(lk, state)
    return c.points + (amount if c.type == kind else 0)


def total(lk: Lookups, state: State, player: str) -> int:
    """Returns a player's face-up force points on the table (lib.ability.face-down): the sum
    of their `points`, the country's bonus looked up once (the count asks it of every player)."""
    cards = lk.cards
    up = [cards[p.card] for p in state.played[player] if p.up]
    kind, amount = bonus(lk, state)
    return sum(c.points for c in up) + amount * sum(c.type == kind for c in up)


def holds(lk: Lookups, state: State, player: str, ability: Ability) -> tuple[str, ...]:
    """Returns the distinct cards with `ability` in a player's hand."""
    cards = lk.cards
    return tuple(dict.fromkeys([n for n in state.hands[player] if cards[n].ability is ability]))


def deck_size(state: State) -> int:
    """Returns how many cards the force deck holds."""
    return sum(state.deck.values())


def view(state: State, player: str) -> State:
    """Returns the state as `player` sees it: other hands and the force deck hidden.

    The countries left are public (all ten cards are known); only their order is
    secret, and the state never holds it.
    """
    return replace(state, hands=turns.hide_hands(state.hands, player),
                   deck=turns.hide_deck(state.deck))


def progress(state: State) -> str:
    """Returns where the game stands in a player's words, "round N" ("" before the first):
    the game's `Extras.progress`."""
    return f"round {state.round}" if state.round > 0 else ""
