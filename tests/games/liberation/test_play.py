"""How to Play and Further Explanations: turns, rounds, the count, countries' instructions
and every kind of force-card ability.
"""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from tabletape.games.liberation import RULESET, lookups
from tabletape.games.liberation.components import Ability, ForceCard, problems
from tabletape.games.liberation.events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    Options,
    PlayedCardTaken,
    PlayedCardTurned,
    TurnOverAccepted,
    TurnOverDeclined,
    TurnOverPrevented,
    TurnPassed,
)
from tabletape.games.liberation.state import Owed, Stage, Step
from tests import story
from tests.games.liberation.helpers import LK, RS, at, down, ok, refused, settled, up
from tests.narrow import present


@pytest.mark.rule("lib.turn.order")
def test_only_the_player_in_turn_plays():
    # it is ann's turn; bob's play is refused
    s = at(hands={"bob": ("Submarine",)})
    assert refused(s, ForceCardPlayed(player="bob", card="Submarine")) == "lib.turn.order"
    assert refused(s, TurnPassed(player="bob")) == "lib.turn.order"


@pytest.mark.rule("lib.play.in-hand")
def test_a_card_comes_from_the_hand():
    # ann holds no Aircraft Carrier
    s = at(hands={"ann": ("Submarine",)})
    assert refused(s, ForceCardPlayed(player="ann", card="Aircraft Carrier")) == "lib.play.in-hand"
    # the card she does hold goes face up in front of her
    s = ok(s, ForceCardPlayed(player="ann", card="Submarine"))
    assert up(s, "ann") == ["Submarine"] and s.hands["ann"] == () and s.turn == "bob"


@pytest.mark.rule("lib.play.pass")
def test_a_pass_uses_the_turn_even_with_an_empty_hand():
    # ann has no cards; passing is her only choice and bob is next
    s = at()
    assert list(RS.legal(s)) == [TurnPassed(player="ann")]
    s = ok(s, TurnPassed(player="ann"))
    assert s.turn == "bob"


@pytest.mark.rule("lib.round.count")
def test_as_many_rounds_as_the_country_is_worth():
    # Somalia is worth 2: six passes by three players end the country
    s = at(played={"bob": ("Submarine",)})
    for _ in range(2):
        assert s.country == "Somalia"
        s = ok(s, *(TurnPassed(player=p) for p in ("ann", "bob", "cat")))
    assert s.country is None and s.liberated["bob"] == ("Somalia",)


@pytest.mark.rule("lib.liberate.highest")
def test_the_highest_face_up_total_liberates():
    # ann's 3 beats bob's 2 in the last turn of the last round
    s = at(played={"ann": ("Submarine",), "bob": ("Infantry Division",)}, round=2, turn="cat")
    s = ok(s, TurnPassed(player="cat"))
    assert s.liberated["ann"] == ("Somalia",)


@pytest.mark.rule("lib.ability.face-down")
def test_face_down_cards_count_nothing():
    # bob's face-down Aircraft Carrier adds nothing; ann's 2 wins
    s = at(played={"ann": ("Infantry Division",), "bob": ("~Aircraft Carrier",)},
           round=2, turn="cat")
    s = ok(s, TurnPassed(player="cat"))
    assert s.liberated["ann"] == ("Somalia",)


@pytest.mark.rule("lib.country.discard", "lib.hand.keep")
def test_after_a_country_the_table_is_discarded_and_hands_kept():
    # played cards go, cat's hand stays
    s = at(played={"ann": ("Submarine",), "bob": ("~Infantry Division",)},
           hands={"cat": ("Green Berets",)}, round=2, turn="cat")
    s = ok(s, TurnPassed(player="cat"))
    assert s.discards == ("Infantry Division", "Submarine")
    assert all(row == () for row in s.played.values())
    assert s.hands["cat"] == ("Green Berets",)


