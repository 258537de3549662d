"""The ruleset's questions about a state: pending, legal, weight, view, describe, outcome, the drawn table."""

from __future__ import annotations

import io

import pytest
from msgspec.structs import replace
from rich.console import Console

from tabletape.cli.render import drawing
from tabletape.engine import CHANCE
from tabletape.games.cards_of_war.components import Theatre
from tabletape.games.cards_of_war.state import Owed, Step
from tests.games.cards_of_war.helpers import (
    COMMON,
    RS,
    RULESET,
    A,
    B,
    Battle,
    CardDeployed,
    CardDrawn,
    HandReported,
    OpeningCardDrawn,
    Phase,
    battle,
    deploy,
    deploys,
    draw,
    feed,
    report,
    start,
    table,
)
from tests.narrow import only, present

HAND_A = ("Tank", "Flak", "Spy", "Infantry", "Decoy", "Marines", "Gliders", "Saboteur")
HAND_B = ("Infantry", "Radar", "Destroyer", "Submarine", "Fighters", "Amphib", "Resistance", "Spy")


# -- who decides, and what they may do -------------------------------------------------


@pytest.mark.rule("cow.setup.opening", "cow.turn.order", "cow.recon.report")
def test_pending_names_who_decides_what():
    state = start()
    assert (present(RS.pending(state)).actor, present(RS.pending(state)).kind) == (CHANCE, "opening draw")
    state = table(hands={A: HAND_A, B: HAND_B})
    d = RS.pending(state)
    assert d is not None
    assert (d.actor, d.kind) == (A, "deploy")
    # alice's Spy: bob reports, then chance draws alice's refill
    state = feed(state, deploy(A, "Spy", 1))
    assert (present(RS.pending(state)).actor, present(RS.pending(state)).kind) == (B, "report")
    state = feed(state, report(state, B))
    assert (present(RS.pending(state)).actor, present(RS.pending(state)).kind) == (CHANCE, "draw")


@pytest.mark.rule("cow.setup.opening", "cow.draw.in-deck")
def test_legal_opening_and_draws_offer_each_kind_left():
    # the opening: one event per kind of card in the deck (25 kinds), alice first
    opening = list(RS.legal(start()))
    assert len(opening) == 25
    assert all(isinstance(e, OpeningCardDrawn) and e.player == A for e in opening)
    # a refill: every kind still in the pile; the single Shore Bombardment is in bob's hand
    state = table(hands={A: HAND_A, B: (*HAND_B[:7], "Shore Bombardment")})
    state = feed(state, deploy(A, "Decoy", 2))
    draws = only(CardDrawn, RS.legal(state))
    assert all(isinstance(e, CardDrawn) and e.player == A for e in draws)
    assert "Shore Bombardment" not in {e.card for e in draws}
    assert len(draws) == 24


@pytest.mark.rule("cow.recon.report")
def test_legal_recon_is_the_one_true_report():
    state = feed(table(hands={A: HAND_A, B: HAND_B}), deploy(A, "Spy", 3))
    assert list(RS.legal(state)) == [
        HandReported(player=B, air=1, sea=3, ground=1, intel=3)]


@pytest.mark.rule("cow.kill.type-match", "cow.deploy.open-battle")
def test_legal_deploys_every_card_battle_and_kill():
    # three battles, bob's Infantry on top in battle 1
    state = table(hands={A: ("Tank", "Spy"), B: HAND_B[1:]},
                  battles=[battle(bob=["Infantry"]), battle(), battle()])
    evs = set(RS.legal(state))
    plain = {deploy(A, c, b) for c in ("Tank", "Spy") for b in (1, 2, 3)}
    assert evs == plain | {deploy(A, "Tank", 1, kill=True, target="Infantry")}
    # a closed battle is offered to nobody
    state = replace(state, battles=(state.battles[0], Battle(piles={A: (), B: ()}, closed=True,
                                                             winner=B, points=15), battle()))
    assert all(e.battle != 2 for e in deploys(state))


@pytest.mark.rule("cow.opt.theatres.choose", "cow.opt.joint")
def test_legal_events_all_pass_check():
    state = table(hands={A: HAND_A, B: HAND_B}, theatres_of_war=True, joint_deployment=True,
                  battles=[battle(bob=["Battleship"], theatre=Theatre.SEA), battle(), battle()])
    evs = deploys(state)
    assert evs and all(RS.check(state, e) is None for e in evs)
    # opening battle 2 or 3 names each card's own theatre (cow.opt.theatres.off-theatre)
    assert all(e.theatre == RS.lk.cards[e.card].theatre for e in evs if e.battle == 2)
    assert all(e.theatre is None for e in evs if e.battle == 1)


