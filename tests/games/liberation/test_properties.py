"""Whole simulated games: they end, `legal` agrees with `check`, replay is deterministic."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.engine import CHANCE, simulate
from tabletape.games.liberation import RULESET as RS
from tabletape.games.liberation.events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    PlayedCardTaken,
    PlayedCardTurned,
    TieBreakDrawn,
    TurnOverAccepted,
    TurnOverPrevented,
    TurnPassed,
)

SEATS = ("ann", "bob", "cat", "dan", "eve", "fay")


def game(n: int, seed: int):
    header = simulate.header_for(RS, SEATS[:n])
    return header, list(simulate.play(RS, header, seed))


def candidates(state):
    """Returns a superset of every event `check` could accept (and many it must refuse)."""
    comp = state.components
    who = (*state.players, "zed")
    cards = (*(c.name for c in comp.cards), "Battleship")
    lands = (*(c.name for c in comp.countries), "Atlantis")
    slots = range(max((len(r) for r in state.played.values()), default=0) + 1)
    out = []
    for p in who:
        out += [CountryTurned(player=p, country=c) for c in lands]
        for c in cards:
            out += [ForceCardDealt(player=p, card=c), ForceCardDrawn(player=p, card=c),
                    TieBreakDrawn(player=p, card=c), ForceCardPlayed(player=p, card=c),
                    TurnOverPrevented(player=p, card=c)]
        out += [TurnPassed(player=p), TurnOverAccepted(player=p)]
        for q in who:
            out.append(HandsTraded(player=p, other=q))
            for i, up in itertools.product(slots, (False, True)):
                out.append(PlayedCardTurned(player=p, owner=q, slot=i, face_up=up))
                out.append(PlayedCardTaken(player=p, owner=q, slot=i))
    return out


@settings(max_examples=30, deadline=None, derandomize=True)
@given(n=st.integers(2, 6), seed=st.integers(0, 100_000))
def test_random_games_end_with_a_winner(n, seed):
    # lib.win.points / lib.win.deck-out: every simulated game ends, quickly, and its
    # victory points add up to the countries taken
    _, events = game(n, seed)
    assert len(events) < 2000
    state = events[-1][1]
    assert RS.pending(state) is None
    o = RS.outcome(state)
    assert o is not None and set(o.winners) <= set(state.players)
    taken = sum(len(v) for v in state.liberated.values()) + len(state.failed)
    assert taken + len(state.countries) == 10


@pytest.mark.parametrize("n,seed", [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_legal_agrees_with_check(n, seed):
    # lib.turn.step: what check accepts is exactly what legal yields
    header, events = game(n, seed)
    state = RS.bind(header).initial()
    for k, (ev, after) in enumerate(events):
        if k % 7 == 0:
            legal = list(RS.legal(state))
            accepted = [e for e in candidates(state) if RS.check(state, e) is None]
            assert set(map(repr, accepted)) == set(map(repr, legal)), RS.pending(state)
            if RS.pending(state).actor == CHANCE:
                assert all(RS.weight(state, e) >= 1 for e in legal)
        assert RS.check(state, ev) is None
        state = RS.apply(state, ev)
        assert state == after


def test_replay_is_deterministic():
    # the same events folded twice give the same state
    header, events = game(4, 11)
    a = b = RS.bind(header).initial()
    for ev, _ in events:
        a, b = RS.apply(a, ev), RS.apply(b, ev)
    assert a == b == events[-1][1]


def test_view_hides_other_hands_and_the_decks():
    header, events = game(3, 5)
    state = next(s for _, s in events if s.hands["bob"] and s.hands["ann"])
    seen = RS.view(state, "ann")
    assert seen.hands["ann"] == state.hands["ann"]
    assert set(seen.hands["bob"]) == {"?"} and len(seen.hands["bob"]) == len(state.hands["bob"])
    assert list(seen.deck) == ["?"] and seen.countries == state.countries


def test_every_event_has_a_sentence_and_governing_rules():
    _, events = game(3, 7)
    for ev, _ in events:
        assert RS.describe(ev) != type(ev).__name__
        assert all(r in RS.RULES for r in RS.governing(ev)) and RS.governing(ev)


def test_the_table_renders_at_every_stage():
    import io

    from rich.console import Console

    from tabletape.cli.render import drawing
    _, events = game(3, 9)
    console = Console(width=120, record=True, file=io.StringIO())
    for _, state in events[::10] + [events[-1]]:
        console.print(drawing(RS, state))
        console.print(drawing(RS, RS.view(state, "ann")))
    text = console.export_text()
    assert "Liberation" in text and "game over" in text and "VP" in text
