"""Issue 33's reproductions, each failing on 411e4d8: a seat plays only its own events, a stale
or refused write tells nothing of others' cards, no page carries a hash of a hidden card,
salted lines cannot be inverted, seats are not names, a hostile body is a 400."""

from __future__ import annotations

import hashlib
import json
import os

import msgspec
import pytest
from click.testing import CliRunner

from tabletape import engine
from tabletape.app import play
from tabletape.cli.group import main
from tabletape.engine import CHANCE, seats
from tabletape.engine import simulate as sim
from tabletape.games.cards_of_war.events import CardDrawn, CowStarted
from tabletape.tape import log as tapelog
from tabletape.tape.errors import UsageError
from tests.app.test_play import SIM, cut
from tests.narrow import instance, present


@pytest.fixture(autouse=True)
def _no_clock(monkeypatch):
    monkeypatch.setenv("TABLETAPE_CLOCK", "off")


def played(tmp_path, game: str, players: tuple[str, ...], seed: int, until) -> str:
    """Writes a simulated game of `game` (format 2, salted) up to the first state `until`
    accepts; returns its path."""
    rs = engine.get(game)
    header = sim.header_for(rs, players)
    bound = rs.bind(header)
    path = str(tmp_path / "game.jsonl")
    tail = tapelog.create(path, header, rs.codec)
    state, events = bound.initial(), []
    for event, after in sim.play(rs, header, seed):
        if until(bound, state):
            break
        events.append(seats.salted(bound, state, event, lambda: os.urandom(16).hex()))
        state = after
    tapelog.append(path, events, rs.codec, expect=tail)
    return path


def body(table: play.Table, event) -> dict:
    raw = json.loads(table.game().codec.encode(event))
    return {"event": raw, "after": table.version(present(table.replayed().tail))}


# -- 1. a phone plays only for its own seat ----------------------------------------------

def _others_move(bound, state) -> bool:
    """A Global Domination state where some legal event is owned by a player who is not the
    one the game waits on (a card played out of turn)."""
    d = bound.pending(state)
    return d is not None and d.actor != CHANCE and any(
        seats.owner(bound, e) not in (None, d.actor) for e in bound.legal(state))


def test_a_seat_is_offered_only_its_own_events_and_a_write_for_another_is_403(tmp_path):
    path = played(tmp_path, "global-domination", ("ann", "ben", "cat"), 3, _others_move)
    table = play.Table(path)
    result = table.replayed()
    assert result.fold is not None
    bound, state = result.ruleset, result.fold.state
    assert bound is not None
    actor = present(bound.pending(state)).actor
    theirs = next(e for e in bound.legal(state) if seats.owner(bound, e) not in (None, actor))
    owner = seats.owner(bound, theirs)
    offered = play.Table.offered(result, play.Seat(actor))
    assert all(seats.owner(bound, e) in (None, actor) for e in offered)
    assert owner is not None
    assert theirs in play.Table.offered(result, play.Seat(owner))
    before = open(path, "rb").read()
    with pytest.raises(play.Refused) as refused:
        table.enter(play.Seat(actor), body(table, theirs))
    assert isinstance(refused.value, play.NotYours) and "not yours" in refused.value.message
    assert open(path, "rb").read() == before


def test_authority_comes_before_the_log_is_read(tmp_path):
    """A write of another seat's event is refused 403 even when the log cannot be replayed."""
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    table = play.Table(str(path))
    ok = {"event": {"type": "card_deployed", "player": "bob", "card": "Marines", "battle": 1},
          "after": table.version(present(table.replayed().tail))}
    with open(path, "ab") as f:
        f.write(b'{"type":"card_drawn","seq":99}\n')  # the chain broken: nothing replays
    with pytest.raises(play.Refused) as refused:
        table.enter(play.Seat("alice"), ok)
    assert isinstance(refused.value, play.NotYours)


# -- 2. a stale write tells nothing --------------------------------------------------------

