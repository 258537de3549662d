"""Shared fixtures: a clock-free environment, a CLI runner, and small log builders."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from tabletape import engine
from tabletape.cli.group import main
from tabletape.engine import simulate
from tabletape.games.cards_of_war.events import CardDrawn, OpeningCardDrawn, Options
from tabletape.tape import log
from tests import session

COW = engine.get("cards-of-war")


@pytest.fixture(scope="session")
def _cache_dir(tmp_path_factory) -> str:
    """A cache folder of this run's own (this worker's, under pytest-xdist): the derived key
    and the corpus cache go there, not to the user's ~/.cache/tabletape (which other runs,
    or another worker, would be writing at the same time)."""
    return str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(autouse=True)
def _no_clock(monkeypatch, _cache_dir):
    monkeypatch.setenv("TABLETAPE_CLOCK", "off")
    monkeypatch.setenv("TABLETAPE_SALTS", "seed:tests")  # salts that repeat (entries.fresh_salt)
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.setenv("TABLETAPE_CACHE", _cache_dir)  # a test may name its own


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


# -- the reliability figures, also from pytest-xdist's workers (`make test` runs -n 2) ----
# Each figure recorded is tagged with the place of the test that recorded it in the run's
# order (its module's teardown included): a worker hands its figures to the controller,
# which prints them all in that order, whichever worker ran which test.
_PLACES: list[int] = []  # the place of each entry of figures.RECORDED in the run's order
_FROM_WORKERS: list[tuple[int, int, dict]] = []  # (place, worker's order, figure)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    from tests.reliability import figures
    done = yield
    if len(figures.RECORDED) > len(_PLACES):
        place = next((n for n, it in enumerate(item.session.items) if it is item), -1)
        _PLACES.extend([place] * (len(figures.RECORDED) - len(_PLACES)))
    return done


def pytest_sessionfinish(session):
    from tests.reliability import figures
    if hasattr(session.config, "workeroutput"):  # a pytest-xdist worker: to the controller
        late = [len(session.items)] * (len(figures.RECORDED) - len(_PLACES))  # after the tests
        session.config.workeroutput["tabletape_figures"] = [
            [place, n, entry]
            for n, (place, entry) in enumerate(zip(_PLACES + late, figures.RECORDED, strict=True))]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """(pytest-xdist's, on the controller) Keeps the figures a worker recorded."""
    _FROM_WORKERS.extend(map(tuple, getattr(node, "workeroutput", {}).get("tabletape_figures", [])))


def pytest_terminal_summary(terminalreporter):
    """Prints the figures the tests recorded (tests/reliability/figures.py), if any."""
    from tests.reliability import figures
    if _FROM_WORKERS:
        figures.RECORDED[:] = [entry for *_, entry in sorted(_FROM_WORKERS, key=lambda t: t[:2])]
    if not figures.RECORDED:
        return
    terminalreporter.section("reliability figures")
    for line in figures.lines(figures.RECORDED):
        terminalreporter.write_line(line)
