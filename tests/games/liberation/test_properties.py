"""Whole simulated games: they end, `legal` agrees with `check`, replay is deterministic."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.engine import CHANCE
from tabletape.games.liberation import RULESET as RS
from tabletape.games.liberation.events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    LiberationEvent,
    PlayedCardTaken,
    PlayedCardTurned,
    TieBreakDrawn,
    TurnOverAccepted,
    TurnOverDeclined,
    TurnOverPrevented,
    TurnPassed,
)
from tests.games.liberation.helpers import game
from tests.narrow import present


def candidates(lk, state):
    """Returns a superset of every event `check` could accept (and many it must refuse)."""
    who = (*state.players, "zed")
    cards = (*lk.cards, "Battleship")
    lands = (*lk.countries, "Atlantis")
    slots = range(max((len(r) for r in state.played.values()), default=0) + 1)
    out: list[LiberationEvent] = []
    for p in who:
        out += [CountryTurned(player=p, country=c) for c in lands]
        for c in cards:
            out += [ForceCardDealt(player=p, card=c), ForceCardDrawn(player=p, card=c),
                    TieBreakDrawn(player=p, card=c), ForceCardPlayed(player=p, card=c),
                    TurnOverPrevented(player=p, card=c)]
        out += [TurnPassed(player=p), TurnOverAccepted(player=p), TurnOverDeclined(player=p)]
        for q in who:
            out.append(HandsTraded(player=p, other=q))
            for i, up in itertools.product(slots, (False, True)):
                out.append(PlayedCardTurned(player=p, owner=q, slot=i, face_up=up))
                out.append(PlayedCardTaken(player=p, owner=q, slot=i))
    return out


@pytest.mark.rule("lib.win.points", "lib.win.deck-out")
@settings(max_examples=50, deadline=None, derandomize=True)
@given(n=st.integers(2, 6), seed=st.integers(0, 100_000))
def test_random_games_end_with_a_winner(n, seed):
    # every simulated game ends, quickly, and its victory points add up to the countries taken
    header, events = game(n, seed)
    assert len(events) < 2000
    state = events[-1][1]
    rs = RS.bind(header)
    assert rs.pending(state) is None
    o = rs.outcome(state)
    assert o is not None and set(o.winners) <= set(state.players)
    taken = sum(len(v) for v in state.liberated.values()) + len(state.failed)
    assert taken + len(state.countries) == 10


OTHER_READINGS = {"turn_over": "optional", "double_play_tie": "one_card"}


@pytest.mark.rule("lib.turn.step", "lib.opt.turn-over-optional", "lib.opt.tie-one-card")
@pytest.mark.parametrize("n,seed,options", [(2, 1, {}), (3, 2, {}), (4, 3, {}), (6, 4, {}),
                                            (2, 7, {}), (5, 8, {}),
                                            (3, 5, OTHER_READINGS), (5, 6, OTHER_READINGS),
                                            (4, 9, OTHER_READINGS)])
def test_legal_agrees_with_check(n, seed, options):
    # what check accepts is exactly what legal yields, with either reading of the options
    header, events = game(n, seed, **options)
    rs = RS.bind(header)
    state = rs.initial()
    for k, (ev, after) in enumerate(events):
        if k % 7 == 0:
            legal = list(rs.legal(state))
            accepted = [e for e in candidates(rs.lk, state) if rs.check(state, e) is None]
            assert set(map(repr, accepted)) == set(map(repr, legal)), rs.pending(state)
            if present(rs.pending(state)).actor == CHANCE:
                assert all(rs.weight(state, e) >= 1 for e in legal)
        assert rs.check(state, ev) is None
        state = rs.apply(state, ev)
        assert state == after


def test_replay_is_deterministic():
    # the same events folded twice give the same state
    header, events = game(4, 11)
    rs = RS.bind(header)
    a = b = rs.initial()
    for ev, _ in events:
        a, b = rs.apply(a, ev), rs.apply(b, ev)
    assert a == b == events[-1][1]
