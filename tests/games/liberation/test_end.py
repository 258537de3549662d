"""How to Win and the ties: the winning points, the end when the countries run out, the
extra round, tie-break draws, a failed liberation; the recorded games end as they should.
"""

from __future__ import annotations

import glob
import os

import pytest
from msgspec.structs import replace

from tabletape import engine
from tabletape.games.liberation.events import ForceCardPlayed, TieBreakDrawn, TurnPassed
from tabletape.games.liberation.state import Phase, Stage, Step
from tests.games.liberation.helpers import REPLAYS as HERE
from tests.games.liberation.helpers import RS, at, ok, refused, replay, sentences
from tests.narrow import present

FOUR = ("ann", "bob", "cat", "dan")


def last_turn(players=("ann", "bob", "cat"), **kw):
    """ann leads Somalia (2 VP) with a Submarine; the last player's last turn is next."""
    return at(players=players, played={"ann": ("Submarine", "Airborne Brigade")}, round=2,
              turn=players[-1], **kw)


@pytest.mark.rule("lib.win.points", "lib.ability.draw-two")
def test_ten_points_win_at_once():
    # ann has 8 (Iraq, Cuba); Somalia's 2 make 10: she wins
    s = ok(last_turn(liberated={"ann": ("Iraq", "Cuba")}), TurnPassed(player="cat"))
    assert s.phase is Phase.OVER and RS.pending(s) is None
    o = RS.outcome(s)
    assert o is not None
    assert o.winners == ("ann",) and o.scores == {"ann": 10, "bob": 0, "cat": 0}
    # no bonus draws once the game is won
    assert s.steps == ()


@pytest.mark.rule("lib.win.points")
def test_nine_points_win_with_four_players():
    # 7 + 2 = 9 wins at a four-player table but not at three
    lib = {"ann": ("Iraq", "Sudan")}
    s = ok(last_turn(FOUR, liberated=lib), TurnPassed(player="dan"))
    assert present(RS.outcome(s)).winners == ("ann",)
    s = ok(last_turn(liberated=lib), TurnPassed(player="cat"))
    assert s.phase is Phase.PLAY and RS.outcome(s) is None


@pytest.mark.rule("lib.win.points")
def test_the_victory_points_option_sets_the_target():
    # with victory_points=2 Somalia alone wins
    s = ok(last_turn(victory_points=2), TurnPassed(player="cat"))
    assert present(RS.outcome(s)).winners == ("ann",)


@pytest.mark.rule("lib.win.deck-out")
def test_when_the_countries_run_out_the_most_points_win():
    # Somalia is the last country (target set out of reach); ann takes
    # it for 8, but cat's 14 is the most
    lib = {"ann": ("Iraq", "Yemen"), "bob": ("Iran", "Syria", "Libya"),
           "cat": ("Afghanistan", "North Korea", "Cuba", "Sudan")}
    s = last_turn(liberated=lib, victory_points=40)
    assert s.countries == ()
    s = ok(s, TurnPassed(player="cat"))
    o = RS.outcome(s)
    assert o is not None
    assert o.winners == ("cat",) and o.scores == {"ann": 8, "bob": 10, "cat": 14}


@pytest.mark.rule("lib.win.deck-out")
def test_equal_leaders_share_the_win():
    # ann's Somalia brings her level with bob at 16; they share the win
    lib = {"ann": ("Iraq", "North Korea", "Yemen", "Cuba"),
           "bob": ("Iran", "Afghanistan", "Syria", "Libya", "Sudan")}
    s = ok(last_turn(("ann", "bob"), liberated=lib, victory_points=40), TurnPassed(player="bob"))
    o = RS.outcome(s)
    assert o is not None
    assert o.winners == ("ann", "bob") and o.scores == {"ann": 16, "bob": 16}
    assert "share" in o.summary


def tied_table(**kw):
    """ann and bob tie at 3 after the last turn of Somalia's last round; cat has 1."""
    return at(played={"ann": ("Submarine",), "bob": ("Armored Division",),
                      "cat": ("Green Berets",)}, round=2, turn="cat", **kw)


