"""Issue 25: a derivation for every computing check of Cards of War, Liberation and Global
Domination (BATTLECARDS' shot window is tests/engine/test_rulings.py). Each story names
every term of a ruling's sum with its value and its source, in the one data type and
through the one display path (`engine.ruling_lines`); the derived number is the number the
rules used; a turn-order refusal has no terms and reads no component value."""

from __future__ import annotations

import glob
import json

import pytest
from msgspec.structs import replace

from tabletape import engine
from tabletape.engine.provenance import Term
from tests.narrow import present


def _shown(rs, state, event) -> list[str]:
    """The lines every place that shows a ruling prints under it."""
    return engine.ruling_lines(rs.derive(state, event), engine.rests_on(rs, state, event))


def _no_sum(rs, state, event) -> None:
    """A refusal on whose turn it is: no arithmetic, no component value read."""
    assert rs.derive(state, event) is None
    assert list(rs.reads(state, event)) == []
    assert engine.rests_on(rs, state, event) == []


# -- Cards of War ------------------------------------------------------------------------

def test_cards_of_war_a_false_recon_report_shows_the_count_it_got_wrong():
    # Special Abilities 3 (RECON): bob answers alice's Spy with 2 Ground; he holds 3
    from tests.games.cards_of_war.helpers import RS, A, B, HandReported, deploy, feed, table
    hand_b = ("Infantry", "Gliders", "Radar", "Marines", "Decoy", "Fighters", "Amphib",
              "Anti-Tank Gun")
    state = feed(table(hands={A: ("Spy", "Tank"), B: hand_b}), deploy(A, "Spy", 1))
    lie = HandReported(player=B, air=1, sea=2, ground=2, intel=3)
    assert present(RS.check(state, lie)).rule == "cow.recon.report"
    d = RS.derive(state, lie)
    assert d is not None
    assert (d.what, d.result) == ("Ground cards in bob's hand (reported 2)", 3)
    assert d.terms == (
        Term("Anti-Tank Gun", 1, "components: Anti-Tank Gun.theatre", "reconstructed"),
        Term("Gliders", 1, "components: Gliders.theatre", "rulebook-name"),
        Term("Infantry", 1, "components: Infantry.theatre", "reconstructed"))
    assert _shown(RS, state, lie)[0] == ("Ground cards in bob's hand (reported 2): "
                                         "Anti-Tank Gun 1 + Gliders 1 + Infantry 1 = 3")
    # the turn is the other player's: no count
    _no_sum(RS, state, replace(lie, player=A))


def test_cards_of_war_a_deployment_shows_the_battle_score_it_makes():
    # Winning a Battle, Theatres of War: only Air cards count in an Air battle
    from tabletape.games.cards_of_war.components import Theatre
    from tests.games.cards_of_war.helpers import RS, A, B, battle, deploy, table
    air = battle(alice=["Fighters", "Tank"], theatre=Theatre.AIR)
    state = table(hands={A: ("Dive Bomber", "Spy"), B: ("Infantry",)},
                  battles=[air, battle(), battle()], theatres_of_war=True)
    ev = deploy(A, "Dive Bomber", 1)
    d = RS.derive(state, ev)
    assert d is not None
    assert d.what == "alice's score in battle 1 (Air theatre) with Dive Bomber"
    assert d.terms == (Term("Fighters", 4, "components: Fighters.value", "rulebook-name"),
                       Term("Dive Bomber", 5, "components: Dive Bomber.value", "rulebook-name"))
    assert d.result == 9
    rested = {(r.entry, r.field) for r in engine.rests_on(RS, state, ev)}
    assert {("Tank", "theatre"), ("Fighters", "value"), ("Dive Bomber", "value")} <= rested
    after = RS.apply(state, ev)
    from tabletape.games.cards_of_war.lookups import total
    assert total(RS.lk, after, after.battles[0], A) == d.result
    _no_sum(RS, state, replace(ev, player=B))  # bob deploying on alice's turn


# -- Liberation --------------------------------------------------------------------------

