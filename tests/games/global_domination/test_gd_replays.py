"""The corpus in replays/global-domination/ is what make_replays.py writes, and validates."""

from __future__ import annotations

import os

import pytest

from tabletape import engine

from .make_replays import GAMES, OUT, main


def test_the_generator_rewrites_the_corpus_byte_for_byte(tmp_path, capsys):
    main(str(tmp_path))
    for name in GAMES:
        assert (tmp_path / name).read_bytes() == open(os.path.join(OUT, name), "rb").read(), name


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_replay_validates_and_ends(name):
    r = engine.replay(os.path.join(OUT, name))
    assert r.ok, [str(p) for p in r.problems]
    assert engine.get("global-domination").outcome(r.state) is not None


def test_the_disputed_play_is_ruled_illegal():
    # gd.play.order: bob's attack on alice's turn is refused, disputed and undone
    r = engine.replay(os.path.join(OUT, "disputed-out-of-turn.jsonl"))
    (ruling,) = r.fold.disputes
    assert ruling.verdict == "illegal" and ruling.rule == "gd.play.order"
