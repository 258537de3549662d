"""Optional Rules and the 2 Deck Version, plus which option mixes a header may carry."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.games.cards_of_war.components import Theatre
from tabletape.tape.errors import UsageError
from tests.games.cards_of_war.helpers import (
    RULESET,
    A,
    B,
    Battle,
    OpeningCardDrawn,
    Options,
    Phase,
    Step,
    battle,
    deploy,
    draw,
    feed,
    header,
    refused,
    start,
    table,
)

AIR, SEA, GROUND, INTEL = Theatre.AIR, Theatre.SEA, Theatre.GROUND, Theatre.INTEL
HAND_A = ("Transport Plane", "Tank", "Spy", "Infantry", "Decoy", "Marines", "Gliders", "Flak")
HAND_B = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Destroyer",
          "Submarine")


def steps(state):
    return [(s.step, s.player) for s in state.steps]


def won(winner) -> Battle:
    return Battle(piles={A: (), B: ()}, closed=True, winner=winner, points=15)


# -- header options ------------------------------------------------------------------------

def test_exhaustion_only_in_the_long_game_and_not_with_tactical():
    # cow.setup.options
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
    assert "cow.setup.options" in RULESET.check_header(bad)
    # every other mix is allowed
    assert RULESET.check_header(header(alternative_reinforce=True, theatres_of_war=True,
                                       tactical_advantage=True, joint_deployment=True,
                                       two_decks=True, length="short")) is None


def test_header_components_are_checked():
    # cow.setup.options: a deck with two cards of one name cannot be played
    comp = RULESET.default_components()
    twice = replace(comp, cards=(*comp.cards, comp.cards[0]))
    with pytest.raises(UsageError, match="unique"):
        RULESET.start((A, B), Options(), twice)


# -- Alternative Reinforce -----------------------------------------------------------------

def reinforced(**options):
    """Returns alice's table after Transport Plane into battle 1 and a Radar drawn for it."""
    state = table(hands={A: HAND_A, B: HAND_B}, discards=("Battleship",),
                  alternative_reinforce=True, **options)
    return feed(state, deploy(A, "Transport Plane", 1), draw(A, "Radar"))


def test_alt_reinforce_offers_drawn_card_or_top_discard():
    # cow.opt.alt-reinforce
    state = reinforced()
    assert state.reinforce_card == "Radar"
    # another card from hand will not do, nor a discard that is not on top
    assert refused(state, deploy(A, "Tank", 2)) == "cow.opt.alt-reinforce"
    assert refused(state, deploy(A, "Spy", 2, from_discard=True)) == "cow.opt.alt-reinforce"
    # legal offers exactly the drawn Radar and the top discard, to any open battle
    offered = {(e.card, e.from_discard) for e in RULESET.legal(state)}
    assert offered == {("Radar", False), ("Battleship", True)}


def test_alt_reinforce_from_discard_discards_the_drawn_card():
    # cow.opt.alt-reinforce: alice takes the Battleship from the discards into battle 2
    state = feed(reinforced(), deploy(A, "Battleship", 2, from_discard=True))
    assert state.battles[1].piles[A] == ("Battleship",)
    # the Radar she drew goes to the discards in its place
    assert "Radar" not in state.hands[A]
    assert state.discards["common"] == ("Radar",)
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]


def test_alt_reinforce_deploys_the_drawn_card():
    # cow.opt.alt-reinforce: or she deploys the Radar itself (its recon works)
    state = feed(reinforced(), deploy(A, "Radar", 3))
    assert state.battles[2].piles[A] == ("Radar",)
    assert state.discards["common"] == ("Battleship",)
    assert steps(state)[0] == (Step.RECON, B)


def test_discard_pile_is_closed_otherwise():
    # cow.opt.alt-reinforce.off: without the option, never from the discards
    state = table(hands={A: HAND_A, B: HAND_B}, discards=("Battleship",))
    assert refused(state, deploy(A, "Battleship", 1, from_discard=True)) == "cow.opt.alt-reinforce.off"
    state = feed(state, deploy(A, "Transport Plane", 1), draw(A, "Radar"))
    assert refused(state, deploy(A, "Battleship", 2, from_discard=True)) == "cow.opt.alt-reinforce.off"
    # with the option, only as the reinforcement: not on an ordinary turn
    state = table(hands={A: HAND_A, B: HAND_B}, discards=("Battleship",), alternative_reinforce=True)
    assert refused(state, deploy(A, "Battleship", 1, from_discard=True)) == "cow.opt.alt-reinforce.off"