def test_a_stale_write_says_the_same_whatever_card_it_names(tmp_path):
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)  # bob deploys next
    table = play.Table(str(path))
    result = table.replayed()
    answers = set()
    assert result.fold is not None
    for card in sorted({c.name for c in result.fold.header.components.cards}):
        event = {"type": "card_deployed", "player": "bob", "card": card, "battle": 1}
        for seat in (play.Seat("alice"), play.Seat("bob")):
            try:
                table.enter(seat, {"event": event, "after": "stale"})
            except play.Refused as e:
                answers.add((seat.name, type(e), e.message, e.rule))
    alices = {a[1:] for a in answers if a[0] == "alice"}
    assert len(alices) == 1 and next(iter(alices))[0] is play.NotYours  # not hers: before anything
    bobs = {a[1:] for a in answers if a[0] == "bob"}
    assert len(bobs) == 1, bobs
    ((status, message, rule),) = bobs
    assert status is play.Conflict and rule is None and "now" not in message.split("(")[0]


# -- 4. no hash of a hidden card ------------------------------------------------------------

def test_the_page_version_is_no_chain_head(tmp_path):
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    table = play.Table(str(path))
    tail = table.replayed().tail
    shown = table.shown(play.PUBLIC)
    assert tail is not None
    assert tail.head[:16] not in msgspec.json.encode(shown).decode()
    assert shown.version.startswith(f"{tail.seq}-")


def _invert(line: bytes, target: str, rs, cards: set[str]) -> set[str]:
    """Returns the cards that make `line` hash to `target` (the next line's `prev`) when the
    attacker tries each card a seat outside the draw could name, without the salt."""
    event = rs.codec.decode(line, "x", 1, 1)
    return {c for c in cards if hashlib.sha256(rs.codec.encode(msgspec.structs.replace(
        event, card=c, salt=None))).hexdigest() == target}


def test_a_salted_draw_cannot_be_recovered_from_the_chain_by_trying_the_cards(tmp_path):
    path = played(tmp_path, "cards-of-war", ("alice", "bob"), 7, lambda b, s: False)
    rs = engine.get("cards-of-war")
    lines = open(path, "rb").read().splitlines()
    draws = [i for i, line in enumerate(lines[:-1]) if b'"card_drawn"' in line
             or b'"opening_card_drawn"' in line]
    secret = [i for i in draws if json.loads(lines[i]).get("salt")]
    if not secret:
        pytest.skip("the game's seats declare no secret draw yet")
    header = instance(CowStarted, rs.codec.decode(lines[0], path, 1, 0))
    cards = {c.name for c in header.components.cards}
    for i in secret:  # every salted draw stands against the attack
        assert not _invert(lines[i], json.loads(lines[i + 1])["prev"], rs, cards)
    # the attack itself works: the same line without its salt (as in a format-1 log) falls
    i = secret[0]
    bare = rs.codec.encode(msgspec.structs.replace(rs.codec.decode(lines[i], "x", 1, 1),
                                                   salt=None))
    drawn = json.loads(lines[i])["card"]
    assert _invert(bare, hashlib.sha256(bare).hexdigest(), rs, cards) == {drawn}


def test_every_secret_line_of_a_new_log_is_salted(tmp_path):
    path = played(tmp_path, "global-domination", ("ann", "ben", "cat"), 1,
                  lambda b, s: False)
    result = engine.replay(path)
    rs = result.ruleset
    assert rs is not None
    state = rs.initial()
    salts = []
    for line in open(path, "rb").read().splitlines()[1:]:
        event = rs.codec.decode(line, path, 1, 1)
        if seats.secret_from(rs, state, event):
            assert event.salt is not None and len(event.salt) == 32
            salts.append(event.salt)
        state = rs.apply(state, event)
    assert len(set(salts)) == len(salts)  # fresh: never the same twice


# -- 5. seats are not names; a hostile body ---------------------------------------------------

def test_a_player_named_umpire_is_refused_at_new(tmp_path):
    r = CliRunner().invoke(main, ["new", "cards-of-war", str(tmp_path / "g.jsonl"),
                                  "--players", "alice,umpire"])
    assert r.exit_code == 2 and "may not be named 'umpire'" in r.output
    assert not (tmp_path / "g.jsonl").exists()


