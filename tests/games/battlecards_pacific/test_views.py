"""What a player sees and what is drawn: hidden hands and decks, the table drawn with rich, the
sentences for events, and queries on the recorded games."""

import os

import pytest

from tabletape import engine
from tabletape.cli.render import drawing
from tabletape.engine import simulate
from tabletape.games.battlecards_pacific import lookups
from tabletape.games.battlecards_pacific.components import Lookups, default
from tabletape.games.battlecards_pacific.events import UnitFired

from . import make_replays
from .helpers import (
    JAPAN,
    LK,
    RS,
    US,
    act,
    draw,
    header,
    pearl_harbor,
    table,
    with_changes,
)

# -- what a player sees --------------------------------------------------------------------

def test_view_hides_the_other_side():
    state = None
    for _, state in simulate.play(RS, header(), 3):
        if state.battle is None and any(state.reserve.values()) and state.turns > 5:
            break
    seen = RS.view(state, JAPAN)
    assert state is not None
    assert seen.reserve[JAPAN] == state.reserve[JAPAN]
    assert set(seen.reserve[US]) <= {"?"} and len(seen.reserve[US]) == len(state.reserve[US])
    assert all(set(v) <= {"?"} for v in seen.stacks[US].values())
    assert seen.conflict == {"Pacific": {"?": sum(state.conflict["Pacific"].values())}}


@pytest.mark.rule("bcp.conflict.keep")
def test_a_kept_card_is_face_down_to_the_other_side_only():
    # bcp.conflict.keep: alice's Kept Card is a "?" to bob, and itself to her
    state = draw(table(stacks={JAPAN: ("A6M Zero",)}), "Radar Advantage")
    assert RS.view(state, US).kept == {JAPAN: ("?",), US: ()}
    assert RS.view(state, JAPAN).kept == {JAPAN: ("Radar Advantage",), US: ()}
    assert RS.view(state, US).stacks[JAPAN] == {"Ground": (), "Air": ("?",), "Sea": ()}
    assert RS.view(state, JAPAN).stacks[JAPAN]["Air"] == ("A6M Zero",)


# -- the drawn table and the sentences -----------------------------------------------------

def test_a_battle_in_progress_is_rendered_phase_by_phase():
    from rich.console import Console

    state = pearl_harbor(("A6M Zero",), ("F4U Corsair",))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair"))
    console = Console(width=120, record=True)
    console.print(drawing(RS, RS.view(state, US)))
    text = console.export_text()
    assert "Pearl Harbor: round 1, firing phase 1" in text
    assert "alice's A6M Zero has fired at F4U Corsair: needs 4-6" in text
    # engaged units are face up for everyone
    assert RS.view(state, US).battle.forces[JAPAN] == ("A6M Zero",)


def test_render_and_describe_every_kind_of_event():
    kinds = set()
    last = None
    for event, after in simulate.play(RS, header(), 1):
        kinds.add(type(event))
        assert RS.describe(event) != type(event).__name__
        assert RS.governing(event)
        last = after
    assert drawing(RS, last) is not None
    assert len(kinds) >= 9


# -- queries -------------------------------------------------------------------------------

def test_lookups_are_built_once_per_bound_game():
    # the tables the rules read come from the header's components, once per `bind`
    assert isinstance(LK, Lookups) and LK == Lookups.of(default())
    assert LK.sides == ("Japan", "US") and LK.theatre == "Pacific"
    # from each game's own header: one box's tables are built once and shared by its games
    # (engine/kit/packaged.lookups_for), another box's are its own
    assert RS.bind(header()).lk is RS.bind(header()).lk == LK
    other = with_changes(conflict__27__reveal="reserve")
    assert RS.bind(header(other)).lk == Lookups.of(other) != LK


def test_queries_on_the_table():
    state = table(stacks={JAPAN: ("A6M Zero", "Infantry Division"), US: ("F4U Corsair",)},
                  won={US: ("Pearl Harbor",)})
    assert lookups.players_of(state, "Japan") == (JAPAN,)
    assert lookups.enemy_of(state, JAPAN) == US and lookups.enemy_of(state, US) == JAPAN
    assert lookups.deployed(state, JAPAN) == ("Infantry Division", "A6M Zero")
    assert lookups.side_won(state, "US") == {"Pearl Harbor"} and not lookups.side_won(state, "Japan")
    japan = LK.units[state.sides[JAPAN]]  # the Arsenal cards of alice's side
    assert "A6M Zero" in japan and "F4U Corsair" not in japan


def test_the_disputed_shot_is_ruled_legal():
    result = engine.replay(os.path.join(make_replays.OUT, "battle-withdrawal-dispute.jsonl"))
    assert result.fold is not None
    (ruling,) = result.fold.disputes
    assert ruling.verdict == "legal" and ruling.by == "bob"
