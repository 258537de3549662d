"""Further Explanations: each country's special instruction, only during its rounds."""

from tabletape.games.liberation import table as t
from tabletape.games.liberation.events import (
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    PlayedCardTurned,
    TurnPassed,
)
from tabletape.games.liberation.state import Step
from tests.games.liberation.helpers import RS, at, down, ok, refused, up


def test_an_instruction_applies_only_to_its_country():
    # lib.country.trigger: a Stealth Bomber turns nothing over in Syria, but does in Iraq
    cards = dict(hands={"ann": ("Stealth Bomber",)}, played={"bob": ("Submarine",)})
    s = ok(at("Syria", **cards), ForceCardPlayed(player="ann", card="Stealth Bomber"))
    assert s.steps == () and s.turn == "bob"
    s = ok(at("Iraq", **cards), ForceCardPlayed(player="ann", card="Stealth Bomber"))
    assert s.steps[0].step is Step.TURN_OVER and s.steps[0].card == "Iraq"


def test_iraq_aircraft_turn_a_card_over():
    # lib.country.turn-over-type: ann's AWACS in Iraq turns cat's Submarine face down
    s = at("Iraq", hands={"ann": ("AWACS",)}, played={"cat": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="AWACS"))
    # the AWACS's own turn-up lapses (nothing face down); Iraq's turn-over remains
    assert s.steps[0].step is Step.TURN_OVER
    s = ok(s, PlayedCardTurned(player="ann", owner="cat", slot=0))
    assert down(s, "cat") == ["Submarine"]


def test_yemen_allows_a_second_card():
    # lib.country.double-play: ann plays two cards in one turn; bob plays one and stops
    s = at("Yemen", hands={"ann": ("Submarine", "Infantry Division"),
                           "bob": ("Submarine", "Submarine")})
    s = ok(s, ForceCardPlayed(player="ann", card="Submarine"))
    assert s.steps[0].step is Step.SECOND and RS.pending(s).actor == "ann"
    assert refused(s, ForceCardPlayed(player="bob", card="Submarine")) == "lib.turn.order"
    s = ok(s, ForceCardPlayed(player="ann", card="Infantry Division"))
    assert up(s, "ann") == ["Submarine", "Infantry Division"] and s.turn == "bob"
    s = ok(s, ForceCardPlayed(player="bob", card="Submarine"), TurnPassed(player="bob"))
    assert up(s, "bob") == ["Submarine"] and s.turn == "cat"


def test_yemen_second_card_after_the_first_settles():
    # lib.country.double-play.second: the Fighter Wing's target comes before the second
    # card; a trade-hands card ends the turn at once
    s = at("Yemen", hands={"ann": ("Fighter Wing", "Submarine")}, played={"bob": ("Submarine",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Fighter Wing"))
    assert refused(s, ForceCardPlayed(player="ann", card="Submarine")) == "lib.turn.step"
    s = ok(s, PlayedCardTurned(player="ann", owner="bob", slot=0))
    assert s.steps[0].step is Step.SECOND
    s = at("Yemen", hands={"ann": ("Regime Defectors", "Submarine")})
    s = ok(s, ForceCardPlayed(player="ann", card="Regime Defectors"),
           HandsTraded(player="ann", other="bob"))
    assert s.turn == "bob" and s.hands["bob"] == ("Submarine",)


def test_bonus_points_for_a_type():
    # lib.country.bonus-type: in Syria a face-up Infantry Division counts 3, not 2
    s = at("Syria", played={"ann": ("Infantry Division", "~Armored Division")})
    assert t.total(s, "ann") == 3
    assert t.total(at("Somalia", played={"ann": ("Infantry Division",)}), "ann") == 2


def test_draw_for_a_type():
    # lib.country.draw-type: in Sudan each Commando played draws a card
    s = at("Sudan", hands={"ann": ("Navy SEALs",)})
    s = ok(s, ForceCardPlayed(player="ann", card="Navy SEALs"))
    assert s.steps[0].step is Step.DRAW and s.steps[0].card == "Sudan"
    s = ok(s, ForceCardDrawn(player="ann", card="Submarine"))
    assert s.hands["ann"] == ("Submarine",)


def test_forbidden_type():
    # lib.country.forbid-type: no Ship may be played in Afghanistan
    s = at("Afghanistan", hands={"ann": ("Submarine", "Infantry Division")})
    assert refused(s, ForceCardPlayed(player="ann", card="Submarine")) == "lib.country.forbid-type"
    assert ForceCardPlayed(player="ann", card="Infantry Division") in list(RS.legal(s))
