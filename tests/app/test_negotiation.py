"""The table's negotiation in the record (issue 34, point 7): an undo asked, accepted or
refused from the pages is a line of the log, survives a restart, reads back with `log`; a
dispute carries the player's own words; the umpire's undo confirms with the event's words."""

from __future__ import annotations

import json

import msgspec
import pytest

from tabletape.app import play
from tests.app.test_play import SIM, cut, replayed
from tests.narrow import present

ALICE, BOB, UMPIRE, SHARED = play.Seat("alice"), play.Seat("bob"), \
    play.Seat(play.UMPIRE, umpire=True), play.PUBLIC


@pytest.fixture
def path(tmp_path):
    """A Cards of War game at seq 20: alice has just drawn (her Amphib, which bob cannot see)."""
    p = tmp_path / "game.jsonl"
    cut(SIM, p, 21)
    return p


def page(table: play.Table, seat: play.Seat) -> dict:
    """Returns a seat's page data as JSON reads it."""
    return msgspec.to_builtins(table.shown(seat))


def press(table: play.Table, seat: play.Seat, **body) -> str:
    """Presses a seat's undo button on a page drawn now."""
    return table.undo(seat, {"after": table.shown(seat).version, **body})


def refusal(call) -> tuple[int, str, str | None]:
    """Returns a refused write's HTTP status (as the web layer maps its kind), message, rule."""
    from tabletape.web.table import STATUS
    with pytest.raises(play.Refused) as e:
        call()
    return STATUS[type(e.value)], e.value.message, e.value.rule


def last_line(path) -> dict:
    return json.loads(path.read_text().splitlines()[-1])


def test_a_request_survives_a_restart_and_is_answered_after_it(path):
    # alice asks; the server stops; a new one on the same file shows bob the request
    said = press(play.Table(str(path)), ALICE)
    assert said.startswith("recorded seq 21: alice asks to undo seq 20")
    assert last_line(path) | {"at": None} == {"type": "undo_asked", "seq": 21,
                                              "prev": last_line(path)["prev"], "at": None,
                                              "by": "alice", "target": 20}
    table = play.Table(str(path))  # the restart: nothing kept in memory
    undo = page(table, BOB)["undo"]
    assert (undo["asked"], undo["asked_by"], undo["may_confirm"]) == (21, "alice", True)
    assert page(table, ALICE)["undo"]["may_confirm"] is False
    assert press(table, BOB) == "recorded seq 22: bob accepts the request at seq 21: undoes seq 20"
    assert present(replayed(path).fold).latest() == 19


def test_a_request_refused_leaves_the_event_standing(path):
    table = play.Table(str(path))
    press(table, ALICE)
    assert press(table, BOB, refuse=True) == ("recorded seq 22: bob refuses the request at "
                                              "seq 21: seq 20 stands")
    result = replayed(path)
    assert result.fold is not None
    assert result.fold.latest() == 20 and result.fold.open_request() is None
    undo = page(table, ALICE)["undo"]
    assert (undo["asked"], undo["may_ask"]) == (None, True)  # she may ask again


def test_the_asker_answers_nothing_and_nothing_is_refused_unasked(path):
    table = play.Table(str(path))
    assert refusal(lambda: press(table, BOB, refuse=True)) == (
        409, "there is no undo request to refuse; nothing was written", "core.ask.none")
    press(table, ALICE)
    before = path.read_bytes()
    for body in ({}, {"refuse": True}):
        assert refusal(lambda b=body: press(table, ALICE, **b))[2] == "core.ask.self"
    assert refusal(lambda: press(table, SHARED))[0] == 403
    assert path.read_bytes() == before


def test_a_request_the_table_moved_on_from_is_void(path):
    table = play.Table(str(path))
    press(table, ALICE)
    bob = page(table, BOB)
    event = bob["groups"][0]["events"][0]["event"]
    table.enter(BOB, {"event": event, "after": bob["version"]})  # bob plays on
    undo = page(table, ALICE)["undo"]
    assert (undo["target"], undo["asked"], undo["may_ask"]) == (22, None, True)


