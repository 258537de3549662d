"""What a reader sees: views with hidden hands, the sentences and governing rules of events,
the drawn table, and the rulings and sentences of the recorded games.
"""

from __future__ import annotations

import pytest

from tests.games.liberation.helpers import RS, game, replay, sentences


def test_view_hides_other_hands_and_the_decks():
    header, events = game(3, 5)
    state = next(s for _, s in events if s.hands["bob"] and s.hands["ann"])
    seen = RS.bind(header).view(state, "ann")
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
    header, events = game(3, 9)
    rs = RS.bind(header)
    console = Console(width=120, record=True, file=io.StringIO())
    for _, state in events[::10] + [events[-1]]:
        console.print(drawing(rs, state))
        console.print(drawing(rs, rs.view(state, "ann")))
    text = console.export_text()
    assert "Liberation" in text and "game over" in text and "VP" in text


@pytest.mark.rule("lib.country.turn-over-type")
def test_the_iraq_game_uses_every_ability():
    # lib.country.turn-over-type and every ability kind appear in the first country
    text = "\n".join(sentences("iraq-abilities.jsonl")[:46])
    for phrase in ("discards Navy SEALs", "back face up", "takes cat's card", "trades hands",
                   "lets the turn-over stand", "ann draws Armored Division", "cat draws"):
        assert phrase in text, phrase


@pytest.mark.rule("lib.turn.order", "lib.country.forbid-type")
def test_disputes_are_ruled():
    # the two mistakes are ruled illegal; the
    # trade is ruled legal
    r = replay("disputed-play.jsonl")
    assert r.fold is not None
    rulings = [(d.verdict, d.rule) for d in r.fold.disputes]
    assert rulings[:2] == [("illegal", "lib.turn.order"), ("illegal", "lib.country.forbid-type")]
    assert rulings[2][0] == "legal"
