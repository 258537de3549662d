"""How to Play: ties, the extra round, tie-break draws, and a failed liberation."""

from msgspec.structs import replace

from tabletape.games.liberation.events import ForceCardPlayed, TieBreakDrawn, TurnPassed
from tabletape.games.liberation.state import Stage, Step
from tests.games.liberation.helpers import at, ok, refused


def tied_table(**kw):
    """ann and bob tie at 3 after the last turn of Somalia's last round; cat has 1."""
    return at(played={"ann": ("Submarine",), "bob": ("Armored Division",),
                      "cat": ("Green Berets",)}, round=2, turn="cat", **kw)


def test_a_tie_gives_the_tied_players_an_extra_round():
    # lib.tie.extra-round: cat passes; ann and bob are tied, cat is out of it
    s = ok(tied_table(hands={"cat": ("Submarine",)}), TurnPassed(player="cat"))
    assert s.stage is Stage.EXTRA and s.contenders == ("ann", "bob") and s.turn == "ann"
    # cat may not play in the extra round
    s = ok(s, TurnPassed(player="ann"))
    assert refused(s, ForceCardPlayed(player="cat", card="Submarine")) == "lib.turn.order"


def test_the_extra_round_settles_it():
    # lib.tie.extra-round: bob plays one more card in the extra round and liberates
    s = ok(tied_table(hands={"bob": ("Green Berets",)}), TurnPassed(player="cat"),
           TurnPassed(player="ann"), ForceCardPlayed(player="bob", card="Green Berets"))
    assert s.liberated["bob"] == ("Somalia",)


def test_only_the_tied_players_contend_after_the_extra_round():
    # lib.tie.contenders: cat was not tied; after the extra round cat's total is ignored
    s = ok(tied_table(), TurnPassed(player="cat"))
    assert s.stage is Stage.EXTRA
    s = replace(s, played={**s.played, "cat": s.played["ann"] * 3})  # cat now shows 9
    s = ok(s, TurnPassed(player="ann"), TurnPassed(player="bob"))
    assert s.stage is Stage.TIE_BREAK and s.contenders == ("ann", "bob")


def test_still_tied_players_draw_and_the_higher_card_wins():
    # lib.tie.draw: ann draws 2 points, bob 3: bob liberates
    s = ok(tied_table(), TurnPassed(player="cat"), TurnPassed(player="ann"), TurnPassed(player="bob"))
    assert [o.step for o in s.steps] == [Step.TIE_DRAW, Step.TIE_DRAW]
    assert refused(s, TieBreakDrawn(player="bob", card="Submarine")) == "lib.turn.order"
    s = ok(s, TieBreakDrawn(player="ann", card="Infantry Division"),
           TieBreakDrawn(player="bob", card="Submarine"))
    assert s.liberated["bob"] == ("Somalia",)


def test_equal_tie_break_cards_draw_again():
    # lib.tie.draw: two 2-point cards; both draw again, and ann's 5 wins
    s = ok(tied_table(), TurnPassed(player="cat"), TurnPassed(player="ann"), TurnPassed(player="bob"),
           TieBreakDrawn(player="ann", card="Infantry Division"),
           TieBreakDrawn(player="bob", card="Fighter Wing"))
    assert s.stage is Stage.TIE_BREAK and len(s.steps) == 2
    s = ok(s, TieBreakDrawn(player="ann", card="Aircraft Carrier"),
           TieBreakDrawn(player="bob", card="Submarine"))
    assert s.liberated["ann"] == ("Somalia",)


def test_tie_break_cards_only_compare_printed_points():
    # lib.tie.no-effect: in Syria Ground cards count +1 on the table, not in a tie-break;
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


def test_a_liberation_fails_only_when_no_card_is_left_to_draw():
    # lib.tie.failed: deck and discards are empty at the tie-break: nobody takes Somalia,
    # and ann (the dealer) turns the next country
    s = tied_table()
    s = replace(s, deck={}, discards=())
    s = ok(s, TurnPassed(player="cat"), TurnPassed(player="ann"), TurnPassed(player="bob"))
    assert s.failed == ("Somalia",) and all(v == () for v in s.liberated.values())
    assert s.steps[0].step is Step.TURN_COUNTRY and s.steps[0].player == "ann"
