"""Shared fixtures: a clock-free environment, a CLI runner, and small log builders."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from tabletape import engine
from tabletape.cli import main
from tabletape.engine import simulate
from tabletape.games.cards_of_war.events import CardDrawn, OpeningCardDrawn, Options
from tabletape.tape import log
from tests import session

COW = engine.get("cards-of-war")


@pytest.fixture(autouse=True)
def _no_clock(monkeypatch):
    monkeypatch.setenv("TABLETAPE_CLOCK", "off")
    monkeypatch.setenv("COLUMNS", "160")


@pytest.fixture
def template_registered(monkeypatch):
    """Registers the template game (tests/registry.py) for one test, as a plugin would be."""
    from tests.registry import TEMPLATE, TEMPLATE_MODULE
    monkeypatch.setitem(engine.GAMES, TEMPLATE, TEMPLATE_MODULE)


@pytest.fixture
def run():
    """Runs the CLI; returns the click Result (exit_code, stdout, stderr)."""
    runner = CliRunner()

    def invoke(*args, input: str | None = None):
        return runner.invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    return invoke


def new_log(path, options: Options | None = None) -> log.Tail:
    """Writes a Cards of War header (alice, bob) and returns the tail."""
    header = COW.start(("alice", "bob"), options or Options(length="short"),
                       COW.default_components())
    return log.create(str(path), header, COW.codec)


def opening(path, tail: log.Tail) -> log.Tail:
    """Appends an opening draw that makes alice the first player."""
    return log.append(str(path), [OpeningCardDrawn(player="alice", card="Battleship"),
                                  OpeningCardDrawn(player="bob", card="Spy")],
                      COW.codec, expect=tail)


@pytest.fixture
def game(tmp_path):
    """A log with a header and the opening draw (alice starts; her refill is owed)."""
    path = tmp_path / "game.jsonl"
    opening(path, new_log(path))
    return path


def lines(path) -> list[bytes]:
    with open(path, "rb") as f:
        return f.read().splitlines(keepends=True)


def write(path, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)


DRAW_ALICE = CardDrawn(player="alice", card="Tank")
__all__ = ["COW", "DRAW_ALICE", "lines", "new_log", "opening", "write", "os"]


def session_log(path, seed: int, events: int) -> str:
    """Writes a legal Cards of War session of `events` events (see tests/session.py)."""
    rs = engine.get("cards-of-war")
    header = simulate.header_for(rs, ("alice", "bob"))
    tail = log.create(str(path), header, rs.codec)
    log.append(str(path), list(session.session(rs, header, seed, events)), rs.codec, expect=tail)
    return str(path)


@pytest.fixture(scope="session")
def long_log(tmp_path_factory) -> str:
    """The long log the tests share: a legal Cards of War session of 3,000 events (~400 kB,
    several blocks of the reader). Read it, never write it: copy it first."""
    return session_log(tmp_path_factory.mktemp("long") / "long.jsonl", 5, 3000)


def pytest_terminal_summary(terminalreporter):
    """Prints the figures the tests recorded (tests/reliability/figures.py), if any."""
    from tests.reliability import figures
    if not figures.RECORDED:
        return
    terminalreporter.section("reliability figures")
    for line in figures.lines(figures.RECORDED):
        terminalreporter.write_line(line)
