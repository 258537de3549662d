"""Game Terms (Build, Reduction), owed points, scoring and the end of the game."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.games.global_domination.events import (
    CardPlayed,
    ForceBuilt,
    ForceReduced,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
    Use,
)
from tabletape.games.global_domination.state import Force, Phase

from .helpers import RS, pass_all, refused, run, started, with_board, with_hand

DOM = "Domination"


def building(**board: str):
    state = with_board(started(), **board)
    return run(state, CardPlayed(player="alice", card=DOM, use=Use.BUILD))


def attacking(**board: str):
    state = with_board(started(), **board)
    return run(state, CardPlayed(player="alice", card=DOM, use=Use.ATTACK))


def test_new_forces_go_into_empty_areas_only():
    # gd.build.empty: Canada is bob's, so alice cannot build there
    state = building(Canada="bob")
    assert refused(state, ForceBuilt(player="alice", area="Canada")) == "gd.build.empty"
    # an empty Area takes a new Struggling Force
    state = run(state, ForceBuilt(player="alice", area="Mexico"))
    assert state.board["Mexico"] == Force("alice", full=False)


def test_a_build_upgrades_ones_own_struggling_force():
    # gd.build.upgrade: Struggling becomes Full; Full cannot be built further
    state = building(Canada="alice?", Mexico="alice")
    state = run(state, ForceBuilt(player="alice", area="Canada"))
    assert state.board["Canada"].full
    assert refused(state, ForceBuilt(player="alice", area="Mexico")) == "gd.build.upgrade"


def test_a_reduction_struggles_then_removes():
    # gd.reduce.effect: bob's Full Force in Canada is reduced twice
    state = attacking(Canada="bob")
    state = run(state, ForceReduced(player="alice", area="Canada"))
    assert state.board["Canada"] == Force("bob", full=False)
    state = run(state, ForceReduced(player="alice", area="Canada"))
    assert "Canada" not in state.board


def test_reductions_hit_opposing_forces():
    # gd.reduce.opposing: alice cannot Reduce her own Force, nor an empty Area
    state = attacking(Canada="bob", Mexico="alice")
    assert refused(state, ForceReduced(player="alice", area="Mexico")) == "gd.reduce.opposing"
    assert refused(state, ForceReduced(player="alice", area="Brazil")) == "gd.reduce.opposing"


def test_points_may_be_forgone():
    # gd.step.forgo: alice leaves her 3 Builds unused and plays on
    state = run(building(), PointsForgone(player="alice"))
    assert state.steps == () and state.current == "alice" and state.used
    assert refused(state, PointsForgone(player="alice")) == "gd.play.step"


def test_a_step_with_nothing_to_do_lapses():
    # gd.step.lapse: no opposing Force on the map, so the Attack's Reductions lapse
    state = attacking(Mexico="alice")
    assert state.steps == () and state.current == "alice"


def scored(**board: str):
    state = with_board(started(), **board)
    return pass_all(state)


def test_forces_score_by_strength_and_terrain():
    # gd.score.forces: 2 Full land, 1 Struggling land, 4 Full sea, 2 Struggling sea
    state = scored(Canada="alice", Brazil="alice?", Arctic_Ocean="bob", Indian_Ocean="bob?")
    assert state.vp == {"alice": 1 + 3, "bob": 1 + 6, "carol": 1}


def test_a_land_region_monopoly_scores_six():
    # gd.score.region: alice holds all three North American Areas
    state = scored(Canada="alice?", United_States="alice?", Mexico="alice?", Brazil="bob?")
    assert state.vp["alice"] == 1 + 3 + 6 and state.vp["bob"] == 2


def test_resource_monopolies_raise_logistics_at_every_scoring():
    # gd.score.resource: Canada, Russia and Central Africa are the three Ore Areas
    ore = {"Canada": "alice?", "Russia": "alice?", "Central_Africa": "alice?"}
    state = scored(**ore)
    assert state.logistics["alice"] == 5
    state = pass_all(state)
    assert state.logistics["alice"] == 6
    # with resource_gain=once, only the first scoring counts
    state = pass_all(with_board(started(resource_gain="once"), **ore))
    state = pass_all(state)
    assert state.logistics["alice"] == 5 and state.claimed["alice"] == ("Ore",)


def test_the_logistical_track_has_a_right_end():
    # gd.score.logistics-cap: at 10 the Ore monopoly moves nothing
    state = with_board(started(), Canada="alice?", Russia="alice?", Central_Africa="alice?")
    state = pass_all(replace(state, logistics={**state.logistics, "alice": 10}))
    assert state.logistics["alice"] == 10


def test_the_scoring_step_offers_scoring_cards_in_seat_order():
    # gd.score.window: bob holds Fog of War, alice and carol hold nothing for scoring
    state = with_hand(started(), "bob", "Fog of War", DOM)
    state = pass_all(state)
    assert state.phase is Phase.SCORING and RS.pending(state).actor == "bob"
    # only scoring and any-time cards, for their text
    assert refused(state, CardPlayed(player="bob", card=DOM, use=Use.BUILD)) == "gd.score.window"
    assert refused(state, CardPlayed(player="bob", card="Fog of War", use=Use.BUILD)) == "gd.score.window"
    assert refused(state, ScoringPassed(player="alice")) == "gd.play.order"
    assert refused(state, TurnEnded(player="bob")) == "gd.play.step"
    state = run(state, ScoringPassed(player="bob"))
    assert state.game_turn == 2 and "Fog of War" in state.hands["bob"]


def finished(vp: dict[str, int], logistics: dict[str, int] | None = None, **options):
    state = replace(started(**options), game_turn=6, vp=vp)
    if logistics:
        state = replace(state, logistics=logistics)
    return pass_all(state)


def test_most_victory_points_wins():
    # gd.end.winner: bob has the most VP when the game ends
    out = RS.outcome(finished({"alice": 10, "bob": 12, "carol": 3}))
    assert out.winners == ("bob",) and out.scores["bob"] == 12


def test_ties_are_shared_or_broken_by_logistics():
    # gd.end.tie: alice and bob tie on 12 and share the win
    out = RS.outcome(finished({"alice": 12, "bob": 12, "carol": 3}))
    assert out.winners == ("alice", "bob")
    # with ties=logistics, bob's 6 Logistics beat alice's 4
    out = RS.outcome(finished({"alice": 12, "bob": 12, "carol": 3},
                              {"alice": 4, "bob": 6, "carol": 4}, ties="logistics"))
    assert out.winners == ("bob",)