def test_plain_reinforce_may_deploy_any_card_in_hand():
    # cow.reinforce.draw without the option: the drawn card is not forced
    state = table(hands={A: HAND_A, B: HAND_B})
    state = feed(state, deploy(A, "Transport Plane", 1), draw(A, "Radar"))
    assert refused(state, deploy(A, "Tank", 2)) is None


def test_alt_reinforce_card_cannot_start_a_pair():
    # cow.opt.alt-reinforce.joint: alice's reinforcement draws Paratroop; she holds Gliders
    state = table(hands={A: HAND_A, B: HAND_B}, alternative_reinforce=True, joint_deployment=True)
    state = feed(state, deploy(A, "Transport Plane", 1), draw(A, "Paratroop"))
    assert refused(state, deploy(A, "Paratroop", 2, joint=True)) == "cow.opt.alt-reinforce.joint"
    assert refused(state, deploy(A, "Paratroop", 2)) is None


# -- Theatres of War -----------------------------------------------------------------------

def test_opening_a_battle_names_its_theatre():
    # cow.opt.theatres.choose: battle 1 is empty, so alice must name its theatre
    state = table(hands={A: HAND_A, B: HAND_B}, theatres_of_war=True)
    assert refused(state, deploy(A, "Tank", 1)) == "cow.opt.theatres.choose"
    # legal offers all four theatres for the Tank's first deployment into battle 1
    named = {e.theatre for e in RULESET.legal(state) if e.card == "Tank" and e.battle == 1}
    assert named == {AIR, SEA, GROUND, INTEL}
    # alice deploys Tank into battle 1, naming it Air: any theatre may be named
    state = feed(state, deploy(A, "Tank", 1, theatre=AIR))
    assert state.battles[0].theatre == AIR


def test_theatre_is_named_once_and_only_under_the_option():
    # cow.opt.theatres.choose: battle 1 is already Ground
    state = table(hands={A: HAND_A, B: HAND_B}, theatres_of_war=True,
                  battles=[battle(bob=["Infantry"], theatre=GROUND), battle(), battle()])
    assert refused(state, deploy(A, "Tank", 1, theatre=AIR)) == "cow.opt.theatres.choose"
    # two battles may share a theatre: alice names battle 2 Ground as well
    state = feed(state, deploy(A, "Tank", 2, theatre=GROUND))
    assert [b.theatre for b in state.battles] == [GROUND, GROUND, None]
    # without the option, naming a theatre is refused
    plain = table(hands={A: HAND_A, B: HAND_B})
    assert refused(plain, deploy(A, "Tank", 1, theatre=GROUND)) == "cow.opt.theatres.choose"
    assert not any(e.theatre for e in RULESET.legal(plain))


def test_only_the_battles_theatre_scores():
    # cow.opt.theatres: battle 1 is Ground; alice has 12 there in Ground cards
    ground = ["Anti-Tank Gun", "Anti-Tank Gun", "Paratroop"]
    state = table(hands={A: (*HAND_A[:7], "Battleship"), B: HAND_B}, theatres_of_war=True,
                  battles=[battle(alice=ground, theatre=GROUND), battle(), battle()])
    # alice deploys Battleship (Sea, 7) there: it does not count, no win
    moved = feed(state, deploy(A, "Battleship", 1))
    assert not moved.battles[0].closed
    # Infantry (Ground, 3) does: 15 wins the battle
    won_it = feed(state, deploy(A, "Infantry", 1))
    assert won_it.battles[0].winner == A and won_it.battles[0].points == 15


def test_an_off_theatre_card_may_be_deployed_without_killing():
    # cow.opt.theatres.off-theatre: alice puts Battleship (Sea) into a Ground battle, no kill
    state = table(hands={A: (*HAND_A[:7], "Battleship"), B: HAND_B}, theatres_of_war=True,
                  battles=[battle(alice=["Infantry"], theatre=GROUND), battle(), battle()])
    moved = feed(state, deploy(A, "Battleship", 1))
    # it lies on her pile but adds nothing to her Ground score
    assert moved.battles[0].piles[A] == ("Infantry", "Battleship")
    from tabletape.games.cards_of_war import table as t
    assert t.total(moved, moved.battles[0], A) == 3


def test_any_card_may_go_anywhere_to_kill():
    # cow.opt.theatres: bob's Submarine sits in a Ground battle; alice's Destroyer (Sea) kills it
    state = table(hands={A: (*HAND_A[:7], "Destroyer"), B: HAND_B[:7]}, theatres_of_war=True,
                  battles=[battle(bob=["Submarine"], theatre=GROUND), battle(), battle()])
    state = feed(state, deploy(A, "Destroyer", 1, kill=True))
    assert state.battles[0].piles == {A: ("Destroyer",), B: ()}
    assert state.discards["common"] == ("Submarine",)


