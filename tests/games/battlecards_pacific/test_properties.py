"""Whole games of random legal play: they end, and `legal` agrees with `check` (and chance's
weights with what is left to draw)."""

import pytest

from tabletape.engine import CHANCE, simulate

from .helpers import GAME, RS, header


@pytest.mark.parametrize("seed", range(4))
def test_random_games_end_and_legal_agrees_with_check(seed):
    state = GAME.bind(header()).initial()
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
