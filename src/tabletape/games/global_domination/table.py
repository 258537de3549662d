"""Small pure helpers over the Global Domination state: seats, the map, multisets."""

from __future__ import annotations

from tabletape.engine.kit.multiset import take, with_cards, without  # noqa: F401  (used as table.<name>)

from .components import Card, Index, Kind, Restriction, index
from .state import Force, State


def idx(state: State) -> Index:
    """Returns the lookup tables of the box in play."""
    assert state.components is not None  # set by initial()
    return index(state.components)


def card(state: State, name: str) -> Card:
    return idx(state).cards[name]


def left(state: State, player: str) -> str:
    """Returns the player on `player`'s left (the next seat)."""
    i = state.players.index(player)
    return state.players[(i + 1) % len(state.players)]


def seat_order(state: State) -> tuple[str, ...]:
    """Returns the players in seat order starting with the First Player."""
    i = state.players.index(state.first) if state.first else 0
    return state.players[i:] + state.players[:i]


def owner(state: State, area: str) -> str | None:
    f = state.board.get(area)
    return f.owner if f else None


def areas_of(state: State, player: str) -> list[str]:
    return [a for a, f in state.board.items() if f.owner == player]


def is_land(state: State, area: str) -> bool:
    return idx(state).areas[area].kind is Kind.LAND


def in_zone(state: State, player: str, area: str, restriction: Restriction) -> bool:
    """Returns whether a card's area restriction lets `player` act in `area`."""
    if restriction is Restriction.ANY:
        return True
    land = is_land(state, area)
    if restriction is Restriction.LAND:
        return land
    if restriction is Restriction.SEA:
        return not land
    near = idx(state).adjacent[area]
    if restriction is Restriction.NEAR_OWN_SEA:
        return land and any(owner(state, n) == player and not is_land(state, n) for n in near)
    return land and any(owner(state, n) == player and is_land(state, n) for n in near)


def build_problem(state: State, player: str, area: str) -> str | None:
    """Returns why `player` cannot Build in `area` (ignoring restrictions), or None."""
    f = state.board.get(area)
    if f is None:
        return None
    if f.owner != player:
        return f"{area} already holds {f.owner}'s Force"
    if f.full:
        return f"{player}'s Force in {area} is already Full"
    return None


def reduce_problem(state: State, player: str, area: str, target: str = "") -> str | None:
    """Returns why `player` cannot Reduce the Force in `area`, or None."""
    f = state.board.get(area)
    if f is None:
        return f"{area} holds no Force"
    if target and f.owner != target:
        return f"these Reductions fall on {target}'s Forces, and {area} is {f.owner}'s"
    if not target and f.owner == player:
        return f"{area} holds {player}'s own Force; Reductions hit opposing Forces"
    return None


def build_areas(state: State, player: str, restriction: Restriction) -> list[str]:
    return [a for a in idx(state).areas if build_problem(state, player, a) is None
            and in_zone(state, player, a, restriction)]


def reduce_areas(state: State, player: str, restriction: Restriction, target: str = "") -> list[str]:
    return [a for a in state.board if reduce_problem(state, player, a, target) is None
            and in_zone(state, player, a, restriction)]


def built(state: State, player: str, area: str) -> dict[str, Force]:
    """Returns the board after one Build by `player` in `area`."""
    board = dict(state.board)
    board[area] = Force(player, full=area in board)
    return board


def reduced(board: dict[str, Force], area: str) -> dict[str, Force]:
    """Returns the board after one Reduction in `area`."""
    out = dict(board)
    f = out[area]
    if f.full:
        out[area] = Force(f.owner, full=False)
    else:
        del out[area]
    return out


def region_monopolies(state: State, player: str) -> list[str]:
    """Returns the Regions all of whose Land Areas hold `player`'s Forces."""
    i = idx(state)
    return [r for r in i.regions if i.in_region[r]
            and all(owner(state, a) == player for a in i.in_region[r])]


def resource_monopolies(state: State, player: str) -> list[str]:
    """Returns the Resources all of whose Areas hold `player`'s Forces."""
    i = idx(state)
    return [r for r in i.resources if i.with_resource[r]
            and all(owner(state, a) == player for a in i.with_resource[r])]


def isolated(state: State, player: str) -> list[str]:
    """Returns `player`'s Forces with no other Force of theirs in an adjacent Area."""
    adj = idx(state).adjacent
    mine = set(areas_of(state, player))
    return sorted(a for a in mine if not adj[a] & mine)




def holds(hand: tuple[str, ...], cards: tuple[str, ...]) -> bool:
    """Returns whether a hand holds all of `cards` (as a multiset)."""
    return all(hand.count(c) >= cards.count(c) for c in set(cards))



def shuffled(cards: tuple[str, ...]) -> dict[str, int]:
    """Returns a pile turned into a Draw Deck (a multiset: order is forgotten)."""
    out: dict[str, int] = {}
    for name in sorted(cards):
        out[name] = out.get(name, 0) + 1
    return out
