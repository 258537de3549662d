"""The strong agent's strength: Monte Carlo (mc) wins more than its even share against random,
over a small seeded sample of each game (rotated through the seats); docs/balance.md
publishes the figures of larger runs with their 95% intervals. The four samples play in
about 55 s of CPU; BATTLECARDS Pacific's (3 games) in about 13 s, its worlds dealt by the
game's own `determinize` (docs/balance.md)."""

from __future__ import annotations

import msgspec
import pytest

from tabletape import engine
from tabletape.app import balance as lab
from tabletape.app import balance_report as rep

SAMPLES = [  # game, players, the mc agent (its budget), games
    ("cards-of-war", 2, "mc:8", 10),
    ("liberation", 2, "mc:8", 8),
    ("global-domination", 3, "mc:8", 3),
    ("battlecards-pacific", 2, "mc:8", 3),
]


@pytest.mark.parametrize("game,players,spec,games", SAMPLES)
def test_the_mc_agent_wins_more_than_random_in_each_game(game, players, spec, games):
    config = lab.Config(game=game, rules=engine.get(game).version, players=players,
                        agents=(spec, "random"), rotate=True)
    report = rep.measure(config, None, seed=0, games=games, jobs=1)
    mc = report.a.summary.agents[spec]
    assert mc.value > 1 / players, msgspec.json.encode(report.a.summary.agents)
