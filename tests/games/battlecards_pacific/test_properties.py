"""Whole games of random legal play: they end, `legal` agrees with `check`, the catalogue is
covered by these tests, and what a player sees hides the other side's cards."""

import pathlib

import pytest

from tabletape.cli.render import drawing
from tabletape.engine import CHANCE, simulate
from tabletape.games.battlecards_pacific.catalogue import RULES

from .helpers import JAPAN, RS, US, header


@pytest.mark.parametrize("seed", range(4))
def test_random_games_end_and_legal_agrees_with_check(seed):
    state = RS.bind(header()).initial()
    n = 0
    for event, after in simulate.play(RS, header(), seed):
        assert RS.check(state, event) is None
        for e in RS.legal(state):
            assert RS.check(state, e) is None, e
        if RS.pending(state).actor == CHANCE:
            assert RS.weight(state, event) >= 1
        state, n = after, n + 1
    assert RS.pending(state) is None and n < 20_000
    assert RS.outcome(state) is not None


def test_every_rule_has_a_test():
    text = "".join(p.read_text() for p in pathlib.Path(__file__).parent.glob("test_*.py"))
    missing = [r for r in RULES if r not in text]
    assert not missing


def test_view_hides_the_other_side():
    state = None
    for _, state in simulate.play(RS, header(), 3):
        if state.battle is None and any(state.reserve.values()) and state.turns > 5:
            break
    seen = RS.view(state, JAPAN)
    assert seen.reserve[JAPAN] == state.reserve[JAPAN]
    assert set(seen.reserve[US]) <= {"?"} and len(seen.reserve[US]) == len(state.reserve[US])
    assert all(set(v) <= {"?"} for v in seen.stacks[US].values())
    assert seen.conflict == {"Pacific": {"?": sum(state.conflict["Pacific"].values())}}


def test_render_and_describe_every_kind_of_event():
    kinds = set()
    last = None
    for event, after in simulate.play(RS, header(), 1):
        kinds.add(type(event))
        assert RS.describe(event) != type(event).__name__
        assert RS.governing(event)
        last = after
    assert drawing(RS, last) is not None
    assert len(kinds) >= 9
