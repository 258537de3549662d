"""The game contract (engine.kit.contract): checked by mypy, and when a game class is made;
and README "Adding a game" followed step by step on the template game."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types

import pytest

from tabletape import engine
from tabletape.engine.kit.contract import MEMBERS, ContractError, drawn
from tabletape.engine.kit.packaged import Packaged
from tests.template_game import TakeAway, legality

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


def game_class(**parts: object) -> type:
    """Makes a game class from the template's declarations, with `parts` replaced (None: left
    out); the contract is checked as the class is made."""
    ns = {k: v for k, v in vars(TakeAway).items() if not k.startswith("__") or k == "__module__"}
    ns.update(parts)
    return type(Packaged)("Broken", (Packaged,), {k: v for k, v in ns.items() if v is not None})


@pytest.mark.parametrize("part", [*MEMBERS, "changelog"])
def test_a_part_left_out_fails_when_the_game_class_is_made(part):
    with pytest.raises(ContractError, match=f"game Broken \\(tests.template_game\\).*'{part}'"):
        game_class(**{part: None})


def test_a_part_without_a_function_fails_when_the_game_class_is_made():
    lacking = types.SimpleNamespace(**{k: v for k, v in vars(legality).items() if k != "weight"})
    with pytest.raises(ContractError, match="game Broken .*its legality part .* has no 'weight'"):
        game_class(legality=lacking)


def test_a_drawing_that_is_no_module_fails_when_the_game_class_is_made():
    with pytest.raises(ContractError, match="its svg part 'tests.template_game.svgg' is not a "
                                            "module"):
        game_class(svg=drawn(".svgg"))


def test_the_drawings_are_declared_parts_loaded_on_first_use():
    assert TakeAway.render.__name__ == "tests.template_game.render"
    assert engine.get("cards-of-war").svg.__name__ == "tabletape.games.cards_of_war.svg"


def test_adding_a_game_as_the_readme_says(tmp_path, monkeypatch, run):
    """README "Adding a game": the template copied into a tree of one's own, registered, and
    every command run on it: new, append, validate, replay, svg, view."""
    copy_template(tmp_path / "pkgs")
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    monkeypatch.setitem(engine.GAMES, "take-away", "take_away")
    try:
        log = tmp_path / "game.jsonl"
        res = run("new", "take-away", log, "--players", "ann,bob", "--option", "pile=4")
        assert res.exit_code == 0, res.output
        res = run("append", log, '{"type":"rolled","count":1}',
                  '{"type":"taken","player":"ann","count":3}',
                  '{"type":"taken","player":"bob","count":2}')
        assert res.exit_code == 0, res.output
        res = run("append", log, '{"type":"taken","player":"ann","count":1}')
        assert res.exit_code == 1 and "[core.game.over]" in res.output, res.output  # refused
        res = run("validate", log)
        assert res.exit_code == 0, res.output
        res = run("replay", log)
        assert res.exit_code == 0 and "bob took the last counter" in res.output, res.output
        res = run("svg", log, "-o", tmp_path / "t.svg")
        assert res.exit_code == 0, res.output
        assert "pile: 0" in (tmp_path / "t.svg").read_text()
        res = run("view", log, "-o", tmp_path / "t.html")
        assert res.exit_code == 0, res.output
        assert "Take-away" in (tmp_path / "t.html").read_text()
    finally:
        for name in [m for m in sys.modules if m == "take_away" or m.startswith("take_away.")]:
            del sys.modules[name]


def test_a_game_loads_its_drawings_only_when_drawn():
    """The rules never import rich: a game's render module is imported when first read."""
    code = ("import sys; import tabletape.games.cards_of_war as g\n"
            "assert 'rich' not in sys.modules and g.__name__ + '.render' not in sys.modules\n"
            "g.RULESET.render\n"
            "assert 'rich' in sys.modules and g.__name__ + '.render' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)