def test_liberation_a_play_shows_the_face_up_total_with_the_country_bonus():
    # How to Play: the highest face-up total liberates; Syria adds 1 to each Ground card
    from tabletape.games.liberation.events import ForceCardPlayed
    from tests.games.liberation.helpers import RS, at
    state = at("Syria", hands={"ann": ("Armored Division",)},
               played={"ann": ("Stealth Bomber", "~Submarine")})
    ev = ForceCardPlayed(player="ann", card="Armored Division")
    d = RS.derive(state, ev)
    assert d is not None
    assert d.what == "ann's face-up force points with Armored Division"
    assert d.terms == (
        Term("Stealth Bomber", 4, "components: Stealth Bomber.points", "reconstructed"),
        Term("Armored Division", 3, "components: Armored Division.points", "reconstructed"),
        Term("Syria's bonus", 1, "components: Syria.amount", "reconstructed",
             "Ground card Armored Division"))
    assert d.result == 8
    assert _shown(RS, state, ev)[0] == (
        "ann's face-up force points with Armored Division: Stealth Bomber 4 + Armored "
        "Division 3 + Syria's bonus 1 (Ground card Armored Division) = 8")
    from tabletape.games.liberation.lookups import total
    assert total(RS.lk, RS.apply(state, ev), "ann") == 8
    # bob playing on ann's turn: a turn-order refusal, no sum, no card value
    refused = ForceCardPlayed(player="bob", card="Armored Division")
    assert present(RS.check(state, refused)).rule == "lib.turn.order"
    _no_sum(RS, state, refused)


# -- Global Domination ---------------------------------------------------------------------

def test_global_domination_a_costly_discard_shows_the_logistics_marker():
    # Acquiring cards: a card's Logistical cost moves the marker left, never past its end
    from tabletape.games.global_domination.events import CardsDiscarded
    from tests.games.global_domination.helpers import RS, run, started
    state = run(started(), CardsDiscarded(player="alice", cards=("Domination",),
                                          taken="Show of Force"))
    state = replace(state, logistics={**state.logistics, "alice": 1})
    ev = CardsDiscarded(player="alice", cards=("Domination",), taken="Tactical Nukes")
    assert present(RS.check(state, ev)).rule == "gd.cost.logistics"
    d = RS.derive(state, ev)
    cost = RS.lk.cards["Tactical Nukes"].cost
    assert d is not None
    assert d.terms == (
        Term("marker", 1, "the log: alice's Logistics marker", "recorded"),
        Term("cost", -cost, "components: Tactical Nukes.cost",
             RS.lk.cards["Tactical Nukes"].provenance, "Tactical Nukes"))
    assert d.result == 1 - cost
    assert _shown(RS, state, ev)[0] == (
        f"alice's Logistics marker after taking Tactical Nukes (the track's left end is 1): "
        f"marker 1 - cost {cost} (Tactical Nukes) = {1 - cost}")
    assert ("Tactical Nukes", "cost") in {(r.entry, r.field)
                                           for r in engine.rests_on(RS, state, ev)}
    _no_sum(RS, state, replace(ev, player="bob"))  # not bob's turn


def test_global_domination_a_restricted_build_shows_the_areas_it_fits_by():
    # Amphibious Assault builds next to a Sea Area its player controls (gd.card.amphibious)
    from tabletape.games.global_domination.events import CardPlayed, ForceBuilt, Use
    from tests.games.global_domination.helpers import RS, run, started, with_board, with_hand
    state = with_board(with_hand(started(), "alice", "Amphibious Assault"),
                       South_Atlantic="alice?")
    state = run(state, CardPlayed(player="alice", card="Amphibious Assault", use=Use.BUILD))
    india = ForceBuilt(player="alice", area="India")
    assert present(RS.check(state, india)).rule == "gd.card.amphibious"
    assert present(RS.derive(state, india)).result == 0
    brazil = ForceBuilt(player="alice", area="Brazil")
    d = RS.derive(state, brazil)
    assert d is not None
    assert d.what == "Sea Areas alice controls next to Brazil (needs 1 or more)"
    assert d.terms == (Term("South Atlantic", 1, "the log: alice's Force in South Atlantic",
                            "recorded", "Sea Area"),)
    rested = {(r.entry, r.field) for r in engine.rests_on(RS, state, brazil)}
    assert {("Brazil", "adjacent"), ("South Atlantic", "kind")} <= rested


def test_global_domination_points_played_are_the_cards_points():
    from tabletape.games.global_domination.events import CardPlayed, Use
    from tests.games.global_domination.helpers import RS, started
    ev = CardPlayed(player="alice", card="Domination", use=Use.BUILD)
    d = RS.derive(started(), ev)
    card = RS.lk.cards["Domination"]
    assert d is not None
    assert d.terms == (Term("Domination", card.build, "components: Domination.build",
                            card.provenance),)
    # bob out of turn: no sum; the check reads only whether the card plays at any time
    out = replace(ev, player="bob")
    assert present(RS.check(started(), out)).rule == "gd.play.order"
    assert RS.derive(started(), out) is None
    assert [(n, f) for n, _, f in RS.reads(started(), out)] == [("Domination", ("timing",))]


