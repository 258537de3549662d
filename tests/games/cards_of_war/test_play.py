"""Playing a Round: turn order, deployments, draws and the deck; Special Abilities; the optional rules of play."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.games.cards_of_war.components import Theatre
from tabletape.games.cards_of_war.lookups import total
from tests.games.cards_of_war.helpers import (
    COMMON,
    RS,
    A,
    B,
    Battle,
    HandReported,
    Phase,
    Step,
    battle,
    deploy,
    deploys,
    draw,
    feed,
    refused,
    report,
    table,
)
from tests.narrow import present

AIR, SEA, GROUND, INTEL = Theatre.AIR, Theatre.SEA, Theatre.GROUND, Theatre.INTEL
HAND_A = ("Infantry", "Tank", "Spy", "Flak", "Marines", "Decoy", "Gliders", "Saboteur")
HAND_B = ("Infantry", "Tank", "Destroyer", "Submarine", "Fighters", "Radar", "Amphib", "Flak")
SPECIAL_A = ("Tank", "Flak", "Destroyer", "Submarine", "Transport Plane", "Recon Plane", "Spy",
             "Infantry")
SPECIAL_B = ("Infantry", "Gliders", "Radar", "Marines", "Decoy", "Fighters", "Amphib",
             "Anti-Tank Gun")
OPTION_A = ("Transport Plane", "Tank", "Spy", "Infantry", "Decoy", "Marines", "Gliders", "Flak")
OPTION_B = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Destroyer",
            "Submarine")


def steps(state):
    return [(s.step, s.player) for s in state.steps]


def won(winner, points=15) -> Battle:
    """Returns a battle already settled this round (winner None: nobody took it)."""
    return Battle(piles={A: (), B: ()}, closed=True, winner=winner, points=points)


# -- Playing a Round -------------------------------------------------------------------


@pytest.mark.rule("cow.turn.order")
def test_only_the_player_on_turn_deploys():
    # it is alice's turn; bob must wait
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


@pytest.mark.rule("cow.turn.step")
def test_what_a_deployment_owes_comes_first():
    # alice's refill is owed before anything else
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


@pytest.mark.rule("cow.deploy.in-hand")
def test_deployed_card_comes_from_hand():
    # alice holds no Battleship, and there is no Joker at all
    state = table(hands={A: HAND_A, B: HAND_B})
    assert refused(state, deploy(A, "Battleship", 1)) == "cow.deploy.in-hand"
    assert refused(state, deploy(A, "Joker", 1)) == "cow.deploy.in-hand"
    # alice deploys Marines into battle 2: out of her hand, on top of her pile there
    state = feed(state, deploy(A, "Marines", 2))
    assert "Marines" not in state.hands[A]
    assert state.battles[1].piles == {A: ("Marines",), B: ()}


@pytest.mark.rule("cow.deploy.open-battle")
def test_won_battle_takes_no_more_cards():
    # battle 1 went to bob earlier this round
    won = Battle(piles={A: (), B: ()}, closed=True, winner=B, points=16)
    state = table(hands={A: HAND_A, B: HAND_B}, battles=[won, battle(), battle()])
    assert refused(state, deploy(A, "Tank", 1)) == "cow.deploy.open-battle"
    assert refused(state, deploy(A, "Tank", 2)) is None


@pytest.mark.rule("cow.draw.refill")
def test_refill_to_hand_size():
    # alice holds six after two earlier draws were short
    state = table(hands={A: HAND_A[:6], B: HAND_B})
    state = feed(state, deploy(A, "Infantry", 1))
    # she draws until she holds eight again, then the turn passes
    state = feed(state, draw(A, "Radar"), draw(A, "Spy"))
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]
    state = feed(state, draw(A, "Resistance"))
    assert len(state.hands[A]) == 8
    assert state.turn == B and state.steps == ()


@pytest.mark.rule("cow.draw.in-deck")
def test_draw_only_what_is_in_the_pile():
    # Shore Bombardment is a single card, already in bob's hand
    state = table(hands={A: HAND_A, B: (*HAND_B[:7], "Shore Bombardment")})
    state = feed(state, deploy(A, "Infantry", 1))
    assert refused(state, draw(A, "Shore Bombardment")) == "cow.draw.in-deck"
    assert refused(state, draw(A, "Codebreakers")) is None


@pytest.mark.rule("cow.deck.reshuffle")
def test_reshuffle_when_one_card_left():
    # two cards in the pile, three in the discards
    state = table(hands={A: HAND_A, B: HAND_B}, deck={"Radar": 1, "Spy": 1},
                  discards=("Infantry", "Tank", "Flak"))
    # alice deploys and draws the Radar, leaving one card: it and the discards are the new pile
    state = feed(state, deploy(A, "Decoy", 1), draw(A, "Radar"))
    assert state.decks[COMMON] == {"Flak": 1, "Infantry": 1, "Spy": 1, "Tank": 1}
    assert state.discards[COMMON] == ()


@pytest.mark.rule("cow.deck.exhausted")
def test_exhausted_deck_skips_draws():
    # no card to draw and none discarded
    state = table(hands={A: HAND_A, B: HAND_B}, deck={})
    # alice deploys; no refill is owed and her hand stays at seven
    state = feed(state, deploy(A, "Decoy", 1))
    assert state.steps == ()
    assert len(state.hands[A]) == 7
    assert state.turn == B


@pytest.mark.rule("cow.hand.over-size")
def test_over_size_hand_draws_nothing():
    # alice holds nine but her hand size is eight
    state = table(hands={A: (*HAND_A, "Radar"), B: HAND_B})
    state = feed(state, deploy(A, "Decoy", 1))
    # eight left: at the hand size, so no draw and bob is up
    assert len(state.hands[A]) == 8
    assert state.steps == () and state.turn == B
    # with hand size cut to seven, eight cards also draw nothing
    state = replace(table(hands={A: (*HAND_A, "Radar"), B: HAND_B}), hand_size={A: 7, B: 8})
    state = feed(state, deploy(A, "Decoy", 1))
    assert state.steps == () and state.turn == B


@pytest.mark.rule("cow.turn.empty-hand")
def test_empty_hand_passes():
    # bob has nothing and nothing can be drawn
    state = table(hands={A: ("Infantry", "Spy"), B: ()}, deck={})
    state = feed(state, deploy(A, "Infantry", 1))
    # bob passes: alice deploys again
    assert state.turn == A
    d = RS.pending(state)
    assert d is not None
    assert (d.actor, d.kind) == (A, "deploy")
    # the other way round: alice is out of cards, so bob deploys twice running
    state = table(hands={A: (), B: ("Tank", "Decoy")}, deck={}, turn=B)
    state = feed(state, deploy(B, "Tank", 2))
    assert state.turn == B
    assert refused(state, deploy(B, "Decoy", 3)) is None


# -- Special Abilities: KILL, REINFORCE and RECON --------------------------------------


@pytest.mark.rule("cow.kill.ability")
def test_only_killers_kill():
    # Infantry has no KILL
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B}, battles=[battle(bob=["Gliders"]), battle(), battle()])
    assert refused(state, deploy(A, "Infantry", 1, kill=True, target="Gliders")) == "cow.kill.ability"
    # Tank does (it kills I)
    assert refused(state, deploy(A, "Tank", 1, kill=True, target="Gliders")) is None


@pytest.mark.rule("cow.kill.top-only")
def test_kill_reaches_only_the_top_card_of_the_same_battle():
    # bob's Gliders lie on his Infantry in battle 1
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B},
                  battles=[battle(bob=["Infantry", "Gliders"]), battle(), battle()])
    # a Tank sent into battle 2 finds nothing of bob's to kill there
    assert refused(state, deploy(A, "Tank", 2, kill=True, target="Gliders")) == "cow.kill.top-only"
    # alice deploys Tank into battle 1 and kills the Gliders; the Infantry below survives
    state = feed(state, deploy(A, "Tank", 1, kill=True, target="Gliders"))
    assert state.battles[0].piles == {A: ("Tank",), B: ("Infantry",)}
    assert state.discards[COMMON] == ("Gliders",)


@pytest.mark.rule("cow.kill.type-match")
def test_kill_needs_a_matching_type():
    # bob's top card in battle 1 is Flak (type T); Tank kills only I
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B},
                  battles=[battle(bob=["Infantry", "Flak"]), battle(bob=["Fighters"]), battle()])
    assert refused(state, deploy(A, "Tank", 1, kill=True, target="Flak")) == "cow.kill.type-match"
    # Flak kills F: alice deploys Flak into battle 2 and the Fighters are discarded at once
    state = feed(state, deploy(A, "Flak", 2, kill=True, target="Fighters"))
    assert state.battles[1].piles[B] == ()
    assert state.discards[COMMON] == ("Fighters",)


@pytest.mark.rule("cow.kill.type-match")
def test_radar_is_every_type():
    # Radar carries all the symbols, so a Destroyer (kills U) hits it
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B}, battles=[battle(), battle(), battle(bob=["Radar"])])
    state = feed(state, deploy(A, "Destroyer", 3, kill=True, target="Radar"))
    assert state.battles[2].piles == {A: ("Destroyer",), B: ()}
    assert state.discards[COMMON] == ("Radar",)


@pytest.mark.rule("cow.kill.multi-type")
def test_multi_type_victim_is_hit_through_any_symbol():
    # the Aircraft Carrier is both S and F
    carrier = [battle(bob=["Aircraft Carrier"]), battle(), battle()]
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B}, battles=carrier)
    # Flak (kills F, B) hits it through F; a Submarine (kills S) through S
    assert refused(state, deploy(A, "Flak", 1, kill=True, target="Aircraft Carrier")) is None
    state = feed(state, deploy(A, "Submarine", 1, kill=True, target="Aircraft Carrier"))
    assert state.battles[0].piles[B] == ()
    assert state.discards[COMMON] == ("Aircraft Carrier",)


@pytest.mark.rule("cow.kill.optional")
def test_kill_is_optional():
    # alice deploys Tank onto bob's Infantry without killing it
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B}, battles=[battle(bob=["Infantry"]), battle(), battle()])
    state = feed(state, deploy(A, "Tank", 1))
    assert state.battles[0].piles == {A: ("Tank",), B: ("Infantry",)}
    assert state.discards[COMMON] == ()
    # legal offers the Tank into battle 1 both with and without its KILL
    kills = {e.kill for e in deploys(table(hands={A: SPECIAL_A, B: SPECIAL_B},
                                            battles=[battle(bob=["Infantry"]), battle(), battle()]))
             if e.card == "Tank" and e.battle == 1}
    assert kills == {False, True}


@pytest.mark.rule("cow.kill.automatic")
def test_special_abilities_kill_automatic_reading():
    # with automatic_kill, a Tank deployed onto bob's Infantry kills it: it must say so
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B}, automatic_kill=True,
                  battles=[battle(bob=["Infantry"]), battle(bob=["Flak"]), battle()])
    assert refused(state, deploy(A, "Tank", 1)) == "cow.kill.automatic"
    assert [e.kill for e in deploys(state) if e.card == "Tank" and e.battle == 1] == [True]
    # no match, no kill: the Tank goes onto the Flak (type T) or into an empty battle as it is
    assert refused(state, deploy(A, "Tank", 2)) is None
    assert refused(state, deploy(A, "Tank", 3)) is None
    # a card without KILL is never forced
    assert refused(state, deploy(A, "Infantry", 1)) is None
    state = feed(state, deploy(A, "Tank", 1, kill=True, target="Infantry"))
    assert state.battles[0].piles == {A: ("Tank",), B: ()}
    assert state.discards[COMMON] == ("Infantry",)


@pytest.mark.rule("cow.kill.target", "cow.kill.top-only")
def test_special_abilities_kill_a_card_under_the_top_is_out_of_reach():
    # bob's Infantry lies under his Fighters in battle 1; his Gliders are alone in battle 2
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B},
                  battles=[battle(bob=["Infantry", "Fighters"]), battle(bob=["Gliders"]), battle()])
    # alice's Tank (kills I) means the Infantry: only the top card can be killed (this was
    # reported as a type mismatch, against the Fighters, before a KILL named its target)
    assert refused(state, deploy(A, "Tank", 1, kill=True, target="Infantry")) == "cow.kill.top-only"
    # the Gliders are in battle 2: a KILL reaches only the battle the killer goes into
    assert refused(state, deploy(A, "Tank", 1, kill=True, target="Gliders")) == "cow.kill.top-only"
    # the top card of the wrong type is still a type mismatch
    assert refused(state, deploy(A, "Tank", 1, kill=True, target="Fighters")) == "cow.kill.type-match"
    assert refused(state, deploy(A, "Tank", 2, kill=True, target="Gliders")) is None


@pytest.mark.rule("cow.kill.target")
def test_a_kill_names_its_target_and_only_a_kill_does():
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B},
                  battles=[battle(bob=["Infantry"]), battle(), battle()])
    assert refused(state, deploy(A, "Tank", 1, kill=True)) == "cow.kill.target"
    assert refused(state, deploy(A, "Tank", 1, target="Infantry")) == "cow.kill.target"
    assert refused(state, deploy(A, "Tank", 1, kill=True, target="Infantry")) is None


@pytest.mark.rule("cow.reinforce.draw")
def test_reinforce_draws_then_deploys_again():
    # alice deploys Transport Plane (reinforce) into battle 1
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B})
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


@pytest.mark.rule("cow.reinforce.draw", "cow.deck.exhausted")
def test_reinforce_with_nothing_to_draw_still_deploys():
    # the extra draw is skipped, the deployment is not
    state = table(hands={A: SPECIAL_A, B: SPECIAL_B}, deck={})
    state = feed(state, deploy(A, "Transport Plane", 1))
    assert steps(state) == [(Step.REINFORCE_DEPLOY, A), (Step.REFILL, A), (Step.PASS, A)]
    state = feed(state, deploy(A, "Tank", 2))
    assert state.turn == B and len(state.hands[A]) == 6


@pytest.mark.rule("cow.recon.report", "cow.turn.order")
def test_recon_report_must_be_true():
    # alice deploys a Spy; bob owes a count of his hand's theatres
    state = feed(table(hands={A: SPECIAL_A, B: SPECIAL_B}), deploy(A, "Spy", 1))
    # bob holds 3 Ground (Infantry, Gliders, Anti-Tank Gun), 2 Intel (Radar, Decoy), 2 Sea, 1 Air
    truth = HandReported(player=B, air=1, sea=2, ground=3, intel=2)
    assert report(state, B) == truth
    lie = HandReported(player=B, air=1, sea=2, ground=2, intel=3)
    assert refused(state, lie) == "cow.recon.report"
    # only bob answers
    assert refused(state, HandReported(player=A, air=1)) == "cow.turn.order"
    state = feed(state, truth)
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]


# -- Alternative Reinforce -------------------------------------------------------------


def reinforced(**options):
    """Returns alice's table after Transport Plane into battle 1 and a Radar drawn for it."""
    state = table(hands={A: OPTION_A, B: OPTION_B}, discards=("Battleship",),
                  alternative_reinforce=True, **options)
    return feed(state, deploy(A, "Transport Plane", 1), draw(A, "Radar"))


