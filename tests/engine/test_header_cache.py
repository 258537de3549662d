"""A log's header is worked out once per distinct box (issue 28, the per-log cost).

- `Codec.decode_header` checks a header whose components it kept by re-encoding the shell
  (the components as the bytes read) instead of the whole header;
- `registry.header_problem` keeps `rs.header_problem` per ruleset, header fields and the
  very same components object;
- `packaged.lookups_for` keeps the components' bytes per object (`_encoded`);
- `reading._start` takes the ruleset from a header its game's codec decoded.

Each is pinned here to the path without it: a log judged with every cache off and on
(and on again, from the caches) gives the same entry, and a header that is wrong anywhere
is refused with the same error.
"""

from __future__ import annotations

import glob
import os

import msgspec
import pytest

from tabletape import engine
from tabletape.app import judge
from tabletape.engine import reading, registry, simulate
from tabletape.engine.kit import packaged
from tabletape.tape import codec, log, reader
from tabletape.tape.errors import TapeError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPLAYS = sorted(glob.glob(os.path.join(ROOT, "replays", "*", "*.jsonl")))


def _caches_off(monkeypatch) -> None:
    monkeypatch.setattr(codec, "COMPONENTS_CACHE", 0)
    monkeypatch.setattr(registry, "PROBLEMS_KEPT", 0)
    monkeypatch.setattr(packaged, "CACHE_SIZE", 0)


@pytest.mark.parametrize("path", REPLAYS, ids=os.path.basename)
def test_a_log_judged_from_the_caches_is_judged_as_afresh(path, monkeypatch):
    cached = [judge.judge(path) for _ in range(2)]  # the second from every cache
    _caches_off(monkeypatch)
    fresh = judge.judge(path)
    assert cached[0] == cached[1] == fresh


def _first(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.readline()


VARIANTS = {  # a header line spoiled in one place, its components left as they are
    "spaced seq": (b'"seq":0', b'"seq": 0'),
    "keys out of order": (b'"seq":0,"format":1', b'"format":1,"seq":0'),
    "format 2": (b'"format":1', b'"format":2'),
    "players twice": (b'"players":["', b'"players":["alice","'),
    "spaced components": (b'"components":{', b'"components": {'),
    "unknown field": (b'"seq":0', b'"seq":0,"extra":1'),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("path", REPLAYS[::4], ids=os.path.basename)
def test_a_header_spoiled_beside_a_kept_box_is_refused_as_afresh(path, variant, tmp_path,
                                                                 monkeypatch):
    old, new = VARIANTS[variant]
    with open(path, "rb") as f:
        data = f.read()
    head, rest = data.split(b"\n", 1)
    if old not in head:
        pytest.skip("no such place in this header")
    spoiled = tmp_path / "spoiled.jsonl"
    spoiled.write_bytes(head.replace(old, new, 1) + b"\n" + rest)

    def outcome():
        try:
            return ("read", [r.digest for r in reader.read_records(str(spoiled),
                                                                   engine.codec_for)])
        except TapeError as e:
            return (type(e), str(e), e.line, e.offset, getattr(e, "field", None))

    reading.replay(path)  # its box kept, its problem and tables too
    cached = outcome()
    assert cached[0] != "read"
    _caches_off(monkeypatch)
    assert outcome() == cached


def _headers(game: str) -> list:
    """Headers of one box (the very same components object) with other players and options."""
    rs = engine.get(game)
    lo, hi = rs.players
    names = ("ann", "ben", "cy", "dee", "eve", "fay", "gus", "hal")
    good = simulate.header_for(rs, names[:lo])
    out = [msgspec.structs.replace(good, players=names[:n])
           for n in range(max(1, lo - 1), min(hi + 2, 9))]
    out.append(msgspec.structs.replace(good, players=("ann", "ann", *names[2:lo])))
    for f in msgspec.structs.fields(type(good.options)):  # each option flipped, if a flag
        if f.type is bool:
            out.append(msgspec.structs.replace(good, options=msgspec.structs.replace(
                good.options, **{f.name: not f.default})))
    return out


@pytest.mark.parametrize("game", ["cards-of-war", "global-domination", "liberation",
                                  "battlecards-pacific"])
def test_a_header_problem_kept_is_the_rulesets_answer(game, monkeypatch):
    monkeypatch.setattr(registry, "_problems", type(registry._problems)())
    rs = engine.get(game)
    headers = _headers(game)
    answers = {rs.header_problem(h) for h in headers}
    assert None in answers and len(answers) > 1  # good ones and refused ones
    for _ in range(2):  # afresh, then kept
        for h in headers:
            assert registry.header_problem(rs, h) == rs.header_problem(h)


def test_another_components_object_is_checked_afresh(monkeypatch):
    monkeypatch.setattr(registry, "_problems", type(registry._problems)())
    rs = engine.get("cards-of-war")
    h = simulate.header_for(rs, ("ann", "ben"))
    assert registry.header_problem(rs, h) is None
    few = msgspec.structs.replace(h.components, cards=h.components.cards[:1])
    bad = msgspec.structs.replace(h, components=few)
    assert registry.header_problem(rs, bad) == rs.header_problem(bad) is not None


def test_the_components_bytes_kept_are_their_encoding(monkeypatch):
    monkeypatch.setattr(packaged, "_encodings", type(packaged._encodings)())
    for path in REPLAYS:
        h = reading.replay(path).header
        assert packaged._encoded(h.components) == msgspec.json.encode(h.components)
        assert packaged._encoded(h.components) == msgspec.json.encode(h.components)
    copy = msgspec.json.decode(msgspec.json.encode(h.components), type=type(h.components))
    assert packaged._encoded(copy) == msgspec.json.encode(h.components)


@pytest.mark.parametrize("path", REPLAYS, ids=os.path.basename)
def test_the_ruleset_of_a_decoded_header_is_the_one_its_line_names(path):
    rec = next(reader.read_records(path, engine.codec_for))
    assert reading._ruleset_of(rec, path) is registry.ruleset_for(rec.raw, path)


def test_a_header_event_of_no_registered_game_is_read_from_its_line(tmp_path):
    rs = engine.get("liberation")
    h = simulate.header_for(rs, ("ann", "ben", "cy"))
    p = str(tmp_path / "g.jsonl")
    log.create(p, h, rs.codec)
    rec = next(reader.read_records(p, engine.codec_for))
    odd = msgspec.structs.replace(rec, event=msgspec.structs.replace(rec.event, game="nope"))
    assert reading._ruleset_of(odd, p) is rs  # the line's own game
