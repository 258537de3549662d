"""How to Win, and the end when the country deck runs out."""

from tabletape.games.liberation.events import TurnPassed
from tabletape.games.liberation.state import Phase
from tests.games.liberation.helpers import RS, at, ok

FOUR = ("ann", "bob", "cat", "dan")


def last_turn(players=("ann", "bob", "cat"), **kw):
    """ann leads Somalia (2 VP) with a Submarine; the last player's last turn is next."""
    return at(players=players, played={"ann": ("Submarine", "Airborne Brigade")}, round=2,
              turn=players[-1], **kw)


def test_ten_points_win_at_once():
    # lib.win.points: ann has 8 (Iraq, Cuba); Somalia's 2 make 10: she wins
    s = ok(last_turn(liberated={"ann": ("Iraq", "Cuba")}), TurnPassed(player="cat"))
    assert s.phase is Phase.OVER and RS.pending(s) is None
    o = RS.outcome(s)
    assert o.winners == ("ann",) and o.scores == {"ann": 10, "bob": 0, "cat": 0}
    # lib.ability.draw-two: no bonus draws once the game is won
    assert s.steps == ()


def test_nine_points_win_with_four_players():
    # lib.win.points: 7 + 2 = 9 wins at a four-player table but not at three
    lib = {"ann": ("Iraq", "Sudan")}
    s = ok(last_turn(FOUR, liberated=lib), TurnPassed(player="dan"))
    assert RS.outcome(s).winners == ("ann",)
    s = ok(last_turn(liberated=lib), TurnPassed(player="cat"))
    assert s.phase is Phase.PLAY and RS.outcome(s) is None


def test_the_victory_points_option_sets_the_target():
    # lib.win.points: with victory_points=2 Somalia alone wins
    s = ok(last_turn(victory_points=2), TurnPassed(player="cat"))
    assert RS.outcome(s).winners == ("ann",)


def test_when_the_countries_run_out_the_most_points_win():
    # lib.win.deck-out: Somalia is the last country (target set out of reach); ann takes
    # it for 8, but cat's 14 is the most
    lib = {"ann": ("Iraq", "Yemen"), "bob": ("Iran", "Syria", "Libya"),
           "cat": ("Afghanistan", "North Korea", "Cuba", "Sudan")}
    s = last_turn(liberated=lib, victory_points=40)
    assert s.countries == ()
    s = ok(s, TurnPassed(player="cat"))
    o = RS.outcome(s)
    assert o.winners == ("cat",) and o.scores == {"ann": 8, "bob": 10, "cat": 14}


def test_equal_leaders_share_the_win():
    # lib.win.deck-out: ann's Somalia brings her level with bob at 16; they share the win
    lib = {"ann": ("Iraq", "North Korea", "Yemen", "Cuba"),
           "bob": ("Iran", "Afghanistan", "Syria", "Libya", "Sudan")}
    s = ok(last_turn(("ann", "bob"), liberated=lib, victory_points=40), TurnPassed(player="bob"))
    o = RS.outcome(s)
    assert o.winners == ("ann", "bob") and o.scores == {"ann": 16, "bob": 16}
    assert "share" in o.summary
