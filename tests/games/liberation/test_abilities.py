"""Further Explanations: every kind of force-card ability."""

from tabletape.games.liberation.events import (
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    PlayedCardTaken,
    PlayedCardTurned,
    TurnOverAccepted,
    TurnOverPrevented,
    TurnPassed,
)
from tabletape.games.liberation.state import Step
from tests.games.liberation.helpers import RS, at, down, ok, refused, up


def test_turn_over_another_players_card():
    # lib.ability.turn-over: ann's Fighter Wing turns bob's Submarine face down
    s = at(hands={"ann": ("Fighter Wing",)}, played={"ann": ("Infantry Division",),
                                                      "bob": ("Submarine", "Stealth Bomber")})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert s.steps[0].step is Step.TURN_OVER and RS.pending(s).actor == "ann"
    # never her own card, and only face down
    assert refused(s, PlayedCardTurned(player="ann", owner="ann", slot=0)) == "lib.ability.turn-over"
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=0, face_up=True)) \
        == "lib.ability.turn-over"
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=7)) == "lib.ability.turn-over"
    # lib.ability.protected: the Stealth Bomber may not be turned over
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=1)) == "lib.ability.protected"
    s = ok(s, PlayedCardTurned(player="ann", owner="bob", slot=0))
    assert down(s, "bob") == ["Submarine"] and s.turn == "bob"


def test_an_ability_with_nothing_to_act_on_lapses():
    # lib.ability.no-target: nothing on the table to turn over; the turn passes on
    s = ok(at(hands={"ann": ("Fighter Wing",)}), ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert s.steps == () and s.turn == "bob" and up(s, "ann") == ["Fighter Wing"]


def test_turn_a_face_down_card_back_up():
    # lib.ability.turn-up: ann's AWACS turns her face-down Submarine back up
    s = at(hands={"ann": ("AWACS",)}, played={"ann": ("~Submarine",), "bob": ("Infantry Division",)})
    s = ok(s, ForceCardPlayed(player="ann", card="AWACS"))
    assert s.steps[0].step is Step.TURN_UP
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=0, face_up=True)) \
        == "lib.ability.turn-up"
    assert refused(s, PlayedCardTurned(player="ann", owner="ann", slot=0)) == "lib.ability.turn-up"
    s = ok(s, PlayedCardTurned(player="ann", owner="ann", slot=0, face_up=True))
    assert up(s, "ann") == ["Submarine", "AWACS"]


