"""Global Domination's shortcuts taken for speed agree with the plain definitions they stand for.

`legality.count` is the length of `legal`; on the states of simulated games (every table
size, the options, rules 1.0 and 1.1) and on states varied at random from them (boards,
hands, stacks, the step owed, the scoring step), which simulated play seldom reaches.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tabletape.engine import simulate
from tabletape.games.global_domination import RULESET, legality
from tabletape.games.global_domination.components import Restriction
from tabletape.games.global_domination.state import Force, Owed, Phase, Step
from tests.games.global_domination.helpers import header

OPTIONS = ({}, {"surrender_own": True}, {"megastorm_rounding": "up", "hands": "discard",
                                         "resource_gain": "once", "ties": "logistics"})


@cache
def _played(n: int, seed: int, k: int):
    """Returns (header, states) of a simulated game of n players with OPTIONS[k]."""
    h = header(tuple(f"p{i}" for i in range(n)), two_players=n == 2, **OPTIONS[k])
    return h, tuple(s for _, s in simulate.play(RULESET, h, seed))


@pytest.mark.parametrize("rules", [None, "1.0"])
@pytest.mark.parametrize("n,seed,k", [(2, 1, 0), (3, 2, 1), (4, 3, 2), (5, 4, 0), (6, 5, 1)])
def test_count_is_the_number_of_legal_events(n, seed, k, rules):
    """`count` is `len(list(legal))` on every state of a simulated game."""
    h, states = _played(n, seed, k)
    lk = RULESET.bind(h, rules).lk
    for state in (RULESET.bind(h).initial(), *states):
        assert legality.count(lk, state) == len(list(legality.legal(lk, state)))


@st.composite
def _varied(draw, kind):
    """A state of a simulated game with its board, hands, stacks, Logistics and the step owed
    (or the phase) drawn at random: the cases simulated play seldom reaches."""
    n = draw(st.integers(2, 6))
    h, states = _played(n, draw(st.integers(0, 3)), draw(st.integers(0, len(OPTIONS) - 1)))
    rs = RULESET.bind(h, draw(st.sampled_from([None, "1.0"])))
    lk = rs.lk
    state = draw(st.sampled_from(states[len(lk.actions) // 2:]))  # past the set-up
    players = state.players
    owners = st.sampled_from(players)
    areas = list(lk.areas)
    board = {a: Force(draw(owners), draw(st.booleans()))
             for a in areas if draw(st.integers(0, 3)) > 0}
    cards = st.sampled_from(list(lk.cards))
    hands = {p: tuple(sorted(draw(st.lists(cards, max_size=6)))) for p in players}
    stacks = {c: draw(st.integers(0, 2)) for c in draw(st.lists(st.sampled_from(lk.actions),
                                                                min_size=1, max_size=10,
                                                                unique=True))}
    logistics = {p: draw(st.integers(lk.tracks.logistics.low, lk.tracks.logistics.high))
                 for p in players}
    state = replace(state, board=board, hands=hands, stacks=stacks, logistics=logistics,
                    steps=(), fog=(), scored=())
    match kind:
        case "play":
            return lk, replace(state, phase=Phase.PLAY, current=draw(owners))
        case "scoring":
            scored = tuple(p for p in players if draw(st.booleans()))
            return lk, replace(state, phase=Phase.SCORING, current=None,
                               scored=scored if len(scored) < n else ())
        case "over":
            return lk, replace(state, phase=Phase.OVER, current=None)
    step = kind
    owed = Owed(step, draw(owners), draw(cards), draw(st.integers(1, 4)),
                draw(st.sampled_from(list(Restriction))),
                target=draw(st.sampled_from(("", *players))) if step is Step.REDUCE else "",
                region=draw(st.sampled_from(lk.regions)), must=draw(st.booleans()),
                own=draw(st.booleans()), origin=draw(owners))
    return lk, replace(state, phase=Phase.PLAY, current=draw(owners), steps=(owed,))


KINDS = ["play", "scoring", "over", *(s for s in Step if s is not Step.DRAW)]


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=30, deadline=None, derandomize=True)
@given(data=st.data())
def test_count_is_the_number_of_legal_events_on_varied_states(kind, data):
    lk, state = data.draw(_varied(kind))
    assert legality.count(lk, state) == len(list(legality.legal(lk, state)))


def _end_plain(lk, state):
    """End of Each Game Turn plainly: each player's `score` in turn (reducer._end_game_turn)."""
    from tabletape.engine.kit.multiset import with_cards
    from tabletape.games.global_domination import lookups as q
    from tabletape.games.global_domination.reducer import score
    high = lk.tracks.logistics.high
    vp, lg, claimed = dict(state.vp), dict(state.logistics), dict(state.claimed)
    for p in state.players:
        gain, steps = score(lk, state, p)
        vp[p] += gain
        lg[p] = min(high, lg[p] + steps)
        if state.options.resource_gain == "once":
            claimed[p] = tuple(sorted({*claimed.get(p, ()),
                                       *q.resource_monopolies(lk, state, p)}))
    state = replace(state, vp=vp, logistics=lg, claimed=claimed, fog=(), scored=())
    if state.options.hands == "discard":
        state = replace(state, hands={p: () for p in state.players},
                        discards={p: with_cards(state.discards[p], *state.hands[p])
                                  for p in state.players})
    return state


@pytest.mark.parametrize("kind", ["scoring", "play"])
@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=st.data())
def test_the_end_of_a_game_turn_is_every_players_score(kind, data):
    """`_end_game_turn` (the board read once for all) is each player's `score` in turn, on
    varied boards: Regions and Resources held whole or not, Fog of War played or not, the
    Resources already claimed (option resource_gain=once)."""
    from tabletape.games.global_domination import reducer
    lk, state = data.draw(_varied(kind))
    players = st.sampled_from(state.players)
    if data.draw(st.booleans()):  # a Region or a Resource held whole by someone
        who = data.draw(players)
        r = data.draw(st.sampled_from(lk.regions))
        held = lk.in_region[r] + data.draw(st.sampled_from(list(lk.with_resource.values())))
        state = replace(state, board={**state.board, **{a: Force(who, True) for a in held}})
    state = replace(state, fog=tuple(data.draw(st.lists(players, max_size=2))),
                    claimed={p: tuple(sorted(data.draw(st.sets(st.sampled_from(lk.resources)))))
                             for p in state.players})
    assert reducer._end_game_turn(lk, state) == _end_plain(lk, state)


@pytest.mark.parametrize("kind", ["play", *(s for s in Step if s is not Step.DRAW)])
@settings(max_examples=30, deadline=None, derandomize=True)
@given(data=st.data())
def test_can_reduce_is_reduce_areas(kind, data):
    """`can_reduce` (the first Force found) is `bool(reduce_areas)` for every player,
    restriction and target, on varied boards (every restriction of the box's cards)."""
    from tabletape.games.global_domination import lookups as q
    lk, state = data.draw(_varied(kind))
    if data.draw(st.booleans()):  # a board of one owner: often nothing to Reduce
        who = data.draw(st.sampled_from(state.players))
        state = replace(state, board={a: replace(f, owner=who) for a, f in state.board.items()})
    for p in state.players:
        for r in Restriction:
            for t in ("", *state.players):
                assert q.can_reduce(lk, state, p, r, t) == bool(q.reduce_areas(lk, state, p, r, t))
