"""The random playout's fast paths (engine.playout.drawer): a game's `odds` and `nth` give what
`weights` and `legal` give, and its `actor` who `pending` names, so random agents play, seed for seed, the games `simulate` plays."""

from __future__ import annotations

import pytest

from tabletape import engine
from tabletape.engine import agents, playout, simulate
from tabletape.engine.simulate import header_for

PLAYERS = {"cards-of-war": 2, "liberation": 3, "global-domination": 4, "battlecards-pacific": 2}
NAMES = ("alice", "bob", "carol", "dave")


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_odds_and_nth_agree_with_weights_and_legal(game):
    rs = engine.get(game)
    header = header_for(rs, NAMES[:PLAYERS[game]])
    bound = rs.bind(header)
    module = bound.legality  # type: ignore[attr-defined]
    odds, nth = getattr(module, "odds", None), getattr(module, "nth", None)
    actor = getattr(module, "actor", None)
    answered = 0
    for seed in range(3):
        state = bound.initial()
        for _event, after in simulate.play(rs, header, seed):
            options = list(bound.legal(state))
            if actor is not None:
                assert actor(bound.lk, state) == bound.pending(state).actor
            w = odds(bound.lk, state) if odds else None
            if w is not None:
                assert w == bound.weights(state, options)
                answered += 1
            for i, option in enumerate(options):
                got = nth(bound.lk, state, i) if nth else None
                assert got is None or got == option, (seed, i)
                answered += got is not None
            state = after
        if actor is not None:
            assert actor(bound.lk, state) is None and bound.pending(state) is None
    assert answered or (odds is None and nth is None)


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_random_agents_play_the_games_simulate_plays_seed_for_seed(game):
    rs = engine.get(game)
    header = header_for(rs, NAMES[:PLAYERS[game]])
    bound = rs.bind(header)
    seats = {p: agents.RandomAgent() for p in header.players}
    for seed in (3, 11):
        events: list = []
        playout.play(bound, seats, seed, visit=lambda e, s, out=events: out.append(e))
        assert events == [e for e, _ in simulate.play(rs, header, seed)]
