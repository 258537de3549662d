"""The games the registry-driven tests run over: every game the registry finds, and the
template game (tests/template_game, README "Adding a game"), registered as a fifth would be."""

from __future__ import annotations

import pytest

from tabletape import engine

TEMPLATE, TEMPLATE_MODULE = "take-away", "tests.template_game"
BUNDLED = sorted(engine.GAMES)  # the games under src/tabletape/games
GAMES = sorted([*BUNDLED, TEMPLATE])
# for a test's second process: the same registry
REGISTER = f"from tabletape.engine import registry; registry.register({TEMPLATE!r}, {TEMPLATE_MODULE!r})"


@pytest.fixture
def template_registered(monkeypatch):
    """Registers the template game for one test (as `registry.register` would a plugin)."""
    monkeypatch.setitem(engine.GAMES, TEMPLATE, TEMPLATE_MODULE)
