"""Set Up: players, components and options; turning the first country and dealing."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.engine import CHANCE
from tabletape.games.liberation import components
from tabletape.games.liberation.components import CardType
from tabletape.games.liberation.events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardPlayed,
    Options,
)
from tabletape.games.liberation.state import Stage, Step
from tabletape.tape.errors import UsageError
from tests.games.liberation.helpers import RS, header, ok, refused, start
from tests.narrow import present


@pytest.mark.rule("lib.setup.players")
def test_two_to_six_players():
    # one player or seven are refused; two and six can start
    with pytest.raises(UsageError):
        header(("ann",))
    with pytest.raises(UsageError):
        header(tuple("abcdefg"))
    assert header(("ann", "bob")).players == ("ann", "bob")
    assert len(header(tuple("abcdef")).players) == 6
    # a header written by hand with seven players is refused too
    assert "2 to 6" in present(RS.check_header(replace(header(), players=tuple("abcdefg"))))


@pytest.mark.rule("lib.setup.components")
def test_a_country_instruction_must_be_complete():
    # a bonus instruction without a card type is refused
    comp = RS.default_components()
    broken = replace(comp.countries[4], card_type=None)
    assert broken.trigger == "bonus"
    bad = replace(comp, countries=(*comp.countries[:4], broken, *comp.countries[5:]))
    assert "card_type" in present(components.problems(bad))


@pytest.mark.rule("lib.setup.components")
def test_default_components_hold_ten_countries_with_provenance():
    # ten countries, a force deck, each entry with its provenance
    comp = RS.default_components()
    assert components.problems(comp) is None
    assert len(comp.countries) == 10
    assert {c.provenance for c in comp.countries} <= {"rulebook", "rulebook-name", "reconstructed"}
    yemen = next(c for c in comp.countries if c.name == "Yemen")
    assert yemen.vp == 1 and yemen.provenance == "rulebook"
    iraq = next(c for c in comp.countries if c.name == "Iraq")  # its name, not its value
    assert iraq.provenance == "rulebook-name"


@pytest.mark.rule("lib.setup.components")
def test_own_components_are_checked():
    # a user's country deck of nine cards is refused
    comp = RS.default_components()
    short = replace(comp, countries=comp.countries[:9])
    with pytest.raises(UsageError, match="10"):
        RS.start(("ann", "bob"), Options(), short)


@pytest.mark.rule("lib.card.types")
def test_five_card_types():
    # the force deck uses exactly the five printed types
    comp = RS.default_components()
    assert {c.type for c in comp.cards} == set(CardType)
    assert len(CardType) == 5


@pytest.mark.rule("lib.setup.first")
def test_first_seat_turns_the_first_country():
    # chance turns a country for the first seat
    s = start()
    d = RS.pending(s)
    assert d is not None
    assert d.actor == CHANCE and s.steps[0].step is Step.TURN_COUNTRY and s.steps[0].player == "ann"
    # every country of the deck may come
    assert len(list(RS.legal(s))) == 10


@pytest.mark.rule("lib.country.turn", "lib.turn.order")
def test_country_must_be_in_the_deck():
    # a country not in the deck is refused; the dealer turns it
    s = start()
    assert refused(s, CountryTurned(player="ann", country="Atlantis")) == "lib.country.turn"
    assert refused(s, CountryTurned(player="bob", country="Yemen")) == "lib.turn.order"
    s = ok(s, CountryTurned(player="ann", country="Yemen"))
    assert "Yemen" not in s.countries and s.country == "Yemen"


@pytest.mark.rule("lib.deal.count")
def test_deal_is_the_country_value_from_the_dealers_left():
    # Iraq is worth 5; three players get 15 cards, bob first, ann last
    s = ok(start(), CountryTurned(player="ann", country="Iraq"))
    deals = [o.player for o in s.steps]
    assert len(deals) == 15 and deals[:3] == ["bob", "cat", "ann"]
    assert all(o.step is Step.DEAL for o in s.steps)


@pytest.mark.rule("lib.draw.in-deck", "lib.turn.order")
def test_dealt_card_must_be_in_the_deck():
    # a card the deck does not hold cannot be dealt
    s = ok(start(), CountryTurned(player="ann", country="Yemen"))
    assert refused(s, ForceCardDealt(player="bob", card="Battleship")) == "lib.draw.in-deck"
    assert refused(s, ForceCardDealt(player="ann", card="Submarine")) == "lib.turn.order"
    # the deck's multiplicity is chance's weight
    assert RS.weight(s, ForceCardDealt(player="bob", card="Infantry Division")) == 8


@pytest.mark.rule("lib.turn.step")
def test_nothing_is_played_during_the_deal():
    # a play before the deal is over is refused
    s = ok(start(), CountryTurned(player="ann", country="Yemen"))
    assert refused(s, ForceCardPlayed(player="ann", card="Submarine")) == "lib.turn.step"


@pytest.mark.rule("lib.turn.lead-first")
def test_first_country_is_led_by_its_dealer():
    # after the deal for the first country, ann (who turned it) plays first
    s = ok(start(), CountryTurned(player="ann", country="Yemen"),
           ForceCardDealt(player="bob", card="Submarine"),
           ForceCardDealt(player="cat", card="Submarine"),
           ForceCardDealt(player="ann", card="Green Berets"))
    assert s.stage is Stage.ROUNDS and s.turn == "ann" and s.contenders == ("ann", "bob", "cat")
    assert s.hands["ann"] == ("Green Berets",)