@pytest.mark.rule("lib.country.next", "lib.turn.lead-next", "lib.turn.order", "lib.hand.keep")
def test_the_liberator_turns_and_deals_the_next_country():
    # ann liberates, turns Yemen, bob leads
    s = at(played={"ann": ("Submarine",)}, round=2, turn="cat", hands={"cat": ("Green Berets",)})
    s = ok(s, TurnPassed(player="cat"))
    assert s.steps[0].step is Step.TURN_COUNTRY and s.steps[0].player == "ann"
    assert refused(s, CountryTurned(player="bob", country="Yemen")) == "lib.turn.order"
    s = ok(s, CountryTurned(player="ann", country="Yemen"),
           ForceCardDealt(player="bob", card="Submarine"),
           ForceCardDealt(player="cat", card="Submarine"),
           ForceCardDealt(player="ann", card="Submarine"))
    assert s.turn == "bob" and s.contenders == ("bob", "cat", "ann")
    # the new card adds to the one cat kept; no hand limit
    assert s.hands["cat"] == ("Green Berets", "Submarine")


@pytest.mark.rule("lib.deck.refresh")
def test_an_empty_deck_takes_the_discards_back():
    # the deck is empty; the owed deal reshuffles the discards
    s = ok(at(), TurnPassed(player="ann"))
    s = replace(s, deck={}, discards=("Submarine", "Submarine"), stage=Stage.DEAL,
                steps=(Owed(Step.DEAL, "bob"),))
    s = settled(s)
    assert s.deck == {"Submarine": 2} and s.discards == ()
    assert list(RS.legal(s)) == [ForceCardDealt(player="bob", card="Submarine")]


@pytest.mark.rule("lib.deck.exhausted")
def test_nothing_left_to_deal_is_skipped():
    # deck and discards empty; the deal lapses and play starts
    s = replace(at(), deck={}, discards=(), stage=Stage.DEAL, steps=(Owed(Step.DEAL, "bob"),))
    s = settled(s)
    assert s.stage is Stage.ROUNDS and s.hands["bob"] == ()


@pytest.mark.rule("lib.country.trigger")
def test_an_instruction_applies_only_to_its_country():
    # a Stealth Bomber turns nothing over in Syria, but does in Iraq
    hands: dict[str, tuple[str, ...]] = {"ann": ("Stealth Bomber",)}
    played: dict[str, tuple[str, ...]] = {"bob": ("Submarine",)}
    s = ok(at("Syria", hands=hands, played=played),
           ForceCardPlayed(player="ann", card="Stealth Bomber"))
    assert s.steps == () and s.turn == "bob"
    s = ok(at("Iraq", hands=hands, played=played),
           ForceCardPlayed(player="ann", card="Stealth Bomber"))
    assert s.steps[0].step is Step.TURN_DOWN and s.steps[0].card == "Iraq"


@pytest.mark.rule("lib.country.turn-over-type")
def test_iraq_aircraft_turn_a_card_over():
    # ann's Close Air Support in Iraq turns cat's Submarine face down
    s = at("Iraq", hands={"ann": ("Close Air Support",)},
           played={"bob": ("~Infantry Division",), "cat": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Close Air Support"))
    assert s.steps[0].step is Step.TURN_DOWN
    # Iraq's instruction only turns cards face down, and never her own
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=0, face_up=True)) \
        == "lib.country.turn-over-type"
    assert refused(s, PlayedCardTurned(player="ann", owner="ann", slot=0)) == "lib.ability.turn-over"
    s = ok(s, PlayedCardTurned(player="ann", owner="cat", slot=0), TurnOverAccepted(player="cat"))
    assert down(s, "cat") == ["Submarine"]


@pytest.mark.rule("lib.country.turn-over-type", "lib.opt.turn-over-optional")
def test_iraq_turn_over_stays_compulsory_when_turn_overs_are_optional():
    # with option turn_over=optional, ann still may not skip Iraq's turn-down
    s = at("Iraq", hands={"ann": ("Stealth Bomber",)}, played={"bob": ("Submarine",)},
           turn_over="optional")
    s = ok(s, ForceCardPlayed(player="ann", card="Stealth Bomber"))
    assert s.steps[0].step is Step.TURN_DOWN
    assert refused(s, TurnOverDeclined(player="ann")) == "lib.turn.step"


