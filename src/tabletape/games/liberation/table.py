"""Small pure helpers over the Liberation state: lookups, seats, totals, multisets."""

from __future__ import annotations

from tabletape.engine.kit.multiset import merge, take, with_cards, without  # noqa: F401  (used as table.<name>)

from .components import Ability, Country, ForceCard, Index, Trigger, index
from .state import WIN_POINTS, WIN_POINTS_FOUR, State


def idx(state: State) -> Index:
    """Returns the lookup tables of the components in play."""
    assert state.components is not None  # set by initial()
    return index(state.components)


def card(state: State, name: str) -> ForceCard:
    return idx(state).cards[name]


def country(state: State) -> Country | None:
    """Returns the country card being fought over, if any."""
    return idx(state).countries[state.country] if state.country else None


def trigger(state: State) -> Trigger:
    """Returns the special instruction in force (only while its country is in play)."""
    c = country(state)
    return c.trigger if c else Trigger.NONE


def target(state: State) -> int:
    """Returns the victory points that win the game."""
    if state.options.victory_points:
        return state.options.victory_points
    return WIN_POINTS_FOUR if len(state.players) == 4 else WIN_POINTS


def vp(state: State, player: str) -> int:
    countries = idx(state).countries
    return sum(countries[c].vp for c in state.liberated[player])


def left_of(state: State, player: str) -> str:
    """Returns the next player clockwise (seat order is clockwise)."""
    i = state.players.index(player)
    return state.players[(i + 1) % len(state.players)]


def clockwise(state: State, start: str, among: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Returns the players (or those of `among`) in turn order beginning with `start`."""
    i = state.players.index(start)
    order = state.players[i:] + state.players[:i]
    return tuple(p for p in order if among is None or p in among)


def points(state: State, name: str) -> int:
    """Returns a card's force points, with the country's bonus for its type."""
    c, land = card(state, name), country(state)
    bonus = land.amount if land and land.trigger is Trigger.BONUS and land.card_type == c.type else 0
    return c.points + bonus


def total(state: State, player: str) -> int:
    """Returns a player's face-up force points on the table."""
    return sum(points(state, p.card) for p in state.played[player] if p.up)


def can_turn_down(state: State, owner: str, slot: int) -> bool:
    """Returns whether the card at `slot` is face up and may be turned over."""
    row = state.played[owner]
    return 0 <= slot < len(row) and row[slot].up and not card(state, row[slot].card).protected


def holds(state: State, player: str, ability: Ability) -> tuple[str, ...]:
    """Returns the distinct cards with `ability` in a player's hand."""
    cards = idx(state).cards
    return tuple(dict.fromkeys(n for n in state.hands[player] if cards[n].ability is ability))


def deck_size(state: State) -> int:
    return sum(state.deck.values())



