"""A game's lookup tables are built once per distinct components (issue 28, the per-game cost).

`Packaged.bind` keeps the `Lookups` it built, keyed by the tables' type, the judging version,
the switches it set off and the components' canonical bytes: a second log of the same box
gets the very same tables. The cache must not change a verdict: every bundled log is judged
as the snapshot says with it off and on, and no rule writes to a cached table.
"""

from __future__ import annotations

import json
import os

import msgspec
import pytest

from tabletape import engine
from tabletape.engine import simulate
from tabletape.engine.kit import packaged
from tabletape.tape import codec, log
from tabletape.tape.errors import LogFormatError
from tests.engine.test_versions import BUNDLED, JUDGEMENTS, judgements
from tests.narrow import GameHeader, game_header

GAMES = ("cards-of-war", "global-domination", "liberation", "battlecards-pacific")


def header(game: str, players: tuple[str, ...] = ("alice", "bob")):
    """Returns a header of `game`, decoded from its bytes as a log's line 1 is."""
    rs = engine.get(game)
    n = rs.players[0]
    players = (*players, "carol", "dave")[:max(n, len(players))]
    made = simulate.header_for(rs, players)
    return rs, rs.codec.decoder.decode(rs.codec.encode(made))


@pytest.fixture
def fresh_cache(monkeypatch):
    monkeypatch.setattr(packaged, "_cache", type(packaged._cache)())
    return packaged._cache


@pytest.mark.parametrize("game", GAMES)
def test_binding_the_same_components_twice_gives_the_very_same_tables(game, fresh_cache):
    rs, h1 = header(game)
    _, h2 = header(game, ("erin", "frank"))  # another game of the same box: other players
    assert h1.components is not h2.components
    assert rs.bind(h1).lk is rs.bind(h1).lk
    assert rs.bind(h1).lk is rs.bind(h2).lk
    assert rs.bind(h1).lk == rs.components.Lookups.of(h1.components)


@pytest.mark.parametrize("game", GAMES)
def test_other_components_or_another_version_get_other_tables(game, fresh_cache):
    rs, h = header(game)
    lk = rs.bind(h).lk
    oldest = rs.versions[0]
    old = rs.bind(h, oldest).lk
    assert old is not lk and old is rs.bind(h, oldest).lk
    off = {flag for flag, (version, _) in rs.switches.items() if version != oldest}
    assert {f for f in off if getattr(old, f) is False} == off
    assert all(getattr(lk, f) is True for f in rs.switches)
    # the same box with one field changed: a different key, different tables
    other = msgspec.convert(_changed(msgspec.to_builtins(h.components)), type(h.components))
    assert other != h.components
    o = rs.bind(msgspec.structs.replace(h, components=other)).lk
    assert o is not lk and o == rs.components.Lookups.of(other)


def _changed(data: dict) -> dict:
    """Returns the components with the first string field found (a name, a title) changed."""
    for k, v in data.items():
        if isinstance(v, str):
            return {**data, k: v + " (edited)"}
    raise AssertionError("no string field to change")


def test_equal_bytes_but_unequal_values_are_not_shared(fresh_cache):
    # a tuple and a list encode alike: the cache also asks for equal values
    rs, h = header("cards-of-war")
    lk = rs.bind(h).lk
    pair = h.components.pairs[0]
    listed = msgspec.structs.replace(pair, first=list(pair.first))
    comp = msgspec.structs.replace(h.components, pairs=(listed, *h.components.pairs[1:]))
    assert msgspec.json.encode(comp) == msgspec.json.encode(h.components)
    assert rs.bind(msgspec.structs.replace(h, components=comp)).lk is not lk


def test_the_cache_is_bounded(fresh_cache, monkeypatch):
    monkeypatch.setattr(packaged, "CACHE_SIZE", 2)
    rs = engine.get("cards-of-war")
    seen = []
    for v in rs.versions:
        _, h = header("cards-of-war")
        seen.append(rs.bind(h, v).lk)
    assert len(rs.versions) > 2 and len(fresh_cache) == 2
    assert rs.bind(h, rs.versions[0]).lk is not seen[0]  # evicted: built again
    assert rs.bind(h, rs.versions[-1]).lk is seen[-1]


def test_with_the_cache_off_every_bind_builds_its_own_tables(monkeypatch):
    monkeypatch.setattr(packaged, "CACHE_SIZE", 0)
    rs, h = header("battlecards-pacific")
    assert rs.bind(h).lk is not rs.bind(h).lk


def test_every_bundled_log_is_judged_alike_with_the_cache_off_and_on(fresh_cache, monkeypatch):
    with open(JUDGEMENTS) as f:
        pinned = json.load(f)
    on = judgements()  # the cache filling
    again = judgements()  # every table from the cache
    monkeypatch.setattr(packaged, "CACHE_SIZE", 0)
    off = judgements()
    assert set(on) == set(BUNDLED)
    assert on == again == off
    assert {p: {v: e for v, e in by.items() if v in pinned[p]} for p, by in off.items()} \
        == {p: {v: pinned[p][v] for v in by if v in pinned[p]} for p, by in off.items()}
    # no rule wrote to a cached table: each still equals one built afresh
    assert fresh_cache
    for (_, _, _, _, _), (comp, lk) in fresh_cache.items():
        built = type(lk).of(comp)
        switched = {f.name: getattr(lk, f.name) for f in msgspec.structs.fields(lk)
                    if isinstance(f.default, bool) or callable(f.default)}  # switches, pins
        assert msgspec.structs.replace(built, **switched) == lk


