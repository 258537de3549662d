"""Special Abilities: KILL, REINFORCE and RECON."""

from __future__ import annotations

from tests.games.cards_of_war.helpers import (
    COMMON,
    A,
    B,
    HandReported,
    Step,
    battle,
    deploy,
    draw,
    feed,
    refused,
    report,
    table,
)

HAND_A = ("Tank", "Flak", "Destroyer", "Submarine", "Transport Plane", "Recon Plane", "Spy",
          "Infantry")
HAND_B = ("Infantry", "Gliders", "Radar", "Marines", "Decoy", "Fighters", "Amphib", "Anti-Tank Gun")


def steps(state):
    return [(s.step, s.player) for s in state.steps]


def test_only_killers_kill():
    # cow.kill.ability: Infantry has no KILL
    state = table(hands={A: HAND_A, B: HAND_B}, battles=[battle(bob=["Gliders"]), battle(), battle()])
    assert refused(state, deploy(A, "Infantry", 1, kill=True)) == "cow.kill.ability"
    # Tank does (it kills I)
    assert refused(state, deploy(A, "Tank", 1, kill=True)) is None


def test_kill_reaches_only_the_top_card_of_the_same_battle():
    # cow.kill.top-only: bob's Gliders lie on his Infantry in battle 1
    state = table(hands={A: HAND_A, B: HAND_B},
                  battles=[battle(bob=["Infantry", "Gliders"]), battle(), battle()])
    # a Tank sent into battle 2 finds nothing of bob's to kill there
    assert refused(state, deploy(A, "Tank", 2, kill=True)) == "cow.kill.top-only"
    # alice deploys Tank into battle 1 and kills the Gliders; the Infantry below survives
    state = feed(state, deploy(A, "Tank", 1, kill=True))
    assert state.battles[0].piles == {A: ("Tank",), B: ("Infantry",)}
    assert state.discards[COMMON] == ("Gliders",)


def test_kill_needs_a_matching_type():
    # cow.kill.type-match: bob's top card in battle 1 is Flak (type T); Tank kills only I
    state = table(hands={A: HAND_A, B: HAND_B},
                  battles=[battle(bob=["Infantry", "Flak"]), battle(bob=["Fighters"]), battle()])
    assert refused(state, deploy(A, "Tank", 1, kill=True)) == "cow.kill.type-match"
    # Flak kills F: alice deploys Flak into battle 2 and the Fighters are discarded at once
    state = feed(state, deploy(A, "Flak", 2, kill=True))
    assert state.battles[1].piles[B] == ()
    assert state.discards[COMMON] == ("Fighters",)


def test_radar_is_every_type():
    # cow.kill.type-match: Radar carries all the symbols, so a Destroyer (kills U) hits it
    state = table(hands={A: HAND_A, B: HAND_B}, battles=[battle(), battle(), battle(bob=["Radar"])])
    state = feed(state, deploy(A, "Destroyer", 3, kill=True))
    assert state.battles[2].piles == {A: ("Destroyer",), B: ()}
    assert state.discards[COMMON] == ("Radar",)


def test_multi_type_victim_is_hit_through_any_symbol():
    # cow.kill.multi-type: the Aircraft Carrier is both S and F
    carrier = [battle(bob=["Aircraft Carrier"]), battle(), battle()]
    state = table(hands={A: HAND_A, B: HAND_B}, battles=carrier)
    # Flak (kills F, B) hits it through F; a Submarine (kills S) through S
    assert refused(state, deploy(A, "Flak", 1, kill=True)) is None
    state = feed(state, deploy(A, "Submarine", 1, kill=True))
    assert state.battles[0].piles[B] == ()
    assert state.discards[COMMON] == ("Aircraft Carrier",)


def test_kill_is_optional():
    # cow.kill.optional: alice deploys Tank onto bob's Infantry without killing it
    state = table(hands={A: HAND_A, B: HAND_B}, battles=[battle(bob=["Infantry"]), battle(), battle()])
    state = feed(state, deploy(A, "Tank", 1))
    assert state.battles[0].piles == {A: ("Tank",), B: ("Infantry",)}
    assert state.discards[COMMON] == ()


def test_reinforce_draws_then_deploys_again():
    # cow.reinforce.draw: alice deploys Transport Plane (reinforce) into battle 1
    state = table(hands={A: HAND_A, B: HAND_B})
    state = feed(state, deploy(A, "Transport Plane", 1))
    assert steps(state) == [(Step.REINFORCE_DRAW, A), (Step.REINFORCE_DEPLOY, A),
                            (Step.REFILL, A), (Step.PASS, A)]
    # she draws the extra card first: eight cards again
    state = feed(state, draw(A, "Battleship"))
    assert len(state.hands[A]) == 8 and state.reinforce_card == "Battleship"
    # then deploys any card from hand: the Recon Plane, whose recon works as usual
    state = feed(state, deploy(A, "Recon Plane", 2))
    assert steps(state) == [(Step.RECON, B), (Step.REFILL, A), (Step.PASS, A)]
    state = feed(state, report(state, B), draw(A, "Radar"))
    assert state.turn == B
    assert state.battles[0].piles[A] == ("Transport Plane",)
    assert state.battles[1].piles[A] == ("Recon Plane",)


def test_reinforce_with_nothing_to_draw_still_deploys():
    # cow.reinforce.draw with cow.deck.exhausted: the extra draw is skipped, the deployment is not
    state = table(hands={A: HAND_A, B: HAND_B}, deck={})
    state = feed(state, deploy(A, "Transport Plane", 1))
    assert steps(state) == [(Step.REINFORCE_DEPLOY, A), (Step.REFILL, A), (Step.PASS, A)]
    state = feed(state, deploy(A, "Tank", 2))
    assert state.turn == B and len(state.hands[A]) == 6


def test_recon_report_must_be_true():
    # cow.recon.report: alice deploys a Spy; bob owes a count of his hand's theatres
    state = feed(table(hands={A: HAND_A, B: HAND_B}), deploy(A, "Spy", 1))
    # bob holds 3 Ground (Infantry, Gliders, Anti-Tank Gun), 2 Intel (Radar, Decoy), 2 Sea, 1 Air
    truth = HandReported(player=B, air=1, sea=2, ground=3, intel=2)
    assert report(state, B) == truth
    lie = HandReported(player=B, air=1, sea=2, ground=2, intel=3)
    assert refused(state, lie) == "cow.recon.report"
    # only bob answers
    assert refused(state, HandReported(player=A, air=1)) == "cow.turn.order"
    state = feed(state, truth)
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]
