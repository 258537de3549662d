"""Shared set-up for Global Domination tests: a table past set-up, boards and hands by hand.

`RS` is the ruleset bound to a game of the bundled box: the rules read the players
and options from the state and the box from the bound `Lookups`, so one bound
ruleset judges every test's table (any player count, any options) of that box.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tabletape.games.global_domination import RULESET
from tabletape.games.global_domination.events import (
    ActionStackChosen,
    CardDrawn,
    FirstPlayerChosen,
    Options,
)
from tabletape.games.global_domination.state import Force, State
from tests import story

PLAYERS = ("alice", "bob", "carol")
STACKS = ("Airborne Forces", "Bio Weapons", "Fog of War", "Global Disruption", "Insurgents",
          "Megastorm", "Military Base", "Show of Force", "Surrender", "Tactical Nukes")


def header(players: tuple[str, ...] = PLAYERS, **options: Any):
    return RULESET.start(players, Options(**options), RULESET.default_components())


RS = RULESET.bind(header())


def run(state: State, *events) -> State:
    """Applies events one by one, each of which must be legal."""
    return story.play(RS, state, *events)


def refused(state: State, event) -> str:
    """Returns the rule id an illegal event breaks."""
    return story.refusal(RS, state, event).rule


def setup_events(players: tuple[str, ...] = PLAYERS, first: str | None = None,
                 stacks: tuple[str, ...] = STACKS) -> list:
    """Returns the set-up events and the first Game Turn's draws (4 Domination each)."""
    first = first or players[0]
    evs: list = [FirstPlayerChosen(player=first)]
    evs += [ActionStackChosen(card=c) for c in stacks]
    i = players.index(first)
    for p in players[i:] + players[:i]:
        evs += [CardDrawn(player=p, card="Domination")] * 4
    return evs


def started(players: tuple[str, ...] = PLAYERS, first: str | None = None, **options: Any) -> State:
    """Returns a table on the first Game Turn with the First Player to play."""
    return run(RS.bind(header(players, **options)).initial(), *setup_events(players, first))


def with_board(state: State, **forces: str) -> State:
    """Places Forces: area_name_with_underscores="alice" (Full) or "alice?" (Struggling)."""
    board = dict(state.board)
    for area, who in forces.items():
        board[area.replace("_", " ")] = Force(who.rstrip("?"), full=not who.endswith("?"))
    return replace(state, board=board)


def with_hand(state: State, player: str, *cards: str) -> State:
    return replace(state, hands={**state.hands, player: tuple(sorted(cards))})


def end_turns(state: State) -> State:
    """Every player still in the Game Turn ends a turn without using a card: the scoring step
    follows (under rules 1.2 it asks every player; until 1.1 it may have been skipped)."""
    from tabletape.games.global_domination.events import TurnEnded
    from tabletape.games.global_domination.state import Phase
    turn = state.game_turn
    while state.phase is Phase.PLAY and not state.steps and state.game_turn == turn:
        assert state.current is not None
        state = run(state, TurnEnded(player=state.current))
    return state


def pass_scoring(state: State) -> State:
    """Every player still to be asked in the scoring step passes, in seat order
    (gd.score.window): the Game Turn ends and the next one's draws are owed."""
    from tabletape.games.global_domination import lookups as q
    from tabletape.games.global_domination.events import ScoringPassed
    from tabletape.games.global_domination.state import Phase
    turn = state.game_turn
    while state.phase is Phase.SCORING and not state.steps and state.game_turn == turn:
        state = run(state, ScoringPassed(player=q.scorer(state) or ""))
    return state


def pass_all(state: State) -> State:
    """The Game Turn passed by everyone: every turn ended without a card, every say in the
    scoring step passed."""
    return pass_scoring(end_turns(state))
