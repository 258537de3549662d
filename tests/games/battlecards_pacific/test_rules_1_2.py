"""BATTLECARDS Pacific rules 1.2 (issue 35): a deck is reshuffled once its last card has been
discarded, and a list the rulebook treats as a set may be written in any order. Each story is
told under 1.2 and, beside it, as 1.1 judged it (unchanged)."""

from __future__ import annotations

import json

import msgspec
import pytest
from msgspec.structs import replace

from tabletape import engine
from tabletape.games.battlecards_pacific.events import (
    BattleDecided,
    CardsRevealed,
    ConflictDrawn,
    EmergencyDeclined,
    EmergencyDeployed,
    UnitFired,
)
from tabletape.tape.errors import IllegalEvent
from tests import story

from .helpers import (
    ACTION,
    GAME,
    JAPAN,
    RS,
    US,
    act,
    discards,
    draw,
    header,
    refused,
    table,
    turned,
    with_changes,
)

RS_1_1 = GAME.bind(msgspec.structs.replace(header(), rules_version="1.1"))
HAND = ("A6M Zero", "Infantry Division", "Kagero Destroyer")  # the Reserve Hand, as held


def test_the_versions():
    assert RS.edition.judging == "1.2" and RS_1_1.edition.judging == "1.1"


def last_card_is_doolittle(rs):
    """bob (US) draws the Conflict deck's last card, Doolittle Raid, and declines to fight."""
    state = table(turn=US)
    state = replace(state, conflict={"Pacific": {"Doolittle Raid": 1}},
                    conflict_discard={"Pacific": ("Codebreakers", "Monsoon")})
    state = draw(state, "Doolittle Raid", rs=rs)
    return act(state, BattleDecided(player=US, fight=False), rs=rs)


@pytest.mark.rule("bcp.deck.reshuffle")
def test_the_last_card_drawn_is_discarded_before_the_reshuffle():
    # 1.2: Doolittle Raid goes to the discard pile, then the pile becomes the deck: all three
    state = last_card_is_doolittle(RS)
    assert state.conflict == {"Pacific": {"Codebreakers": 1, "Doolittle Raid": 1, "Monsoon": 1}}
    assert discards(state) == ()
    # 1.1 reshuffled as the card was drawn: Doolittle Raid sat out a whole cycle
    state = last_card_is_doolittle(RS_1_1)
    assert state.conflict == {"Pacific": {"Codebreakers": 1, "Monsoon": 1}}
    assert discards(state) == ("Doolittle Raid",)
    # so a 1.1 log that draws Doolittle Raid next is refused by 1.2 only where the deck differs
    assert refused(state, ConflictDrawn(player=JAPAN, card="Doolittle Raid"), RS_1_1) \
        == "bcp.draw.in-deck"


@pytest.mark.rule("bcp.deck.reshuffle")
def test_a_shot_needing_a_card_reshuffles_without_the_battlecard_being_fought():
    # alice draws Pearl Harbor, the deck's last card, and fights it: her Zero's shot needs a
    # card, so the discards are shuffled in now; Pearl Harbor is still being fought
    state = table(stacks={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)})
    state = replace(state, conflict={"Pacific": {"Pearl Harbor": 1}},
                    conflict_discard={"Pacific": (ACTION[7], ACTION[1])})
    state = draw(state, "Pearl Harbor")
    state = act(state, BattleDecided(player=JAPAN, fight=True))
    assert state.conflict == {"Pacific": {}} and discards(state) == (ACTION[7], ACTION[1])
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair"))
    assert state.conflict == {"Pacific": {ACTION[1]: 1, ACTION[7]: 1}}
    assert turned(state, ACTION[7]).card == ACTION[7]


@pytest.mark.rule("bcp.emergency.all")
def test_an_emergency_deployment_lists_the_hand_in_any_order():
    state = table(reserve={JAPAN: HAND})
    listed = EmergencyDeployed(player=JAPAN, units=("Infantry Division", "Kagero Destroyer",
                                                    "A6M Zero"))
    # 1.2: the same three cards in another order (`legal` offers the hand's own order)
    after = story.play(RS, state, listed)
    assert after.reserve[JAPAN] == () and after == act(state, replace(listed, units=HAND))
    # 1.1 asked for the hand's own order: the log that listed it otherwise stays refused
    assert refused(state, listed, RS_1_1) == "bcp.emergency.all"
    # still the whole hand, exactly: a card missing or one too many is refused
    for units in (HAND[:2], (*HAND, "A6M Zero"), ("A6M Zero", "A6M Zero", "Kagero Destroyer")):
        assert refused(state, replace(listed, units=units)) == "bcp.emergency.all"


@pytest.mark.rule("bcp.conflict.reveal")
def test_the_cards_shown_may_be_listed_in_any_order():
    comp = with_changes(conflict__27__reveal="reserve")
    for version, legal in (("1.2", True), ("1.1", False)):
        rs = GAME.bind(msgspec.structs.replace(
            GAME.start((JAPAN, US), GAME.Options(), comp), rules_version=version))
        state = table(comp=comp, reserve={US: ("F4U Corsair", "Marine Division")})
        state = draw(state, "Fog of War", rs=rs)
        shown = CardsRevealed(player=US, to=JAPAN, what="reserve",
                              cards=("Marine Division", "F4U Corsair"))
        if legal:  # (`legal` offers them in the table's order)
            story.play(rs, state, shown)
        else:
            assert refused(state, shown, rs) == "bcp.conflict.reveal"
        assert refused(state, replace(shown, cards=("Marine Division",)), rs) \
            == "bcp.conflict.reveal"


