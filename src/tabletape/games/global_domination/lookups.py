"""Small pure queries over the Global Domination table: seats, the map, who holds what.

They read a state and, where the box matters, the game's `Lookups` (`lk`); none
changes anything. Seats and hidden hands come from the shared turn machinery.
"""

from __future__ import annotations

from operator import attrgetter

from msgspec.structs import replace

from tabletape.engine.kit import turns

from .components import (
    KIND_LAND,
    RESTRICTION_ANY,
    RESTRICTION_LAND,
    RESTRICTION_NEAR_OWN_SEA,
    RESTRICTION_SEA,
    TIMING_TURN,
    Lookups,
    Restriction,
)
from .state import STEP_BUILD, STEP_LAND_MIX, STEP_REDUCE, STEP_REMOVE, STEP_SEIZE, Owed, State

# engine.kit.turns (generic over any state with `steps`: typed for this State as they are)
head = turns.head  # the step owed now, or None
done = turns.done  # the step owed now taken off the queue
owe_first = turns.owe_first  # owed steps due before the rest


# -- seats (Start of the Game: the First Player; turns pass to the left) ------------------


def seat_order(state: State) -> tuple[str, ...]:
    """Returns the players in seat order starting with the First Player."""
    return turns.seats_from(state.players, state.first)


def scorer(state: State) -> str | None:
    """Returns whose say it is in the scoring step (seat order from the First Player)."""
    return next((p for p in seat_order(state) if p not in state.scored), None)


# -- the map (Game Terms) -------------------------------------------------------------------


def owner(state: State, area: str) -> str | None:
    f = state.board.get(area)
    return f.owner if f else None


def areas_of(state: State, player: str) -> list[str]:
    return [a for a, f in state.board.items() if f.owner == player]


def is_land(lk: Lookups, area: str) -> bool:
    return lk.areas[area].kind is KIND_LAND


def in_zone(lk: Lookups, state: State, player: str, area: str, restriction: Restriction) -> bool:
    """Returns whether a card's area restriction lets `player` act in `area`."""
    if restriction is RESTRICTION_ANY:
        return True
    land = is_land(lk, area)
    if restriction is RESTRICTION_LAND:
        return land
    if restriction is RESTRICTION_SEA:
        return not land
    near = lk.adjacent[area]
    if restriction is RESTRICTION_NEAR_OWN_SEA:
        return land and any(owner(state, n) == player and not is_land(lk, n) for n in near)
    return land and any(owner(state, n) == player and is_land(lk, n) for n in near)


UNLIMITED = 1 << 30  # the supply under rules 1.0
OWNER = attrgetter("owner")


def supply(lk: Lookups, state: State, player: str) -> int:
    """Returns how many of `player`'s Force tokens are off the map (gd.build.supply).

    A Force is one token whatever its strength, and every Force taken off the map goes
    back to its owner, so the supply is the set less the Forces on the map. Rules 1.0 had
    no limit (gd.build.supply is new in 1.1): the supply never runs out.
    """
    if not lk.token_supply:
        return UNLIMITED
    # (the owners listed and counted in C: `sum(1 for f in board.values() if f.owner == player)`)
    return lk.tracks.force_tokens - list(map(OWNER, state.board.values())).count(player)


def has_supply(lk: Lookups, state: State, player: str) -> bool:
    """Returns `supply(lk, state, player) > 0`, at once while the map holds fewer Forces in
    all than a set has tokens (tests/games/global_domination/test_fast_paths.py pins it)."""
    if not lk.token_supply:
        return True
    tokens, board = lk.tracks.force_tokens, state.board
    return len(board) < tokens or list(map(OWNER, board.values())).count(player) < tokens


def build_problem(lk: Lookups, state: State, player: str, area: str) -> str | None:
    """Returns why `player` cannot Build in `area` (ignoring restrictions), or None."""
    f = state.board.get(area)
    if f is None:
        if not has_supply(lk, state, player):
            return (f"{player} has no Force token left in supply (all "
                    f"{lk.tracks.force_tokens} are on the map)")
        return None
    if f.owner != player:
        return f"{player} cannot build in {area}: it already holds {f.owner}'s Force"
    if f.full:
        return f"{player}'s Force in {area} is already Full"
    return None


def reduce_problem(state: State, player: str, area: str, target: str = "") -> str | None:
    """Returns why `player` cannot Reduce the Force in `area`, or None."""
    f = state.board.get(area)
    if f is None:
        return f"{player} cannot reduce in {area}: it holds no Force"
    if target and f.owner != target:
        return f"{player}'s Reductions fall on {target}'s Forces, and {area} is {f.owner}'s"
    if not target and f.owner == player:
        return f"{area} holds {player}'s own Force; Reductions hit opposing Forces"
    return None


def seizable(lk: Lookups, state: State, player: str, area: str) -> bool:
    """Returns whether Insurgents can take `area` for `player` (gd.card.insurgents).

    A Struggling Land Force of another player needs a token from `player`'s supply; the
    player's own comes off the map first, so its token is put back at once.
    """
    f = state.board.get(area)
    if f is None or f.full or not is_land(lk, area):
        return False
    return f.owner == player or has_supply(lk, state, player)


