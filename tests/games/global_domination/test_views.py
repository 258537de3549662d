"""What people see: view, describe, governing, the drawn table, and a ruling on a disputed play."""

from __future__ import annotations

import os
from typing import Any

import pytest
from rich.console import Console

from tabletape import engine
from tabletape.cli.render import drawing
from tabletape.games.global_domination.events import CardPlayed, ForceBuilt, Use

from .helpers import RS, started, with_board, with_hand
from .make_replays import OUT


def test_view_hides_other_hands_and_decks():
    # bob sees his own hand, and only the size of alice's
    state = with_hand(started(), "alice", "Fog of War", "Megastorm")
    seen = RS.view(state, "bob")
    assert seen.hands["alice"] == ("?", "?") and seen.hands["bob"] == ("Domination",) * 4
    assert seen.decks["alice"] == {"?": 0} and seen.board == state.board


def test_describe_says_one_plain_sentence():
    assert RS.describe(CardPlayed(player="carol", card="Military Base", use=Use.TEXT)) == \
        "carol plays Military Base for its text"
    assert RS.describe(ForceBuilt(player="bob", area="Canada")) == "bob builds in Canada"


def test_every_event_type_has_governing_rules_from_the_catalogue():
    # each event type names rules that exist in the catalogue
    for cls in RS.events:
        fields: dict[str, Any] = {f: "alice" for f in ("player", "target")}  # each its own type
        fields.update({"card": "Megastorm", "area": "Canada", "use": Use.TEXT, "joined": True,
                       "cards": ("Domination",), "taken": "Megastorm"})
        ev = cls(**{k: v for k, v in fields.items() if k in cls.__struct_fields__})
        ids = RS.governing(ev)
        assert ids and all(i in RS.catalogue() for i in ids), cls
        assert RS.describe(ev) != cls.__name__


def test_render_shows_regions_seas_and_players():
    state = with_board(started(), Canada="alice", Arctic_Ocean="bob?")
    console = Console(width=400, record=True)
    console.print(drawing(RS, state))
    out = console.export_text()
    assert "North America" in out and "alice (Full)" in out and "bob (Struggling)" in out
    assert "Logistics" in out and "Megastorm (6)" in out


@pytest.mark.rule("gd.play.order")
def test_the_disputed_play_is_ruled_illegal():
    # bob's attack on alice's turn is refused, disputed and undone
    r = engine.replay(os.path.join(OUT, "disputed-out-of-turn.jsonl"))
    assert r.fold is not None
    (ruling,) = r.fold.disputes
    assert ruling.verdict == "illegal" and ruling.rule == "gd.play.order"