# -- Tactical Advantage and Strategic Exhaustion -------------------------------------------

def test_sweep_gives_a_nine_card_hand():
    # cow.opt.tactical: alice has won battles 1 and 2 and now takes battle 3
    state = table(hands={A: HAND_A, B: HAND_B}, tactical_advantage=True,
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


def test_tactical_hand_lasts_one_round():
    # cow.opt.tactical: alice held nine, but wins round 2 only two battles to one
    state = table(hands={A: (*HAND_A, "Radar"), B: HAND_B}, tactical_advantage=True,
                  battles=[won(A), won(B), battle(alice=["Battleship", "Dive Bomber"])])
    state = replace(state, hand_size={A: 9, B: 8})
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.hand_size == {A: 8, B: 8}
    # without the option a sweep changes nothing
    state = table(hands={A: HAND_A, B: HAND_B}, battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    assert feed(state, deploy(A, "Infantry", 3)).hand_size == {A: 8, B: 8}


def test_losing_every_battle_costs_a_card_for_good():
    # cow.opt.exhaustion: long game; alice sweeps round 1
    state = table(hands={A: HAND_A, B: HAND_B}, length="long", strategic_exhaustion=True,
                  battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.hand_size == {A: 8, B: 7}
    assert state.phase is Phase.PLAY


def test_exhausting_the_opponent_to_three_wins():
    # cow.opt.exhaustion: bob is down to four; alice sweeps again, leaving him three
    state = table(hands={A: HAND_A, B: HAND_B[:4]}, length="long", strategic_exhaustion=True,
                  battles=[won(A), won(A), battle(alice=["Battleship", "Dive Bomber"])])
    state = replace(state, hand_size={A: 8, B: 4}, rounds_won={A: 1, B: 0}, round=6)
    state = feed(state, deploy(A, "Infantry", 3))
    assert state.hand_size[B] == 3
    assert state.phase is Phase.OVER and state.winner == A
    assert state.rounds_won == {A: 2, B: 0}


# -- Joint Deployment ----------------------------------------------------------------------

PAIRS = [("Paratroop", "Gliders"), ("Marines", "Amphib"), ("Fighters", "Dive Bomber"),
         ("Fighters", "Torpedo Bomber"), ("Fighters", "Long Range Bomber"),
         ("Battleship", "Shore Bombardment")]


@pytest.mark.parametrize("first,partner", PAIRS + [(b, a) for a, b in PAIRS])
def test_every_pair_deploys_jointly(first, partner):
    # cow.opt.joint.pair: alice holds both cards of the pair
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", first, partner)
    state = table(hands={A: hand, B: HAND_B}, joint_deployment=True)
    # alice deploys the first into battle 2 and announces the partner
    state = feed(state, deploy(A, first, 2, joint=True))
    assert state.steps[0].step is Step.PARTNER
    # the partner follows into battle 3, next door
    state = feed(state, deploy(A, partner, 3))
    assert state.battles[1].piles[A] == (first,)
    assert state.battles[2].piles[A] == (partner,)
    assert len(state.hands[A]) == 6


def test_joint_deployment_refills_two():
    # cow.opt.joint: Fighters into battle 1, Dive Bomber into battle 2
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Fighters",
            "Dive Bomber")
    state = table(hands={A: hand, B: HAND_B}, joint_deployment=True)
    state = feed(state, deploy(A, "Fighters", 1, joint=True), deploy(A, "Dive Bomber", 2))
    # alice draws two to be back at eight
    state = feed(state, draw(A, "Tank"))
    assert steps(state) == [(Step.REFILL, A), (Step.PASS, A)]
    state = feed(state, draw(A, "Tank"))
    assert len(state.hands[A]) == 8 and state.turn == B


def test_joint_needs_an_open_neighbour():
    # cow.opt.joint: battle 2 is won, so nothing is next to battle 1 (3 is not adjacent)
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Fighters",
            "Dive Bomber")
    state = table(hands={A: hand, B: HAND_B}, joint_deployment=True,
                  battles=[battle(), won(B), battle()])
    assert refused(state, deploy(A, "Fighters", 1, joint=True)) == "cow.opt.joint"
    assert refused(state, deploy(A, "Fighters", 1)) is None


def test_joint_under_theatres_uses_the_pairs_theatre():
    # cow.opt.joint: with Theatres of War, battles 1 and 3 are Air, battle 2 Ground
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Fighters",
            "Dive Bomber")
    state = table(hands={A: hand, B: HAND_B}, joint_deployment=True, theatres_of_war=True,
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


def test_joint_only_with_the_option():
    # cow.opt.joint.off
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Fighters",
            "Dive Bomber")
    state = table(hands={A: hand, B: HAND_B})
    assert refused(state, deploy(A, "Fighters", 1, joint=True)) == "cow.opt.joint.off"
    assert not any(e.joint for e in RULESET.legal(state))


