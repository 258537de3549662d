"""A variant of a real game made in another package (issue 36): a subclass of Cards of War
outside `tabletape.games`, with an option's default changed, registered and played through
the commands as any game is. Its drawings are the game's own (named in the package of the
class that declares them), its header and codec its own."""

from __future__ import annotations

import sys
import textwrap
from typing import cast

import pytest

from tabletape import engine
from tabletape.games.cards_of_war.events import Options as CowOptions

VARIANT = '''
"""Cards of War, the short war: the game with `length=short` by default (a variant)."""

from tabletape.games.cards_of_war import CardsOfWar
from tabletape.games.cards_of_war.events import CowStarted, Length, Options


class ShortOptions(Options, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    length: Length = "short"


class ShortStarted(CowStarted, tag="game_started", kw_only=True, frozen=True):
    options: ShortOptions = ShortOptions()


class ShortWar(CardsOfWar):
    id, title = "short-war", "Cards of War, the short war"
    Header = ShortStarted  # Options follows from it


RULESET = ShortWar()
'''


@pytest.fixture
def short_war(tmp_path, monkeypatch):
    (tmp_path / "pkgs" / "short_war").mkdir(parents=True)
    (tmp_path / "pkgs" / "short_war" / "__init__.py").write_text(textwrap.dedent(VARIANT))
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    monkeypatch.setitem(engine.GAMES, "short-war", "short_war")
    yield engine.get("short-war")
    for name in [m for m in sys.modules if m == "short_war" or m.startswith("short_war.")]:
        del sys.modules[name]


def test_a_variant_of_a_real_game_is_made_in_another_package(short_war):
    cow = engine.get("cards-of-war")
    assert type(short_war).__module__ == "short_war" and isinstance(short_war, type(cow))
    assert cast(CowOptions, short_war.Options()).length == "short"
    assert cast(CowOptions, cow.Options()).length == "normal"
    assert short_war.svg is cow.svg and short_war.render is cow.render  # the game's drawings
    assert short_war.codec is not cow.codec  # its own header type
    assert short_war.version == cow.version and short_war.switches == cow.switches


def test_a_variant_is_validated_replayed_and_drawn(short_war, tmp_path, run):
    log = tmp_path / "short.jsonl"
    res = run("simulate", "short-war", "--players", "2", "--seed", "3", "-o", log)
    assert res.exit_code == 0, res.output
    header = log.read_text().splitlines()[0]
    assert '"game":"short-war"' in header and '"length"' not in header  # the default: short
    res = run("validate", log)
    assert res.exit_code == 0 and "valid" in res.output, res.output
    res = run("replay", log)
    assert res.exit_code == 0 and "Cards of War" in res.output, res.output
    res = run("svg", log, "-o", tmp_path / "short.svg")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "short.svg").read_text().startswith("<svg")
    replayed = engine.replay(str(log))
    assert replayed.ruleset is not None
    assert replayed.ruleset.header.options.length == "short" and not replayed.problems


def test_a_variant_builds_its_moves_as_the_game_it_extends(short_war, tmp_path):
    # the moves are a part the class holds (`Packaged.moves`), not a module looked up by name
    # on each use: a variant whose package has none inherits the game's
    from types import ModuleType

    from tabletape.engine.kit import moves
    own = moves.part(engine.get("cards-of-war"))
    assert own is not None and moves.part(short_war) is own
    assert isinstance(own, ModuleType) and own.__name__ == "tabletape.games.cards_of_war.moves"


def test_a_moves_part_without_its_functions_fails_when_first_read():
    # an optional part is checked as the required ones are: a module without `steps`
    import types

    from tabletape.engine.kit import moves
    from tabletape.engine.kit.contract import ContractError, missing
    from tests.template_game import RULESET, TakeAway
    with pytest.raises(ContractError, match="its moves part .* has no 'steps'"):
        missing(TakeAway, "moves", types.SimpleNamespace(SETUP=frozenset()))
    assert moves.part(RULESET) is None  # the template has no moves module: steps are derived