@pytest.mark.rule("lib.country.double-play", "lib.turn.order")
def test_yemen_allows_a_second_card():
    # ann plays two cards in one turn; bob plays one and stops
    s = at("Yemen", hands={"ann": ("Submarine", "Infantry Division"),
                           "bob": ("Submarine", "Submarine")})
    s = ok(s, ForceCardPlayed(player="ann", card="Submarine"))
    assert s.steps[0].step is Step.SECOND and present(RS.pending(s)).actor == "ann"
    assert refused(s, ForceCardPlayed(player="bob", card="Submarine")) == "lib.turn.order"
    s = ok(s, ForceCardPlayed(player="ann", card="Infantry Division"))
    assert up(s, "ann") == ["Submarine", "Infantry Division"] and s.turn == "bob"
    s = ok(s, ForceCardPlayed(player="bob", card="Submarine"), TurnPassed(player="bob"))
    assert up(s, "bob") == ["Submarine"] and s.turn == "cat"


@pytest.mark.rule("lib.country.double-play.second", "lib.turn.step")
def test_yemen_second_card_after_the_first_settles():
    # the Fighter Wing's target comes before the second
    # card; a trade-hands card ends the turn at once
    s = at("Yemen", hands={"ann": ("Fighter Wing", "Submarine")}, played={"bob": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert refused(s, ForceCardPlayed(player="ann", card="Submarine")) == "lib.turn.step"
    s = ok(s, PlayedCardTurned(player="ann", owner="bob", slot=0), TurnOverAccepted(player="bob"))
    assert s.steps[0].step is Step.SECOND
    s = at("Yemen", hands={"ann": ("Regime Defectors", "Submarine")})
    s = ok(s, ForceCardPlayed(player="ann", card="Regime Defectors"),
           HandsTraded(player="ann", other="bob"))
    assert s.turn == "bob" and s.hands["bob"] == ("Submarine",)


@pytest.mark.rule("lib.country.bonus-type")
def test_bonus_points_for_a_type():
    # in Syria a face-up Infantry Division counts 3, not 2
    s = at("Syria", played={"ann": ("Infantry Division", "~Armored Division")})
    assert lookups.total(LK, s, "ann") == 3
    assert lookups.total(LK, at("Somalia", played={"ann": ("Infantry Division",)}), "ann") == 2


@pytest.mark.rule("lib.country.draw-type")
def test_draw_for_a_type():
    # in Sudan each Commando played draws a card
    s = at("Sudan", hands={"ann": ("Navy SEALs",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Navy SEALs"))
    assert s.steps[0].step is Step.DRAW and s.steps[0].card == "Sudan"
    s = ok(s, ForceCardDrawn(player="ann", card="Submarine"))
    assert s.hands["ann"] == ("Submarine",)


@pytest.mark.rule("lib.country.forbid-type")
def test_forbidden_type():
    # no Ship may be played in Afghanistan
    s = at("Afghanistan", hands={"ann": ("Submarine", "Infantry Division")})
    assert refused(s, ForceCardPlayed(player="ann", card="Submarine")) == "lib.country.forbid-type"
    assert ForceCardPlayed(player="ann", card="Infantry Division") in list(RS.legal(s))


@pytest.mark.rule("lib.ability.turn-over", "lib.ability.protected")
def test_turn_over_another_players_card():
    # ann's Fighter Wing turns bob's Submarine face down
    s = at(hands={"ann": ("Fighter Wing",)}, played={"ann": ("Infantry Division",),
                                                      "bob": ("Submarine", "Stealth Bomber")})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert s.steps[0].step is Step.TURN_OVER and present(RS.pending(s)).actor == "ann"
    # never her own card face down, and a face-up card does not go "back up"
    assert refused(s, PlayedCardTurned(player="ann", owner="ann", slot=0)) == "lib.ability.turn-over"
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=0, face_up=True)) \
        == "lib.ability.turn-up"
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=7)) == "lib.ability.turn-over"
    # the Stealth Bomber may not be turned over
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=1)) == "lib.ability.protected"
    s = ok(s, PlayedCardTurned(player="ann", owner="bob", slot=0), TurnOverAccepted(player="bob"))
    assert down(s, "bob") == ["Submarine"] and s.turn == "bob"


