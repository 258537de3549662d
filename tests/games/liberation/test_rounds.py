"""How to Play: turns, rounds, the count, and what happens between countries."""

from msgspec.structs import replace

from tabletape.games.liberation.events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardPlayed,
    TurnPassed,
)
from tabletape.games.liberation.state import Owed, Stage, Step
from tests.games.liberation.helpers import RS, at, ok, refused, settled, up


def test_only_the_player_in_turn_plays():
    # lib.turn.order: it is ann's turn; bob's play is refused
    s = at(hands={"bob": ("Submarine",)})
    assert refused(s, ForceCardPlayed(player="bob", card="Submarine")) == "lib.turn.order"
    assert refused(s, TurnPassed(player="bob")) == "lib.turn.order"


def test_a_card_comes_from_the_hand():
    # lib.play.in-hand: ann holds no Aircraft Carrier
    s = at(hands={"ann": ("Submarine",)})
    assert refused(s, ForceCardPlayed(player="ann", card="Aircraft Carrier")) == "lib.play.in-hand"
    # the card she does hold goes face up in front of her
    s = ok(s, ForceCardPlayed(player="ann", card="Submarine"))
    assert up(s, "ann") == ["Submarine"] and s.hands["ann"] == () and s.turn == "bob"


def test_a_pass_uses_the_turn_even_with_an_empty_hand():
    # lib.play.pass: ann has no cards; passing is her only choice and bob is next
    s = at()
    assert list(RS.legal(s)) == [TurnPassed(player="ann")]
    s = ok(s, TurnPassed(player="ann"))
    assert s.turn == "bob"


def test_as_many_rounds_as_the_country_is_worth():
    # lib.round.count: Somalia is worth 2: six passes by three players end the country
    s = at(played={"bob": ("Submarine",)})
    for _ in range(2):
        assert s.country == "Somalia"
        s = ok(s, *(TurnPassed(player=p) for p in ("ann", "bob", "cat")))
    assert s.country is None and s.liberated["bob"] == ("Somalia",)


def test_the_highest_face_up_total_liberates():
    # lib.liberate.highest: ann's 3 beats bob's 2 in the last turn of the last round
    s = at(played={"ann": ("Submarine",), "bob": ("Infantry Division",)}, round=2, turn="cat")
    s = ok(s, TurnPassed(player="cat"))
    assert s.liberated["ann"] == ("Somalia",)


def test_face_down_cards_count_nothing():
    # lib.ability.face-down: bob's face-down Aircraft Carrier adds nothing; ann's 2 wins
    s = at(played={"ann": ("Infantry Division",), "bob": ("~Aircraft Carrier",)},
           round=2, turn="cat")
    s = ok(s, TurnPassed(player="cat"))
    assert s.liberated["ann"] == ("Somalia",)


def test_after_a_country_the_table_is_discarded_and_hands_kept():
    # lib.country.discard and lib.hand.keep: played cards go, cat's hand stays
    s = at(played={"ann": ("Submarine",), "bob": ("~Infantry Division",)},
           hands={"cat": ("Green Berets",)}, round=2, turn="cat")
    s = ok(s, TurnPassed(player="cat"))
    assert s.discards == ("Infantry Division", "Submarine")
    assert all(row == () for row in s.played.values())
    assert s.hands["cat"] == ("Green Berets",)


def test_the_liberator_turns_and_deals_the_next_country():
    # lib.country.next and lib.turn.lead-next: ann liberates, turns Yemen, bob leads
    s = at(played={"ann": ("Submarine",)}, round=2, turn="cat", hands={"cat": ("Green Berets",)})
    s = ok(s, TurnPassed(player="cat"))
    assert s.steps[0].step is Step.TURN_COUNTRY and s.steps[0].player == "ann"
    assert refused(s, CountryTurned(player="bob", country="Yemen")) == "lib.turn.order"
    s = ok(s, CountryTurned(player="ann", country="Yemen"),
           ForceCardDealt(player="bob", card="Submarine"),
           ForceCardDealt(player="cat", card="Submarine"),
           ForceCardDealt(player="ann", card="Submarine"))
    assert s.turn == "bob" and s.contenders == ("bob", "cat", "ann")
    # lib.hand.keep: the new card adds to the one cat kept; no hand limit
    assert s.hands["cat"] == ("Green Berets", "Submarine")


def test_an_empty_deck_takes_the_discards_back():
    # lib.deck.refresh: the deck is empty; the owed deal reshuffles the discards
    s = ok(at(), TurnPassed(player="ann"))
    s = replace(s, deck={}, discards=("Submarine", "Submarine"), stage=Stage.DEAL,
                steps=(Owed(Step.DEAL, "bob"),))
    s = settled(s)
    assert s.deck == {"Submarine": 2} and s.discards == ()
    assert list(RS.legal(s)) == [ForceCardDealt(player="bob", card="Submarine")]


def test_nothing_left_to_deal_is_skipped():
    # lib.deck.exhausted: deck and discards empty; the deal lapses and play starts
    s = replace(at(), deck={}, discards=(), stage=Stage.DEAL, steps=(Owed(Step.DEAL, "bob"),))
    s = settled(s)
    assert s.stage is Stage.ROUNDS and s.hands["bob"] == ()