# -- every game: the sum is the number the rules used; --json and the ruling carry it ------

@pytest.mark.parametrize("game", ["cards-of-war", "liberation", "global-domination"])
def test_every_derivation_adds_up_to_its_result(game):
    seen = []

    def visit(j: engine.Judged) -> None:
        if j.before is None or j.fold is None or j.seq in j.fold.core_seqs:
            return
        d = j.fold.ruleset.derive(j.before, j.event)
        if d is not None:
            assert d.result == sum(t.value for t in d.terms), (j.seq, d)
            seen.append(d)
    for path in sorted(glob.glob(f"replays/{game}/*.jsonl"))[:3]:
        engine.replay(path, visit=visit)
    assert seen


def test_a_legal_deployment_disputed_carries_its_score_in_json(run):
    report = json.loads(run("validate", "replays/cards-of-war/kill-dispute.jsonl",
                            "--json").stdout)
    ruling = next(d for d in report["disputes"] if d["about"] == 37)
    d = ruling["derivation"]
    assert d["what"] == "bob's score in battle 3 with Flak" and d["terms"]
    assert all(t["source"].startswith("components: ") for t in d["terms"])


def test_the_liberation_turn_order_dispute_has_no_sum(run):
    r = run("explain", "replays/liberation/disputed-play.jsonl", 14, "--json")
    data = json.loads(r.stdout)
    assert data["rule"] == "lib.turn.order" and data["derivation"] is None
    assert data["rests_on"] == []


def test_liberation_a_card_dealt_shows_how_many_the_country_deals():
    # How to Play: each player is dealt as many force cards as the country's victory points
    from tabletape.games.liberation.events import CountryTurned, ForceCardDealt
    from tests.games.liberation.helpers import RS, ok, start
    state = ok(start(), CountryTurned(player="ann", country="Iraq"))
    deal = ForceCardDealt(player="bob", card="Submarine")  # the dealer's left first
    d = RS.derive(state, deal)
    iraq = RS.lk.countries["Iraq"]
    assert d is not None
    assert d.what == "force cards dealt to bob for Iraq (this is card 1)"
    assert d.terms == (Term("Iraq's victory points", iraq.vp, "components: Iraq.vp",
                            "rulebook-name"),)
    assert ("Iraq", "vp") in {(r.entry, r.field) for r in engine.rests_on(RS, state, deal)}
    # dealt to the wrong player: an order refusal, no sum, no card value
    _no_sum(RS, state, ForceCardDealt(player="cat", card="Submarine"))


def test_cards_of_war_an_exhausted_hand_shows_its_size():
    # Optional Rules, Strategic Exhaustion: the loser of a sweep plays with one card fewer
    from tests.games.cards_of_war.helpers import RS, A, CardDiscarded, Owed, Step, table
    state = table(hands={A: ("Spy", "Tank", "Flak", "Infantry", "Decoy", "Marines", "Gliders",
                             "Amphib")}, length="long", strategic_exhaustion=True,
                  steps=(Owed(Step.DISCARD, A),))
    state = replace(state, hand_size={**state.hand_size, A: 7})
    ev = CardDiscarded(player=A, card="Spy")
    d = RS.derive(state, ev)
    assert d is not None
    assert d.terms == (Term("hand", 8, "rulebook: Setup (eight cards)", "rulebook"),
                       Term("rounds lost in all three battles", -1,
                            "the log: the rounds alice lost all three battles of", "recorded"))
    assert engine.ruling_lines(d, [])[0] == (
        "alice's hand size under Strategic Exhaustion (holds 8): hand 8 - rounds lost in all "
        "three battles 1 = 7")


def test_a_draw_refused_on_whose_step_it_is_rests_on_no_count():
    # the deck's counts matter only to a draw judged on the pile (BATTLECARDS' too)
    from tests.games.cards_of_war.helpers import RS, A, B, deploy, draw, feed, table
    state = feed(table(hands={A: ("Spy", "Tank"), B: ("Infantry",)}), deploy(A, "Tank", 1))
    assert present(RS.check(state, draw(B, "Flak"))).rule == "cow.turn.order"
    _no_sum(RS, state, draw(B, "Flak"))
    assert ("Flak", "count") in {(r.entry, r.field)
                                 for r in engine.rests_on(RS, state, draw(A, "Flak"))}