@pytest.mark.rule("cow.opt.alt-reinforce")
def test_alt_reinforce_offers_drawn_card_or_top_discard():
    state = reinforced()
    assert state.reinforce_card == "Radar"
    # another card from hand will not do, nor a discard that is not on top
    assert refused(state, deploy(A, "Tank", 2)) == "cow.opt.alt-reinforce"
    assert refused(state, deploy(A, "Spy", 2, from_discard=True)) == "cow.opt.alt-reinforce"
    # legal offers exactly the drawn Radar and the top discard, to any open battle
    offered = {(e.card, e.from_discard) for e in deploys(state)}
    assert offered == {("Radar", False), ("Battleship", True)}


@pytest.mark.rule("cow.opt.alt-reinforce")
def test_alt_reinforce_from_discard_discards_the_drawn_card():
    # alice takes the Battleship from the discards into battle 2
    state = feed(reinforced(), deploy(A, "Battleship", 2, from_discard=True))
    assert state.battles[1].piles[A] == ("Battleship",)
    # the Radar she drew goes to the discards in its place
    assert "Radar" not in state.hands[A]
    assert state.discards["common"] == ("Radar",)
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]


@pytest.mark.rule("cow.opt.alt-reinforce")
def test_alt_reinforce_deploys_the_drawn_card():
    # or she deploys the Radar itself (its recon works)
    state = feed(reinforced(), deploy(A, "Radar", 3))
    assert state.battles[2].piles[A] == ("Radar",)
    assert state.discards["common"] == ("Battleship",)
    assert steps(state)[0] == (Step.RECON, B)


