"""Setup: two players, the opening draw, the deal, the decks; the components and the header's options."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.games.cards_of_war.components import Lookups, default, problems
from tabletape.tape.errors import UsageError
from tests.games.cards_of_war.helpers import (
    COMMON,
    RS,
    RULESET,
    A,
    B,
    OpeningCardDrawn,
    Options,
    Phase,
    Step,
    draw,
    feed,
    header,
    refused,
    start,
)
from tests.narrow import present


def opening(player: str, card: str) -> OpeningCardDrawn:
    return OpeningCardDrawn(player=player, card=card)


# -- Setup -----------------------------------------------------------------------------


@pytest.mark.rule("cow.setup.players")
def test_exactly_two_players():
    # a third general is turned away at the door
    with pytest.raises(UsageError):
        RULESET.start(("alice", "bob", "carol"), Options(), RULESET.default_components())
    with pytest.raises(UsageError):
        RULESET.start(("alice",), Options(), RULESET.default_components())


@pytest.mark.rule("cow.setup.opening")
def test_higher_opening_card_plays_first():
    state = start()
    assert state.phase is Phase.OPENING
    # alice turns up a Tank (6), bob a Spy (2)
    state = feed(state, opening(A, "Tank"), opening(B, "Spy"))
    # alice starts; both hands are dealt first
    assert state.phase is Phase.PLAY
    assert state.first == A and state.turn == A
    assert [(s.step, s.player) for s in state.steps] == [(Step.REFILL, A), (Step.REFILL, B)]


@pytest.mark.rule("cow.setup.opening")
def test_opening_goes_in_seat_order_and_only_once():
    # bob may not turn his card before alice
    state = start()
    assert refused(state, opening(B, "Tank")) == "cow.setup.opening"
    # no draw or deployment before the first player is known
    assert refused(state, draw(A, "Tank")) == "cow.setup.opening"
    state = feed(state, opening(A, "Spy"), opening(B, "Tank"))
    assert state.first == B
    # once decided, no more opening cards
    assert refused(state, opening(A, "Tank")) == "cow.setup.opening"


@pytest.mark.rule("cow.setup.opening-tie")
def test_opening_tie_turns_new_cards():
    # Tank and Long Range Bomber both score 6
    state = feed(start(), opening(A, "Tank"), opening(B, "Long Range Bomber"))
    assert state.phase is Phase.OPENING
    assert state.opening == {}
    assert present(RS.pending(state)).kind == "opening draw"
    # a second pair breaks the tie in bob's favour
    state = feed(state, opening(A, "Spy"), opening(B, "Infantry"))
    assert state.first == B


@pytest.mark.rule("cow.setup.opening-return")
def test_opening_cards_return_to_the_deck():
    # the deck is the same 52 cards after the opening
    before = start()
    state = feed(before, opening(A, "Battleship"), opening(B, "Codebreakers"))
    assert state.decks == before.decks
    assert sum(state.decks[COMMON].values()) == 52


@pytest.mark.rule("cow.draw.in-deck")
def test_opening_card_must_be_in_the_deck():
    # there is no Joker in this deck
    assert refused(start(), opening(A, "Joker")) == "cow.draw.in-deck"


@pytest.mark.rule("cow.setup.deal")
def test_deal_is_eight_cards_each():
    state = feed(start(), opening(A, "Tank"), opening(B, "Spy"))
    # alice is dealt eight, then bob eight
    cards = ["Infantry", "Infantry", "Tank", "Spy", "Radar", "Flak", "Marines", "Amphib"]
    state = feed(state, *(draw(A, c) for c in cards))
    assert len(state.hands[A]) == 8
    assert [(s.step, s.player) for s in state.steps] == [(Step.REFILL, B)]
    state = feed(state, *(draw(B, c) for c in ["Fighters", "Decoy", "Submarine", "Destroyer",
                                               "Gliders", "Paratroop", "Saboteur", "Resistance"]))
    assert len(state.hands[B]) == 8
    assert sum(state.decks[COMMON].values()) == 52 - 16
    # the deal done, alice deploys
    assert state.steps == ()
    d = RS.pending(state)
    assert d is not None
    assert (d.actor, d.kind) == (A, "deploy")


@pytest.mark.rule("cow.deck.common", "cow.draw.in-deck")
def test_one_common_deck():
    # both players draw from, and discard to, one pile
    state = start()
    assert list(state.decks) == [COMMON] and list(state.discards) == [COMMON]
    state = feed(state, opening(A, "Tank"), opening(B, "Spy"))
    state = feed(state, *(draw(A, "Infantry") for _ in range(3)))
    # alice took all three Infantry; bob cannot draw one from the same pile
    state = feed(state, *(draw(A, c) for c in ["Tank", "Tank", "Spy", "Spy", "Spy"]))
    assert refused(state, draw(B, "Infantry")) == "cow.draw.in-deck"


# -- 2 Deck Version --------------------------------------------------------------------


@pytest.mark.rule("cow.opt.two-decks")
def test_two_decks_each_their_own():
    # a deck and a discard pile per player
    state = start(two_decks=True)
    assert set(state.decks) == {A, B} and set(state.discards) == {A, B}
    assert all(sum(d.values()) == 52 for d in state.decks.values())
    # both may turn up the single Shore Bombardment: one from each deck
    state = feed(state, OpeningCardDrawn(player=A, card="Shore Bombardment"),
                 OpeningCardDrawn(player=B, card="Shore Bombardment"))
    assert state.phase is Phase.OPENING  # a tie (5 and 5)


# -- the header's options and components -----------------------------------------------


@pytest.mark.rule("cow.setup.options")
def test_exhaustion_only_in_the_long_game_and_not_with_tactical():
    with pytest.raises(UsageError, match="cow.setup.options"):
        header(strategic_exhaustion=True)  # a normal game
    with pytest.raises(UsageError, match="cow.setup.options"):
        header(length="short", strategic_exhaustion=True)
    with pytest.raises(UsageError, match="cow.setup.options"):
        header(length="long", strategic_exhaustion=True, tactical_advantage=True)
    ok = header(length="long", strategic_exhaustion=True)
    assert RULESET.check_header(ok) is None
    # check_header also judges a header built elsewhere (as read from a log)
    bad = replace(ok, options=Options(length="normal", strategic_exhaustion=True))
    assert "cow.setup.options" in present(RULESET.check_header(bad))
    # every other mix is allowed
    assert RULESET.check_header(header(alternative_reinforce=True, theatres_of_war=True,
                                       tactical_advantage=True, joint_deployment=True,
                                       two_decks=True, length="short")) is None


@pytest.mark.rule("cow.setup.options")
def test_header_components_are_checked():
    # a deck with two cards of one name cannot be played
    comp = RULESET.default_components()
    twice = replace(comp, cards=(*comp.cards, comp.cards[0]))
    with pytest.raises(UsageError, match="unique"):
        RULESET.start((A, B), Options(), twice)


@pytest.mark.rule("cow.setup.options")
def test_lookups_are_built_from_the_components():
    # the bundled deck: 52 cards of 25 kinds, every one playable
    comp = default()
    assert problems(comp) is None
    lk = Lookups.of(comp)
    assert sum(lk.full_deck.values()) == 52 and len(lk.cards) == 25
    assert list(lk.full_deck) == sorted(lk.full_deck)
    # a pair is looked up from either side; a card in no pair has no partners
    assert "Gliders" in lk.partners["Paratroop"] and "Paratroop" in lk.partners["Gliders"]
    assert "Tank" not in lk.partners
    # a bound ruleset reads the tables of its own header's components
    assert RS.lk.cards == lk.cards
    # a pair naming a card the deck lacks cannot be played
    bad = replace(comp, pairs=(replace(comp.pairs[0], first=("Joker",)),))
    assert "Joker" in (problems(bad) or "")
    with pytest.raises(UsageError, match="Joker"):
        RULESET.start((A, B), Options(), bad)
