"""Project promises: schemas are fresh, every rule is tested, the README's commands run."""

from __future__ import annotations

import ast
import collections
import glob
import os
import re

import pytest

from tabletape import engine
from tabletape.app.making import schemas
from tests.registry import GAMES


def test_schemas_in_the_repository_are_not_stale():
    for name, data in schemas().items():
        path = os.path.join("schemas", name)
        assert os.path.exists(path), f"{path} is missing: run `make schemas`"
        assert open(path, "rb").read() == data, f"{path} is stale: run `make schemas`"


def test_mypy_in_make_test_is_strict_on_src_and_the_template_game():
    """docs/layout.md: `make test`'s mypy step reads [tool.mypy], which is strict and names
    src and the tests (a game added under src is held to it at once); the tests may leave
    their functions unannotated, and the template game may not; no module's errors are ignored."""
    import tomllib

    with open("pyproject.toml", "rb") as f:
        mypy = tomllib.load(f)["tool"]["mypy"]
    assert mypy["strict"] is True
    assert {"src/tabletape", "tests"} <= set(mypy["files"])
    relaxed = {o["module"]: o for o in mypy["overrides"] if isinstance(o["module"], str)}
    assert relaxed["tests.*"]["disallow_untyped_defs"] is False
    assert relaxed["tests.*"]["check_untyped_defs"] is True
    assert relaxed["tests.template_game.*"]["disallow_untyped_defs"] is True
    # every module's body is checked (issue 36): none is let off with `ignore_errors`
    assert [o["module"] for o in mypy["overrides"] if o.get("ignore_errors")] == []


def marked_rules(paths: list[str]) -> set[str]:
    """Returns the rule ids named by `@pytest.mark.rule(...)` on the tests in `paths`."""
    ids: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(open(path).read(), path)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                for d in node.decorator_list:
                    if isinstance(d, ast.Call) and ast.unparse(d.func) == "pytest.mark.rule":
                        ids |= {str(a.value) for a in d.args if isinstance(a, ast.Constant)}
    return ids


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("template_registered")
def test_every_rule_id_has_a_story_test(game):
    rs = engine.get(game)
    package = engine.GAMES[game].rsplit(".", 1)[1]
    marked = marked_rules(glob.glob(f"tests/games/{package}/test_*.py"))
    missing = [rule for rule in rs.RULES if rule not in marked]
    assert not missing, f"rules of {game} without a test marked @pytest.mark.rule: {missing}"
    unknown = sorted(marked - set(rs.catalogue()))
    assert not unknown, f"tests of {game} marked with rules it does not have: {unknown}"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("template_registered")
def test_every_rule_cites_a_section_and_says_something(game):
    for rule_id, rule in engine.get(game).catalogue().items():
        assert re.fullmatch(r"[a-z0-9]+(\.[a-z0-9-]+)+", rule_id), rule_id
        assert rule.section and len(rule.text) > 20, rule_id