def test_joint_needs_a_pair_in_hand():
    # cow.opt.joint.pair: a Tank has no partner; Paratroop's Gliders are not in hand
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Tank",
            "Paratroop")
    state = table(hands={A: hand, B: HAND_B}, joint_deployment=True)
    assert refused(state, deploy(A, "Tank", 1, joint=True)) == "cow.opt.joint.pair"
    assert refused(state, deploy(A, "Paratroop", 1, joint=True)) == "cow.opt.joint.pair"


def test_partner_must_follow():
    # cow.opt.joint.partner: alice has deployed Marines into battle 1, jointly
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Marines", "Amphib",
            "Paratroop")
    state = table(hands={A: hand, B: HAND_B}, joint_deployment=True)
    state = feed(state, deploy(A, "Marines", 1, joint=True))
    # not another card, not a distant battle, and not a second pair
    assert refused(state, deploy(A, "Spy", 2)) == "cow.opt.joint.partner"
    assert refused(state, deploy(A, "Amphib", 3)) == "cow.opt.joint.partner"
    assert refused(state, deploy(A, "Amphib", 2, joint=True)) == "cow.opt.joint.partner"
    assert [(e.card, e.battle) for e in RULESET.legal(state)] == [("Amphib", 2)]


def test_both_cards_of_a_pair_keep_their_abilities():
    # cow.opt.joint.abilities: Battleship (kills S) and Shore Bombardment (kills I, T)
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Battleship",
            "Shore Bombardment")
    state = table(hands={A: hand, B: HAND_B[:7]}, joint_deployment=True,
                  battles=[battle(bob=["Destroyer"]), battle(bob=["Infantry"]), battle()])
    # alice deploys Battleship into battle 1, killing the Destroyer; Shore Bombardment kills in 2
    state = feed(state, deploy(A, "Battleship", 1, joint=True, kill=True),
                 deploy(A, "Shore Bombardment", 2, kill=True))
    assert state.discards["common"] == ("Destroyer", "Infantry")
    # Amphib (reinforce) first, Marines second: the reinforcement waits for the partner
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Marines",
            "Amphib")
    state = table(hands={A: hand, B: HAND_B}, joint_deployment=True)
    state = feed(state, deploy(A, "Amphib", 2, joint=True))
    assert steps(state) == [(Step.PARTNER, A), (Step.REINFORCE_DRAW, A),
                            (Step.REINFORCE_DEPLOY, A), (Step.REFILL, A), (Step.PASS, A)]
    # Gliders first, Paratroop (reinforce) second: the partner's reinforcement comes next
    hand = ("Infantry", "Spy", "Decoy", "Resistance", "Saboteur", "Codebreakers", "Gliders",
            "Paratroop")
    state = table(hands={A: hand, B: HAND_B}, joint_deployment=True)
    state = feed(state, deploy(A, "Gliders", 1, joint=True), deploy(A, "Paratroop", 2))
    assert steps(state) == [(Step.REINFORCE_DRAW, A), (Step.REINFORCE_DEPLOY, A),
                            (Step.REFILL, A), (Step.PASS, A)]


# -- 2 Deck Version ------------------------------------------------------------------------

def test_two_decks_each_their_own():
    # cow.opt.two-decks: a deck and a discard pile per player
    state = start(two_decks=True)
    assert set(state.decks) == {A, B} and set(state.discards) == {A, B}
    assert all(sum(d.values()) == 52 for d in state.decks.values())
    # both may turn up the single Shore Bombardment: one from each deck
    state = feed(state, OpeningCardDrawn(player=A, card="Shore Bombardment"),
                 OpeningCardDrawn(player=B, card="Shore Bombardment"))
    assert state.phase is Phase.OPENING  # a tie (5 and 5)


def test_two_decks_cards_go_home():
    # cow.opt.two-decks: alice's Tank kills bob's Infantry; it goes to bob's discards
    state = table(hands={A: HAND_A, B: HAND_B}, two_decks=True,
                  battles=[battle(bob=["Infantry"]), battle(), battle()])
    bob_deck = dict(state.decks[B])
    state = feed(state, deploy(A, "Tank", 1, kill=True))
    assert state.discards == {A: (), B: ("Infantry",)}
    # alice refills from her own deck; bob's is untouched
    state = feed(state, draw(A, "Tank"))
    assert state.decks[B] == bob_deck
    assert state.decks[A].get("Tank", 0) == 0  # her two Tanks: one deployed, one drawn