@pytest.mark.rule("cow.opt.alt-reinforce.off")
def test_discard_pile_is_closed_otherwise():
    # without the option, never from the discards
    state = table(hands={A: OPTION_A, B: OPTION_B}, discards=("Battleship",))
    assert refused(state, deploy(A, "Battleship", 1, from_discard=True)) == "cow.opt.alt-reinforce.off"
    state = feed(state, deploy(A, "Transport Plane", 1), draw(A, "Radar"))
    assert refused(state, deploy(A, "Battleship", 2, from_discard=True)) == "cow.opt.alt-reinforce.off"
    # with the option, only as the reinforcement: not on an ordinary turn
    state = table(hands={A: OPTION_A, B: OPTION_B}, discards=("Battleship",), alternative_reinforce=True)
    assert refused(state, deploy(A, "Battleship", 1, from_discard=True)) == "cow.opt.alt-reinforce.off"


@pytest.mark.rule("cow.reinforce.draw")
def test_plain_reinforce_may_deploy_any_card_in_hand():
    # without the option: the drawn card is not forced
    state = table(hands={A: OPTION_A, B: OPTION_B})
    state = feed(state, deploy(A, "Transport Plane", 1), draw(A, "Radar"))
    assert refused(state, deploy(A, "Tank", 2)) is None


