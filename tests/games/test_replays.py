"""The regression corpus: every log in replays/ replayed and snapshotted.

A change to the rules shows up here as a snapshot diff: the final state, the
outcome, every ruling, the sentences of `log`, and per event the number of legal
next events (as Ludii replays stored trials).
"""

from __future__ import annotations

import glob
import os

import msgspec
import pytest

from tabletape import engine

REPLAYS = sorted(glob.glob("replays/*/*.jsonl"))


def test_the_corpus_has_six_games_per_game_at_least_for_cards_of_war():
    assert len([p for p in REPLAYS if "/cards-of-war/" in p]) >= 6


def trace(path: str) -> dict:
    """Returns what the snapshot pins down about one recorded game."""
    sentences: list[str] = []
    legal_counts: list[int | None] = []

    def line(j: engine.Judged) -> None:
        assert j.fold is not None
        said = f"{j.seq}: {engine.describe(j.fold.ruleset, j.event)}"
        if j.problem is not None:
            sentences.append(f"{said} -- ILLEGAL [{j.problem.rule}]")
            legal_counts.append(None)
        else:
            sentences.append(said)
            legal_counts.append(sum(1 for _ in j.fold.ruleset.legal(j.fold.state)))

    result = engine.replay(path, visit=line)
    fold, rs = result.fold, result.ruleset
    assert fold is not None and rs is not None and result.error is None, result.error
    state = msgspec.to_builtins(fold.state)
    state.pop("components", None)
    outcome = rs.outcome(fold.state)
    return {
        "outcome": msgspec.to_builtins(outcome) if outcome else None,
        "problems": [str(e).replace(path, "LOG") for e in [*fold.illegal.values(), *fold.core_problems]],
        "corrected": {s: e.rule for s, e in fold.corrected.items()},
        "disputes": msgspec.to_builtins(fold.disputes),
        "final_state": state,
        "legal_counts": legal_counts,
        "log": sentences,
    }


@pytest.mark.parametrize("path", REPLAYS, ids=[os.path.relpath(p, "replays") for p in REPLAYS])
def test_replay_matches_its_snapshot(path, snapshot):
    result = trace(path)
    assert not result["problems"], result["problems"]
    assert result == snapshot


GAME_TESTS = sorted(glob.glob("tests/games/*/make_replays.py"))


@pytest.mark.parametrize("script", GAME_TESTS, ids=[p.split("/")[2] for p in GAME_TESTS])
def test_each_game_regenerates_its_bundled_replays_byte_for_byte(script, tmp_path):
    import importlib
    module = importlib.import_module(script[:-3].replace("/", "."))
    module.main(str(tmp_path))
    made = sorted(os.listdir(tmp_path))
    bundled = sorted(os.listdir(module.OUT))
    assert made == bundled
    for name in made:
        with open(tmp_path / name, "rb") as a, open(os.path.join(module.OUT, name), "rb") as b:
            assert a.read() == b.read(), f"{name} differs from the bundled replay"
