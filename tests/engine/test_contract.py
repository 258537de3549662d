"""The game contract (engine.kit.contract): checked by mypy, and when a game class is made;
and README "Adding a game" followed step by step on the template game."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types
import typing

import pytest

from tabletape import engine
from tabletape.engine.kit.contract import MEMBERS, ContractError, drawn
from tabletape.engine.kit.packaged import Packaged
from tabletape.tape.events import CORE_EVENTS, Event
from tests.narrow import instance
from tests.registry import BUNDLED
from tests.template_game import TakeAway, legality
from tests.template_game.components import Lookups
from tests.template_game.events import Options, Started
from tests.template_game.state import State

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "template_game")


def copy_template(where) -> str:
    """Copies the template game to `where`/take_away (as README "Adding a game" says)."""
    dest = os.path.join(str(where), "take_away")
    shutil.copytree(TEMPLATE_DIR, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def test_mypy_fails_on_a_wrong_signature_in_a_copied_game(tmp_path):
    """The engine's expectations are types: a copy whose `weight` lost a parameter fails mypy
    where the game declares its `legality` (tabletape ships py.typed, so a game in another
    package is checked against the installed engine)."""
    game = copy_template(tmp_path)
    path = os.path.join(game, "legality.py")
    code = open(path).read()
    broken = code.replace("def weight(lk: Lookups, state: State, event: Event) -> int:",
                          "def weight(lk: Lookups, event: Event) -> int:")
    assert broken != code
    open(path, "w").write(broken.replace("weight(lk, state, e) for", "weight(lk, e) for"))
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                          "take_away"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "take_away/__init__.py" in out.stdout and '"LegalityModule[' in out.stdout
    assert "def weight(lk: Lookups, event: Event) -> int" in out.stdout


DECLARED = ("id", "title", "players", "events", "rulebook", "check_header", "__module__",
            *MEMBERS)  # what the template's class says; the rest is derived from it


def game_class(**parts: object) -> type[Packaged[Started, State, Event, Lookups]]:
    """Makes a game class from the template's declarations, with `parts` replaced (None: left
    out); the contract is checked as the class is made."""
    ns = {k: v for k, v in vars(TakeAway).items() if k in DECLARED}
    ns.update(parts)
    body = {k: v for k, v in ns.items() if v is not None}
    made = types.new_class("Broken", (Packaged[Started, State, Event, Lookups],),
                           exec_body=lambda made: made.update(body))
    assert issubclass(made, Packaged)
    return made


@pytest.mark.parametrize("part", [p for p in MEMBERS if p not in ("render", "svg")])
def test_a_part_left_out_fails_when_the_game_class_is_made(part):
    with pytest.raises(ContractError, match=f"game Broken \\(tests.template_game\\).*'{part}'"):
        game_class(**{part: None})


def test_a_game_without_a_rulebook_fails_when_the_class_is_made():
    with pytest.raises(ContractError, match="game Broken .* declares no 'rulebook' part"):
        game_class(rulebook=None)


def test_what_follows_from_the_declarations_is_derived_when_the_class_is_made():
    """The version (the changelog's last), the catalogue, Header (the class's first type
    argument), Options (the header's), Components and the drawings are never written twice."""
    made = game_class()
    assert (made.version, made.RULES, made.pins) == ("1.1", TakeAway.rulebook.rules,
                                                      TakeAway.rulebook.pins)
    assert made.Header is TakeAway.Header and instance(Options, made.Options()).pile == 15
    assert made.Components is TakeAway.components.Components
    svg = instance(types.ModuleType, made.svg)  # drawn from its own package
    assert svg.__name__ == "tests.template_game.svg"


def test_a_part_without_a_function_fails_when_the_game_class_is_made():
    lacking = types.SimpleNamespace(**{k: v for k, v in vars(legality).items() if k != "weight"})
    with pytest.raises(ContractError, match="game Broken .*its legality part .* has no 'weight'"):
        game_class(legality=lacking)


def test_a_drawing_that_is_no_module_fails_when_the_game_class_is_made():
    with pytest.raises(ContractError, match="its svg part 'tests.template_game.svgg' is not a "
                                            "module"):
        game_class(svg=drawn(".svgg"))


@pytest.mark.parametrize("game", BUNDLED)
def test_a_bundled_game_is_typed_with_the_union_of_its_events(game):
    """A bundled game's class names the union of its events (`CowEvent`, ...) as the events
    its rules judge and yield (Packaged's third type argument): the types of its `events`,
    in their order, and no core event (the engine folds those itself)."""
    cls = type(engine.get(game))
    base = next(b for b in cls.__dict__["__orig_bases__"] if typing.get_origin(b) is Packaged)
    assert typing.get_args(typing.get_args(base)[2]) == cls.events
    assert not set(cls.events) & set(CORE_EVENTS)


def test_the_drawings_are_declared_parts_loaded_on_first_use():
    assert TakeAway.render.__name__ == "tests.template_game.render"
    assert instance(types.ModuleType, engine.get("cards-of-war").svg).__name__ == \
        "tabletape.games.cards_of_war.svg"




def test_a_game_loads_its_drawings_only_when_drawn():
    """The rules never import rich: a game's render module is imported when first read."""
    code = ("import sys; import tabletape.games.cards_of_war as g\n"
            "assert 'rich' not in sys.modules and g.__name__ + '.render' not in sys.modules\n"
            "g.RULESET.render\n"
            "assert 'rich' in sys.modules and g.__name__ + '.render' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_tabulated_table_that_is_no_field_of_the_lookups_fails_when_the_class_is_made():
    # `Extras.tabulated` names fields of the game's Lookups: a misspelling fails at import,
    # with the game and the name, not when a ruling is explained
    from tabletape.engine.kit.contract import Extras, Tabulated
    with pytest.raises(ContractError, match="game Broken: tabulated table 'boxes' is not a "
                                            "field of Lookups"):
        game_class(extras=Extras(tabulated=(Tabulated("boxes", "box", "copies"),)))
    with pytest.raises(ContractError, match="tabulated entries 'cards' is not a field"):
        game_class(extras=Extras(tabulated=(Tabulated("box", "cards", "copies"),)))
    assert game_class(extras=Extras(tabulated=(Tabulated("box", "box", "copies"),)))
