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
    fold: engine.Fold | None = None
    rs = None
    sentences, legal_counts = [], []
    for rec in engine.iter_records(path):
        seq = rec.line - 1
        if seq == 0:
            rs = engine.ruleset_for(rec.raw, path)
            fold = engine.Fold(rs, rec.event, file=path)
        else:
            err = fold.feed(seq, rec.event, rec.line)
            if err is not None:
                sentences.append(f"{seq}: {engine.describe(rs, rec.event)} -- ILLEGAL [{err.rule}]")
                legal_counts.append(None)
                continue
        sentences.append(f"{seq}: {engine.describe(rs, rec.event)}")
        legal_counts.append(sum(1 for _ in rs.legal(fold.state)))
    state = msgspec.to_builtins(fold.state)
    state.pop("components", None)
    outcome = rs.outcome(fold.state)
    return {
        "outcome": msgspec.to_builtins(outcome) if outcome else None,
        "problems": [str(e).replace(path, "LOG") for e in [*fold.illegal.values(), *fold.core_problems]],
        "corrected": {s: e.rule for s, e in fold.corrected.items()},
        "disputes": [r.__dict__ for r in fold.disputes],
        "final_state": state,
        "legal_counts": legal_counts,
        "log": sentences,
    }


@pytest.mark.parametrize("path", REPLAYS, ids=[os.path.relpath(p, "replays") for p in REPLAYS])
def test_replay_matches_its_snapshot(path, snapshot):
    result = trace(path)
    assert not result["problems"], result["problems"]
    assert result == snapshot