# -- a header's components, decoded once per distinct bytes ---------------------------------

def first_line(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.readline().rstrip(b"\n")


@pytest.mark.parametrize("path", BUNDLED[::3])
def test_a_header_decodes_alike_with_its_components_cached(path, monkeypatch):
    body = first_line(path)
    rs = engine.get(json.loads(body)["game"])
    whole = rs.codec.decode(body, path, 1, 0)
    first = rs.codec.decode_header(body, path, 1, 0)
    again = rs.codec.decode_header(body, path, 1, 0)
    assert whole == first == again and type(whole) is type(first) is type(again)
    assert isinstance(first, GameHeader) and isinstance(again, GameHeader)
    assert again.components is first.components  # from the cache
    assert rs.codec.encode(again) == body
    monkeypatch.setattr(codec, "COMPONENTS_CACHE", 0)
    assert game_header(rs.codec.decode_header(body, path, 1, 0)).components is not \
        first.components


def test_two_logs_of_one_box_share_the_decoded_components_and_the_tables(tmp_path):
    rs, h = header("global-domination", ("ann", "ben", "cy"))
    _, h2 = header("global-domination", ("dee", "eve", "fay"))
    paths = []
    for i, hh in enumerate((h, h2)):
        p = tmp_path / f"g{i}.jsonl"
        log.create(str(p), hh, rs.codec)
        paths.append(str(p))
    a, b = (engine.replay(p) for p in paths)
    assert a.header.players != b.header.players
    assert a.header.components is b.header.components
    assert a.ruleset.lk is b.ruleset.lk  # type: ignore[union-attr]


BAD_HEADERS = [
    (b'"cards"', "$.components"),  # not an object
    (b'{"deck_name":"x"}', "$.components"),  # fields missing
    (b'{"deck_name":1,"cards":[],"pairs":[]}', "$.components.deck_name"),
]


@pytest.mark.parametrize("components, field", BAD_HEADERS)
def test_a_bad_components_object_is_refused_as_before(components, field, tmp_path):
    body = first_line("replays/cards-of-war/" + sorted(os.listdir("replays/cards-of-war"))[0])
    start = body.index(b'"components":') + len(b'"components":')
    bad = body[:start] + components + b"}"
    rs = engine.get("cards-of-war")
    with pytest.raises(LogFormatError) as whole:
        rs.codec.decode(bad, "x.jsonl", 1, 0)
    with pytest.raises(LogFormatError) as cached:
        rs.codec.decode_header(bad, "x.jsonl", 1, 0)
    assert str(cached.value) == str(whole.value)
    assert cached.value.field == whole.value.field and field in (whole.value.field or "")


def test_no_judging_writes_to_a_cached_box():
    judgements()
    for rs in engine.all_games():
        for raw, box in rs.codec._boxes.items():
            assert msgspec.json.encode(box) == raw


def test_a_box_too_large_to_keep_is_built_each_time(fresh_cache, monkeypatch):
    monkeypatch.setattr(packaged, "COMPONENTS_MAX", 100)
    rs, h = header("liberation", ("ann", "ben", "cy"))
    assert rs.bind(h).lk is not rs.bind(h).lk and not fresh_cache


def test_a_header_whose_components_are_too_large_to_keep_decodes_in_full(monkeypatch):
    monkeypatch.setattr(codec, "COMPONENTS_MAX", 100)
    path = BUNDLED[0]
    body = first_line(path)
    rs = engine.get(json.loads(body)["game"])
    monkeypatch.setattr(rs.codec, "_boxes", type(rs.codec._boxes)())
    a = rs.codec.decode_header(body, path, 1, 0)
    assert a == rs.codec.decode(body, path, 1, 0) and not rs.codec._boxes
    assert game_header(rs.codec.decode_header(body, path, 1, 0)).components is not \
        game_header(a).components


def test_a_header_with_its_components_twice_is_refused_as_before():
    # the raw shell would keep the last `components`; the full decode refuses the first
    body = first_line("replays/cards-of-war/" + sorted(os.listdir("replays/cards-of-war"))[0])
    bad = b'{"components":null,' + body[1:]
    rs = engine.get("cards-of-war")
    with pytest.raises(LogFormatError) as whole:
        rs.codec.decode(bad, "x.jsonl", 1, 0)
    with pytest.raises(LogFormatError) as cached:
        rs.codec.decode_header(bad, "x.jsonl", 1, 0)
    assert str(cached.value) == str(whole.value) and cached.value.field == whole.value.field