def test_no_module_uses_another_modules_private_names():
    """`_name` is private to its module: no other module of src/ imports or reaches for it."""
    found = []
    for path in glob.glob("src/tabletape/**/*.py", recursive=True):
        tree = ast.parse(open(path).read(), path)
        modules = {a.asname or a.name.split(".")[0] for n in ast.walk(tree)
                   if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                found += [f"{path}: from {node.module} import {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in modules and node.attr.startswith("_") \
                    and not node.attr.startswith("__"):
                found.append(f"{path}: {node.value.id}.{node.attr}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("template_registered")
def test_the_changelog_ends_at_the_rules_version_and_names_real_rules(game):
    rs = engine.get(game)
    assert list(rs.changelog)[-1] == rs.version
    for version, changes in rs.changelog.items():
        assert set(changes) <= set(rs.catalogue()), (version, set(changes) - set(rs.catalogue()))


MAX_MODULE_LINES = 600  # a module a reader can hold in mind; a longer one is split by what it holds


def test_no_module_in_src_is_longer_than_a_reader_can_hold():
    long = {path: n for path in glob.glob("src/tabletape/**/*.py", recursive=True)
            if (n := sum(1 for _ in open(path, encoding="utf-8"))) > MAX_MODULE_LINES}
    assert not long, f"over {MAX_MODULE_LINES} lines: {long}"


def test_every_function_in_src_is_used_in_src():
    """Test-only code lives in tests/: every top-level function or class of src/ is named
    somewhere else in src/ (pytest's hooks in the plugin are called by pytest)."""
    texts = {p: open(p, encoding="utf-8").read()
             for p in glob.glob("src/tabletape/**/*.py", recursive=True)}
    words = collections.Counter(w for t in texts.values() for w in re.findall(r"\w+", t))
    unused = [f"{path}: {node.name}" for path, text in texts.items()
              for node in ast.parse(text, path).body
              if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
              and not node.name.startswith("pytest_")
              and words[node.name] == 1]  # its own definition is the only place it is named
    assert not unused, "\n".join(unused)


def test_no_package_hides_its_names_behind_a_lazy_getattr():
    """A package's names are its modules': no `__init__.py` of src/ re-exports lazily
    (`def __getattr__`), which hides from a reader and from import-linter what a caller
    really imports."""
    lazy = [path for path in glob.glob("src/tabletape/**/__init__.py", recursive=True)
            if any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__"
                   for n in ast.parse(open(path).read(), path).body)]
    assert not lazy, lazy


CONTRACTS = {  # a planted module -> the import-linter contract it breaks
    "games/cards_of_war/helpers.py": ("import rich\n", "rich only in the CLI and in each game's"),
    "cli/planted.py": ("import tabletape.games.cards_of_war\n",
                       "no particular game is named outside games/"),
    "games/liberation/planted.py": ("from . import svg\n", "the rules never import the drawings"),
    # appended to the module: the cycle that a function-level import used to hide
    "engine/reading.py": ("\n\ndef _hidden():\n    from tabletape.engine import index\n",
                          "no import cycle between the engine's modules"),
    "tape/codec.py": ("\n\ndef _hidden():\n    from tabletape.tape import reader\n",
                      "no import cycle between the tape's modules"),
    "engine/diff.py": ("\nfrom tabletape.tape import log\n",
                       "reading a log never loads the writer or repair"),
    "app/report.py": ("\n\ndef _hidden():\n    from tabletape.app import corpus\n",
                      "no import cycle between the app's modules"),
    "cli/complete.py": ("\nfrom tabletape.tape.log import MAX_LINE\n",
                        "the front ends reach a log only through app"),
    "app/planted.py": ("import starlette.responses\n",
                       "only the web layer knows the web framework"),
    "web/planted.py": ("import click\n", "the web layer knows no click"),
}


def test_each_import_contract_fails_on_a_planted_violation(tmp_path):
    """The contracts have no blind spot: a game module of a new name importing rich, the CLI
    naming a game, a rules module importing a drawing, the engine's, the tape's or the app's
    modules importing each other, the engine loading the log's writer, the CLI reading a log
    through the tape: each breaks its contract (and only it)."""
    import shutil
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shutil.copytree(os.path.join(root, "src", "tabletape"), tmp_path / "src" / "tabletape",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(root, "pyproject.toml"), tmp_path)
    for path, (code, _) in CONTRACTS.items():
        with open(tmp_path / "src" / "tabletape" / path, "a") as f:
            f.write(code)
    lint = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    out = subprocess.run([lint, "--no-cache"], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tmp_path / "src")}).stdout
    with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as f:
        total = f.read().count("[[tool.importlinter.contracts]]")
    assert f"Contracts: {total - len(CONTRACTS)} kept, {len(CONTRACTS)} broken." in out, out
    for _, contract in CONTRACTS.values():
        assert re.search(re.escape(contract) + r".*BROKEN", out), out


def test_the_reliability_figures_come_back_from_xdists_workers(tmp_path):
    """`make test` runs under pytest-xdist: the figures the workers' tests record are printed
    by the controller after the summary (tests/conftest.py), in the order of the tests."""
    import subprocess
    import sys

    pytest.importorskip("xdist")
    names = [f"tests/reliability/test_determinism.py::"
             f"test_simulated_games_replay_to_identical_state_digests[{g}]"
             for g in ("cards-of-war", "take-away")]
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "load",
                           "-p", "no:hypothesispytest",  # not used here; ~1 s a process
                           "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "t"), *names],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout.split("reliability figures", 1)[-1]
    assert re.findall(r"^determinism \((\S+)\) \[test\]", out, re.M) == ["cards-of-war",
                                                                         "take-away"], done.stdout
