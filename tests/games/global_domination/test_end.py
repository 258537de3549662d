"""End of Each Game Turn (scoring) and the end of the game: winners, ties; every bundled game ends."""

from __future__ import annotations

import os

import pytest
from msgspec.structs import replace

from tabletape import engine
from tabletape.games.global_domination import RULESET
from tabletape.games.global_domination.events import (
    CardPlayed,
    ScoringPassed,
    TurnEnded,
    Use,
)
from tabletape.games.global_domination.state import Phase
from tests import story
from tests.narrow import present

from .helpers import (
    PLAYERS,
    RS,
    end_turns,
    header,
    pass_all,
    refused,
    run,
    started,
    with_board,
    with_hand,
)
from .make_replays import GAMES, OUT

DOM = "Domination"


def scored(**board: str):
    state = with_board(started(), **board)
    return pass_all(state)


@pytest.mark.rule("gd.score.forces")
def test_forces_score_by_strength_and_terrain():
    # 2 Full land, 1 Struggling land, 4 Full sea, 2 Struggling sea
    state = scored(Canada="alice", Brazil="alice?", Arctic_Ocean="bob", Indian_Ocean="bob?")
    assert state.vp == {"alice": 1 + 3, "bob": 1 + 6, "carol": 1}


@pytest.mark.rule("gd.score.region")
def test_a_land_region_monopoly_scores_six():
    # alice holds all three North American Areas
    state = scored(Canada="alice?", United_States="alice?", Mexico="alice?", Brazil="bob?")
    assert state.vp["alice"] == 1 + 3 + 6 and state.vp["bob"] == 2


@pytest.mark.rule("gd.score.resource")
def test_resource_monopolies_raise_logistics_at_every_scoring():
    # Canada, Russia and Central Africa are the three Ore Areas
    ore = {"Canada": "alice?", "Russia": "alice?", "Central_Africa": "alice?"}
    state = scored(**ore)
    assert state.logistics["alice"] == 5
    state = pass_all(state)
    assert state.logistics["alice"] == 6
    # with resource_gain=once, only the first scoring counts
    state = pass_all(with_board(started(resource_gain="once"), **ore))
    state = pass_all(state)
    assert state.logistics["alice"] == 5 and state.claimed["alice"] == ("Ore",)


@pytest.mark.rule("gd.score.logistics-cap")
def test_the_logistical_track_has_a_right_end():
    # at 10 the Ore monopoly moves nothing
    state = with_board(started(), Canada="alice?", Russia="alice?", Central_Africa="alice?")
    state = pass_all(replace(state, logistics={**state.logistics, "alice": 10}))
    assert state.logistics["alice"] == 10


@pytest.mark.rule("gd.score.window")
def test_the_scoring_step_asks_every_player_in_seat_order():
    # bob holds Fog of War, alice and carol hold nothing for scoring: all three are asked
    state = with_hand(started(), "bob", "Fog of War", DOM)
    state = end_turns(state)
    assert state.phase is Phase.SCORING and present(RS.pending(state)).actor == "alice"
    # alice holds no scoring card: she is asked all the same, and may only pass
    assert present(RS.pending(state)).detail == "alice may play a scoring card or pass"
    assert list(RS.legal(state)) == [ScoringPassed(player="alice")]
    # it is her say: bob waits, and nothing else is recorded before the step ends
    assert refused(state, ScoringPassed(player="bob")) == "gd.score.window"
    assert refused(state, CardPlayed(player="bob", card="Fog of War", use=Use.TEXT)) == "gd.score.window"
    assert refused(state, TurnEnded(player="alice")) == "gd.score.window"
    state = run(state, ScoringPassed(player="alice"))
    assert present(RS.pending(state)).actor == "bob" and state.scored == ("alice",)
    # only scoring and any-time cards, for their text
    assert refused(state, CardPlayed(player="bob", card=DOM, use=Use.BUILD)) == "gd.score.window"
    assert refused(state, CardPlayed(player="bob", card="Fog of War", use=Use.BUILD)) == "gd.score.window"
    state = run(state, ScoringPassed(player="bob"))
    # carol, who holds no scoring card, is asked last; her pass ends the step
    assert state.game_turn == 1 and present(RS.pending(state)).actor == "carol"
    state = run(state, ScoringPassed(player="carol"))
    assert state.game_turn == 2 and "Fog of War" in state.hands["bob"]