@pytest.mark.rule("cow.opt.alt-reinforce.joint")
def test_alt_reinforce_card_cannot_start_a_pair():
    # alice's reinforcement draws Paratroop; she holds Gliders
    state = table(hands={A: OPTION_A, B: OPTION_B}, alternative_reinforce=True, joint_deployment=True)
    state = feed(state, deploy(A, "Transport Plane", 1), draw(A, "Paratroop"))
    assert refused(state, deploy(A, "Paratroop", 2, joint=True)) == "cow.opt.alt-reinforce.joint"
    assert refused(state, deploy(A, "Paratroop", 2)) is None


# -- Theatres of War -------------------------------------------------------------------


@pytest.mark.rule("cow.opt.theatres.choose")
def test_opening_a_battle_names_its_theatre():
    # battle 1 is empty, so alice must name its theatre
    state = table(hands={A: OPTION_A, B: OPTION_B}, theatres_of_war=True)
    assert refused(state, deploy(A, "Tank", 1)) == "cow.opt.theatres.choose"
    # the Tank is a Ground card: legal offers only Ground for its opening of battle 1
    named = {e.theatre for e in deploys(state) if e.card == "Tank" and e.battle == 1}
    assert named == {GROUND}
    # alice deploys Tank into battle 1, naming it Ground
    state = feed(state, deploy(A, "Tank", 1, theatre=GROUND))
    assert state.battles[0].theatre == GROUND