def build_areas(lk: Lookups, state: State, player: str, restriction: Restriction) -> list[str]:
    return [a for a in lk.areas if build_problem(lk, state, player, a) is None
            and in_zone(lk, state, player, a, restriction)]


def can_build(lk: Lookups, state: State, player: str, restriction: Restriction) -> bool:
    """Returns `bool(build_areas(...))`: whether `player` can Build anywhere, the supply
    counted once (not once per empty Area) and the search stopped at the first Area; a
    restriction that is an Area's kind alone searches the Areas of that kind, the others
    the Land Areas next to one of the player's (`possible` asks it as every step settles;
    tests/games/test_fast_paths.py pins it)."""
    board = state.board
    free = has_supply(lk, state, player)
    if restriction is RESTRICTION_ANY or restriction is RESTRICTION_LAND \
            or restriction is RESTRICTION_SEA:
        areas = lk.areas if restriction is RESTRICTION_ANY else (
            lk.land if restriction is RESTRICTION_LAND else lk.sea)
        for a in areas:
            f = board.get(a)
            if free if f is None else (f.owner == player and not f.full):
                return True
        return False
    for a in lk.land:
        f = board.get(a)
        if (free if f is None else (f.owner == player and not f.full)) \
                and in_zone(lk, state, player, a, restriction):
            return True
    return False


def reduce_areas(lk: Lookups, state: State, player: str, restriction: Restriction,
                 target: str = "") -> list[str]:
    return [a for a in state.board if reduce_problem(state, player, a, target) is None
            and in_zone(lk, state, player, a, restriction)]


def can_reduce(lk: Lookups, state: State, player: str, restriction: Restriction,
               target: str = "") -> bool:
    """Returns `bool(reduce_areas(...))`: whether `player` can Reduce anything, the search
    stopped at the first Force (`possible` asks it as every step settles;
    tests/games/global_domination/test_fast_paths.py pins it)."""
    anywhere = restriction is RESTRICTION_ANY
    for a, f in state.board.items():
        if (f.owner == target if target else f.owner != player) \
                and (anywhere or in_zone(lk, state, player, a, restriction)):
            return True
    return False


def region_monopolies(lk: Lookups, state: State, player: str) -> list[str]:
    """Returns the Regions all of whose Land Areas hold `player`'s Forces."""
    return [r for r in lk.regions if lk.in_region[r]
            and all(owner(state, a) == player for a in lk.in_region[r])]


def resource_monopolies(lk: Lookups, state: State, player: str) -> list[str]:
    """Returns the Resources all of whose Areas hold `player`'s Forces."""
    return [r for r in lk.resources if lk.with_resource[r]
            and all(owner(state, a) == player for a in lk.with_resource[r])]


def isolated(lk: Lookups, state: State, player: str) -> list[str]:
    """Returns `player`'s Forces with no other Force of theirs in an adjacent Area."""
    adj = lk.adjacent
    mine = set(areas_of(state, player))
    return sorted(a for a in mine if not adj[a] & mine)


# -- owed steps (gd.step.lapse) ---------------------------------------------------------------


def possible(lk: Lookups, state: State, h: Owed) -> bool:
    """Returns whether anything but forgoing can be done about a step (else it lapses)."""
    step = h.step  # (an `if` chain on module names: a `match` reads each Step member anew)
    if step is STEP_BUILD:
        return h.points > 0 and can_build(lk, state, h.player, h.restriction)
    if step is STEP_REDUCE:
        return h.points > 0 and can_reduce(lk, state, h.player, h.restriction, h.target)
    if step is STEP_LAND_MIX:
        return h.points > 0 and (can_build(lk, state, h.player, h.restriction)
                                 or can_reduce(lk, state, h.player, h.restriction))
    if step is STEP_REMOVE:
        return any((f := state.board.get(a)) and (h.own or f.owner != h.player)
                   for a in lk.in_region[h.region])
    if step is STEP_SEIZE:
        return h.points > 0 and any(seizable(lk, state, h.player, a) for a in state.board)
    return True


# -- cards and hands ------------------------------------------------------------------------


def holds(hand: tuple[str, ...], cards: tuple[str, ...]) -> bool:
    """Returns whether a hand holds all of `cards` (as a multiset)."""
    return all(hand.count(c) >= cards.count(c) for c in set(cards))


def has_scoring_card(lk: Lookups, state: State, player: str) -> bool:
    """Returns whether `player` holds a card they may play in the scoring step (gd.score.window)."""
    return any(lk.cards[c].timing is not TIMING_TURN for c in state.hands[player])


def view(state: State, player: str) -> State:
    """Returns the state as `player` sees it: other hands and every other Draw Deck hidden
    (how many cards, not which: seats.SECRETS). Their own Draw Deck's cards are shown, as
    they can count them (their cards less their hand and their face-up discard pile)."""
    decks = {p: d if p == player else turns.hide_deck(d) for p, d in state.decks.items()}
    return replace(state, hands=turns.hide_hands(state.hands, player), decks=decks)


def score(state: State) -> dict[str, int]:
    """Returns the running score: victory points per player (the game's `Extras.score`)."""
    return state.vp


def progress(state: State) -> str:
    """Returns where the game stands in a player's words, "turn N" ("" before the first):
    the game's `Extras.progress`."""
    return f"turn {state.game_turn}" if state.game_turn > 0 else ""
