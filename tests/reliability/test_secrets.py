"""Non-interference: for two logs that differ only in what seat S may not know, everything S
receives is the same (issue 33). The pairs and the surfaces: tests/reliability/secrecy.py.
`make test` runs a few pairs per table; `make stress` over a thousand."""

from __future__ import annotations

import random

import pytest

from tabletape import engine
from tests.reliability import figures
from tests.reliability.secrecy import first_difference, pairs, received, tables, write

PAIRS_PER_GAME = figures.budget(3, 40)  # per simulated game
GAMES_PER_TABLE = figures.budget(1, 4)  # simulated games per table (seeds)


@pytest.fixture(autouse=True)
def _no_clock(monkeypatch):
    monkeypatch.setenv("TABLETAPE_CLOCK", "off")  # `at` would differ by the clock alone


@pytest.mark.parametrize(("game", "options", "n"), tables(),
                         ids=[f"{g}-{n}{'-' + ','.join(o) if o else ''}" for g, o, n in tables()])
def test_a_seat_receives_the_same_from_logs_that_differ_only_in_its_secrets(
        tmp_path, game, options, n):
    rs = engine.get(game)
    made = compared = revealed = 0
    leaks: list[str] = []
    rng = random.Random(f"salts-{game}-{n}")
    for seed in range(GAMES_PER_TABLE):
        for i, pair in enumerate(pairs(game, options, n, seed, PAIRS_PER_GAME)):
            got = []
            for side, events in (("one", pair.one), ("two", pair.two)):
                folder = tmp_path / f"{seed}-{i}-{side}"
                folder.mkdir()
                write(str(folder / "game.jsonl"), rs, pair.header, events, rng)
                got.append(received(str(folder), pair.seat))
            made += 1
            for one, two in zip(got[0]["writes"], got[1]["writes"], strict=False):
                if isinstance(one, dict) and isinstance(two, dict):  # (the view: not sent)
                    if one.pop("view") != two.pop("view"):
                        one["page"] = two["page"] = "revealed by the rules to the seat that wrote"
                        revealed += 1
            for surface in got[0]:
                compared += 1
                where = first_difference(got[0][surface], got[1][surface], surface)
                if where:
                    leaks.append(f"seed {seed}, {pair.seat} at event {pair.at} "
                                 f"({type(pair.one[pair.at]).__name__}): {where}")
    figures.record(f"non-interference {game} {n} players {options or ''}".strip(),
                   pairs=made, comparisons=compared, leaks=len(leaks),
                   revealed_by_own_write=revealed)
    if not made and not engine.get(game).SECRETS:
        pytest.skip(f"{game} declares no secret: nothing to tell apart")
    assert made > 0, "no pair was made from a game that declares secrets"
    assert not leaks, "\n".join(leaks[:5])
