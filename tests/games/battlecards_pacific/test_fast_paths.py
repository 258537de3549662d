"""BATTLECARDS Pacific's shortcuts taken for speed agree with the plain definitions they stand
for (the game's own; those shared with the other games are in tests/games/test_fast_paths.py)."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.engine import simulate
from tabletape.games.battlecards_pacific import RULESET, legality

from .helpers import header

SUPPORT = ("every-shot", "allocated")


@cache
def played(support: str, seed: int) -> tuple:
    """Returns (bound ruleset, events, states) of a simulated game, the initial state first."""
    h = header(support=support)
    rs = RULESET.bind(h)
    events, states = [], [rs.initial()]
    for ev, state in simulate.play(RULESET, h, seed):
        events.append(ev)
        states.append(state)
    return rs, tuple(events), tuple(states)


@pytest.mark.parametrize("support", SUPPORT)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_count_is_the_number_of_legal_events(support, seed):
    """`legality.count` (corpus check asks it after every event) is `len(list(legal))` in every
    state of simulated games, with either kind of support."""
    rs, _, states = played(support, seed)
    fired = 0
    for state in states:
        n = legality.count(rs.lk, state)
        assert n == len(list(legality.legal(rs.lk, state)))
        b = state.battle
        fired += b is not None and b.shot is None and b.phase <= 4 and n > 1
    assert fired  # volleys with a choice were counted


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 200), support=st.sampled_from(SUPPORT), data=st.data())
def test_count_is_the_number_of_legal_events_with_kept_cards_held(seed, support, data):
    """The same with every Kept Card of the deck in the hands of the firing side (their bonus
    choices multiply the shots), on states drawn from any simulated game."""
    from msgspec.structs import replace
    rs, _, states = played(support, seed)
    battles = [s for s in states if s.battle is not None and s.battle.shot is None]
    if not battles:
        return
    state = data.draw(st.sampled_from(battles))
    keep = tuple(sorted(n for n, c in rs.lk.cards.items() if c.keep))
    some = data.draw(st.lists(st.sampled_from(keep), max_size=6))
    state = replace(state, kept={**state.kept, state.battle.side: tuple(sorted(some))})
    assert legality.count(rs.lk, state) == len(list(legality.legal(rs.lk, state)))