@pytest.mark.rule("gd.score.window")
def test_the_scoring_step_does_not_depend_on_hands():
    # the same Game Turn, with a scoring card in one hand, in another or in none: the step's
    # decisions, whose say and what the table is told are the same
    seen = []
    for holder in ("alice", "bob", None):
        state = started()
        if holder:
            state = with_hand(state, holder, "Fog of War", DOM)
        state = end_turns(state)
        says = []
        while state.phase is Phase.SCORING:
            d = RS.pending(state)
            assert d is not None
            assert ScoringPassed(player=d.actor) in RS.legal(state)
            says.append((d.actor, d.detail, state.scored))
            state = run(state, ScoringPassed(player=d.actor))
        seen.append((says, state.game_turn))
    assert seen[0] == seen[1] == seen[2]
    assert [actor for actor, *_ in seen[0][0]] == ["alice", "bob", "carol"]


@pytest.mark.rule("gd.score.window", "gd.play.order", "gd.play.step")
def test_until_rules_1_1_players_with_no_scoring_card_were_skipped():
    # the same table judged by rules 1.1: alice and carol hold nothing for scoring, so
    # only bob is asked, and his pass ends the step
    rs = RULESET.bind(header(), "1.1")
    state = with_hand(started(), "bob", "Fog of War", DOM)
    state = story.play(rs, state, *[TurnEnded(player=p) for p in PLAYERS])
    assert state.phase is Phase.SCORING and present(rs.pending(state)).actor == "bob"
    assert state.scored == ("alice",)  # skipped: the table learns she holds none
    assert story.refusal(rs, state, ScoringPassed(player="alice")).rule == "gd.play.order"
    assert story.refusal(rs, state, TurnEnded(player="bob")).rule == "gd.play.step"
    state = story.play(rs, state, ScoringPassed(player="bob"))
    assert state.game_turn == 2 and "Fog of War" in state.hands["bob"]
    # with no scoring card anywhere, the step does not happen at all
    state = story.play(rs, started(), *[TurnEnded(player=p) for p in PLAYERS])
    assert state.game_turn == 2 and state.phase is Phase.PLAY


@pytest.mark.rule("gd.hand.carry")
def test_hands_are_kept_between_game_turns():
    # unplayed cards stay in hand by default
    state = pass_all(started())
    assert state.hands["alice"] == ("Domination",) * 4
    # with hands=discard they go to the discard pile after scoring
    state = pass_all(started(hands="discard"))
    # (and, her deck being empty, are reshuffled at once for the next draw)
    assert state.hands["alice"] == () and state.decks["alice"] == {"Domination": 4}
    assert state.steps[0].points == 4


@pytest.mark.rule("gd.turn.advance")
def test_turn_track_end_ends_the_game():
    # after the last Game Turn's scoring the marker enters End
    state = started()
    assert state.game_turn == 1
    state = pass_all(replace(state, game_turn=6))
    assert state.phase is Phase.OVER and state.game_turn == 7
    assert RS.pending(state) is None and not state.steps


def finished(vp: dict[str, int], logistics: dict[str, int] | None = None, **options):
    state = replace(started(**options), game_turn=6, vp=vp)
    if logistics:
        state = replace(state, logistics=logistics)
    return pass_all(state)


@pytest.mark.rule("gd.end.winner")
def test_most_victory_points_wins():
    # bob has the most VP when the game ends
    out = RS.outcome(finished({"alice": 10, "bob": 12, "carol": 3}))
    assert out is not None
    assert out.winners == ("bob",) and out.scores["bob"] == 12


@pytest.mark.rule("gd.end.tie")
def test_ties_are_shared_or_broken_by_logistics():
    # alice and bob tie on 12 and share the win
    out = RS.outcome(finished({"alice": 12, "bob": 12, "carol": 3}))
    assert out is not None
    assert out.winners == ("alice", "bob")
    # with ties=logistics, bob's 6 Logistics beat alice's 4
    out = RS.outcome(finished({"alice": 12, "bob": 12, "carol": 3},
                              {"alice": 4, "bob": 6, "carol": 4}, ties="logistics"))
    assert out is not None
    assert out.winners == ("bob",)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_replay_validates_and_ends(name):
    r = engine.replay(os.path.join(OUT, name))
    assert r.ok, [str(p) for p in r.problems]
    assert r.ruleset is not None and r.ruleset.outcome(r.state) is not None
