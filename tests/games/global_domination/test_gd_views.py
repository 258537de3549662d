"""What people see: view, describe, governing and the rendered board; every Control card."""

from __future__ import annotations

import pytest
from rich.console import Console

from tabletape.cli.render import drawing
from tabletape.games.global_domination.events import CardPlayed, ForceBuilt, Use

from .helpers import RS, run, started, with_board, with_hand

CONTROL = [c for c in RS.default_components().cards if c.resource]


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
        fields = {f: "alice" for f in ("player", "target")}
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


@pytest.mark.parametrize("card", CONTROL, ids=[c.name for c in CONTROL])
def test_each_control_card_scores_its_own_resource(card):
    # gd.card.resource-vp: alice holds every Area of this Resource but one; bob holds the last
    areas = [a.name for a in RS.default_components().areas if a.resource == card.resource]
    state = with_board(with_hand(started(), "alice", card.name),
                       **{a.replace(" ", "_"): "alice?" for a in areas[:2]},
                       **{areas[2].replace(" ", "_"): "bob"})
    state = run(state, CardPlayed(player="alice", card=card.name, use=Use.TEXT))
    assert state.vp["alice"] == 1 + 2