@pytest.mark.rule("lib.ability.no-target")
def test_an_ability_with_nothing_to_act_on_lapses():
    # nothing on the table to turn over; the turn passes on
    s = ok(at(hands={"ann": ("Fighter Wing",)}), ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert s.steps == () and s.turn == "bob" and up(s, "ann") == ["Fighter Wing"]


@pytest.mark.rule("lib.ability.turn-up")
def test_further_explanations_a_turn_over_turns_a_face_down_card_back_up():
    # bob's Fighter Wing turns his own face-down Submarine back up
    s = at(hands={"bob": ("Fighter Wing",)}, turn="bob",
           played={"ann": ("Infantry Division",), "bob": ("~Submarine", "Infantry Division")})
    s = ok(s, ForceCardPlayed(player="bob", card="Fighter Wing"))
    assert s.steps[0].step is Step.TURN_OVER
    # a face-up card cannot go back up; a face-down one cannot go down again
    assert refused(s, PlayedCardTurned(player="bob", owner="bob", slot=1, face_up=True)) \
        == "lib.ability.turn-up"
    assert refused(s, PlayedCardTurned(player="bob", owner="bob", slot=0)) == "lib.ability.turn-over"
    s = ok(s, PlayedCardTurned(player="bob", owner="bob", slot=0, face_up=True))
    assert up(s, "bob") == ["Submarine", "Infantry Division", "Fighter Wing"]
    assert lookups.total(LK, s, "bob") == 7 and s.turn == "cat"


@pytest.mark.rule("lib.ability.turn-up")
def test_further_explanations_a_card_goes_down_and_up_again_in_one_round():
    # ann turns bob's Submarine down, bob turns it back up, cat turns it down again
    s = at(hands={"ann": ("Fighter Wing",), "bob": ("Destroyer Squadron",),
                  "cat": ("Fighter Wing",)}, played={"bob": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"),
           PlayedCardTurned(player="ann", owner="bob", slot=0), TurnOverAccepted(player="bob"))
    assert down(s, "bob") == ["Submarine"]
    # bob's Destroyer Squadron turns two: his Submarine back up, then ann's Fighter Wing down
    s = ok(s, ForceCardPlayed(player="bob", card="Destroyer Squadron"),
           PlayedCardTurned(player="bob", owner="bob", slot=0, face_up=True),
           PlayedCardTurned(player="bob", owner="ann", slot=0), TurnOverAccepted(player="ann"))
    assert up(s, "bob") == ["Submarine", "Destroyer Squadron"] and down(s, "ann") == ["Fighter Wing"]
    # cat may turn the Submarine down again, or ann's Fighter Wing back up
    s = ok(s, ForceCardPlayed(player="cat", card="Fighter Wing"))
    assert PlayedCardTurned(player="cat", owner="ann", slot=0, face_up=True) in list(RS.legal(s))
    s = ok(s, PlayedCardTurned(player="cat", owner="bob", slot=0), TurnOverAccepted(player="bob"))
    assert down(s, "bob") == ["Submarine"]


@pytest.mark.rule("lib.ability.turn-up", "lib.ability.prevent")
def test_turning_a_card_back_up_is_not_answered_by_a_prevent_card():
    # bob holds Navy SEALs, but ann turning his face-down card up opens no prevent window
    s = at(hands={"ann": ("Fighter Wing",), "bob": ("Navy SEALs",)},
           played={"bob": ("~Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"),
           PlayedCardTurned(player="ann", owner="bob", slot=0, face_up=True))
    assert s.steps == () and up(s, "bob") == ["Submarine"] and s.turn == "bob"


@pytest.mark.rule("lib.ability.turn-up.cards")
def test_no_card_only_turns_cards_up():
    # the default deck has no turn_up card
    comp = RULESET.default_components()
    assert not {c.name for c in comp.cards} & {"AWACS", "Coalition Support"}
    assert all(c.ability is not Ability.TURN_UP for c in comp.cards)
    # card data made with the earlier deck still plays: an AWACS turns a card back up, only up
    awacs = msgspec.json.decode(b'{"name": "AWACS", "type": "Aircraft", "points": 1, '
                                b'"count": 3, "ability": "turn_up"}', type=ForceCard)
    rs = RULESET.bind(RULESET.start(("ann", "bob", "cat"), Options(),
                                    replace(comp, cards=comp.cards + (awacs,))))
    s = at(hands={"ann": ("AWACS",)}, played={"ann": ("~Submarine",), "bob": ("Submarine",)})
    s = rs.apply(s, ForceCardPlayed(player="ann", card="AWACS"))
    assert s.steps[0].step is Step.TURN_UP
    assert present(rs.check(s, PlayedCardTurned(player="ann", owner="bob", slot=0))).rule \
        == "lib.ability.turn-up.cards"
    s = rs.apply(s, PlayedCardTurned(player="ann", owner="ann", slot=0, face_up=True))
    assert up(s, "ann") == ["Submarine", "AWACS"]


@pytest.mark.rule("lib.ability.turn-over.count")
def test_further_explanations_a_turn_over_card_turns_one_or_more():
    # ann's Destroyer Squadron turns two cards: bob's and cat's
    s = at(hands={"ann": ("Destroyer Squadron",)},
           played={"bob": ("Submarine",), "cat": ("Armored Division", "Infantry Division")})
    s = ok(s, ForceCardPlayed(player="ann", card="Destroyer Squadron"))
    assert [o.step for o in s.steps[:2]] == [Step.TURN_OVER, Step.TURN_OVER]
    s = ok(s, PlayedCardTurned(player="ann", owner="bob", slot=0), TurnOverAccepted(player="bob"))
    # the second turn is a different card: not bob's Submarine back up again
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=0, face_up=True)) \
        == "lib.ability.turn-over.count"
    s = ok(s, PlayedCardTurned(player="ann", owner="cat", slot=1), TurnOverAccepted(player="cat"))
    assert down(s, "bob") == ["Submarine"] and down(s, "cat") == ["Infantry Division"]
    assert s.steps == () and s.turn == "bob"


@pytest.mark.rule("lib.ability.turn-over.count")
def test_the_count_comes_from_the_card_data():
    # a Fighter Wing turns one; a user's data may give a card three turns
    assert LK.cards["Fighter Wing"].turns == 1 and LK.cards["Destroyer Squadron"].turns == 2
    comp = RULESET.default_components()
    cards = tuple(replace(c, turns=3) if c.name == "Fighter Wing" else c for c in comp.cards)
    rs = RULESET.bind(RULESET.start(("ann", "bob", "cat"), Options(), replace(comp, cards=cards)))
    s = at(hands={"ann": ("Fighter Wing",)},
           played={"bob": ("Submarine", "Infantry Division"), "cat": ("Submarine",)})
    s = rs.apply(s, ForceCardPlayed(player="ann", card="Fighter Wing"))
    for owner, slot in (("bob", 0), ("bob", 1), ("cat", 0)):
        for ev in (PlayedCardTurned(player="ann", owner=owner, slot=slot),
                   TurnOverAccepted(player=owner)):  # each owner is asked (1.2)
            assert rs.check(s, ev) is None
            s = rs.apply(s, ev)
    assert s.turn == "bob" and up(s, "bob") == up(s, "cat") == []
    # only a turn-over card may turn more than one
    bad = tuple(replace(c, turns=2) if c.name == "Submarine" else c for c in comp.cards)
    assert "only a turn_over card" in (problems(replace(comp, cards=bad)) or "")


@pytest.mark.rule("lib.ability.turn-over.count", "lib.ability.prevent")
def test_a_prevented_turn_is_used_up():
    # bob stops the first turn with Navy SEALs; the second may not retry his card
    s = at(hands={"ann": ("Destroyer Squadron",), "bob": ("Navy SEALs",)},
           played={"bob": ("Submarine",), "cat": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Destroyer Squadron"),
           PlayedCardTurned(player="ann", owner="bob", slot=0),
           TurnOverPrevented(player="bob", card="Navy SEALs"))
    assert refused(s, PlayedCardTurned(player="ann", owner="bob", slot=0)) \
        == "lib.ability.turn-over.count"
    s = ok(s, PlayedCardTurned(player="ann", owner="cat", slot=0), TurnOverAccepted(player="cat"))
    assert up(s, "bob") == ["Submarine"] and down(s, "cat") == ["Submarine"]


@pytest.mark.rule("lib.ability.turn-over.compulsory")
def test_by_default_a_turn_over_must_be_made():
    # ann may not keep her Fighter Wing's turn unused while bob has a card to turn
    s = at(hands={"ann": ("Fighter Wing",)}, played={"bob": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert refused(s, TurnOverDeclined(player="ann")) == "lib.ability.turn-over.compulsory"
    assert "must" in present(RS.pending(s)).detail


@pytest.mark.rule("lib.opt.turn-over-optional")
def test_option_optional_lets_the_player_stop_turning():
    # with turn_over=optional ann turns one card with her Destroyer Squadron and stops
    s = at(hands={"ann": ("Destroyer Squadron",)}, turn_over="optional",
           played={"bob": ("Submarine",), "cat": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Destroyer Squadron"))
    assert "or stop" in present(RS.pending(s)).detail
    s = ok(s, PlayedCardTurned(player="ann", owner="bob", slot=0), TurnOverAccepted(player="bob"),
           TurnOverDeclined(player="ann"))
    assert up(s, "cat") == ["Submarine"] and s.steps == () and s.turn == "bob"
    # stopping at once gives up both turns
    s = at(hands={"ann": ("Destroyer Squadron",)}, turn_over="optional",
           played={"bob": ("Submarine",), "cat": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Destroyer Squadron"), TurnOverDeclined(player="ann"))
    assert up(s, "bob") == up(s, "cat") == ["Submarine"] and s.turn == "bob"
    # nothing to turn: the turn lapses as before, no stop is asked for
    s = ok(at(hands={"ann": ("Fighter Wing",)}, turn_over="optional"),
           ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert s.steps == () and s.turn == "bob"


@pytest.mark.rule("lib.ability.all-turn-down")
def test_all_other_players_turn_one_of_their_own_down():
    # bob then cat each pick one of their own face-up cards;
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


@pytest.mark.rule("lib.ability.protected")
def test_an_unturnable_card_escapes_a_forced_turn_down():
    # cat has only an Aircraft Carrier, so cat's turn-down lapses
    s = at("Syria", hands={"ann": ("Leaflet Drop",)},
           played={"bob": ("Submarine",), "cat": ("Aircraft Carrier",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Leaflet Drop"),
           PlayedCardTurned(player="bob", owner="bob", slot=0))
    assert s.steps == () and up(s, "cat") == ["Aircraft Carrier"]


@pytest.mark.rule("lib.ability.prevent")
def test_a_prevent_card_keeps_a_card_face_up():
    # bob answers ann's turn-over by discarding Navy SEALs from his hand
    s = at(hands={"ann": ("Fighter Wing",), "bob": ("Navy SEALs", "Submarine")},
           played={"bob": ("Armored Division",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"),
           PlayedCardTurned(player="ann", owner="bob", slot=0))
    assert s.steps[0].step is Step.PREVENT and present(RS.pending(s)).actor == "bob"
    assert refused(s, TurnOverPrevented(player="bob", card="Submarine")) == "lib.ability.prevent"
    assert refused(s, TurnOverPrevented(player="bob", card="Counter-Intelligence")) \
        == "lib.ability.prevent"
    s = ok(s, TurnOverPrevented(player="bob", card="Navy SEALs"))
    assert up(s, "bob") == ["Armored Division"] and s.discards == ("Navy SEALs",)
    # it cost bob no turn: his turn comes now
    assert s.turn == "bob" and s.hands["bob"] == ("Submarine",)


@pytest.mark.rule("lib.ability.prevent")
def test_the_owner_may_let_the_turn_over_stand():
    # bob keeps his prevent card and loses the Armored Division's points
    s = at(hands={"ann": ("Fighter Wing",), "bob": ("Navy SEALs",)},
           played={"bob": ("Armored Division",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"),
           PlayedCardTurned(player="ann", owner="bob", slot=0), TurnOverAccepted(player="bob"))
    assert down(s, "bob") == ["Armored Division"] and s.hands["bob"] == ("Navy SEALs",)
    # a prevent card may also be played as an ordinary card
    s = ok(s, ForceCardPlayed(player="bob", card="Navy SEALs"))
    assert up(s, "bob") == ["Navy SEALs"]


@pytest.mark.rule("lib.ability.prevent.asked", "lib.ability.prevent")
def test_an_owner_holding_no_prevent_card_is_asked_all_the_same():
    # rules 1.2: bob holds only a Submarine; ann's Fighter Wing turning his Armored Division
    # down still waits for his answer, asked as a holder of Navy SEALs would be
    def turned(bob: str):
        s = at(hands={"ann": ("Fighter Wing",), "bob": (bob,)}, played={"bob": ("Armored Division",)})
        return ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"),
                  PlayedCardTurned(player="ann", owner="bob", slot=0))
    s = turned("Submarine")
    assert s.steps[0].step is Step.PREVENT and present(RS.pending(s)).actor == "bob"
    # the step does not depend on his hand
    held = turned("Navy SEALs")
    assert held.steps == s.steps and RS.pending(held) == RS.pending(s)
    # he can only let it stand: nothing else may happen first, refused by the rule that asks
    assert list(RS.legal(s)) == [TurnOverAccepted(player="bob")]
    assert refused(s, ForceCardPlayed(player="bob", card="Submarine")) == "lib.ability.prevent"
    assert refused(s, TurnOverPrevented(player="bob", card="Submarine")) == "lib.ability.prevent"
    s = ok(s, TurnOverAccepted(player="bob"))
    assert down(s, "bob") == ["Armored Division"] and s.turn == "bob"


@pytest.mark.rule("lib.ability.prevent")
def test_rules_1_1_asked_only_a_holder_of_a_prevent_card():
    # a log recorded under 1.1 is judged as 1.1 judged it: bob, holding no prevent card, is
    # not asked, his card goes down at once and his turn comes; a holder is still asked
    old = RULESET.bind(RS.header, "1.1")
    s = at(hands={"ann": ("Fighter Wing",), "bob": ("Submarine",)},
           played={"bob": ("Armored Division",)})
    s = story.play(old, s, ForceCardPlayed(player="ann", card="Fighter Wing"),
                   PlayedCardTurned(player="ann", owner="bob", slot=0), offered=True)
    assert s.steps == () and down(s, "bob") == ["Armored Division"] and s.turn == "bob"
    assert story.refusal(old, s, TurnOverAccepted(player="bob"), offered=True).rule \
        == "lib.turn.step"
    s = at(hands={"ann": ("Fighter Wing",), "bob": ("Navy SEALs",)},
           played={"bob": ("Armored Division",)})
    s = story.play(old, s, ForceCardPlayed(player="ann", card="Fighter Wing"),
                   PlayedCardTurned(player="ann", owner="bob", slot=0), offered=True)
    assert s.steps[0].step is Step.PREVENT and present(old.pending(s)).actor == "bob"
    # and under 1.1 an event skipping an open window is out of step, as it always was
    assert story.refusal(old, s, ForceCardPlayed(player="bob", card="Navy SEALs")).rule \
        == "lib.turn.step"


@pytest.mark.rule("lib.ability.prevent.forced", "lib.turn.step")
def test_a_prevent_card_answers_a_forced_turn_down():
    # bob discards Counter-Intelligence instead of turning a card
    s = at("Syria", hands={"ann": ("Leaflet Drop",), "bob": ("Counter-Intelligence",)},
           played={"bob": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Leaflet Drop"),
           TurnOverPrevented(player="bob", card="Counter-Intelligence"))
    assert up(s, "bob") == ["Submarine"] and s.hands["bob"] == ()
    assert refused(s, TurnOverAccepted(player="bob")) == "lib.turn.step"


@pytest.mark.rule("lib.ability.first-draw")
def test_first_card_draws_one():
    # ann's Green Berets is her first card for Iraq: she draws
    s = at("Iraq", hands={"ann": ("Green Berets", "Green Berets")})
    s = ok(s, ForceCardPlayed(player="ann", card="Green Berets"))
    assert s.steps[0].step is Step.DRAW
    s = ok(s, ForceCardDrawn(player="ann", card="Submarine"))
    assert s.hands["ann"] == ("Green Berets", "Submarine") and s.turn == "bob"
    # a second Green Berets later in the country draws nothing
    s = ok(s, TurnPassed(player="bob"), TurnPassed(player="cat"),
           ForceCardPlayed(player="ann", card="Green Berets"))
    assert s.steps == () and s.turn == "bob"


@pytest.mark.rule("lib.ability.trade-card")
def test_trade_card_for_another_players_card():
    # ann's Delta Force takes bob's Aircraft Carrier into her hand
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


@pytest.mark.rule("lib.ability.trade-card.no-target")
def test_trade_card_without_a_target_stays_with_its_player():
    # no other face-up card: Delta Force lies in ann's row
    s = at(hands={"ann": ("Delta Force",)}, played={"bob": ("~Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Delta Force"))
    assert up(s, "ann") == ["Delta Force"] and s.turn == "bob"


@pytest.mark.rule("lib.ability.trade-hands", "lib.turn.order")
def test_trade_hands():
    # ann plays Regime Defectors and swaps hands with cat
    s = at("Syria", hands={"ann": ("Regime Defectors", "Green Berets"),
                           "cat": ("Submarine", "Submarine", "Fighter Wing")})
    s = ok(s, ForceCardPlayed(player="ann", card="Regime Defectors"))
    assert refused(s, HandsTraded(player="ann", other="ann")) == "lib.ability.trade-hands"
    assert refused(s, HandsTraded(player="ann", other="zed")) == "lib.turn.order"
    s = ok(s, HandsTraded(player="ann", other="cat"))
    assert s.hands["ann"] == ("Fighter Wing", "Submarine", "Submarine")
    assert s.hands["cat"] == ("Green Berets",)
    assert up(s, "ann") == ["Regime Defectors"] and s.turn == "bob"


@pytest.mark.rule("lib.ability.draw-two")
def test_draw_two_when_liberating_with_it_face_up():
    # ann liberates with Airborne Brigade face up: two draws owed
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


@pytest.mark.rule("lib.ability.order")
def test_effects_resolve_in_order():
    # in Iraq a Fighter Wing owes its own turn-over, then Iraq's
    s = at("Iraq", hands={"ann": ("Fighter Wing",)},
           played={"bob": ("Submarine",), "cat": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert [(o.step, o.card) for o in s.steps] == [(Step.TURN_OVER, "Fighter Wing"),
                                                  (Step.TURN_DOWN, "Iraq"), (Step.END_TURN, "")]
    s = ok(s, PlayedCardTurned(player="ann", owner="bob", slot=0), TurnOverAccepted(player="bob"),
           PlayedCardTurned(player="ann", owner="cat", slot=0), TurnOverAccepted(player="cat"))
    assert down(s, "bob") == down(s, "cat") == ["Submarine"] and s.turn == "bob"