def test_the_umpire_confirms_with_the_events_sentence(path, run):
    # the umpire's page names the event in the words `log` prints; each player's page says
    # only what that player may know of it, as `log --as` prints it for them
    table = play.Table(str(path))
    for seat, args in ((UMPIRE, ()), (ALICE, ("--as", "alice")), (BOB, ("--as", "bob"))):
        row = json.loads(run("log", path, "--json", *args).stdout.splitlines()[20])
        assert (row["seq"], row["text"]) == (20, page(table, seat)["undo"]["sentence"])
    assert page(table, UMPIRE)["undo"]["sentence"] == "alice draws Amphib"
    assert page(table, ALICE)["undo"]["sentence"] == "alice draws Amphib"
    assert page(table, BOB)["undo"]["sentence"] == "alice: card_drawn (not seen by bob)"
    assert page(table, SHARED)["undo"]["sentence"] == ""  # it undoes nothing
    # a page that confirmed another event is refused; the one it showed is undone at once
    assert refusal(lambda: press(table, UMPIRE, target=19)) == (
        409, "the latest event is seq 20, not the one your page showed; nothing was written: "
             "look again", "core.undo.latest")
    assert press(table, UMPIRE, target=20) == "recorded seq 21: undoes seq 20"
    assert last_line(path)["by"] == "umpire" and "asked" not in last_line(path)


def test_the_umpire_answers_an_open_request(path):
    table = play.Table(str(path))
    press(table, ALICE)
    assert page(table, UMPIRE)["undo"]["may_refuse"] is True
    assert press(table, UMPIRE, target=20) == ("recorded seq 22: umpire accepts the request at "
                                               "seq 21: undoes seq 20")


def test_a_dispute_carries_the_players_own_words(path):
    table = play.Table(str(path))
    v = table.shown(BOB).version
    for text in (None, "", "   "):
        assert refusal(lambda t=text: table.note(BOB, {"text": t, "dispute": True, "after": v})) \
            == (400, "a dispute needs your own words: say why you dispute the last event; "
                     "nothing was written", None)
    assert len(path.read_text().splitlines()) == 21
    assert table.note(BOB, {"text": "she drew two", "dispute": True, "after": v}) == \
        "recorded seq 21: dispute"
    assert last_line(path)["text"] == "she drew two" and last_line(path)["about"] == 20


def test_log_reads_a_request_and_its_answer_back(path, run):
    table = play.Table(str(path))
    press(table, ALICE)
    press(table, BOB)
    out = run("log", path, "--from", "20").stdout
    assert "alice asks to undo seq 20" in out
    assert "bob accepts the request at seq 21: undoes seq 20" in out
    rows = [json.loads(r) for r in run("log", path, "--json").stdout.splitlines()]
    assert [(r["seq"], r["type"], r["text"], r["undone_at"]) for r in rows[20:]] == [
        (20, "card_drawn", "alice draws Amphib", 22),
        (21, "undo_asked", "alice asks to undo seq 20", None),
        (22, "undone", "bob accepts the request at seq 21: undoes seq 20", None)]
    assert run("validate", path).exit_code == 0
    explained = json.loads(run("explain", path, "21", "--json").stdout)
    assert (explained["verdict"], explained["text"]) == ("not a game event",
                                                       "alice asks to undo seq 20")


def test_a_request_kept_in_a_checkpoint_is_answered_after_a_restart(path, monkeypatch):
    # alice asks at seq 21; notes follow past the next checkpoint of the log's index, which
    # the next server reads from: the request is still open there
    from tabletape import engine
    from tabletape.engine import index
    from tests.engine.test_index import lines_hash
    monkeypatch.setattr(index, "INDEX_EVERY", 16)  # (as tests/engine/test_index.py does)
    monkeypatch.setattr(index, "INDEX_MIN", 0)
    table = play.Table(str(path))
    press(table, ALICE)
    for _ in range(20):
        table.note(BOB, {"text": "thinking", "after": table.shown(BOB).version})
    index.state_at(str(path))
    loaded = index.load(str(path), engine.get("cards-of-war"), lines_hash(str(path)))
    assert any(c.seq > 21 for c in loaded.checkpoints)
    table = play.Table(str(path))
    assert present(table.replayed().fold).partial  # read on from the checkpoint
    assert page(table, BOB)["undo"]["asked"] == 21
    assert press(table, BOB) == "recorded seq 42: bob accepts the request at seq 21: undoes seq 20"
