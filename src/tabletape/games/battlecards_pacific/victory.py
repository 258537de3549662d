"""BATTLECARDS Pacific, Winning the War: Total Victory by an invasion, Standard Victory on
points, the end on VP when no BATTLECARD can still be fought or the Conflict deck runs out,
and the game's outcome. The reducer's battle and turn flow call these.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine import Outcome

from . import lookups as q
from .components import Lookups
from .state import Result, State


def victory(lk: Lookups, state: State, winner: str, eliminates: str | None) -> State:
    """Winning the War: Total Victory by an invasion (bcp.victory.total), or Standard
    Victory on points (bcp.victory.standard)."""
    if eliminates is not None and state.sides[winner] != eliminates:
        out = tuple(p for p in state.players if state.sides[p] == eliminates)
        state = replace(state, eliminated=tuple(dict.fromkeys(state.eliminated + out)))
        left = {state.sides[p] for p in state.players if p not in state.eliminated}
        if len(left) == 1:
            survivors = tuple(p for p in state.players if p not in state.eliminated)
            return replace(state, result=Result(survivors, f"Total Victory: {eliminates} is "
                                                f"eliminated by the loss of its homeland"))
    goal = lk.rules.standard_victory
    if state.vp[winner] >= goal:
        return replace(state, result=Result((winner,), f"Standard Victory: {winner} holds "
                                            f"{state.vp[winner]} VP (needs {goal})"))
    return state


def some_battle_live(lk: Lookups, state: State) -> bool:
    """Returns whether some BATTLECARD not yet won can still have its prerequisites met
    (it stops at the first one; `bcp.victory.no-battles` asks only whether there is one)."""
    held = {c for p in state.players for c in state.won[p]}
    memo: dict[str, bool] = {}
    won: dict[str, set[str]] = {}

    def won_by(side: str) -> set[str]:  # once per side, not once per BATTLECARD
        if side not in won:
            won[side] = q.side_won(state, side)
        return won[side]

    def live(name: str) -> bool:
        if name in memo:
            return memo[name]
        memo[name] = False  # a cycle of prerequisites can never be met
        bc = lk.battles[name]
        ours = won_by(bc.aggressor)
        ok = name not in held and all(r in ours or (r not in held and live(r))
                                      for r in bc.requires)
        memo[name] = ok
        return ok

    return any(live(n) for n in lk.battles)


# bcp.victory.no-battles is asked as every turn passes; its answer depends only on who has won
# which BATTLECARD (`state.won`: a new dict only when a battle is won), the seats and the card
# set. So the last answer is kept with those very objects and given again while they are the
# same ones (identity, not equality; holding them keeps their ids from being reused).
# tests/games/test_fast_paths.py pins it to `some_battle_live`.
_last_live: tuple[object, object, object, object, bool] = (None, None, None, None, True)


def battle_live(lk: Lookups, state: State) -> bool:
    """Returns `some_battle_live(lk, state)`, from the last answer when it is the same game."""
    global _last_live
    last = _last_live  # read once: another thread may replace it, never half of it
    if last[0] is state.won and last[1] is state.sides and last[2] is state.players \
            and last[3] is lk:
        return last[4]
    live = some_battle_live(lk, state)
    _last_live = (state.won, state.sides, state.players, lk, live)
    return live


def on_points(state: State, why: str) -> State:
    """Ends the game on VP: the most VP wins; equal VP is a draw."""
    best = max(state.vp.values())
    top = tuple(p for p in state.players if state.vp[p] == best and p not in state.eliminated)
    winners = top if len(top) == 1 else ()
    return replace(state, steps=(), result=Result(winners, f"{why}; decided on VP"))


def outcome(lk: Lookups, state: State) -> Outcome | None:
    """Returns the winners and VP once the game is over."""
    if state.result is None:
        return None
    return Outcome(state.result.winners, dict(state.vp), state.result.how)
