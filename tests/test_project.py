"""Project promises: schemas are fresh, every rule is tested, the README's commands run."""

from __future__ import annotations

import glob
import os
import re

import pytest

from tabletape import engine
from tabletape.cli.tools import schemas


def test_schemas_in_the_repository_are_not_stale():
    for name, data in schemas().items():
        path = os.path.join("schemas", name)
        assert os.path.exists(path), f"{path} is missing: run `make schemas`"
        assert open(path, "rb").read() == data, f"{path} is stale: run `make schemas`"


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_every_rule_id_has_a_test(game):
    rs = engine.get(game)
    package = engine.GAMES[game].rsplit(".", 1)[1]
    text = "".join(open(p).read() for p in glob.glob(f"tests/games/{package}/test_*.py"))
    missing = [rule for rule in rs.RULES if rule not in text]
    assert not missing, f"rules of {game} without a test: {missing}"


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_every_rule_cites_a_section_and_says_something(game):
    for rule_id, rule in engine.get(game).catalogue().items():
        assert re.fullmatch(r"[a-z0-9]+(\.[a-z0-9-]+)+", rule_id), rule_id
        assert rule.section and len(rule.text) > 20, rule_id
