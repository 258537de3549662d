"""Limits: every bound on a log, hit from the CLI, and the exact message a user sees.

Each case writes what a user (or an opponent with an editor) would, runs the
command a user would, and checks the whole message: exit code, file, line, byte
offset and field. The "Limits" table of docs/format.md quotes these messages; a
test keeps the two in step.
"""

from __future__ import annotations

import json
import os
import re

import pytest

from tabletape.tape import log as tapelog
from tests.conftest import COW, lines, opening, write

GAME = "game.jsonl"


@pytest.fixture
def here(tmp_path, monkeypatch):
    """Runs in an empty folder holding game.jsonl (header and opening draw), so messages
    name the file as a user typed it."""
    from tests.conftest import new_log
    monkeypatch.chdir(tmp_path)
    opening(GAME, new_log(GAME))
    return tmp_path


def add_line(fields: dict) -> None:
    """Appends a hand-written line after the last one, with the right seq and prev."""
    ls = lines(GAME)
    line = {"type": fields.pop("type"), "seq": len(ls), "prev": tapelog.digest(ls[-1][:-1]),
            **fields}
    write(GAME, b"".join(ls) + json.dumps(line, separators=(",", ":")).encode() + b"\n")


def edit_header(**fields) -> None:
    """Rewrites the header with changed fields (the chain breaks after it; reading stops first)."""
    ls = lines(GAME)
    header = {**json.loads(ls[0]), **fields}
    write(GAME, json.dumps(header, separators=(",", ":")).encode() + b"\n" + b"".join(ls[1:]))


def components(**changes) -> str:
    """Writes Cards of War's default components with changes; returns the file name."""
    data = json.loads(COW.codec.encode(COW.default_components()))
    data.update(changes)
    with open("deck.json", "w") as f:
        json.dump(data, f)
    return "deck.json"


def _size(data: dict) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())


def components_of_exactly(size: int) -> str:
    """Writes valid components of exactly `size` bytes (long 4-byte-character notes on every
    card, padding in the deck's notes); returns the file name."""
    data = json.loads(COW.codec.encode(COW.default_components()))
    note = "\U0001F0A1" * 4096  # the longest Text, 16 KiB of UTF-8
    data["cards"] = [{**c, "note": note} for c in data["cards"]]
    while True:
        extra = {**data["cards"][0], "name": f"Extra {len(data['cards'])}", "count": 1}
        if _size({**data, "cards": [*data["cards"], extra]}) > size - 100:
            break
        data["cards"].append(extra)
    data["notes"] = ""
    pad = size - _size(data)
    data["notes"] = "\U0001F0A1" * (pad // 4) + "x" * (pad % 4)
    with open("deck.json", "wb") as f:
        f.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())
    assert os.path.getsize("deck.json") == size
    return "deck.json"


def message(r) -> str:
    """Returns the one line that says what is wrong (error: … or BROKEN …)."""
    out = r.stderr + r.stdout
    return next(line for line in out.splitlines() if line.startswith(("error:", "BROKEN")))


def nested(levels: int) -> list:
    """Returns a list nested `levels` deep (the event object adds one more)."""
    value: list = []
    for _ in range(levels - 2):
        value = [value]
    return value


# -- each limit, as the writer (a command refuses, exit 2) and as the reader (exit 1) ---------
WRITE_CASES = {
    "note text": (
        lambda: ("note", GAME, "x" * 4097),
        "error: game.jsonl (seq 3, field $.text): the event would break the schema: Expected "
        "`str` of length <= 4096; nothing was written"),
    "name": (
        lambda: ("append", GAME, '{"type":"card_drawn","player":"alice","card":"' + "T" * 65 + '"}'),
        "error: argument 1: not a valid cards-of-war event: Expected `str` of length <= 64 - at "
        "`$.card`"),
    "by": (
        lambda: ("undo", GAME, "--by", "s" * 65),
        "error: game.jsonl (seq 3, field $.by): the event would break the schema: Expected `str` "
        "of length <= 64; nothing was written"),
    "players": (
        lambda: ("new", "cards-of-war", "new.jsonl", "--players", "alice," + "b" * 65),
        "error: new.jsonl: the header would not be valid: Expected `str` of length <= 64 - at `$.players[1]`"),
    "number": (
        lambda: ("append", GAME, '{"type":"card_deployed","player":"alice","card":"Tank",'
                 '"battle":4}'),
        "error: argument 1: not a valid cards-of-war event: Expected `int` <= 3 - at `$.battle`"),
    "component list": (
        lambda: ("new", "cards-of-war", "new.jsonl", "--players", "a,b", "--components",
                 components(cards=[json.loads(COW.codec.encode(COW.default_components().cards[0]))]
                            * 201)),
        "error: deck.json: components do not fit the cards-of-war schema: Expected `array` of "
        "length <= 200 - at `$.cards`"),
    "header line": (
        lambda: ("new", "cards-of-war", "new.jsonl", "--players", "alice,bob", "--components",
                 components_of_exactly(tapelog.MAX_LINE)),
        "error: new.jsonl (seq 0): the event would be a line of 1,048,715 bytes; a line holds at "
        "most 1,048,576; nothing was written"),
    "components file": (
        lambda: ("new", "cards-of-war", "new.jsonl", "--players", "a,b", "--components",
                 components(notes="n" * (1 << 20))),
        "error: deck.json: components file is larger than 1,048,576 bytes, the most a header "
        "line may hold"),
}


