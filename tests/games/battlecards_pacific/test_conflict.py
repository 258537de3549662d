"""Playing the Game: what each kind of Conflict card does; decks and their discards."""

from msgspec.structs import replace

from tabletape.games.battlecards_pacific import play
from tabletape.games.battlecards_pacific.components import UnitType
from tabletape.games.battlecards_pacific.events import (
    ArsenalDrawn,
    DeploymentFinished,
    UnitDeployed,
)
from tabletape.games.battlecards_pacific.state import Step

from .helpers import JAPAN, RS, US, act, discards, draw, refused, table


def test_a_plain_card_is_discarded_and_the_turn_passes():
    # bcp.conflict.discard: Monsoon has no instruction
    state = draw(table(), "Monsoon")
    assert discards(state) == ("Monsoon",)
    assert state.turn == US


def test_a_keep_card_stays_with_its_drawer():
    # bcp.conflict.keep: Radar Advantage goes face down beside alice's stacks
    state = draw(table(), "Radar Advantage")
    assert state.kept[JAPAN] == ("Radar Advantage",)
    assert discards(state) == ()
    # the opponent's view shows only that a card is kept
    assert RS.view(state, US).kept[JAPAN] == ("?",)


def test_a_draw_card_fills_the_reserve_hand_one_card_at_a_time():
    # bcp.conflict.draw: Reinforcements draws two Arsenal cards
    state = draw(table(), "Reinforcements")
    assert state.steps[0].step is Step.DRAW_ARSENAL and RS.pending(state).actor == "chance"
    state = act(state, ArsenalDrawn(player=JAPAN, unit="A6M Zero"),
                ArsenalDrawn(player=JAPAN, unit="Kagero Destroyer"))
    assert state.reserve[JAPAN] == ("A6M Zero", "Kagero Destroyer")
    assert state.turn == US


def test_a_deploy_card_allows_up_to_its_number():
    # bcp.conflict.deploy: Mobilization deploys up to two; alice stops after one
    state = draw(table(reserve={JAPAN: ("A6M Zero", "Infantry Division", "Kongo Battleship")}),
                 "Mobilization")
    state = act(state, UnitDeployed(player=JAPAN, unit="A6M Zero", stack=UnitType.AIR))
    assert refused(state, DeploymentFinished(player=US)) == "bcp.turn.order"
    state = act(state, DeploymentFinished(player=JAPAN))
    assert state.stacks[JAPAN]["Air"] == ("A6M Zero",)
    assert state.reserve[JAPAN] == ("Infantry Division", "Kongo Battleship")
    assert state.turn == US


def test_an_empty_deck_takes_its_discards_back():
    # bcp.deck.reshuffle: the Conflict deck holds one card; drawing it reshuffles the discards
    state = table()
    state = replace(state, conflict={"Pacific": {"Monsoon": 1}},
                    conflict_discard={"Pacific": ("Fog of War", "Monsoon")})
    state = draw(state, "Monsoon")
    assert state.conflict == {"Pacific": {"Fog of War": 1, "Monsoon": 2}}
    assert discards(state) == ()


def test_exhausted_decks():
    # bcp.deck.exhausted: no Arsenal card left anywhere: the draw is skipped
    state = table()
    state = replace(state, arsenal={**state.arsenal, "Japan": {}})
    state = draw(state, "Reinforcements")
    assert state.turn == US and state.reserve[JAPAN] == ()
    # and no Conflict card left anywhere: the game ends on VP
    state = replace(state, conflict={"Pacific": {}}, conflict_discard={"Pacific": ()}, vp={JAPAN: 3, US: 5})
    state = play.settle(state)
    assert RS.pending(state) is None
    assert RS.outcome(state).winners == (US,)
