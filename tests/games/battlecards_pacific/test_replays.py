"""The recorded games in replays/battlecards-pacific/: they validate and regenerate exactly."""

import glob
import os

from tabletape import engine

from . import make_replays

REPLAYS = sorted(glob.glob(os.path.join(make_replays.OUT, "*.jsonl")))


def test_the_replays_validate():
    assert len(REPLAYS) >= 6
    for path in REPLAYS:
        result = engine.replay(path)
        assert result.ok, (path, [str(p) for p in result.problems])


def test_the_generator_reproduces_them_byte_for_byte(tmp_path):
    make_replays.main(str(tmp_path))
    made = sorted(os.listdir(tmp_path))
    assert made == [os.path.basename(p) for p in REPLAYS]
    for path in REPLAYS:
        with open(path, "rb") as a, open(tmp_path / os.path.basename(path), "rb") as b:
            assert a.read() == b.read(), path


def test_the_disputed_shot_is_ruled_legal():
    result = engine.replay(os.path.join(make_replays.OUT, "battle-withdrawal-dispute.jsonl"))
    (ruling,) = result.fold.disputes
    assert ruling.verdict == "legal" and ruling.by == "bob"
