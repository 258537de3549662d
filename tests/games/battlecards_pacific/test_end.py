"""Winning the War, and the other ways a game ends: Total Victory by invasion, Standard Victory
on points, no BATTLECARD left to fight, the decks run out; ties on VP."""

import glob
import os

import pytest
from msgspec.structs import replace

from tabletape import engine
from tabletape.games.battlecards_pacific import reducer
from tabletape.games.battlecards_pacific.events import (
    BattleDecided,
    EmergencyDeclined,
)
from tests.narrow import present

from . import make_replays
from .helpers import (
    JAPAN,
    LK,
    RS,
    US,
    act,
    draw,
    invasion_of_japan,
    table,
)

# -- Winning the War -----------------------------------------------------------------------

@pytest.mark.rule("bcp.victory.total")
def test_total_victory_by_invasion():
    # bcp.victory.total: Japan keeps its reserve back, has no forces, and falls by default
    state = invasion_of_japan(reserve=("Infantry Division",))
    state = act(state, EmergencyDeclined(player=JAPAN))
    assert RS.pending(state) is None
    assert state.eliminated == (JAPAN,)
    assert present(RS.outcome(state)).winners == (US,)
    assert "Total Victory" in present(RS.outcome(state)).summary
    # and the Invasion of Australia does the same to the US
    state = table(stacks={JAPAN: ("Infantry Division",)},
                  won={JAPAN: ("Battle of the Coral Sea", "New Guinea")})
    state = act(draw(state, "Invasion of Australia"), BattleDecided(player=JAPAN, fight=True))
    assert state.eliminated == (US,) and present(RS.outcome(state)).winners == (JAPAN,)


@pytest.mark.rule("bcp.victory.standard")
def test_standard_victory_at_forty():
    # bcp.victory.standard: 38 VP plus Pearl Harbor's 5
    state = table(stacks={JAPAN: ("A6M Zero",)}, vp={JAPAN: 38})
    state = act(draw(state, "Pearl Harbor"), BattleDecided(player=JAPAN, fight=True))
    assert RS.pending(state) is None
    assert present(RS.outcome(state)).winners == (JAPAN,)
    assert present(RS.outcome(state)).scores == {JAPAN: 43, US: 0}


# -- the end on VP -------------------------------------------------------------------------

@pytest.mark.rule("bcp.victory.no-battles")
def test_game_ends_when_no_battle_can_be_fought():
    # bcp.victory.no-battles: Midway is the last BATTLECARD and Pearl Harbor went to the US
    state = table()
    battles = [n for n in LK.battles if n not in ("Battle of Midway", "Pearl Harbor")]
    state = replace(state, won={JAPAN: tuple(battles), US: ("Pearl Harbor",)},
                    vp={JAPAN: 30, US: 5}, steps=())
    state = reducer.settle(LK, state)
    assert RS.pending(state) is None
    assert present(RS.outcome(state)).winners == (JAPAN,)
    assert "no BATTLECARD" in present(RS.outcome(state)).summary


@pytest.mark.rule("bcp.victory.no-battles")
def test_equal_vp_at_the_end_is_a_draw():
    # bcp.victory.no-battles: the same end as above, but with equal VP nobody wins
    state = table()
    battles = [n for n in LK.battles if n not in ("Battle of Midway", "Pearl Harbor")]
    state = replace(state, won={JAPAN: tuple(battles), US: ("Pearl Harbor",)},
                    vp={JAPAN: 20, US: 20}, steps=())
    state = reducer.settle(LK, state)
    assert RS.pending(state) is None
    assert present(RS.outcome(state)).winners == () and present(RS.outcome(state)).scores == {JAPAN: 20, US: 20}


@pytest.mark.rule("bcp.deck.exhausted")
def test_exhausted_decks():
    # bcp.deck.exhausted: no Arsenal card left anywhere: the draw is skipped
    state = table()
    state = replace(state, arsenal={**state.arsenal, "Japan": {}})
    state = draw(state, "Reinforcements")
    assert state.turn == US and state.reserve[JAPAN] == ()
    # and no Conflict card left anywhere: the game ends on VP
    state = replace(state, conflict={"Pacific": {}}, conflict_discard={"Pacific": ()}, vp={JAPAN: 3, US: 5})
    state = reducer.settle(LK, state)
    assert RS.pending(state) is None
    assert present(RS.outcome(state)).winners == (US,)


# -- the recorded games --------------------------------------------------------------------

REPLAYS = sorted(glob.glob(os.path.join(make_replays.OUT, "*.jsonl")))


def test_the_replays_validate():
    assert len(REPLAYS) >= 6
    for path in REPLAYS:
        result = engine.replay(path)
        assert result.ok, (path, [str(p) for p in result.problems])