def test_the_derived_number_is_the_one_the_rules_used():
    # Cards of War's score and Liberation's total as the state after the event holds them;
    # Global Domination's Logistics marker as the state after the discard holds it
    from tabletape.games.cards_of_war.lookups import total as battle_total
    from tabletape.games.liberation.lookups import total as face_up
    seen: list[str] = []

    def visit(j: engine.Judged) -> None:
        if j.before is None or j.fold is None or j.seq in j.fold.core_seqs or j.problem:
            return
        rs, kind = j.fold.ruleset, type(j.event).__name__
        d = rs.derive(j.before, j.event)
        if d is None:
            return
        after = rs.apply(j.before, j.event)
        if kind == "CardDeployed":
            b = after.battles[j.event.battle - 1]
            if not b.closed and j.event.card not in b.piles[j.event.player]:
                return  # the round it ended cleared the table
            want = b.points if b.closed else battle_total(rs.lk, after, b, j.event.player)
        elif kind == "ForceCardPlayed" and j.before.country == after.country:
            if j.event.card not in [p.card for p in after.played[j.event.player]]:
                return  # a traded card is placed later
            want = face_up(rs.lk, after, j.event.player)
        elif kind == "CardsDiscarded":
            want = after.logistics[j.event.player]
        elif kind == "ScoringPassed":
            from tabletape.games.global_domination.reducer import score
            want = score(rs.lk, j.before, j.event.player)[0]
        else:
            return
        assert d.result == want, (j.seq, d.sum(), want)
        seen.append(kind)
    for path in ("replays/cards-of-war/abilities-normal.jsonl",
                 "replays/cards-of-war/alt-reinforce-theatres-joint.jsonl",
                 "replays/liberation/iraq-abilities.jsonl",
                 "replays/global-domination/cards-reductions.jsonl",
                 "replays/global-domination/cards-builds-and-scoring.jsonl"):
        engine.replay(path, visit=visit)
    assert {"CardDeployed", "ForceCardPlayed", "CardsDiscarded", "ScoringPassed"} <= set(seen)


def test_cards_of_war_the_opening_draw_shows_who_starts_by_the_cards_values():
    # Setup: the higher opening card starts (a turn order computed from card values)
    from tests.games.cards_of_war.helpers import RS, A, B, OpeningCardDrawn, feed, start
    state = feed(start(), OpeningCardDrawn(player=A, card="Spy"))
    ev = OpeningCardDrawn(player=B, card="Tank")
    d = RS.derive(state, ev)
    assert d is not None
    assert d.terms == (Term("alice's Spy", 2, "components: Spy.value", "reconstructed"),
                       Term("bob's Tank", -6, "components: Tank.value", "reconstructed"))
    assert engine.ruling_lines(d, [])[0] == (
        "alice's opening card less bob's (bob starts): alice's Spy 2 - bob's Tank 6 = -4")
    assert RS.apply(state, ev).first == B
    assert RS.derive(start(), OpeningCardDrawn(player=A, card="Spy")) is None  # one card: no sum


def test_global_domination_a_scoring_pass_shows_the_vps_the_board_gives():
    # End of Each Game Turn, Scoring VPs: by each Force's strength and Area, and Regions
    from tabletape.games.global_domination.events import ScoringPassed
    from tabletape.games.global_domination.reducer import score
    from tabletape.games.global_domination.state import Phase
    from tests.games.global_domination.helpers import RS, started, with_board
    state = with_board(started(), Canada="alice", North_Atlantic="alice?", China="bob")
    state = replace(state, phase=Phase.SCORING, current=None, scored=())
    ev = ScoringPassed(player="alice")
    assert RS.check(state, ev) is None
    d = RS.derive(state, ev)
    assert d is not None
    assert d.terms == (
        Term("Canada", 2, "rulebook: Scoring VPs (Full Land Force)", "rulebook", "Full"),
        Term("North Atlantic", 2, "rulebook: Scoring VPs (Struggling Sea Force)", "rulebook",
             "Struggling"))
    assert d.result == score(RS.lk, state, "alice")[0] == 4
    rested = {(r.entry, r.field) for r in engine.rests_on(RS, state, ev)}
    assert {("Canada", "kind"), ("North Atlantic", "kind")} <= rested
    _no_sum(RS, state, ScoringPassed(player="bob"))  # alice's say, not bob's
