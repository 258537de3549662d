"""Determinism: a simulated game replays to the same state twice, and in another process.

The digest is the SHA-256 of the msgspec-encoded final state. The second
process is a fresh interpreter with a different PYTHONHASHSEED, so that state
built from set or dict iteration order would show up as a different digest.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import msgspec
import pytest

from tabletape import engine
from tabletape.engine import simulate as sim
from tests.registry import GAMES, REGISTER
from tests.reliability import figures, tapes

SEEDS = range(figures.budget(3, 25))
REPLAY = REGISTER + """
import hashlib, json, sys
import msgspec
from tabletape import engine
print(json.dumps({p: hashlib.sha256(msgspec.json.encode(engine.replay(p).state)).hexdigest()
                  for p in sys.argv[1:]}))
"""


def state_digest(state) -> str:
    return hashlib.sha256(msgspec.json.encode(state)).hexdigest()


def replayed(path: str) -> str:
    """Returns the digest of the state a log replays to (it must replay cleanly)."""
    result = engine.replay(path)
    assert result.ok, result.problems
    return state_digest(result.state)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("template_registered")
def test_simulated_games_replay_to_identical_state_digests(tmp_path, game):
    rs = engine.get(game)
    played, paths = {}, []
    for seed in SEEDS:
        path = str(tmp_path / f"{seed}.jsonl")
        tapes.simulated(path, game, seed, events=20_000)
        header = sim.header_for(rs, tapes.PLAYERS.get(game, ("alice", "bob")))
        *_, (_, final) = sim.play(rs, header, seed)
        played[path] = state_digest(final)
        paths.append(path)
    first = {p: replayed(p) for p in paths}
    second = {p: replayed(p) for p in paths}
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", REPLAY, *paths], env=env, check=True,
                         capture_output=True, text=True).stdout
    other = json.loads(out)
    assert first == second == other == played
    figures.record(f"determinism ({game})", games=len(paths),
                   compared="the simulation, two replays, a replay in another process",
                   identical_digests=f"{len(paths)}/{len(paths)}")