@pytest.mark.rule("cow.opt.theatres.choose")
def test_theatre_is_named_once_and_only_under_the_option():
    # battle 1 is already Ground
    state = table(hands={A: OPTION_A, B: OPTION_B}, theatres_of_war=True,
                  battles=[battle(bob=["Infantry"], theatre=GROUND), battle(), battle()])
    assert refused(state, deploy(A, "Tank", 1, theatre=AIR)) == "cow.opt.theatres.choose"
    # two battles may share a theatre: alice names battle 2 Ground as well
    state = feed(state, deploy(A, "Tank", 2, theatre=GROUND))
    assert [b.theatre for b in state.battles] == [GROUND, GROUND, None]
    # without the option, naming a theatre is refused
    plain = table(hands={A: OPTION_A, B: OPTION_B})
    assert refused(plain, deploy(A, "Tank", 1, theatre=GROUND)) == "cow.opt.theatres.choose"
    assert not any(e.theatre for e in deploys(plain))


@pytest.mark.rule("cow.opt.theatres")
def test_only_the_battles_theatre_scores():
    # battle 1 is Ground; alice has 12 there in Ground cards
    ground = ["Anti-Tank Gun", "Anti-Tank Gun", "Paratroop"]
    state = table(hands={A: (*OPTION_A[:7], "Battleship"), B: OPTION_B}, theatres_of_war=True,
                  battles=[battle(alice=ground, bob=["Destroyer"], theatre=GROUND), battle(),
                           battle()])
    # alice deploys Battleship (Sea, 7) there to kill the Destroyer: it does not count, no win
    moved = feed(state, deploy(A, "Battleship", 1, kill=True, target="Destroyer"))
    assert not moved.battles[0].closed
    # Infantry (Ground, 3) does: 15 wins the battle
    won_it = feed(state, deploy(A, "Infantry", 1))
    assert won_it.battles[0].winner == A and won_it.battles[0].points == 15


