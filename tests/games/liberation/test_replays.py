"""The recorded Liberation games: they validate, show what they are about, and regenerate."""

from __future__ import annotations

import glob
import os

from tabletape import engine
from tabletape.games.liberation import RULESET as RS
from tests.games.liberation import make_replays

HERE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "replays", "liberation")


def replay(name: str) -> engine.Replay:
    return engine.replay(os.path.join(HERE, name))


def sentences(name: str) -> list[str]:
    return [RS.describe(r.event) for r in engine.iter_records(os.path.join(HERE, name))][1:]


def test_every_replay_validates_and_ends():
    paths = glob.glob(os.path.join(HERE, "*.jsonl"))
    assert len(paths) >= 6
    for path in paths:
        r = engine.replay(path)
        assert r.ok, [str(p) for p in r.problems]
        assert RS.outcome(r.state) is not None, path


def test_the_iraq_game_uses_every_ability():
    # lib.country.turn-over-type and every ability kind appear in the first country
    text = "\n".join(sentences("iraq-abilities.jsonl")[:46])
    for phrase in ("discards Navy SEALs", "back face up", "takes cat's card", "trades hands",
                   "lets the turn-over stand", "ann draws Armored Division", "cat draws"):
        assert phrase in text, phrase


def test_the_four_player_game_is_won_at_nine():
    # lib.win.points: nine points win at a four-player table
    o = RS.outcome(replay("four-players-won-at-nine.jsonl").state)
    assert len(o.winners) == 1 and o.scores[o.winners[0]] == 9


def test_disputes_are_ruled():
    # lib.turn.order and lib.country.forbid-type: the two mistakes are ruled illegal; the
    # trade is ruled legal
    r = replay("disputed-play.jsonl")
    rulings = [(d.verdict, d.rule) for d in r.fold.disputes]
    assert rulings[:2] == [("illegal", "lib.turn.order"), ("illegal", "lib.country.forbid-type")]
    assert rulings[2][0] == "legal"


def test_ties_in_the_replays():
    # lib.tie.extra-round in Yemen, lib.tie.draw in Libya
    assert "bob turns up Syria" in sentences("yemen-extra-round.jsonl")[26]
    draws = [s for s in sentences("tie-break-draws.jsonl") if "break the tie" in s]
    assert len(draws) >= 4


def test_the_generator_is_deterministic(tmp_path, monkeypatch):
    monkeypatch.setattr(make_replays, "OUT", str(tmp_path))
    make_replays.main()
    for path in glob.glob(os.path.join(HERE, "*.jsonl")):
        fresh = tmp_path / os.path.basename(path)
        assert fresh.read_bytes() == open(path, "rb").read(), path
