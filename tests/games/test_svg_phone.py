"""A table players can read (issue 27, item 6): full card names, wrapped and never cut;
hand counts worded as "cards / hand size"; a finished game's results kept."""

from __future__ import annotations

import glob
import re

import pytest

from tabletape import engine
from tabletape.app import pictures
from tabletape.engine.kit.svg import wrap
from tabletape.tape.words import counted


def texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_wrap_keeps_every_character():
    assert wrap("Anti-Tank Gun", 11) == ["Anti-Tank", "Gun"]
    assert wrap("Codebreakers", 5) == ["Codeb", "reake", "rs"]
    assert wrap("", 5) == [""]
    for s in ("Shore Bombardment", "a b c d e f", "Nuclear Weapons"):
        for n in range(1, 20):
            assert "".join(wrap(s, n)).replace(" ", "") == s.replace(" ", "")
            assert all(len(r) <= n for r in wrap(s, n))


@pytest.mark.parametrize("path", sorted(glob.glob("replays/cards-of-war/*.jsonl")))
def test_cards_of_war_hand_names_are_whole(path):
    result = engine.replay(path)
    rs = result.ruleset
    for state in (result.fold.state,):
        svg = pictures.draw(rs, state).svg()
        shown = " ".join(texts(svg))
        assert "…" not in shown.replace("next:", "")
        for p, hand in state.hands.items():
            for name in hand:
                assert all(word in shown for word in name.split()), name
            assert f"{len(hand)} cards / hand size {state.hand_size[p]}" in shown


def test_a_finished_cards_of_war_game_keeps_its_results():
    result = engine.replay("replays/cards-of-war/sim-normal.jsonl")
    svg = pictures.draw(result.ruleset, result.fold.state).svg()
    shown = texts(svg)
    assert "game over — winner: alice" in shown
    assert "round 1: bob, round 2: alice, round 3: alice; rounds won: alice 2, bob 1" in shown
    assert not any(t.startswith("battle ") for t in shown)  # not three empty battles


def test_liberation_shows_the_slot_numbers_and_whole_hands():
    path = sorted(glob.glob("replays/liberation/*.jsonl"))[0]
    result = engine.replay(path, to=25)
    state = result.fold.state
    shown = texts(pictures.draw(result.ruleset, state).svg())
    for p in state.players:
        assert f"{counted(len(state.hands[p]), 'card')} in hand:" in shown
        for card in state.hands[p]:
            assert any(card in t for t in shown), card
    rows = max(len(r) for r in state.played.values())
    assert rows and shown.count("slot 0") == sum(1 for r in state.played.values() if r)
    assert f"slot {rows - 1}" in shown
    assert not any("…" in t for t in shown)


def test_global_domination_lists_every_action_stack():
    result = engine.replay("replays/global-domination/cards-builds-and-scoring.jsonl")
    svg = pictures.draw(result.ruleset, result.fold.state).svg()
    joined = " ".join(texts(svg))
    for name in result.fold.state.stacks:
        assert name in joined
    assert "…" not in joined
