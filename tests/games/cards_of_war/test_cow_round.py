"""Playing a Round: turn order, deploying from hand, refills, the deck and its reshuffle."""

from __future__ import annotations

from msgspec.structs import replace

from tests.games.cards_of_war.helpers import (
    COMMON,
    RULESET,
    A,
    B,
    Battle,
    Step,
    battle,
    deploy,
    draw,
    feed,
    refused,
    report,
    table,
)

HAND_A = ("Infantry", "Tank", "Spy", "Flak", "Marines", "Decoy", "Gliders", "Saboteur")
HAND_B = ("Infantry", "Tank", "Destroyer", "Submarine", "Fighters", "Radar", "Amphib", "Flak")


def steps(state):
    return [(s.step, s.player) for s in state.steps]


def test_only_the_player_on_turn_deploys():
    # cow.turn.order: it is alice's turn; bob must wait
    state = table(hands={A: HAND_A, B: HAND_B})
    assert refused(state, deploy(B, "Tank", 1)) == "cow.turn.order"
    # alice deploys Tank into battle 1 and draws back to eight
    state = feed(state, deploy(A, "Tank", 1))
    # bob may not draw alice's refill
    assert refused(state, draw(B, "Spy")) == "cow.turn.order"
    state = feed(state, draw(A, "Spy"))
    # now it is bob's deployment, and alice's turn is over
    assert state.turn == B
    assert refused(state, deploy(A, "Infantry", 2)) == "cow.turn.order"
    assert refused(state, deploy("carol", "Infantry", 2)) == "cow.turn.order"


def test_what_a_deployment_owes_comes_first():
    # cow.turn.step: alice's refill is owed before anything else
    state = feed(table(hands={A: HAND_A, B: HAND_B}), deploy(A, "Decoy", 2))
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]
    assert refused(state, deploy(A, "Tank", 1)) == "cow.turn.step"
    assert refused(state, report(state, B)) == "cow.turn.step"
    # once she has drawn, no further draw is owed
    state = feed(state, draw(A, "Radar"))
    assert refused(state, draw(B, "Radar")) == "cow.turn.step"
    # a Spy (recon) makes bob's report the next thing, not alice's refill
    state = table(hands={A: HAND_A, B: HAND_B})
    state = feed(state, deploy(A, "Spy", 3))
    assert steps(state)[0] == (Step.RECON, B)
    assert refused(state, draw(A, "Radar")) == "cow.turn.step"


def test_deployed_card_comes_from_hand():
    # cow.deploy.in-hand: alice holds no Battleship, and there is no Joker at all
    state = table(hands={A: HAND_A, B: HAND_B})
    assert refused(state, deploy(A, "Battleship", 1)) == "cow.deploy.in-hand"
    assert refused(state, deploy(A, "Joker", 1)) == "cow.deploy.in-hand"
    # alice deploys Marines into battle 2: out of her hand, on top of her pile there
    state = feed(state, deploy(A, "Marines", 2))
    assert "Marines" not in state.hands[A]
    assert state.battles[1].piles == {A: ("Marines",), B: ()}


def test_won_battle_takes_no_more_cards():
    # cow.deploy.open-battle: battle 1 went to bob earlier this round
    won = Battle(piles={A: (), B: ()}, closed=True, winner=B, points=16)
    state = table(hands={A: HAND_A, B: HAND_B}, battles=[won, battle(), battle()])
    assert refused(state, deploy(A, "Tank", 1)) == "cow.deploy.open-battle"
    assert refused(state, deploy(A, "Tank", 2)) is None


def test_refill_to_hand_size():
    # cow.draw.refill: alice holds six after two earlier draws were short
    state = table(hands={A: HAND_A[:6], B: HAND_B})
    state = feed(state, deploy(A, "Infantry", 1))
    # she draws until she holds eight again, then the turn passes
    state = feed(state, draw(A, "Radar"), draw(A, "Spy"))
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]
    state = feed(state, draw(A, "Resistance"))
    assert len(state.hands[A]) == 8
    assert state.turn == B and state.steps == ()


def test_draw_only_what_is_in_the_pile():
    # cow.draw.in-deck: Shore Bombardment is a single card, already in bob's hand
    state = table(hands={A: HAND_A, B: (*HAND_B[:7], "Shore Bombardment")})
    state = feed(state, deploy(A, "Infantry", 1))
    assert refused(state, draw(A, "Shore Bombardment")) == "cow.draw.in-deck"
    assert refused(state, draw(A, "Codebreakers")) is None


def test_reshuffle_when_one_card_left():
    # cow.deck.reshuffle: two cards in the pile, three in the discards
    state = table(hands={A: HAND_A, B: HAND_B}, deck={"Radar": 1, "Spy": 1},
                  discards=("Infantry", "Tank", "Flak"))
    # alice deploys and draws the Radar, leaving one card: it and the discards are the new pile
    state = feed(state, deploy(A, "Decoy", 1), draw(A, "Radar"))
    assert state.decks[COMMON] == {"Flak": 1, "Infantry": 1, "Spy": 1, "Tank": 1}
    assert state.discards[COMMON] == ()


def test_exhausted_deck_skips_draws():
    # cow.deck.exhausted: no card to draw and none discarded
    state = table(hands={A: HAND_A, B: HAND_B}, deck={})
    # alice deploys; no refill is owed and her hand stays at seven
    state = feed(state, deploy(A, "Decoy", 1))
    assert state.steps == ()
    assert len(state.hands[A]) == 7
    assert state.turn == B


def test_over_size_hand_draws_nothing():
    # cow.hand.over-size: alice holds nine but her hand size is eight
    state = table(hands={A: (*HAND_A, "Radar"), B: HAND_B})
    state = feed(state, deploy(A, "Decoy", 1))
    # eight left: at the hand size, so no draw and bob is up
    assert len(state.hands[A]) == 8
    assert state.steps == () and state.turn == B
    # with hand size cut to seven, eight cards also draw nothing
    state = replace(table(hands={A: (*HAND_A, "Radar"), B: HAND_B}), hand_size={A: 7, B: 8})
    state = feed(state, deploy(A, "Decoy", 1))
    assert state.steps == () and state.turn == B


def test_empty_hand_passes():
    # cow.turn.empty-hand: bob has nothing and nothing can be drawn
    state = table(hands={A: ("Infantry", "Spy"), B: ()}, deck={})
    state = feed(state, deploy(A, "Infantry", 1))
    # bob passes: alice deploys again
    assert state.turn == A
    d = RULESET.pending(state)
    assert (d.actor, d.kind) == (A, "deploy")
    # the other way round: alice is out of cards, so bob deploys twice running
    state = table(hands={A: (), B: ("Tank", "Decoy")}, deck={}, turn=B)
    state = feed(state, deploy(B, "Tank", 2))
    assert state.turn == B
    assert refused(state, deploy(B, "Decoy", 3)) is None
