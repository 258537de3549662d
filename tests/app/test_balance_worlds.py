"""The mc agent's worlds dealt by a game's own `determinize` (BATTLECARDS Pacific's
worlds.py): each agrees with the seat's view, is drawn from that view alone (two states
that differ only in cards the seat cannot see give the same worlds, and the agent the same
move, with the same seed), and differs from seed to seed; a game without one falls back to
the search over the seat's history."""

from __future__ import annotations

import random

from msgspec.structs import replace

from tabletape import engine
from tabletape.engine import CHANCE, agents
from tabletape.engine.kit.turns import HIDDEN
from tabletape.engine.simulate import header_for
from tests.narrow import present


def _bound(game: str):
    rs = engine.get(game)
    return rs.bind(header_for(rs, ("alice", "bob")))


def _states(rs, seed: int):
    """Yields the states of a random game, each with its legal events."""
    rng = random.Random(seed)
    state = rs.initial()
    while (d := rs.pending(state)) is not None:
        options = list(rs.legal(state))
        yield state, options
        e = rng.choices(options, rs.weights(state, options))[0] \
            if d.actor == CHANCE else rng.choice(options)
        state = rs.apply(state, e)


def _twin(rs, state, seat: str):
    """Returns `state` with one card the seat cannot see swapped for another it cannot see
    either (one of another's face-down Reserve Hand or stack cards for one of the deck's, or
    a face-down Kept Card for another of the Conflict deck), or None where there is none."""
    lk = rs.lk
    for p in state.players:
        if p == seat:
            continue
        side = state.sides[p]
        deck = state.arsenal[side]
        for u in state.reserve[p]:
            other = next((c for c in deck if c != u), None)
            if other is not None:
                reserve = tuple(sorted((*_without(state.reserve[p], u), other)))
                arsenal = dict(deck)
                arsenal[other] -= 1
                arsenal[u] = arsenal.get(u, 0) + 1
                arsenal = {c: n for c, n in sorted(arsenal.items()) if n}
                return replace(state, reserve={**state.reserve, p: reserve},
                               arsenal={**state.arsenal, side: arsenal})
        conflict = state.conflict[lk.theatre]
        for c in state.kept[p]:
            other = next((k for k in conflict if k != c and lk.cards[k].keep), None)
            if other is not None:
                kept = list(state.kept[p])
                kept[kept.index(c)] = other
                deck2 = dict(conflict)
                deck2[other] -= 1
                deck2[c] = deck2.get(c, 0) + 1
                deck2 = {k: n for k, n in sorted(deck2.items()) if n}
                return replace(state, kept={**state.kept, p: tuple(kept)},
                               conflict={**state.conflict, lk.theatre: deck2})
    return None


def _without(cards, name):
    i = cards.index(name)
    return cards[:i] + cards[i + 1:]


def test_every_world_agrees_with_the_seats_view():
    rs = _bound("battlecards-pacific")
    deal = agents.dealer(rs)
    assert deal is not None
    checked = 0
    for seed in range(3):
        for i, (state, _) in enumerate(_states(rs, seed)):
            if i % 7:
                continue
            for seat in state.players:
                view = rs.view(state, seat)
                world = deal(view, seat, random.Random(i))
                assert world is not None, (seed, i, seat)
                assert rs.view(world, seat) == view
                checked += 1
    assert checked > 50


def test_two_states_that_differ_only_in_what_the_seat_cannot_see_give_the_same_worlds():
    rs = _bound("battlecards-pacific")
    deal = present(agents.dealer(rs))
    twins = 0
    for seed in range(4):
        for i, (state, options) in enumerate(_states(rs, seed)):
            if i % 5 or len(options) < 2:
                continue
            twin = _twin(rs, state, "alice")
            if twin is None:
                continue
            assert twin != state  # bob holds another card
            a, b = rs.view(state, "alice"), rs.view(twin, "alice")
            assert a == b  # alice sees the same
            for s in (1, 2, 3):
                wa, wb = deal(a, "alice", random.Random(s)), deal(b, "alice", random.Random(s))
                assert wa == wb and wa is not None
            mc = [agents.MonteCarloAgent(6) for _ in range(2)]
            ka, kb = agents.Knowledge("alice", now=a), agents.Knowledge("alice", now=b)
            assert mc[0].decide(rs, ka, options, random.Random(9)) == \
                mc[1].decide(rs, kb, options, random.Random(9))
            assert mc[0].searched == mc[1].searched == 0  # (every world dealt)
            twins += 1
            if twins == 8:
                return
    raise AssertionError(f"only {twins} twins found")


def test_worlds_differ_from_seed_to_seed():
    rs = _bound("battlecards-pacific")
    deal = present(agents.dealer(rs))
    for state, _ in _states(rs, 0):
        if HIDDEN in rs.view(state, "alice").reserve["bob"] and len(state.reserve["bob"]) > 2:
            break
    view = rs.view(state, "alice")
    worlds = {present(deal(view, "alice", random.Random(s))).reserve["bob"] for s in range(20)}
    assert len(worlds) > 1


def test_a_game_without_its_own_deal_searches_the_seats_history():
    assert agents.dealer(_bound("cards-of-war")) is None