@pytest.mark.rule("lib.tie.extra-round", "lib.turn.order")
def test_a_tie_gives_the_tied_players_an_extra_round():
    # cat passes; ann and bob are tied, cat is out of it
    s = ok(tied_table(hands={"cat": ("Submarine",)}), TurnPassed(player="cat"))
    assert s.stage is Stage.EXTRA and s.contenders == ("ann", "bob") and s.turn == "ann"
    # cat may not play in the extra round
    s = ok(s, TurnPassed(player="ann"))
    assert refused(s, ForceCardPlayed(player="cat", card="Submarine")) == "lib.turn.order"


@pytest.mark.rule("lib.tie.extra-round")
def test_the_extra_round_settles_it():
    # bob plays one more card in the extra round and liberates
    s = ok(tied_table(hands={"bob": ("Green Berets",)}), TurnPassed(player="cat"),
           TurnPassed(player="ann"), ForceCardPlayed(player="bob", card="Green Berets"))
    assert s.liberated["bob"] == ("Somalia",)


def yemen_tie(**options):
    """ann and bob tie at 3 in Yemen's only round (cat passed); the extra round begins."""
    s = at("Yemen", played={"ann": ("Submarine",), "bob": ("Armored Division",)}, turn="cat",
           hands={"ann": ("Infantry Division", "Green Berets"),
                  "bob": ("Infantry Division", "Submarine")}, **options)
    s = ok(s, TurnPassed(player="cat"))
    assert s.stage is Stage.EXTRA and s.turn == "ann"
    return s


@pytest.mark.rule("lib.tie.double-play", "lib.country.double-play")
def test_yemen_extra_round_keeps_two_cards_by_default():
    # in Yemen's extra round ann still may play two cards in her turn
    s = ok(yemen_tie(), ForceCardPlayed(player="ann", card="Infantry Division"))
    assert s.steps[0].step is Step.SECOND and present(RS.pending(s)).actor == "ann"
    s = ok(s, ForceCardPlayed(player="ann", card="Green Berets"))
    assert s.turn == "bob" and s.plays["ann"] == 3


@pytest.mark.rule("lib.opt.tie-one-card")
def test_option_one_card_limits_yemen_extra_round_to_one_card():
    # with double_play_tie=one_card ann's turn ends after one card
    s = ok(yemen_tie(double_play_tie="one_card"),
           ForceCardPlayed(player="ann", card="Infantry Division"))
    assert s.turn == "bob" and s.steps == ()
    assert refused(s, ForceCardPlayed(player="ann", card="Green Berets")) == "lib.turn.order"
    # bob plays one card too and the tie is broken by it: 3 + 3 against ann's 3 + 2
    s = ok(s, ForceCardPlayed(player="bob", card="Submarine"))
    assert s.liberated["bob"] == ("Yemen",)
    # in Yemen's ordinary round the option changes nothing: two cards as ever
    s = at("Yemen", hands={"ann": ("Submarine", "Infantry Division")}, double_play_tie="one_card")
    s = ok(s, ForceCardPlayed(player="ann", card="Submarine"))
    assert s.steps[0].step is Step.SECOND


@pytest.mark.rule("lib.tie.contenders")
def test_only_the_tied_players_contend_after_the_extra_round():
    # cat was not tied; after the extra round cat's total is ignored
    s = ok(tied_table(), TurnPassed(player="cat"))
    assert s.stage is Stage.EXTRA
    s = replace(s, played={**s.played, "cat": s.played["ann"] * 3})  # cat now shows 9
    s = ok(s, TurnPassed(player="ann"), TurnPassed(player="bob"))
    assert s.stage is Stage.TIE_BREAK and s.contenders == ("ann", "bob")


@pytest.mark.rule("lib.tie.draw", "lib.turn.order")
def test_still_tied_players_draw_and_the_higher_card_wins():
    # ann draws 2 points, bob 3: bob liberates
    s = ok(tied_table(), TurnPassed(player="cat"), TurnPassed(player="ann"), TurnPassed(player="bob"))
    assert [o.step for o in s.steps] == [Step.TIE_DRAW, Step.TIE_DRAW]
    assert refused(s, TieBreakDrawn(player="bob", card="Submarine")) == "lib.turn.order"
    s = ok(s, TieBreakDrawn(player="ann", card="Infantry Division"),
           TieBreakDrawn(player="bob", card="Submarine"))
    assert s.liberated["bob"] == ("Somalia",)


