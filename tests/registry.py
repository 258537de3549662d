"""The games the registry-driven tests run over: every game the registry finds, and the
template game (tests/template_game, README "Adding a game"), registered as a fifth would be
(the `template_registered` fixture of tests/conftest.py)."""

from __future__ import annotations

from tabletape import engine

TEMPLATE, TEMPLATE_MODULE = "take-away", "tests.template_game"
BUNDLED = sorted(engine.GAMES)  # the games under src/tabletape/games
GAMES = sorted([*BUNDLED, TEMPLATE])
# for a test's second process: the same registry
REGISTER = f"from tabletape.engine import registry; registry.register({TEMPLATE!r}, {TEMPLATE_MODULE!r})"

