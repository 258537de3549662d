"""Small pure queries over the BATTLECARDS state and its card set: cards, sides, decks, views.

Every function reads; none changes anything. Those that need the card set take the
bound game's `Lookups` (`lk`) first.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from msgspec.structs import replace

from tabletape.engine.kit.turns import HIDDEN, hide_deck, hide_hands

from .components import Battlecard, ConflictCard, Lookups, Unit, UnitType
from .state import Battle, State

# -- the cards ------------------------------------------------------------------------------

def unit(lk: Lookups, state: State, player: str, name: str) -> Unit:
    """Returns the Arsenal card `name` of `player`'s side."""
    return lk.units[state.sides[player]][name]


def turn(state: State) -> str:
    """Returns where the game stands in words: `turn 3`, or `the deal` before the first."""
    return f"turn {state.turns}" if state.turns else "the deal"


def card(lk: Lookups, name: str) -> ConflictCard:
    """Returns the Conflict card `name`."""
    return lk.cards[name]


def battlecard(lk: Lookups, name: str) -> Battlecard:
    """Returns what the BATTLECARD `name` says."""
    return lk.battles[name]


# -- the decks ------------------------------------------------------------------------------

def deck(lk: Lookups, state: State) -> dict[str, int]:
    """Returns the Conflict deck in play (the theatre's)."""
    return state.conflict[lk.theatre]


# -- the sides (bcp.setup.players) ------------------------------------------------------------

def players_of(state: State, side: str) -> tuple[str, ...]:
    """Returns the players of a side still in the game, in seat order."""
    return tuple(p for p in state.players if state.sides[p] == side and p not in state.eliminated)


def enemy_of(state: State, player: str) -> str | None:
    """Returns the first player still in the game on another side (bcp.setup.players)."""
    return next((p for p in state.players if state.sides[p] != state.sides[player]
                 and p not in state.eliminated), None)


def opponent(battle: Battle, player: str) -> str:
    """Returns the other player in a battle."""
    return battle.defender if player == battle.aggressor else battle.aggressor


def deployed(state: State, player: str) -> tuple[str, ...]:
    """Returns every unit in `player`'s three stacks."""
    return tuple(u for kind in UnitType for u in state.stacks[player][kind.value])


def side_won(state: State, side: str) -> set[str]:
    """Returns the BATTLECARDS held by the players of a side."""
    return {c for p in state.players if state.sides[p] == side for c in state.won[p]}


# -- what a player sees ------------------------------------------------------------------------

def view(state: State, player: str) -> State:
    """Returns the state as `player` sees it: others' hands, stacks and kept cards face
    down, and every deck as a count."""
    stacks = {p: s if p == player else {k: (HIDDEN,) * len(v) for k, v in s.items()}
              for p, s in state.stacks.items()}
    return replace(state, reserve=hide_hands(state.reserve, player),
                   kept=hide_hands(state.kept, player), stacks=stacks,
                   arsenal={s: hide_deck(d) for s, d in state.arsenal.items()},
                   conflict={th: hide_deck(d) for th, d in state.conflict.items()})


# The running score: victory points per player (the game's `Extras.score`). A getter made in C,
# not a function: a playout asks it after every event.
score: Callable[[State], dict[str, int]] = attrgetter("vp")


def progress(state: State) -> str:
    """Returns where the game stands in a player's words, "turn N" ("" before the first):
    the game's `Extras.progress`."""
    return f"turn {state.turns}" if state.turns > 0 else ""