def test_serving_with_an_umpire_refuses_a_player_named_umpire():
    with pytest.raises(UsageError, match="named 'umpire'"):
        play.Seats(("alice", "umpire"), umpire=True)
    seats_ = play.Seats(("alice", "umpire"))  # without an umpire seat, a name like another
    assert {s.umpire for s, _ in seats_.links()} == {False}


def test_a_deeply_nested_body_is_a_400(tmp_path):
    from tabletape.web import table as web
    from tests.app.test_play import post
    from tests.app.test_serve import Served
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    t = play.Table(str(path))
    seats_ = play.Seats(("alice", "bob"))
    served = Served(web.play_app(t, seats_))
    try:
        link = dict((s.name, p) for s, p in seats_.links())["alice"]
        deep = b'{"event":' + b"[" * 1900 + b"]" * 1900 + b"}"
        status, answer = post(served, f"{link}/event", deep)
        assert status in (400, 413), answer
        deep = b"[" * 1000 + b"]" * 1000
        status, answer = post(served, f"{link}/event", deep)
        assert status == 400, answer
    finally:
        served.close()


# -- the command line -------------------------------------------------------------------------

def test_legal_as_a_player_lists_no_one_elses_draw_and_no_weights(tmp_path):
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    result = engine.replay(str(path))
    assert result.fold is not None
    rs, state = result.ruleset, result.fold.state
    for player in result.fold.header.players:
        r = CliRunner().invoke(main, ["legal", str(path), "--as", player, "--json"])
        listed = json.loads(r.output)["events"] if r.exit_code == 0 else []
        assert all(e["weight"] is None for e in listed)
        assert rs is not None
        assert all(seats.owner(rs, rs.codec.decode(json.dumps(e["event"]).encode(), "x", 1, 1))
                   in (None, player) for e in listed) if listed else True
    assert state is not None


def test_validate_and_explain_name_a_players_write_of_anothers_event(tmp_path):
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)  # bob deploys next
    result = engine.replay(str(path))
    assert result.ruleset is not None
    assert result.fold is not None
    bobs = next(iter(result.ruleset.legal(result.fold.state)))
    line = result.ruleset.codec.encode(bobs).decode()
    r = CliRunner().invoke(main, ["append", str(path), line, "--by", "alice"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 0  # the verdict is the rules', unchanged
    assert ("note: seq 21 [core.seat.owner] written by alice, but it is bob's to enter"
            in r.output)
    r = CliRunner().invoke(main, ["validate", str(path), "--json"])
    assert json.loads(r.output)["seats"] == [
        {"seq": 21, "rule": "core.seat.owner",
         "reason": "written by alice, but it is bob's to enter (a player enters only their own)"}]
    r = CliRunner().invoke(main, ["explain", str(path), "21"])
    assert "note [core.seat.owner]: written by alice" in r.output


def test_validate_notes_a_secret_line_of_a_format_2_log_without_its_salt(tmp_path):
    rs = engine.get("cards-of-war")
    header = sim.header_for(rs, ("alice", "bob"))
    path = str(tmp_path / "game.jsonl")
    events = [e for e, _ in zip(sim.play(rs, header, 5), range(30), strict=False)]
    tail = tapelog.create(path, header, rs.codec)
    tapelog.append(path, [e for e, _ in events], rs.codec, expect=tail)  # no salts
    r = CliRunner().invoke(main, ["validate", path])
    assert r.exit_code == 0 and "[core.secret.salt]" in r.output


def test_a_salt_is_random_unless_a_transcript_asks_for_one_that_repeats(monkeypatch):
    from tabletape.app.entries import fresh_salt
    event = CardDrawn(player="bob", card="Tank")
    monkeypatch.delenv("TABLETAPE_SALTS", raising=False)
    salts = {fresh_salt(7, event) for _ in range(20)}
    assert len(salts) == 20 and all(len(s) == 32 for s in salts)
    monkeypatch.setenv("TABLETAPE_SALTS", "seed:docs")
    assert fresh_salt(7, event) == fresh_salt(7, event) != fresh_salt(8, event)
