"""Whole games of random legal play: they end, `legal` agrees with `check` (and chance's
weights with what is left to draw), and what a player sees hides only the other side's cards."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tabletape.engine import CHANCE, simulate
from tests.narrow import present

from .helpers import GAME, JAPAN, US, header, with_changes


def us_first_with_a_reveal_card():
    """A card file listing the US first, in which Fog of War shows the opponent's stacks."""
    comp = with_changes(conflict__27__reveal="stacks")
    return replace(comp, sides=comp.sides[::-1])


TABLES = {
    "default": lambda: header(),
    "support-allocated": lambda: header(support="allocated"),
    "us-first-file-reveal": lambda: header(us_first_with_a_reveal_card()),
}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("table", sorted(TABLES))
def test_random_games_end_and_legal_agrees_with_check(table, seed):
    start = TABLES[table]()
    rs = GAME.bind(start)
    state = rs.initial()
    n = 0
    for event, after in simulate.play(rs, start, seed):
        assert rs.check(state, event) is None
        for e in rs.legal(state):
            assert rs.check(state, e) is None, e
        if present(rs.pending(state)).actor == CHANCE:
            assert rs.weight(state, event) >= 1
        state, n = after, n + 1
    assert rs.pending(state) is None and n < 20_000
    assert rs.outcome(state) is not None


@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), first_side=st.sampled_from(["Japan", "US"]))
def test_views_hide_exactly_the_other_sides_cards(seed, first_side):
    start = header(first_side=first_side)
    rs = GAME.bind(start)
    for _, state in simulate.play(rs, start, seed):
        assert rs.over(state) == (rs.pending(state) is None)
        for me, other in ((JAPAN, US), (US, JAPAN)):
            seen = rs.view(state, me)
            assert seen.reserve[me] == state.reserve[me] and seen.kept[me] == state.kept[me]
            assert seen.stacks[me] == state.stacks[me]
            assert seen.reserve[other] == ("?",) * len(state.reserve[other])
            assert seen.kept[other] == ("?",) * len(state.kept[other])
            assert {k: len(v) for k, v in seen.stacks[other].items()} == {
                k: len(v) for k, v in state.stacks[other].items()}
            assert all(set(v) <= {"?"} for v in seen.stacks[other].values())
            assert seen.battle == state.battle and seen.vp == state.vp  # face up for all
            for side, deck in state.arsenal.items():
                assert seen.arsenal[side] == {"?": sum(deck.values())}
    assert rs.outcome(state) is not None
