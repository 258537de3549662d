"""Properties every registered game must have, checked on simulated games.

Every simulated game validates; `legal` and `check` agree on every reached state;
replay is deterministic (twice, and in a second process); any changed byte is caught;
`undone` followed by the same event again gives the same state.
"""

from __future__ import annotations

import hashlib
import pathlib
import subprocess
import sys
import tempfile
from functools import cache

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletape import engine
from tabletape.engine import simulate
from tabletape.tape import log
from tabletape.tape.errors import ChainError, LogFormatError, UnknownGame
from tabletape.tape.events import Undone, envelope
from tests.registry import GAMES, REGISTER

pytestmark = pytest.mark.usefixtures("template_registered")
SETTINGS = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def players(rs: engine.Ruleset) -> tuple[str, ...]:
    lo, hi = rs.players
    return ("alice", "bob", "carol", "dave", "erin", "frank")[:max(lo, min(hi, 3))]


@cache
def simulated(game: str, seed: int) -> tuple:
    """Returns (header, events, states) of a simulated game, cached across tests."""
    rs = engine.get(game)
    header = simulate.header_for(rs, players(rs))
    events, states = [], []
    for ev, state in simulate.play(rs, header, seed):
        events.append(ev)
        states.append(state)
    return header, tuple(events), tuple(states)


def write_log(tmp_path, game: str, seed: int) -> str:
    rs = engine.get(game)
    header, events, _ = simulated(game, seed)
    path = str(tmp_path / f"{game}-{seed}.jsonl")
    tail = log.create(path, header, rs.codec)
    log.append(path, list(events), rs.codec, expect=tail)
    return path


@cache
def log_bytes(game: str, seed: int) -> bytes:
    """Returns the bytes of a simulated game's log as `write_log` writes it, cached."""
    with tempfile.TemporaryDirectory() as d:
        with open(write_log(pathlib.Path(d), game, seed), "rb") as f:
            return f.read()


def digest(state) -> str:
    return hashlib.sha256(msgspec.json.encode(state)).hexdigest()


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000))
def test_every_simulated_game_validates_and_ends(tmp_path_factory, game, seed):
    path = write_log(tmp_path_factory.mktemp("sim"), game, seed)
    result = engine.replay(path)
    assert result.ok, [str(p) for p in result.problems]
    rs = result.ruleset  # bound to the log's header
    assert rs is not None
    assert rs.outcome(result.state) is not None, "random play did not finish the game"
    assert rs.pending(result.state) is None


def mutations(rs: engine.Ruleset, event, pool: dict[str, set]) -> list:
    """Returns well-formed near-misses of a legal event: each field swapped for other values."""
    out = []
    for name in event.__struct_fields__:
        if name in ("seq", "prev", "at", "by"):
            continue
        value = getattr(event, name)
        candidates = set(pool.get(name, ()))
        if isinstance(value, bool):
            candidates |= {not value}
        elif isinstance(value, int):
            candidates |= {value - 1, value + 1}
        for other in candidates:
            if other == value or (isinstance(other, bool) != isinstance(value, bool)):
                continue
            try:  # only what a log could hold: the schema's bounds apply
                near = msgspec.structs.replace(event, **{name: other})
                out.append(rs.codec.decoder.decode(rs.codec.encode(near)))
            except (TypeError, ValueError, msgspec.ValidationError):
                continue
    return out


def field_pool(events) -> dict[str, set]:
    pool: dict[str, set] = {}
    for ev in events:
        for name in ev.__struct_fields__:
            value = getattr(ev, name)
            try:
                hash(value)
            except TypeError:
                continue
            pool.setdefault(name, set()).add(value)
    return pool


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_legal_and_check_agree_on_every_reached_state(game, seed):
    header, events, states = simulated(game, seed)
    rs = engine.get(game).bind(header)  # the rules are called on a bound ruleset
    pool = field_pool(events)
    near_misses: dict = {}  # an event's near misses depend on the event and the pool only
    for i, state in enumerate((rs.initial(), *states[:-1])):
        legal = list(rs.legal(state))
        assert legal, f"no legal event at step {i} although the game is not over"
        for ev in legal:
            assert rs.check(state, ev) is None, (i, ev, rs.check(state, ev))
        if i % 3:
            continue  # completeness on every third state keeps the test quick
        legal_set = {envelope(e) for e in legal}
        for ev in legal[:40]:
            if ev not in near_misses:
                near_misses[ev] = mutations(rs, ev, pool)
            for near in near_misses[ev]:
                if rs.check(state, near) is None:
                    assert envelope(near) in legal_set, (i, near)


@pytest.mark.parametrize("game", GAMES)
def test_replay_is_deterministic_across_runs_and_processes(tmp_path, game):
    path = write_log(tmp_path, game, 3)
    first, second = engine.replay(path).state, engine.replay(path).state
    assert digest(first) == digest(second)
    code = (f"{REGISTER};import hashlib,msgspec,sys;from tabletape import engine;"
            "print(hashlib.sha256(msgspec.json.encode(engine.replay(sys.argv[1]).state)).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == digest(first)


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_any_changed_byte_before_the_last_line_is_caught(tmp_path_factory, game, data):
    raw = bytearray(log_bytes(game, 4))  # the log as tabletape writes it, written once
    path = str(tmp_path_factory.mktemp("tamper") / f"{game}-4.jsonl")
    last_line_start = raw.rindex(b"\n", 0, len(raw) - 1) + 1
    at = data.draw(st.integers(0, last_line_start - 1), label="offset")
    new = data.draw(st.integers(0, 255).filter(lambda b: b != raw[at]), label="byte")
    raw[at] = new
    open(path, "wb").write(bytes(raw))
    # a header that names no known game is refused as such (UnknownGame names line 1 too)
    with pytest.raises((LogFormatError, ChainError, UnknownGame)) as info:
        list(engine.iter_records(path))
    assert info.value.line is not None


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_undo_then_the_same_event_again_gives_the_same_state(game, data):
    rs = engine.get(game)
    header, events, states = simulated(game, 5)
    k = data.draw(st.integers(0, len(events) - 1), label="k")
    fold = engine.Fold(rs, header)
    for seq, ev in enumerate(events[:k], 1):
        assert fold.feed(seq, ev) is None
    fold.feed(k + 1, events[k])
    assert fold.feed(k + 2, Undone(target=k + 1)) is None
    assert fold.feed(k + 3, events[k]) is None
    assert digest(fold.state) == digest(states[k])