@pytest.mark.rule("cow.opt.theatres.off-theatre")
def test_theatres_of_war_off_theatre_card_goes_in_only_to_kill():
    # battle 1 is Ground; alice's Battleship (Sea) kills S, and bob's top card there is Paratroop
    state = table(hands={A: (*OPTION_A[:7], "Battleship"), B: OPTION_B}, theatres_of_war=True,
                  battles=[battle(alice=["Gliders"], bob=["Paratroop"], theatre=GROUND), battle(),
                           battle()])
    # without a kill the Battleship may not go there (this was ruled legal before)
    assert refused(state, deploy(A, "Battleship", 1)) == "cow.opt.theatres.off-theatre"
    assert not any(e.card == "Battleship" and e.battle == 1 for e in deploys(state))
    # a Ground card needs no kill there
    assert refused(state, deploy(A, "Infantry", 1)) is None


@pytest.mark.rule("cow.opt.theatres.off-theatre")
def test_theatres_of_war_off_theatre_card_never_opens_a_battle():
    # battle 2 is empty: the Tank (Ground) may open it only as a Ground battle
    state = table(hands={A: OPTION_A, B: OPTION_B}, theatres_of_war=True)
    for theatre in (AIR, SEA, INTEL):
        assert refused(state, deploy(A, "Tank", 2, theatre=theatre)) == "cow.opt.theatres.off-theatre"
        # not even announcing its KILL, as there is nothing to kill (this was ruled legal before)
        assert refused(state, deploy(A, "Tank", 2, theatre=theatre, kill=True)) == \
            "cow.opt.theatres.off-theatre"
    assert refused(state, deploy(A, "Tank", 2, theatre=GROUND)) is None


@pytest.mark.rule("cow.opt.theatres.off-theatre", "cow.opt.theatres")
def test_theatres_of_war_off_theatre_kill_scores_nothing():
    # bob's Submarine lies on alice's Ground battle; her Destroyer (Sea) goes in to kill it
    state = table(hands={A: (*OPTION_A[:7], "Destroyer"), B: OPTION_B[:7]}, theatres_of_war=True,
                  battles=[battle(alice=["Anti-Tank Gun"], bob=["Gliders", "Submarine"],
                                  theatre=GROUND), battle(), battle()])
    moved = feed(state, deploy(A, "Destroyer", 1, kill=True, target="Submarine"))
    # it lies on her pile but adds nothing to her Ground score
    assert moved.battles[0].piles == {A: ("Anti-Tank Gun", "Destroyer"), B: ("Gliders",)}
    assert total(RS.lk, moved, moved.battles[0], A) == 4


@pytest.mark.rule("cow.opt.theatres.no-fit", "cow.battle.stalemate")
def test_theatres_of_war_a_player_with_no_fitting_card_passes():
    # every battle is Sea; alice holds only Ground and Intel cards without a KILL
    state = table(hands={A: ("Infantry", "Gliders", "Paratroop", "Spy"),
                         B: ("Destroyer", "Battleship", "Infantry")},
                  theatres_of_war=True, deck={}, turn=B, length="short",
                  battles=[battle(alice=["Submarine"], bob=["Marines"], theatre=SEA),
                           battle(alice=["Submarine"], theatre=SEA),
                           battle(alice=["Marines"], bob=["Destroyer"], theatre=SEA)])
    assert not list(RS.legal(replace(state, turn=A)))
    # bob deploys his Battleship; alice cannot answer, so bob deploys again
    state = feed(state, deploy(B, "Battleship", 1))
    assert state.turn == B and present(RS.pending(state)).actor == B
    # then his Destroyer; his Infantry fits nowhere either, so neither can deploy: a stalemate
    state = feed(state, deploy(B, "Destroyer", 3))
    # battles 1 (11 to 5) and 3 (8 to 4) are bob's, battle 2 alice's (5 to 0)
    assert state.phase is Phase.OVER and state.winner == B
    assert state.hands[B] == ("Infantry",)