def test_weight_counts_copies_left():
    state = start()
    assert RS.weight(state, OpeningCardDrawn(player=A, card="Infantry")) == 3
    assert RS.weight(state, OpeningCardDrawn(player=A, card="Shore Bombardment")) == 1
    state = table(hands={A: ("Infantry", "Infantry"), B: ("Infantry",)})
    assert RS.weight(state, draw(A, "Infantry")) == 0
    assert RS.weight(state, draw(A, "Tank")) == 2
    assert RS.weight(state, deploy(A, "Infantry", 1)) == 1
    # all the weights of the opening add up to the deck
    s0 = start()
    assert sum(RS.weight(s0, e) for e in RS.legal(s0)) == 52


# -- hidden information ----------------------------------------------------------------


def test_view_hides_the_opponents_hand_and_the_decks():
    state = table(hands={A: HAND_A, B: HAND_B})
    seen = RS.view(state, A)
    assert seen.hands[A] == state.hands[A]
    assert seen.hands[B] == ("?",) * 8
    assert seen.decks == {COMMON: {"?": 52 - 16}}
    # the table itself is public; the real state is untouched
    assert seen.battles == state.battles
    assert state.hands[B] == tuple(sorted(HAND_B))
    assert RS.view(state, B).hands[A] == ("?",) * 8


def test_view_hides_the_card_a_reinforcement_just_drew():
    # alice's reinforcement drew a Tank; only alice may see which card it was
    state = table(hands={A: HAND_A, B: HAND_B}, alternative_reinforce=True)
    state = replace(state, reinforce_card="Tank",
                    steps=(Owed(Step.REINFORCE_DEPLOY, A), *state.steps))
    assert RS.view(state, A).reinforce_card == "Tank"
    assert RS.view(state, B).reinforce_card is None


# -- words and the end -----------------------------------------------------------------


def test_describe_each_event():
    assert RULESET.describe(OpeningCardDrawn(player=A, card="Tank")) == \
        "alice turns up Tank to decide who starts"
    assert RULESET.describe(draw(B, "Spy")) == "bob draws Spy"
    assert RULESET.describe(HandReported(player=B, air=1, sea=2, ground=3, intel=2)) == \
        "bob reports for recon: 1 Air, 2 Sea, 3 Ground, 2 Intel"
    assert RULESET.describe(deploy(A, "Tank", 2, kill=True, target="Marines")) == \
        "alice deploys Tank to battle 2, killing the opponent's Marines there"
    assert RULESET.describe(deploy(A, "Fighters", 1, theatre=Theatre.AIR, joint=True)) == \
        "alice deploys Fighters to battle 1, naming it the Air theatre, its pair partner to follow"
    assert RULESET.describe(deploy(A, "Radar", 3, from_discard=True)) == \
        "alice deploys Radar from the discard pile to battle 3"


def test_governing_names_the_kill_rules():
    ids = RULESET.governing(deploy(A, "Tank", 1, kill=True, target="Infantry"))
    assert "cow.kill.type-match" in ids and "cow.deploy.in-hand" in ids
    assert all(i in RULESET.catalogue() for i in ids)
    assert RULESET.governing(CardDeployed(player=A, card="Tank", battle=1)) == (
        "cow.turn.order", "cow.deploy.in-hand", "cow.deploy.open-battle")


@pytest.mark.rule("cow.game.normal")
def test_outcome_only_when_over():
    state = table(hands={A: HAND_A, B: HAND_B})
    assert RS.outcome(state) is None
    over = replace(state, phase=Phase.OVER, winner=B, rounds_won={A: 1, B: 2}, round=3)
    o = RS.outcome(over)
    assert o is not None
    assert o.winners == (B,) and o.scores == {A: 1, B: 2}
    assert o.summary == "bob wins the war, 2 rounds to 1"
    drawn = replace(over, winner=None, rounds_won={A: 1, B: 1})
    assert present(RS.outcome(drawn)).winners == ()
    assert RS.pending(over) is None and list(RS.legal(over)) == []


# -- the drawn table -------------------------------------------------------------------


def test_render_shows_the_table():
    state = table(hands={A: HAND_A, B: HAND_B}, theatres_of_war=True,
                  battles=[battle(alice=["Tank"], theatre=Theatre.GROUND), battle(), battle()])
    out = io.StringIO()
    Console(file=out, width=160).print(drawing(RS, state))
    text = out.getvalue()
    assert "battle 1 (Ground)" in text and "alice deploys a card" in text
    assert "theatres_of_war" in text