def test_all_other_players_turn_one_of_their_own_down():
    # lib.ability.all-turn-down: bob then cat each pick one of their own face-up cards;
    # ann, who played the Leaflet Drop, is spared
    s = at("Syria", hands={"ann": ("Leaflet Drop",)},
           played={"ann": ("Submarine",), "bob": ("Submarine", "Infantry Division"),
                   "cat": ("Green Berets",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Leaflet Drop"))
    assert [(o.step, o.player) for o in s.steps[:2]] == [(Step.TURN_DOWN_OWN, "bob"),
                                                        (Step.TURN_DOWN_OWN, "cat")]
    assert refused(s, PlayedCardTurned(player="bob", owner="cat", slot=0)) \
        == "lib.ability.all-turn-down"
    s = ok(s, PlayedCardTurned(player="bob", owner="bob", slot=1),
           PlayedCardTurned(player="cat", owner="cat", slot=0))
    assert down(s, "bob") == ["Infantry Division"] and down(s, "cat") == ["Green Berets"]
    assert up(s, "ann") == ["Submarine", "Leaflet Drop"] and s.turn == "bob"


def test_an_unturnable_card_escapes_a_forced_turn_down():
    # lib.ability.protected: cat has only an Aircraft Carrier, so cat's turn-down lapses
    s = at("Syria", hands={"ann": ("Leaflet Drop",)},
           played={"bob": ("Submarine",), "cat": ("Aircraft Carrier",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Leaflet Drop"),
           PlayedCardTurned(player="bob", owner="bob", slot=0))
    assert s.steps == () and up(s, "cat") == ["Aircraft Carrier"]


def test_a_prevent_card_keeps_a_card_face_up():
    # lib.ability.prevent: bob answers ann's turn-over by discarding Navy SEALs from his hand
    s = at(hands={"ann": ("Fighter Wing",), "bob": ("Navy SEALs", "Submarine")},
           played={"bob": ("Armored Division",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"),
           PlayedCardTurned(player="ann", owner="bob", slot=0))
    assert s.steps[0].step is Step.PREVENT and RS.pending(s).actor == "bob"
    assert refused(s, TurnOverPrevented(player="bob", card="Submarine")) == "lib.ability.prevent"
    assert refused(s, TurnOverPrevented(player="bob", card="Counter-Intelligence")) \
        == "lib.ability.prevent"
    s = ok(s, TurnOverPrevented(player="bob", card="Navy SEALs"))
    assert up(s, "bob") == ["Armored Division"] and s.discards == ("Navy SEALs",)
    # it cost bob no turn: his turn comes now
    assert s.turn == "bob" and s.hands["bob"] == ("Submarine",)


def test_the_owner_may_let_the_turn_over_stand():
    # lib.ability.prevent: bob keeps his prevent card and loses the Armored Division's points
    s = at(hands={"ann": ("Fighter Wing",), "bob": ("Navy SEALs",)},
           played={"bob": ("Armored Division",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"),
           PlayedCardTurned(player="ann", owner="bob", slot=0), TurnOverAccepted(player="bob"))
    assert down(s, "bob") == ["Armored Division"] and s.hands["bob"] == ("Navy SEALs",)
    # a prevent card may also be played as an ordinary card
    s = ok(s, ForceCardPlayed(player="bob", card="Navy SEALs"))
    assert up(s, "bob") == ["Navy SEALs"]


def test_a_prevent_card_answers_a_forced_turn_down():
    # lib.ability.prevent.forced: bob discards Counter-Intelligence instead of turning a card
    s = at("Syria", hands={"ann": ("Leaflet Drop",), "bob": ("Counter-Intelligence",)},
           played={"bob": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Leaflet Drop"),
           TurnOverPrevented(player="bob", card="Counter-Intelligence"))
    assert up(s, "bob") == ["Submarine"] and s.hands["bob"] == ()
    assert refused(s, TurnOverAccepted(player="bob")) == "lib.turn.step"


def test_first_card_draws_one():
    # lib.ability.first-draw: ann's Green Berets is her first card for Iraq: she draws
    s = at("Iraq", hands={"ann": ("Green Berets", "Green Berets")})
    s = ok(s, ForceCardPlayed(player="ann", card="Green Berets"))
    assert s.steps[0].step is Step.DRAW
    s = ok(s, ForceCardDrawn(player="ann", card="Submarine"))
    assert s.hands["ann"] == ("Green Berets", "Submarine") and s.turn == "bob"
    # a second Green Berets later in the country draws nothing
    s = ok(s, TurnPassed(player="bob"), TurnPassed(player="cat"),
           ForceCardPlayed(player="ann", card="Green Berets"))
    assert s.steps == () and s.turn == "bob"


def test_trade_card_for_another_players_card():
    # lib.ability.trade-card: ann's Delta Force takes bob's Aircraft Carrier into her hand
    # and lies face up in its place in bob's row
    s = at(hands={"ann": ("Delta Force",)},
           played={"ann": ("Submarine",), "bob": ("Aircraft Carrier", "~Submarine")})
    s = ok(s, ForceCardPlayed(player="ann", card="Delta Force"))
    assert s.steps[0].step is Step.TAKE
    assert refused(s, PlayedCardTaken(player="ann", owner="ann", slot=0)) == "lib.ability.trade-card"
    assert refused(s, PlayedCardTaken(player="ann", owner="bob", slot=1)) == "lib.ability.trade-card"
    s = ok(s, PlayedCardTaken(player="ann", owner="bob", slot=0))
    assert s.hands["ann"] == ("Aircraft Carrier",)
    assert up(s, "bob") == ["Delta Force"] and up(s, "ann") == ["Submarine"]


def test_trade_card_without_a_target_stays_with_its_player():
    # lib.ability.trade-card.no-target: no other face-up card: Delta Force lies in ann's row
    s = at(hands={"ann": ("Delta Force",)}, played={"bob": ("~Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Delta Force"))
    assert up(s, "ann") == ["Delta Force"] and s.turn == "bob"


def test_trade_hands():
    # lib.ability.trade-hands: ann plays Regime Defectors and swaps hands with cat
    s = at("Syria", hands={"ann": ("Regime Defectors", "Green Berets"),
                           "cat": ("Submarine", "Submarine", "Fighter Wing")})
    s = ok(s, ForceCardPlayed(player="ann", card="Regime Defectors"))
    assert refused(s, HandsTraded(player="ann", other="ann")) == "lib.ability.trade-hands"
    assert refused(s, HandsTraded(player="ann", other="zed")) == "lib.turn.order"
    s = ok(s, HandsTraded(player="ann", other="cat"))
    assert s.hands["ann"] == ("Fighter Wing", "Submarine", "Submarine")
    assert s.hands["cat"] == ("Green Berets",)
    assert up(s, "ann") == ["Regime Defectors"] and s.turn == "bob"


def test_draw_two_when_liberating_with_it_face_up():
    # lib.ability.draw-two: ann liberates with Airborne Brigade face up: two draws owed
    s = at(played={"ann": ("Airborne Brigade", "Submarine")}, round=2, turn="cat")
    s = ok(s, TurnPassed(player="cat"))
    assert [o.step for o in s.steps] == [Step.DRAW, Step.DRAW, Step.TURN_COUNTRY]
    s = ok(s, ForceCardDrawn(player="ann", card="Submarine"),
           ForceCardDrawn(player="ann", card="Submarine"))
    assert s.hands["ann"] == ("Submarine", "Submarine")
    # face down, it gives nothing
    s = at(played={"ann": ("~Airborne Brigade", "Submarine")}, round=2, turn="cat")
    s = ok(s, TurnPassed(player="cat"))
    assert [o.step for o in s.steps] == [Step.TURN_COUNTRY]


def test_effects_resolve_in_order():
    # lib.ability.order: in Iraq a Fighter Wing owes its own turn-over, then Iraq's
    s = at("Iraq", hands={"ann": ("Fighter Wing",)},
           played={"bob": ("Submarine",), "cat": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert [(o.step, o.card) for o in s.steps] == [(Step.TURN_OVER, "Fighter Wing"),
                                                  (Step.TURN_OVER, "Iraq"), (Step.END_TURN, "")]
    s = ok(s, PlayedCardTurned(player="ann", owner="bob", slot=0),
           PlayedCardTurned(player="ann", owner="cat", slot=0))
    assert down(s, "bob") == down(s, "cat") == ["Submarine"] and s.turn == "bob"
