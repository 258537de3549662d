"""Setup: two players, the opening draw, the deal, the common deck."""

from __future__ import annotations

import pytest

from tabletape.tape.errors import UsageError
from tests.games.cards_of_war.helpers import (
    COMMON,
    RULESET,
    A,
    B,
    OpeningCardDrawn,
    Options,
    Phase,
    Step,
    draw,
    feed,
    refused,
    start,
)


def opening(player: str, card: str) -> OpeningCardDrawn:
    return OpeningCardDrawn(player=player, card=card)


def test_exactly_two_players():
    # cow.setup.players: a third general is turned away at the door
    with pytest.raises(UsageError):
        RULESET.start(("alice", "bob", "carol"), Options(), RULESET.default_components())
    with pytest.raises(UsageError):
        RULESET.start(("alice",), Options(), RULESET.default_components())


def test_higher_opening_card_plays_first():
    # cow.setup.opening
    state = start()
    assert state.phase is Phase.OPENING
    # alice turns up a Tank (6), bob a Spy (2)
    state = feed(state, opening(A, "Tank"), opening(B, "Spy"))
    # alice starts; both hands are dealt first
    assert state.phase is Phase.PLAY
    assert state.first == A and state.turn == A
    assert [(s.step, s.player) for s in state.steps] == [(Step.REFILL, A), (Step.REFILL, B)]


def test_opening_goes_in_seat_order_and_only_once():
    # cow.setup.opening: bob may not turn his card before alice
    state = start()
    assert refused(state, opening(B, "Tank")) == "cow.setup.opening"
    # no draw or deployment before the first player is known
    assert refused(state, draw(A, "Tank")) == "cow.setup.opening"
    state = feed(state, opening(A, "Spy"), opening(B, "Tank"))
    assert state.first == B
    # once decided, no more opening cards
    assert refused(state, opening(A, "Tank")) == "cow.setup.opening"


def test_opening_tie_turns_new_cards():
    # cow.setup.opening-tie: Tank and Long Range Bomber both score 6
    state = feed(start(), opening(A, "Tank"), opening(B, "Long Range Bomber"))
    assert state.phase is Phase.OPENING
    assert state.opening == {}
    assert RULESET.pending(state).kind == "opening draw"
    # a second pair breaks the tie in bob's favour
    state = feed(state, opening(A, "Spy"), opening(B, "Infantry"))
    assert state.first == B


def test_opening_cards_return_to_the_deck():
    # cow.setup.opening-return: the deck is the same 52 cards after the opening
    before = start()
    state = feed(before, opening(A, "Battleship"), opening(B, "Codebreakers"))
    assert state.decks == before.decks
    assert sum(state.decks[COMMON].values()) == 52


def test_opening_card_must_be_in_the_deck():
    # cow.draw.in-deck: there is no Joker in this deck
    assert refused(start(), opening(A, "Joker")) == "cow.draw.in-deck"


def test_deal_is_eight_cards_each():
    # cow.setup.deal
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
    d = RULESET.pending(state)
    assert (d.actor, d.kind) == (A, "deploy")


def test_one_common_deck():
    # cow.deck.common: both players draw from, and discard to, one pile
    state = start()
    assert list(state.decks) == [COMMON] and list(state.discards) == [COMMON]
    state = feed(state, opening(A, "Tank"), opening(B, "Spy"))
    state = feed(state, *(draw(A, "Infantry") for _ in range(3)))
    # alice took all three Infantry; bob cannot draw one from the same pile
    state = feed(state, *(draw(A, c) for c in ["Tank", "Tank", "Spy", "Spy", "Spy"]))
    assert refused(state, draw(B, "Infantry")) == "cow.draw.in-deck"