@pytest.mark.parametrize("case", WRITE_CASES)
def test_a_command_refuses_input_past_a_limit_and_writes_nothing(here, run, case):
    args, expected = WRITE_CASES[case]
    before = lines(GAME)
    r = run(*args())
    assert r.exit_code == 2, r.output
    assert message(r) == expected
    assert lines(GAME) == before and "Traceback" not in r.output


READ_CASES = {
    "line length": (
        lambda: add_line({"type": "note", "text": "x" * (1 << 20)}),
        "BROKEN game.jsonl:4 (byte 5026): line longer than 1048576 bytes"),
    "seq": (
        lambda: add_line({"type": "note", "text": "hi", "about": 10_000_000}),
        "BROKEN game.jsonl:4 (byte 5026, field $.about): Expected `int` <= 9999999"),
    "text": (
        lambda: add_line({"type": "note", "text": "x" * 4097}),
        "BROKEN game.jsonl:4 (byte 5026, field $.text): Expected `str` of length <= 4096"),
    "name": (
        lambda: add_line({"type": "card_drawn", "player": "alice", "card": "T" * 65}),
        "BROKEN game.jsonl:4 (byte 5026, field $.card): Expected `str` of length <= 64"),
    "number": (
        lambda: add_line({"type": "card_deployed", "player": "alice", "card": "Tank",
                          "battle": 4}),
        "BROKEN game.jsonl:4 (byte 5026, field $.battle): Expected `int` <= 3"),
    "players": (
        lambda: edit_header(players=[f"p{i}" for i in range(17)]),
        "BROKEN game.jsonl:1 (byte 0, field $.players): Expected `array` of length <= 16"),
    "nesting": (
        lambda: add_line({"type": "note", "text": "hi", "about": nested(65)}),
        "BROKEN game.jsonl:4 (byte 5026): nested too deeply: more than 64 levels of arrays and "
        "objects"),
    "signature": (
        lambda: add_line({"type": "signed", "player": "alice", "signature": "ab"}),
        "BROKEN game.jsonl:4 (byte 5026, field $.signature): Expected `str` matching regex "
        "'^[0-9a-f]{128}$'"),
}


@pytest.mark.parametrize("case", READ_CASES)
def test_the_reader_names_file_line_offset_and_field_of_a_value_past_a_limit(here, run, case):
    make, expected = READ_CASES[case]
    make()
    r = run("verify", GAME)
    assert r.exit_code == 1 and message(r) == expected
    r = run("validate", GAME)
    assert r.exit_code == 1 and expected.removeprefix("BROKEN ") in r.stdout


# messages at a bound a test lowers (README quotes them as such)
LOWERED = {
    "log full": "error: game.jsonl (seq 4, field $.seq): the log is full: a log holds at most 4 "
                "events (seq 0 to 3); nothing was written",
    "too many": "BROKEN game.jsonl:5 (byte 5150, field $.seq): more than 4 events: a log holds "
                "at most 4 (seq 0 to 3)",
    "undo depth": "error: game.jsonl: [core.undo.depth] cannot reach back more than 1 events",
}


def test_a_log_holds_at_most_max_events(here, run, monkeypatch):
    # the real bound, 10,000,000 events, lowered to 4 so the test writes 4 lines, not 10 million,
    # where it is enforced: by the reader and by append
    from tabletape.tape import reader, writer
    for enforcer in (reader, writer):
        monkeypatch.setattr(enforcer, "MAX_EVENTS", 4)
    assert run("note", GAME, "the fourth event").exit_code == 0
    r = run("note", GAME, "a fifth")
    assert r.exit_code == 2 and message(r) == LOWERED["log full"]
    add_line({"type": "note", "text": "forced in by hand"})
    r = run("verify", GAME)
    assert r.exit_code == 1 and message(r) == LOWERED["too many"]


def test_the_real_events_bound_is_the_schemas_bound_on_seq():
    assert tapelog.MAX_EVENTS == 10_000_000
    with open("schemas/envelope.schema.json", "rb") as f:
        envelope = json.load(f)
    assert envelope["$defs"]["Note"]["properties"]["seq"]["maximum"] == tapelog.MAX_EVENTS - 1


def test_undo_reaches_back_at_most_max_undo_depth_events(here, run, monkeypatch):
    from tabletape.engine import fold as fold_module
    monkeypatch.setattr(fold_module, "MAX_UNDO_DEPTH", 1)
    assert run("undo", GAME).exit_code == 0
    r = run("undo", GAME)
    assert r.exit_code == 1 and message(r) == LOWERED["undo depth"]


def test_the_manual_quotes_every_message():
    page = open("docs/format.md", encoding="utf-8").read()
    limits = page[page.index("## Limits"):]
    quoted = [m for _, m in (*WRITE_CASES.values(), *READ_CASES.values())] + [*LOWERED.values()]
    missing = [m for m in quoted if re.sub(r"^(error: |BROKEN )", "", m) not in limits]
    assert not missing, f"the Limits table of docs/format.md lacks: {missing}"


def test_nesting_at_the_limit_is_judged_by_the_schema_and_past_it_by_depth_alone(here, run):
    # the depth check makes the message the same from any call site (msgspec's own
    # recursion limit depends on how deep the caller's stack already is)
    assert tapelog.depth(b'{"a":[1,{"b":"[[[["}]}') == 3
    add_line({"type": "note", "text": "hi", "about": nested(64)})
    assert "field $.about" in message(run("verify", GAME))