@pytest.mark.rule("bcp.turn.order", "bcp.emergency.turn")
def test_a_draw_after_an_emergency_deployment_cites_the_judging_versions_rule():
    # alice deploys her hand instead of drawing, then draws anyway while bob (holding a hand)
    # is to choose: 1.1 and 1.2 cite turn order; rules 1.0 cited the emergency rule
    state = table(reserve={JAPAN: HAND, US: ("F4U Corsair",)}, turn=JAPAN)
    state = act(state, EmergencyDeployed(player=JAPAN, units=HAND))
    late = ConflictDrawn(player=JAPAN, card="Monsoon")
    rs_1_0 = GAME.bind(msgspec.structs.replace(header(), rules_version="1.0"))
    assert refused(state, late) == "bcp.turn.order"
    assert refused(state, late, RS_1_1) == "bcp.turn.order"
    assert refused(state, late, rs_1_0) == "bcp.emergency.turn"
    assert refused(state, EmergencyDeclined(player=JAPAN), rs_1_0) == "bcp.turn.order"


# -- the logs: 1.1's judged as 1.1 judged them, 1.2's fixtures, migrate ---------------------

SEED_0 = "replays/battlecards-pacific/simulated-seed-0.jsonl"  # recorded under 1.1
FIXTURES_1_2 = "tests/fixtures/rules-1.2/battlecards-pacific"


def first_problem(path, version=None):
    result = engine.replay(path, version=version)
    if not result.problems:
        return None
    first = result.problems[0]
    assert isinstance(first, IllegalEvent)  # (only a refused event names a rule)
    return (first.seq, first.rule)


def test_a_1_1_log_is_judged_as_1_1_judged_it_and_1_2_finds_the_deck_changed():
    # seed 0 draws a BATTLECARD as the Conflict deck's last card: 1.1 reshuffled without it,
    # so a later shot turns a card 1.2's deck (the card shuffled back in) deals otherwise
    assert engine.replay(SEED_0).ok and engine.replay(SEED_0).judged_by == "1.1"
    assert first_problem(SEED_0, "latest") == (434, "bcp.draw.in-deck")
    assert first_problem(f"{FIXTURES_1_2}/simulated-seed-0.jsonl") is None
    assert first_problem(f"{FIXTURES_1_2}/simulated-seed-0.jsonl", "1.1") == (417,
                                                                            "bcp.draw.in-deck")


def test_a_1_2_log_lists_the_hand_in_any_order_which_1_1_refuses():
    path = f"{FIXTURES_1_2}/emergency-any-order.jsonl"
    assert engine.replay(path).ok and engine.replay(path).judged_by == "1.2"
    assert first_problem(path, "1.1") == (19, "bcp.emergency.all")


def test_migrate_from_1_1(run, tmp_path):
    out = tmp_path / "new.jsonl"
    r = run("migrate", "replays/battlecards-pacific/emergency-deployment.jsonl", "-o", out)
    assert r.exit_code == 0, r.stderr
    assert json.loads(open(out, "rb").readline())["rules_version"] == "1.2"
    assert engine.replay(str(out)).ok
    r = run("migrate", SEED_0, "-o", tmp_path / "seed.jsonl")
    assert r.exit_code == 1 and not (tmp_path / "seed.jsonl").exists()
    assert "at seq 434 [bcp.draw.in-deck]; nothing written" in r.stderr


def test_the_1_2_fixtures_are_regenerated_byte_for_byte(tmp_path):
    from .make_replays import fixtures
    fixtures(str(tmp_path))
    for name in ("emergency-any-order.jsonl", "simulated-seed-0.jsonl"):
        made = (tmp_path / "rules-1.2" / "battlecards-pacific" / name).read_bytes()
        assert made == open(f"{FIXTURES_1_2}/{name}", "rb").read(), name


@pytest.mark.rule("bcp.fire.support-allocated")
def test_the_supporters_may_be_named_in_any_order():
    # Pearl Harbor under support=allocated: alice's Zero misses; bob's Corsair fires backed
    # by the Essex and Nimitz, named in another order than the alphabet's
    from .helpers import pearl_harbor, refusal
    state = pearl_harbor(("A6M Zero",), ("F4U Corsair", "Essex Carrier", "Admiral Nimitz"),
                         support="allocated")
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Essex Carrier"))
    state = act(state, turned(state, ACTION[1]))
    shot = UnitFired(player=US, unit="F4U Corsair", target="A6M Zero",
                     support=("Essex Carrier", "Admiral Nimitz"))
    after = story.play(RS, state, shot)  # 1.2
    assert after == act(state, replace(shot, support=("Admiral Nimitz", "Essex Carrier")))
    rs_1_1 = GAME.bind(msgspec.structs.replace(header(support="allocated"), rules_version="1.1"))
    assert refusal(state, shot, rs_1_1).reason.endswith("names the supporters in sorted order")
    twice = replace(shot, support=("Essex Carrier", "Essex Carrier"))
    assert refused(state, twice) == "bcp.fire.support-allocated"