@pytest.mark.rule("lib.tie.draw")
def test_equal_tie_break_cards_draw_again():
    # two 2-point cards; both draw again, and ann's 5 wins
    s = ok(tied_table(), TurnPassed(player="cat"), TurnPassed(player="ann"), TurnPassed(player="bob"),
           TieBreakDrawn(player="ann", card="Infantry Division"),
           TieBreakDrawn(player="bob", card="Fighter Wing"))
    assert s.stage is Stage.TIE_BREAK and len(s.steps) == 2
    s = ok(s, TieBreakDrawn(player="ann", card="Aircraft Carrier"),
           TieBreakDrawn(player="bob", card="Submarine"))
    assert s.liberated["ann"] == ("Somalia",)


@pytest.mark.rule("lib.tie.no-effect")
def test_tie_break_cards_only_compare_printed_points():
    # in Syria Ground cards count +1 on the table, not in a tie-break;
    # the Fighter Wing drawn turns nothing over; both cards are discarded afterwards
    s = at("Syria", played={"ann": ("Submarine",), "bob": ("Armored Division",)}, round=3,
           turn="cat")
    s = ok(s, TurnPassed(player="cat"))  # ann 3, bob 3 + 1 = 4: bob liberates
    assert s.liberated["bob"] == ("Syria",)
    s = at("Syria", played={"ann": ("Aircraft Carrier",), "bob": ("Armored Division",
                                                                    "Green Berets")},
           round=3, turn="cat")
    s = ok(s, TurnPassed(player="cat"), TurnPassed(player="ann"), TurnPassed(player="bob"),
           TieBreakDrawn(player="ann", card="Fighter Wing"),
           TieBreakDrawn(player="bob", card="Infantry Division"))
    assert s.stage is Stage.TIE_BREAK  # 2 against 2: the Ground bonus does not count
    s = ok(s, TieBreakDrawn(player="ann", card="Fighter Wing"),
           TieBreakDrawn(player="bob", card="Submarine"))
    assert s.liberated["bob"] == ("Syria",)
    assert s.discards.count("Fighter Wing") == 2 and "Infantry Division" in s.discards


@pytest.mark.rule("lib.tie.failed")
def test_a_liberation_fails_only_when_no_card_is_left_to_draw():
    # deck and discards are empty at the tie-break: nobody takes Somalia,
    # and ann (the dealer) turns the next country
    s = tied_table()
    s = replace(s, deck={}, discards=())
    s = ok(s, TurnPassed(player="cat"), TurnPassed(player="ann"), TurnPassed(player="bob"))
    assert s.failed == ("Somalia",) and all(v == () for v in s.liberated.values())
    assert s.steps[0].step is Step.TURN_COUNTRY and s.steps[0].player == "ann"


def test_every_replay_validates_and_ends():
    paths = glob.glob(os.path.join(HERE, "*.jsonl"))
    assert len(paths) >= 6
    for path in paths:
        r = engine.replay(path)
        assert r.ok, [str(p) for p in r.problems]
        assert RS.outcome(r.state) is not None, path


@pytest.mark.rule("lib.win.points")
def test_the_four_player_game_is_won_at_nine():
    # nine points win at a four-player table
    o = RS.outcome(replay("four-players-won-at-nine.jsonl").state)
    assert o is not None
    assert len(o.winners) == 1 and o.scores[o.winners[0]] == 9


@pytest.mark.rule("lib.tie.extra-round", "lib.tie.draw")
def test_ties_in_the_replays():
    # lib.tie.extra-round in Yemen, lib.tie.draw in Libya
    assert "bob turns up Syria" in sentences("yemen-extra-round.jsonl")[26]
    draws = [s for s in sentences("tie-break-draws.jsonl") if "break the tie" in s]
    assert len(draws) >= 4
