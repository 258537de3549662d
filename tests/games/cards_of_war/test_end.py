"""Winning a Battle, a Round and the Game: scores, stalemates, drawn rounds and games, the end."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.games.cards_of_war.lookups import total
from tests.games.cards_of_war.helpers import (
    COMMON,
    RS,
    RULESET,
    A,
    B,
    Battle,
    CardDiscarded,
    HandReported,
    Phase,
    Step,
    battle,
    deploy,
    draw,
    feed,
    header,
    refused,
    table,
)
from tests.narrow import only

HAND_A = ("Infantry", "Spy", "Decoy", "Marines", "Gliders", "Resistance", "Saboteur", "Fighters")
HAND_B = ("Infantry", "Spy", "Decoy", "Marines", "Gliders", "Resistance", "Saboteur", "Fighters")
OPTION_A = ("Transport Plane", "Tank", "Spy", "Infantry", "Decoy", "Marines", "Gliders", "Flak")
OPTION_B = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Destroyer",
            "Submarine")


def steps(state):
    return [(s.step, s.player) for s in state.steps]


def won(winner, points=15) -> Battle:
    """Returns a battle already settled this round (winner None: nobody took it)."""
    return Battle(piles={A: (), B: ()}, closed=True, winner=winner, points=points)


# -- Winning a Battle ------------------------------------------------------------------


@pytest.mark.rule("cow.battle.score")
def test_score_counts_cards_still_on_the_table():
    # alice's pile is Tank (6) and Destroyer (4); bob's Infantry and Flak
    state = table(hands={A: HAND_A, B: HAND_B},
                  battles=[battle(alice=["Tank", "Destroyer"], bob=["Infantry", "Flak"]),
                           battle(), battle()])
    assert total(RS.lk, state, state.battles[0], A) == 10
    assert total(RS.lk, state, state.battles[0], B) == 6
    # a killed card scores nothing: alice deploys Anti-Tank Gun (kills T) onto bob's Flak
    state = replace(state, hands={**state.hands, A: tuple(sorted((*HAND_A[:7], "Anti-Tank Gun")))})
    state = feed(state, deploy(A, "Anti-Tank Gun", 1, kill=True, target="Flak"))
    assert state.battles[0].piles[B] == ("Infantry",)
    assert total(RS.lk, state, state.battles[0], B) == 3
    assert total(RS.lk, state, state.battles[0], A) == 14


@pytest.mark.rule("cow.battle.win", "cow.deploy.open-battle")
def test_first_to_fifteen_wins_the_battle():
    # alice has 12 in battle 1 (two Tanks); bob has Infantry and Spy there
    state = table(hands={A: HAND_A, B: HAND_B},
                  battles=[battle(alice=["Tank", "Tank"], bob=["Infantry", "Radar"]),
                           battle(), battle()])
    # alice deploys Infantry (3) into battle 1: 15 points
    state = feed(state, deploy(A, "Infantry", 1))
    b1 = state.battles[0]
    assert (b1.closed, b1.winner, b1.points) == (True, A, 15)
    assert b1.piles == {A: (), B: ()}
    # alice's cards lie face down; bob's go to the discards
    assert state.face_down[A] == ("Tank", "Tank", "Infantry")
    assert state.discards[COMMON] == ("Infantry", "Radar")
    # alice refills; battle 1 is shut to bob for the rest of the round
    state = feed(state, draw(A, "Codebreakers"))
    assert refused(state, deploy(B, "Spy", 1)) == "cow.deploy.open-battle"


@pytest.mark.rule("cow.battle.win")
def test_below_fifteen_the_battle_goes_on():
    # 14 points win nothing
    state = table(hands={A: HAND_A, B: HAND_B},
                  battles=[battle(alice=["Tank", "Tank"]), battle(), battle()])
    state = feed(state, deploy(A, "Spy", 1))
    assert not state.battles[0].closed
    assert total(RS.lk, state, state.battles[0], A) == 14


@pytest.mark.rule("cow.battle.stalemate")
def test_stalemate_gives_each_battle_to_the_higher_pile():
    # the deck is empty; alice's Decoy is the last card in any hand
    state = table(hands={A: ("Decoy",), B: ()}, deck={},
                  battles=[battle(alice=["Tank"], bob=["Infantry"]),
                           battle(alice=["Spy"], bob=["Gliders"]),
                           battle(alice=["Marines"], bob=["Battleship"])])
    # alice deploys Decoy into battle 2: 2 + 2 = 4 against 3
    state = feed(state, deploy(A, "Decoy", 2))
    # battles 1 and 2 go to alice (6 > 3, 4 > 3), battle 3 to bob (7 > 4): alice wins the round
    assert state.round_winners == (A,)
    assert state.rounds_won[A] == 1


@pytest.mark.rule("cow.battle.stalemate")
def test_stalemate_equal_piles_win_nothing():
    # equal piles; here every battle is level, so the round is drawn
    state = table(hands={A: ("Decoy",), B: ()}, deck={},
                  battles=[battle(alice=["Tank"], bob=["Long Range Bomber"]),
                           battle(alice=["Spy"], bob=["Transport Plane", "Decoy"]),
                           battle(bob=["Fighters"], alice=["Marines"])])
    state = feed(state, deploy(A, "Decoy", 2))
    assert state.round_winners == (None,)
    assert state.rounds_won == {A: 0, B: 0}


# -- Winning a Round -------------------------------------------------------------------


@pytest.mark.rule("cow.round.win")
def test_two_battles_win_the_round():
    # alice took battle 1, bob battle 2; battle 3 decides the round
    state = table(hands={A: HAND_A, B: HAND_B}, length="normal",
                  battles=[won(A), won(B), battle(alice=["Tank", "Tank"])])
    state = replace(state, face_down={A: ("Battleship", "Battleship", "Tank"), B: ()})
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.round_winners == (A,)
    assert state.rounds_won == {A: 1, B: 0}
    assert state.round == 2
    assert all(not b.closed and b.piles == {A: (), B: ()} for b in state.battles)


@pytest.mark.rule("cow.round.next")
def test_next_round_keeps_hands_and_discards_face_down_cards():
    # as above, alice wins the round with battle 3
    state = table(hands={A: HAND_A, B: HAND_B}, turn=B,
                  battles=[won(A), won(B), battle(alice=["Tank"], bob=["Battleship", "Battleship"])])
    state = replace(state, face_down={A: ("Tank",), B: ("Aircraft Carrier",)})
    deck_before = dict(state.decks[COMMON])
    # bob deploys Infantry into battle 3: 7 + 7 + 3 = 17, and the round is his
    state = feed(state, deploy(B, "Infantry", 3))
    assert state.round_winners == (B,)
    # hands are kept as they were (bob's one card short: the round ended mid-turn)
    assert state.hands[A] == tuple(sorted(HAND_A))
    assert len(state.hands[B]) == 7
    # face-down and losing cards are discarded; the discards are not shuffled in
    assert sorted(state.discards[COMMON]) == sorted(
        ["Tank", "Tank", "Aircraft Carrier", "Battleship", "Battleship", "Infantry"])
    assert state.decks[COMMON] == deck_before
    assert state.face_down == {A: (), B: ()}
    # the round's winner opens the next one, once the hands are full again
    assert state.first == B and state.turn == B
    assert [(s.step, s.player) for s in state.steps] == [(Step.REFILL, B), (Step.REFILL, A)]


def round_won_on_an_empty_pile(**options):
    """Returns the table after bob wins round 1 with battle 3 while the draw pile is empty."""
    state = table(hands={A: HAND_A, B: HAND_B}, turn=B, deck={}, **options,
                  battles=[won(A), won(B), battle(alice=["Tank"], bob=["Battleship", "Battleship"])])
    state = replace(state, face_down={A: ("Tank",), B: ("Aircraft Carrier",)})
    return feed(state, deploy(B, "Infantry", 3))


@pytest.mark.rule("cow.round.reshuffle", "cow.deck.reshuffle")
def test_winning_a_round_an_empty_pile_is_rebuilt_between_rounds_by_default():
    state = round_won_on_an_empty_pile()
    assert state.round == 2
    # the pile was empty: the round's discards are its new draw pile at once
    assert sum(state.decks[COMMON].values()) == 6 and state.discards[COMMON] == ()
    # bob, one card short, refills before he opens round 2
    assert steps(state) == [(Step.REFILL, B), (Step.REFILL, A)]
    assert refused(state, draw(B, "Tank")) is None


@pytest.mark.rule("cow.round.no-reshuffle", "cow.deck.exhausted")
def test_winning_a_round_no_reshuffle_between_rounds_option():
    state = round_won_on_an_empty_pile(no_reshuffle_between_rounds=True)
    assert state.round == 2
    # nothing is shuffled in: the pile stays empty, bob opens round 2 with seven cards
    assert state.decks[COMMON] == {} and len(state.discards[COMMON]) == 6
    assert state.steps == () and state.turn == B and len(state.hands[B]) == 7
    # his first deployment of the round: now the discards become the draw pile, and he refills
    state = feed(state, deploy(B, "Decoy", 1))
    assert sum(state.decks[COMMON].values()) == 6 and state.discards[COMMON] == ()
    state = feed(state, draw(B, "Tank"), draw(B, "Battleship"))
    assert len(state.hands[B]) == 8 and state.turn == A


@pytest.mark.rule("cow.round.drawn")
def test_drawn_round_passes_the_opening():
    # alice opened round 1; she holds battle 1, nobody battle 2
    state = table(hands={A: HAND_A, B: HAND_B}, turn=B, first=A,
                  battles=[won(A), won(None, 0), battle(bob=["Tank", "Tank"])])
    # bob wins battle 3: one battle each, so the round is drawn
    state = feed(state, deploy(B, "Infantry", 3))
    assert state.round_winners == (None,)
    assert state.rounds_won == {A: 0, B: 0}
    # bob, who did not open round 1, opens round 2
    assert state.round == 2 and state.first == B


# -- Tactical Advantage and Strategic Exhaustion ---------------------------------------


@pytest.mark.rule("cow.opt.tactical")
def test_sweep_gives_a_nine_card_hand():
    # alice has won battles 1 and 2 and now takes battle 3
    state = table(hands={A: OPTION_A, B: OPTION_B}, tactical_advantage=True,
                  battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.hand_size == {A: 9, B: 8}
    # round 2: alice refills from seven to nine
    state = feed(state, draw(A, "Radar"))
    assert steps(state)[0] == (Step.REFILL, A)
    state = feed(state, draw(A, "Spy"))
    assert len(state.hands[A]) == 9
    # bob's eight are his full hand: alice, the round's winner, opens
    assert state.steps == () and state.turn == A


@pytest.mark.rule("cow.opt.tactical")
def test_tactical_hand_lasts_one_round():
    # alice held nine, but wins round 2 only two battles to one
    state = table(hands={A: (*OPTION_A, "Radar"), B: OPTION_B}, tactical_advantage=True,
                  battles=[won(A), won(B), battle(alice=["Battleship", "Dive Bomber"])])
    state = replace(state, hand_size={A: 9, B: 8})
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.hand_size == {A: 8, B: 8}
    # without the option a sweep changes nothing
    state = table(hands={A: OPTION_A, B: OPTION_B}, battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    assert feed(state, deploy(A, "Infantry", 3)).hand_size == {A: 8, B: 8}


@pytest.mark.rule("cow.opt.exhaustion")
def test_losing_every_battle_costs_a_card_for_good():
    # long game; alice sweeps round 1
    state = table(hands={A: OPTION_A, B: OPTION_B}, length="long", strategic_exhaustion=True,
                  battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.hand_size == {A: 8, B: 7}
    assert state.phase is Phase.PLAY


@pytest.mark.rule("cow.opt.exhaustion.discard", "cow.turn.step", "cow.turn.order")
def test_strategic_exhaustion_the_loser_discards_down_to_the_reduced_hand():
    # long game; alice sweeps round 1 while bob holds eight cards
    state = table(hands={A: OPTION_A, B: OPTION_B}, length="long", strategic_exhaustion=True,
                  battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.hand_size[B] == 7 and len(state.hands[B]) == 8
    # before any refill, bob gives up one card of his choice (he kept all eight before)
    assert steps(state)[0] == (Step.DISCARD, B)
    d = RS.pending(state)
    assert d is not None
    assert (d.actor, d.kind) == (B, "discard")
    assert {e.card for e in only(CardDiscarded, RS.legal(state))} == set(OPTION_B)
    assert refused(state, draw(A, "Radar")) == "cow.turn.step"
    assert refused(state, deploy(A, "Tank", 1)) == "cow.turn.step"
    assert refused(state, CardDiscarded(player=A, card="Tank")) == "cow.turn.order"
    assert refused(state, CardDiscarded(player=B, card="Tank")) == "cow.opt.exhaustion.discard"
    state = feed(state, CardDiscarded(player=B, card="Codebreakers"))
    assert len(state.hands[B]) == 7 and "Codebreakers" not in state.hands[B]
    assert state.discards[COMMON][-1] == "Codebreakers"
    # then the round's refills: alice, seven cards, draws one; bob is at his size
    assert steps(state) == [(Step.REFILL, A), (Step.REFILL, B)]
    state = feed(state, draw(A, "Radar"))
    assert state.steps == () and state.turn == A
    # a discard is owed only then
    assert refused(state, CardDiscarded(player=A, card="Radar")) == "cow.turn.step"


@pytest.mark.rule("cow.opt.exhaustion.discard")
def test_strategic_exhaustion_a_short_hand_discards_nothing():
    # bob holds six when his hand size drops to seven: nothing to give up, he refills to seven
    state = table(hands={A: OPTION_A, B: OPTION_B[:6]}, length="long", strategic_exhaustion=True,
                  battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    state = feed(state, deploy(A, "Infantry", 3), draw(A, "Radar"))
    assert steps(state) == [(Step.REFILL, B)]
    state = feed(state, draw(B, "Radar"))
    assert len(state.hands[B]) == 7 and state.steps == ()


@pytest.mark.rule("cow.opt.exhaustion")
def test_exhausting_the_opponent_to_three_wins():
    # bob is down to four; alice sweeps again, leaving him three
    state = table(hands={A: OPTION_A, B: OPTION_B[:4]}, length="long", strategic_exhaustion=True,
                  battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    state = replace(state, hand_size={A: 8, B: 4}, rounds_won={A: 1, B: 0}, round=6)
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.hand_size[B] == 3
    assert state.phase is Phase.OVER and state.winner == A
    assert state.rounds_won == {A: 2, B: 0}


# -- Winning the Game ------------------------------------------------------------------


@pytest.mark.rule("cow.game.short")
def test_short_game_is_one_round():
    # alice wins the only round
    state = table(hands={A: HAND_A, B: HAND_B}, length="short",
                  battles=[won(A), won(B), battle(alice=["Tank", "Tank"])])
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.phase is Phase.OVER and state.winner == A
    assert RS.pending(state) is None
    o = RS.outcome(state)
    assert o is not None
    assert o.winners == (A,) and o.scores == {A: 1, B: 0}


@pytest.mark.rule("cow.game.normal")
def test_normal_game_two_rounds_win():
    # alice won round 1 and now takes round 2
    state = table(hands={A: HAND_A, B: HAND_B},
                  battles=[won(A), won(B), battle(alice=["Tank", "Tank"])])
    state = replace(state, round=2, rounds_won={A: 1, B: 0}, round_winners=(A,))
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.phase is Phase.OVER and state.winner == A
    assert state.rounds_won == {A: 2, B: 0}


@pytest.mark.rule("cow.game.normal")
def test_normal_game_one_all_goes_to_a_third_round():
    # one round each after round 2
    state = table(hands={A: HAND_A, B: HAND_B},
                  battles=[won(A), won(B), battle(alice=["Tank", "Tank"])])
    state = replace(state, round=2, rounds_won={A: 0, B: 1}, round_winners=(B,))
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.phase is Phase.PLAY and state.round == 3


@pytest.mark.rule("cow.game.normal")
def test_normal_game_after_three_rounds_with_draws():
    # rounds went alice, drawn, and now round 3 is drawn too: alice wins 1-0
    state = table(hands={A: HAND_A, B: HAND_B}, turn=B,
                  battles=[won(A), won(None, 0), battle(bob=["Tank", "Tank"])])
    state = replace(state, round=3, rounds_won={A: 1, B: 0}, round_winners=(A, None))
    state = feed(state, deploy(B, "Infantry", 3))
    assert state.phase is Phase.OVER and state.winner == A
    # one round each and a drawn one: the game is drawn
    state = table(hands={A: HAND_A, B: HAND_B}, turn=B,
                  battles=[won(A), won(None, 0), battle(bob=["Tank", "Tank"])])
    state = replace(state, round=3, rounds_won={A: 1, B: 1}, round_winners=(A, B))
    state = feed(state, deploy(B, "Infantry", 3))
    assert state.phase is Phase.OVER and state.winner is None
    o = RS.outcome(state)
    assert o is not None
    assert o.winners == () and "draw" in o.summary


@pytest.mark.rule("cow.game.long")
def test_long_game_needs_a_lead_of_three():
    # 2-0 up, alice wins another round: 3-0 ends it
    state = table(hands={A: HAND_A, B: HAND_B}, length="long",
                  battles=[won(A), won(B), battle(alice=["Tank", "Tank"])])
    state = replace(state, round=3, rounds_won={A: 2, B: 0})
    ended = feed(state, deploy(A, "Infantry", 3))
    assert ended.phase is Phase.OVER and ended.winner == A
    # 2-1 up, a win makes 3-1: the war goes on (a normal game would be over)
    going = feed(replace(state, rounds_won={A: 2, B: 1}), deploy(A, "Infantry", 3))
    assert going.phase is Phase.PLAY and going.rounds_won == {A: 3, B: 1}
    assert going.round == 4


@pytest.mark.rule("core.game.over")
def test_nothing_is_played_after_the_game():
    # once the war is won, check refuses every event (and does not crash)
    state = table(hands={A: HAND_A, B: HAND_B}, length="short",
                  battles=[won(A), won(B), battle(alice=["Tank", "Tank"])])
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.phase is Phase.OVER
    assert refused(state, deploy(B, "Spy", 1)) == "core.game.over"
    assert refused(state, draw(A, "Spy")) == "core.game.over"
    assert refused(state, HandReported(player=B)) == "core.game.over"


# -- Special Abilities on a card that ends the round (rules 1.2) ----------------------------

SPIES_B = ("Infantry", "Spy", "Decoy", "Transport Plane", "Gliders", "Resistance", "Saboteur",
           "Codebreakers")


def round_won_by(card: str, rules: str | None = None, **options):
    """Returns the table after bob's `card` brings battle 3 to exactly 15 (on Battleship and
    Tank, or two Battleships for the one-point Codebreakers) and wins round 1 of a normal
    game, alice having taken battle 1 and bob battle 2; judged by `rules` (default: latest)."""
    rs = RULESET.bind(header(**options), rules)
    pile = ["Battleship", "Battleship" if card == "Codebreakers" else "Tank"]
    state = table(hands={A: HAND_A, B: SPIES_B}, turn=B, **options,
                  battles=[won(A), won(B), battle(alice=["Tank"], bob=pile)])
    ev = deploy(B, card, 3)
    assert rs.check(state, ev) is None
    state = rs.apply(state, ev)
    assert state.round_winners == (B,) and state.round == 2 and state.phase is Phase.PLAY
    return rs, state


@pytest.mark.rule("cow.ability.round-end", "cow.recon.report")
def test_special_abilities_3_a_recon_card_that_ends_the_round_is_still_answered():
    # bob's Spy (RECON) wins battle 3 with exactly 15, and with it the round: alice still
    # tells him her hand's theatres (she keeps that hand into round 2), before the refills
    rs, state = round_won_by("Spy")
    assert steps(state) == [(Step.RECON, A), (Step.REFILL, B), (Step.REFILL, A)]
    assert rs.check(state, draw(B, "Flak")).rule == "cow.turn.step"
    answer = HandReported(player=A, air=1, sea=1, ground=2, intel=4)  # HAND_A's theatres
    assert rs.check(state, answer) is None
    state = rs.apply(state, answer)
    assert steps(state) == [(Step.REFILL, B), (Step.REFILL, A)]


@pytest.mark.rule("cow.ability.round-end")
def test_special_abilities_3_rules_1_1_dropped_the_recon_of_a_round_ending_card():
    rs, state = round_won_by("Spy", rules="1.1")
    assert steps(state) == [(Step.REFILL, B), (Step.REFILL, A)]
    answer = HandReported(player=A, air=1, sea=1, ground=2, intel=4)
    assert rs.check(state, answer).rule == "cow.turn.step"


@pytest.mark.rule("cow.reinforce.round-end")
def test_special_abilities_2_a_reinforce_card_that_ends_the_round_lapses():
    # bob's Transport Plane (REINFORCE) ends the round: no second deployment, no extra
    # draw; the next round's refill fills his hand as usual
    rs, state = round_won_by("Transport Plane")
    assert steps(state) == [(Step.REFILL, B), (Step.REFILL, A)]
    state = rs.apply(state, draw(B, "Flak"))
    assert len(state.hands[B]) == 8 and state.reinforce_card is None
    # Codebreakers (RECON and REINFORCE): the recon is answered, the reinforcement lapses
    rs, state = round_won_by("Codebreakers")
    assert steps(state) == [(Step.RECON, A), (Step.REFILL, B), (Step.REFILL, A)]


@pytest.mark.rule("cow.reinforce.round-end")
def test_special_abilities_2_reinforce_draw_at_round_end_option_draws_at_once_and_keeps_it():
    rs, state = round_won_by("Codebreakers", reinforce_draw_at_round_end=True)
    assert steps(state) == [(Step.RECON, A), (Step.REINFORCE_DRAW, B), (Step.REFILL, B),
                            (Step.REFILL, A)]
    state = rs.apply(state, HandReported(player=A, air=1, sea=1, ground=2, intel=4))
    state = rs.apply(state, draw(B, "Flak"))  # the extra card, kept: his hand is full again
    assert len(state.hands[B]) == 8 and state.reinforce_card == "Flak"
    assert steps(state) == [] and state.turn == B  # both hands full: bob opens round 2


@pytest.mark.rule("cow.ability.round-end")
def test_special_abilities_a_round_that_ends_the_game_ends_its_abilities():
    rs = RULESET.bind(header(length="short"))
    state = table(hands={A: HAND_A, B: SPIES_B}, turn=B, length="short",
                  battles=[won(A), won(B), battle(alice=["Tank"], bob=["Battleship", "Tank"])])
    state = rs.apply(state, deploy(B, "Spy", 3))
    assert state.phase is Phase.OVER and rs.pending(state) is None


@pytest.mark.rule("cow.reinforce.round-end", "cow.opt.joint.abilities")
def test_special_abilities_2_a_pairs_reinforcement_lapses_when_its_partner_ends_the_round():
    # alice's Amphib (REINFORCE) takes battle 2 and names its partner; Marines takes battle 3
    # and the round (a sweep): Amphib's reinforcement, owed after the partner, lapses with it
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Marines",
            "Amphib")
    for option, owed in ((False, []), (True, [(Step.REINFORCE_DRAW, A)])):
        rs = RULESET.bind(header(joint_deployment=True, reinforce_draw_at_round_end=option))
        state = table(hands={A: hand, B: HAND_B}, joint_deployment=True,
                      reinforce_draw_at_round_end=option,
                      battles=[won(A), battle(alice=["Aircraft Carrier", "Tank"]),
                               battle(alice=["Long Range Bomber", "Dive Bomber"])])
        for ev in (deploy(A, "Amphib", 2, joint=True), deploy(A, "Marines", 3)):
            assert rs.check(state, ev) is None
            state = rs.apply(state, ev)
        assert state.round_winners == (A,) and state.round == 2
        assert steps(state) == [*owed, (Step.REFILL, A), (Step.REFILL, B)]