@pytest.mark.rule("cow.opt.theatres")
def test_any_card_may_go_anywhere_to_kill():
    # bob's Submarine sits in a Ground battle; alice's Destroyer (Sea) kills it
    state = table(hands={A: (*OPTION_A[:7], "Destroyer"), B: OPTION_B[:7]}, theatres_of_war=True,
                  battles=[battle(bob=["Submarine"], theatre=GROUND), battle(), battle()])
    state = feed(state, deploy(A, "Destroyer", 1, kill=True, target="Submarine"))
    assert state.battles[0].piles == {A: ("Destroyer",), B: ()}
    assert state.discards["common"] == ("Submarine",)


# -- Joint Deployment ------------------------------------------------------------------


PAIRS = [("Paratroop", "Gliders"), ("Marines", "Amphib"), ("Fighters", "Dive Bomber"),
         ("Fighters", "Torpedo Bomber"), ("Fighters", "Long Range Bomber"),
         ("Battleship", "Shore Bombardment")]


@pytest.mark.rule("cow.opt.joint.pair")
@pytest.mark.parametrize("first,partner", PAIRS + [(b, a) for a, b in PAIRS])
def test_every_pair_deploys_jointly(first, partner):
    # alice holds both cards of the pair
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", first, partner)
    state = table(hands={A: hand, B: OPTION_B}, joint_deployment=True)
    # alice deploys the first into battle 2 and announces the partner
    state = feed(state, deploy(A, first, 2, joint=True))
    assert state.steps[0].step is Step.PARTNER
    # the partner follows into battle 3, next door
    state = feed(state, deploy(A, partner, 3))
    assert state.battles[1].piles[A] == (first,)
    assert state.battles[2].piles[A] == (partner,)
    assert len(state.hands[A]) == 6


@pytest.mark.rule("cow.opt.joint")
def test_joint_deployment_refills_two():
    # Fighters into battle 1, Dive Bomber into battle 2
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Fighters",
            "Dive Bomber")
    state = table(hands={A: hand, B: OPTION_B}, joint_deployment=True)
    state = feed(state, deploy(A, "Fighters", 1, joint=True), deploy(A, "Dive Bomber", 2))
    # alice draws two to be back at eight
    state = feed(state, draw(A, "Tank"))
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]
    state = feed(state, draw(A, "Tank"))
    assert len(state.hands[A]) == 8 and state.turn == B


@pytest.mark.rule("cow.opt.joint")
def test_joint_needs_an_open_neighbour():
    # battle 2 is won, so nothing is next to battle 1 (3 is not adjacent)
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Fighters",
            "Dive Bomber")
    state = table(hands={A: hand, B: OPTION_B}, joint_deployment=True,
                  battles=[battle(), won(B), battle()])
    assert refused(state, deploy(A, "Fighters", 1, joint=True)) == "cow.opt.joint"
    assert refused(state, deploy(A, "Fighters", 1)) is None


@pytest.mark.rule("cow.opt.joint", "cow.opt.joint.partner")
def test_joint_under_theatres_uses_the_pairs_theatre():
    # with Theatres of War, battles 1 and 3 are Air, battle 2 Ground
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Fighters",
            "Dive Bomber")
    state = table(hands={A: hand, B: OPTION_B}, joint_deployment=True, theatres_of_war=True,
                  battles=[battle(bob=["Spy"], theatre=AIR), battle(bob=["Infantry"], theatre=GROUND),
                           battle(bob=["Recon Plane"], theatre=AIR)])
    # an Air pair cannot start in the Ground battle
    assert refused(state, deploy(A, "Fighters", 2, joint=True)) == "cow.opt.joint"
    # Fighters into battle 1; the Dive Bomber may not go next door into Ground...
    state = feed(state, deploy(A, "Fighters", 1, joint=True))
    assert refused(state, deploy(A, "Dive Bomber", 2)) == "cow.opt.joint.partner"
    # ...but may go to battle 3, Air though not adjacent
    state = feed(state, deploy(A, "Dive Bomber", 3))
    assert state.battles[2].piles[A] == ("Dive Bomber",)


