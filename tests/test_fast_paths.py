"""The shortcuts taken for speed agree with the plain definitions they stand for."""

from __future__ import annotations

import pytest

from tabletape import engine

from .test_games import GAMES, simulated


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_over_is_exactly_when_nothing_is_pending(game, seed):
    rs = engine.get(game)
    header, _, states = simulated(game, seed)
    for state in (rs.initial(header), *states):
        assert rs.over(state) == (rs.pending(state) is None)
    assert rs.over(states[-1])
