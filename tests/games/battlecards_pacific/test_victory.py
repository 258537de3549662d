"""Emergency Deployment and Winning the War."""

from msgspec.structs import replace

from tabletape.games.battlecards_pacific import play
from tabletape.games.battlecards_pacific.events import (
    BattleDecided,
    ConflictDrawn,
    EmergencyDeclined,
    EmergencyDeployed,
)
from tabletape.games.battlecards_pacific.state import Step

from .helpers import JAPAN, RS, US, act, draw, refused, table


def test_emergency_deployment_instead_of_drawing():
    # bcp.emergency.turn: alice deploys her whole Reserve Hand and draws nothing this turn
    state = table(reserve={JAPAN: ("A6M Zero", "Infantry Division")})
    assert refused(state, ConflictDrawn(player=JAPAN, card="Monsoon")) == "bcp.emergency.turn"
    state = act(state, EmergencyDeployed(player=JAPAN, units=("A6M Zero", "Infantry Division")))
    assert state.reserve[JAPAN] == ()
    assert state.stacks[JAPAN] == {"Ground": ("Infantry Division",), "Air": ("A6M Zero",),
                                   "Sea": ()}
    assert state.turn == US and sum(state.conflict["Pacific"].values()) == 54
    # not in the middle of someone else's turn
    state = table(reserve={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)})
    assert refused(state, EmergencyDeployed(player=US, units=("F4U Corsair",))) == "bcp.turn.order"
    state = draw(state, "Reinforcements")
    assert refused(state, EmergencyDeployed(player=JAPAN, units=("A6M Zero",))) == \
        "bcp.emergency.turn"


def test_emergency_deployment_takes_the_whole_hand():
    # bcp.emergency.all: keeping one card back is not an emergency deployment
    state = table(reserve={JAPAN: ("A6M Zero", "Infantry Division")})
    ev = EmergencyDeployed(player=JAPAN, units=("A6M Zero",))
    assert refused(state, ev) == "bcp.emergency.all"


def invasion_of_japan(reserve=()):
    """bob (US) has won Iwo Jima and Okinawa and draws Invasion of Japan."""
    state = table(stacks={US: ("Marine Division",)}, reserve={JAPAN: reserve},
                  won={US: ("Iwo Jima", "Okinawa")}, vp={US: 11}, turn=US)
    state = draw(state, "Invasion of Japan")
    return act(state, BattleDecided(player=US, fight=True))


def test_emergency_deployment_when_the_homeland_is_invaded():
    # bcp.emergency.homeland: alice may put her reserve down before the forces are revealed
    state = invasion_of_japan(reserve=("Infantry Division",))
    assert state.steps[0].step is Step.HOMELAND and RS.pending(state).actor == JAPAN
    state = act(state, EmergencyDeployed(player=JAPAN, units=("Infantry Division",)))
    assert state.battle is not None
    assert state.battle.forces[JAPAN] == ("Infantry Division",)


def test_total_victory_by_invasion():
    # bcp.victory.total: Japan keeps its reserve back, has no forces, and falls by default
    state = invasion_of_japan(reserve=("Infantry Division",))
    state = act(state, EmergencyDeclined(player=JAPAN))
    assert RS.pending(state) is None
    assert state.eliminated == (JAPAN,)
    assert RS.outcome(state).winners == (US,)
    assert "Total Victory" in RS.outcome(state).summary
    # and the Invasion of Australia does the same to the US
    state = table(stacks={JAPAN: ("Infantry Division",)},
                  won={JAPAN: ("Battle of the Coral Sea", "New Guinea")})
    state = act(draw(state, "Invasion of Australia"), BattleDecided(player=JAPAN, fight=True))
    assert state.eliminated == (US,) and RS.outcome(state).winners == (JAPAN,)


def test_standard_victory_at_forty():
    # bcp.victory.standard: 38 VP plus Pearl Harbor's 5
    state = table(stacks={JAPAN: ("A6M Zero",)}, vp={JAPAN: 38})
    state = act(draw(state, "Pearl Harbor"), BattleDecided(player=JAPAN, fight=True))
    assert RS.pending(state) is None
    assert RS.outcome(state).winners == (JAPAN,)
    assert RS.outcome(state).scores == {JAPAN: 43, US: 0}


def test_game_ends_when_no_battle_can_be_fought():
    # bcp.victory.no-battles: Midway is the last BATTLECARD and Pearl Harbor went to the US
    state = table()
    battles = [n for n in play.t.idx(state).battles if n not in ("Battle of Midway",
                                                                  "Pearl Harbor")]
    state = replace(state, won={JAPAN: tuple(battles), US: ("Pearl Harbor",)},
                    vp={JAPAN: 30, US: 5}, steps=())
    state = play.settle(state)
    assert RS.pending(state) is None
    assert RS.outcome(state).winners == (JAPAN,)
    assert "no BATTLECARD" in RS.outcome(state).summary


def test_no_homeland_decision_without_a_reserve_hand():
    # bcp.emergency.homeland: with an empty Reserve Hand there is nothing to decide
    state = invasion_of_japan(reserve=())
    assert state.eliminated == (JAPAN,)