@pytest.mark.rule("cow.opt.joint.off")
def test_joint_only_with_the_option():
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Fighters",
            "Dive Bomber")
    state = table(hands={A: hand, B: OPTION_B})
    assert refused(state, deploy(A, "Fighters", 1, joint=True)) == "cow.opt.joint.off"
    assert not any(e.joint for e in deploys(state))


@pytest.mark.rule("cow.opt.joint.pair")
def test_joint_needs_a_pair_in_hand():
    # a Tank has no partner; Paratroop's Gliders are not in hand
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Tank",
            "Paratroop")
    state = table(hands={A: hand, B: OPTION_B}, joint_deployment=True)
    assert refused(state, deploy(A, "Tank", 1, joint=True)) == "cow.opt.joint.pair"
    assert refused(state, deploy(A, "Paratroop", 1, joint=True)) == "cow.opt.joint.pair"


@pytest.mark.rule("cow.opt.joint.partner")
def test_partner_must_follow():
    # alice has deployed Marines into battle 1, jointly
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Marines", "Amphib",
            "Paratroop")
    state = table(hands={A: hand, B: OPTION_B}, joint_deployment=True)
    state = feed(state, deploy(A, "Marines", 1, joint=True))
    # not another card, not a distant battle, and not a second pair
    assert refused(state, deploy(A, "Spy", 2)) == "cow.opt.joint.partner"
    assert refused(state, deploy(A, "Amphib", 3)) == "cow.opt.joint.partner"
    assert refused(state, deploy(A, "Amphib", 2, joint=True)) == "cow.opt.joint.partner"
    assert [(e.card, e.battle) for e in deploys(state)] == [("Amphib", 2)]


@pytest.mark.rule("cow.opt.joint.abilities")
def test_both_cards_of_a_pair_keep_their_abilities():
    # Battleship (kills S) and Shore Bombardment (kills I, T)
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Battleship",
            "Shore Bombardment")
    state = table(hands={A: hand, B: OPTION_B[:7]}, joint_deployment=True,
                  battles=[battle(bob=["Destroyer"]), battle(bob=["Infantry"]), battle()])
    # alice deploys Battleship into battle 1, killing the Destroyer; Shore Bombardment kills in 2
    state = feed(state, deploy(A, "Battleship", 1, joint=True, kill=True, target="Destroyer"),
                 deploy(A, "Shore Bombardment", 2, kill=True, target="Infantry"))
    assert state.discards["common"] == ("Destroyer", "Infantry")
    # Amphib (reinforce) first, Marines second: the reinforcement waits for the partner
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Marines",
            "Amphib")
    state = table(hands={A: hand, B: OPTION_B}, joint_deployment=True)
    state = feed(state, deploy(A, "Amphib", 2, joint=True))
    assert steps(state) == [(Step.PARTNER, A), (Step.REINFORCE_DRAW, A),
                            (Step.REINFORCE_DEPLOY, A), (Step.REFILL, A), (Step.PASS, A)]
    # Gliders first, Paratroop (reinforce) second: the partner's reinforcement comes next
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Gliders",
            "Paratroop")
    state = table(hands={A: hand, B: OPTION_B}, joint_deployment=True)
    state = feed(state, deploy(A, "Gliders", 1, joint=True), deploy(A, "Paratroop", 2))
    assert steps(state) == [(Step.REINFORCE_DRAW, A), (Step.REINFORCE_DEPLOY, A),
                            (Step.REFILL, A), (Step.PASS, A)]


# -- 2 Deck Version --------------------------------------------------------------------


@pytest.mark.rule("cow.opt.two-decks")
def test_two_decks_cards_go_home():
    # alice's Tank kills bob's Infantry; it goes to bob's discards
    state = table(hands={A: OPTION_A, B: OPTION_B}, two_decks=True,
                  battles=[battle(bob=["Infantry"]), battle(), battle()])
    bob_deck = dict(state.decks[B])
    state = feed(state, deploy(A, "Tank", 1, kill=True, target="Infantry"))
    assert state.discards == {A: (), B: ("Infantry",)}
    # alice refills from her own deck; bob's is untouched
    state = feed(state, draw(A, "Tank"))
    assert state.decks[B] == bob_deck
    assert state.decks[A].get("Tank", 0) == 0  # her two Tanks: one deployed, one drawn
