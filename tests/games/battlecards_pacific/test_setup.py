"""To Set Up the Game, and Playing the Game: sides, the deal, the first deployment, turns."""

import pytest

from tabletape.games.battlecards_pacific.components import UnitType
from tabletape.games.battlecards_pacific.events import (
    ArsenalDrawn,
    ConflictDrawn,
    DeploymentFinished,
    EmergencyDeclined,
    Options,
    UnitDeployed,
)
from tabletape.games.battlecards_pacific.state import Step
from tabletape.tape.errors import UsageError

from .helpers import JAPAN, RS, US, act, fresh, header, refused, table


def deal(state, player, units):
    return act(state, *(ArsenalDrawn(player=player, unit=u) for u in units))


J_HAND = ("A6M Zero", "Infantry Division", "Kongo Battleship", "Infantry Division",
          "I-Boat Submarine", "D3A Val Dive Bomber")
U_HAND = ("F4U Corsair", "Marine Division", "Iowa Battleship", "Gato Submarine",
          "M4 Sherman Tank", "SBD Dauntless")


def test_two_players_one_per_side():
    # bcp.setup.players: two players, one per side
    with pytest.raises(UsageError):
        RS.start(("alice",), Options(), RS.default_components())
    state = fresh()
    assert sorted(state.sides.values()) == ["Japan", "US"]


def test_first_named_player_is_japan_unless_the_option_says_otherwise():
    # bcp.setup.sides: default, alice (named first) is Japan and deals first
    assert fresh().sides == {JAPAN: "Japan", US: "US"}
    # with first_side=US, alice is the US, and bob (Japan) still goes first
    state = fresh(first_side="US")
    assert state.sides == {JAPAN: "US", US: "Japan"}
    assert state.order == (US, JAPAN)
    # an unknown side is refused
    with pytest.raises(UsageError, match="bcp.setup.sides"):
        header(first_side="Germany")


def test_each_player_is_dealt_six():
    # bcp.setup.deal: six Arsenal cards each, alice (Japan) first
    state = fresh()
    assert RS.pending(state).actor == "chance"
    state = deal(state, JAPAN, J_HAND)
    assert len(state.reserve[JAPAN]) == 6
    assert refused(state, ArsenalDrawn(player=JAPAN, unit="A6M Zero")) == "bcp.turn.order"
    state = deal(state, US, U_HAND)
    assert len(state.reserve[US]) == 6
    # the Arsenal decks are each side's own
    assert sum(state.arsenal["Japan"].values()) == 44 and sum(state.arsenal["US"].values()) == 44


def test_a_card_must_be_in_the_deck():
    # bcp.draw.in-deck: there are only two I-Boat Submarines in Japan's Arsenal
    state = deal(fresh(), JAPAN, ("I-Boat Submarine", "I-Boat Submarine"))
    assert refused(state, ArsenalDrawn(player=JAPAN, unit="I-Boat Submarine")) == "bcp.draw.in-deck"
    # and a US card is not in Japan's deck
    assert refused(state, ArsenalDrawn(player=JAPAN, unit="F4U Corsair")) == "bcp.draw.in-deck"


def test_three_units_deployed_at_set_up():
    # bcp.setup.deploy: exactly three are deployed; stopping early is refused
    state = deal(deal(fresh(), JAPAN, J_HAND), US, U_HAND)
    assert refused(state, DeploymentFinished(player=JAPAN)) == "bcp.setup.deploy"
    state = act(state, UnitDeployed(player=JAPAN, unit="A6M Zero", stack=UnitType.AIR),
                UnitDeployed(player=JAPAN, unit="Infantry Division", stack=UnitType.GROUND),
                UnitDeployed(player=JAPAN, unit="Infantry Division", stack=UnitType.GROUND))
    assert state.stacks[JAPAN] == {"Ground": ("Infantry Division", "Infantry Division"),
                                   "Air": ("A6M Zero",), "Sea": ()}
    assert len(state.reserve[JAPAN]) == 3
    # then it is the US player's turn to deploy
    assert RS.pending(state).actor == US


def test_units_go_only_on_their_own_stack():
    # bcp.deploy.stack: a Zero is an Air unit
    state = deal(deal(fresh(), JAPAN, J_HAND), US, U_HAND)
    ev = UnitDeployed(player=JAPAN, unit="A6M Zero", stack=UnitType.SEA)
    assert refused(state, ev) == "bcp.deploy.stack"


def test_units_come_from_the_reserve_hand():
    # bcp.deploy.in-hand: alice holds no Yamato-class anything
    state = deal(deal(fresh(), JAPAN, J_HAND), US, U_HAND)
    ev = UnitDeployed(player=JAPAN, unit="Takao Heavy Cruiser", stack=UnitType.SEA)
    assert refused(state, ev) == "bcp.deploy.in-hand"


def test_japan_opens_and_turns_alternate():
    # bcp.turn.order: after set-up, Japan (alice) draws first, then the US
    state = table(reserve={JAPAN: ("A6M Zero",)})
    assert state.turn == JAPAN and state.steps[0].step is Step.CHOOSE
    assert refused(state, EmergencyDeclined(player=US)) == "bcp.turn.order"
    state = act(state, EmergencyDeclined(player=JAPAN), ConflictDrawn(player=JAPAN, card="Monsoon"))
    assert state.turn == US


def test_owed_steps_come_first():
    # bcp.turn.step: nobody draws a Conflict card during the deal
    state = fresh()
    assert refused(state, ConflictDrawn(player=JAPAN, card="Monsoon")) == "bcp.turn.step"
