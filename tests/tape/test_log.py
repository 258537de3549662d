"""The log file: every decoding failure names file, line, offset and field; chain; append; repair."""

from __future__ import annotations

import fcntl
import json

import pytest

from tabletape import engine
from tabletape.tape import log
from tabletape.tape.errors import ChainError, LogFormatError, StaleWriter, TornTail, UsageError
from tests.conftest import COW, DRAW_ALICE, lines, new_log, write


def read_all(path):
    return list(engine.iter_records(str(path)))


def first_error(path):
    with pytest.raises((LogFormatError, ChainError)) as info:
        read_all(path)
    return info.value


def with_line(path, index: int, new: bytes) -> None:
    """Replaces line `index` (0-based) with raw bytes (newline added)."""
    ls = lines(path)
    ls[index] = new + b"\n"
    write(path, b"".join(ls))


def test_a_fresh_log_reads_back_with_a_contiguous_chain(game):
    recs = read_all(game)
    assert [r.event.seq for r in recs] == [0, 1, 2]
    assert recs[1].event.prev == recs[0].digest
    assert recs[2].offset == len(lines(game)[0]) + len(lines(game)[1])


@pytest.mark.parametrize("bad, field, words", [
    (b'{"type":"opening_card_drawn","seq":1,', None, "invalid JSON"),
    (b'{"type":"card_drawn","seq":1,"player":7,"card":"Tank"}', "$.player", "Expected `str`"),
    # found by tests/reliability (hostile input): unknown and missing fields are named
    (b'{"type":"card_drawn","seq":1,"player":"bob","card":"Tank","luck":1}', "$.luck",
     "unknown field"),
    (b'{"type":"card_drawn","seq":1,"player":"bob"}', "$.card", "missing required field"),
    (b'{"type":"game_started","seq":1,"format":1,"game":"cards-of-war","rules_version":"1",'
     b'"players":["a"],"options":{"length":"short","x":1},"components":{}}',
     "$.options.x", "unknown field"),
    (b'[1]', "$", "Expected `object`"),
    (b'{"type":"card_stolen","seq":1,"player":"bob"}', "$.type", "Invalid value"),
    (b'{"type":"card_drawn","seq":1,"player":"' + b"x" * 65 + b'","card":"Tank"}', "$.player",
     "length"),
    (b'{"type":"card_drawn","seq":1,"player":[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]}',
     "$.player", "Expected `str`"),
    (b'\xef\xbb\xbf{"type":"note","seq":1,"text":"x"}', None, "byte-order mark"),
    (b'', None, "empty line"),
    (b'{"type":"note","seq":1,"text":"\xff"}', None, "UTF-8"),
    (b'{"type":"card_drawn","seq":1,"player":"bob","card":"Tank","seq":1}', None, "canonical"),
    (b'{"seq":1,"type":"note","text":"x"}', None, "canonical"),
    (b'{"type":"note", "seq":1,"text":"x"}', None, "canonical"),
    (b'{"type":"note","seq":1,"text":"\\u0078"}', None, "canonical"),
    (b'{"type":"note","seq":1,"text":"x","dispute":false}', None, "canonical"),
])
def test_every_decoding_failure_is_one_error_naming_line_offset_and_field(game, bad, field, words):
    # line 2 (seq 1) is replaced by a bad line
    with_line(game, 1, bad)
    e = first_error(game)
    assert isinstance(e, LogFormatError)
    assert (e.file, e.line) == (str(game), 2)
    assert e.offset is not None and e.offset >= len(lines(game)[0])
    assert e.field == field
    assert words in e.reason


def test_bad_utf8_is_reported_at_its_byte_in_the_line(game):
    # found by tests/reliability (hostile input): the offset was counted from the string's start
    with_line(game, 1, b'{"type":"note","seq":1,"text":"ab\xffc"}')
    e = first_error(game)
    assert e.offset == len(lines(game)[0]) + len(b'{"type":"note","seq":1,"text":"ab')


def test_a_number_out_of_bounds_names_its_field(game):
    with_line(game, 1, b'{"type":"note","seq":1,"text":"x","about":99999999999}')
    e = first_error(game)
    assert e.field == "$.about"


def test_an_over_long_line_is_refused_without_reading_it_whole(game, tmp_path):
    limit = len(lines(game)[0]) + 10
    with_line(game, 1, b'{"type":"note","seq":1,"text":"' + b"x" * limit + b'"}')
    with pytest.raises(LogFormatError) as info:
        list(log.read_records(str(game), engine.codec_for, max_line=limit))
    assert info.value.line == 2 and f"longer than {limit} bytes" in info.value.reason


def test_a_missing_file_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError):
        read_all(tmp_path / "nope.jsonl")


def test_an_empty_file_has_no_header(tmp_path):
    path = tmp_path / "empty.jsonl"
    write(path, b"")
    assert "no header" in first_error(path).reason


def test_the_header_must_come_first(game):
    write(game, b"".join(lines(game)[1:]))
    e = first_error(game)
    assert e.line == 1 and "game_started" in e.reason


def test_an_unknown_game_in_the_header_is_named(tmp_path):
    path = tmp_path / "g.jsonl"
    write(path, b'{"type":"game_started","seq":0,"format":1,"game":"chess","rules_version":"1",'
          b'"players":["a"],"components":{}}\n')
    with pytest.raises(UsageError) as info:
        read_all(path)
    assert "chess" in info.value.reason and info.value.line == 1
    # found by tests/reliability (tampering): the error also names offset and field
    assert (info.value.offset, info.value.field) == (0, "$.game")


def test_a_seq_gap_breaks_the_chain_at_that_line(game):
    ls = lines(game)
    ev = json.loads(ls[2])
    ev["seq"] = 5
    with_line(game, 2, json.dumps(ev, separators=(",", ":")).encode())
    e = first_error(game)
    assert isinstance(e, ChainError) and e.line == 3 and e.field == "$.seq"


@pytest.mark.parametrize("index", [0, 1])
def test_a_changed_line_breaks_the_chain_on_the_next_line(game, index):
    ls = lines(game)
    changed = ls[index].replace(b'"alice"', b'"bobby"', 1)
    assert changed != ls[index]
    ls[index] = changed
    write(game, b"".join(ls))
    e = first_error(game)
    assert isinstance(e, ChainError) and e.line == index + 2 and f"line {index + 1}" in e.reason


def test_a_deleted_line_is_caught(game):
    ls = lines(game)
    write(game, ls[0] + ls[2])
    assert isinstance(first_error(game), ChainError)


def test_a_torn_last_line_is_reported_as_torn(game):
    with open(game, "ab") as f:
        f.write(b'{"type":"note","se')
    e = first_error(game)
    assert isinstance(e, TornTail) and e.line == 4 and "repair" in e.reason


def test_a_line_still_being_written_is_waited_for_not_reported_torn(game, monkeypatch):
    # found by tests/reliability (concurrency): a reader without the lock could see half of
    # a line another writer was writing and call the log torn. Here the "writer" finishes
    # its line when the reader asks for the lock.
    log.append(str(game), [DRAW_ALICE], COW.codec, expect=None)
    whole = lines(game)
    write(game, b"".join(whole[:-1]) + whole[-1][:10])

    def writer_finishes(fd, op):
        if op == fcntl.LOCK_SH:
            with open(game, "ab") as f:
                f.write(whole[-1][10:])
    monkeypatch.setattr(fcntl, "flock", writer_finishes)
    assert [r.event.seq for r in read_all(game)] == [0, 1, 2, 3]


def test_append_fills_the_envelope_and_extends_the_chain(game):
    tail = engine.replay(str(game)).tail
    new = log.append(str(game), [DRAW_ALICE], COW.codec, expect=tail)
    recs = read_all(game)
    assert new.seq == 3 and recs[-1].event.prev == recs[-2].digest and new.head == recs[-1].digest


def test_a_stale_writer_is_refused_and_nothing_is_written(game):
    stale = engine.replay(str(game)).tail
    log.append(str(game), [DRAW_ALICE], COW.codec, expect=stale)
    before = game.read_bytes()
    with pytest.raises(StaleWriter) as info:
        log.append(str(game), [DRAW_ALICE], COW.codec, expect=stale)
    assert game.read_bytes() == before
    assert "moved on" in info.value.reason and info.value.seq == 3


def test_append_refuses_a_torn_log_until_repair(game):
    with open(game, "ab") as f:
        f.write(b'{"type":"no')
    with pytest.raises(TornTail):
        log.append(str(game), [DRAW_ALICE], COW.codec, expect=None)
    moved, aside, _ = log.repair(str(game))
    assert aside is not None
    assert moved == 11 and open(aside, "rb").read() == b'{"type":"no'
    assert len(read_all(game)) == 3
    log.append(str(game), [DRAW_ALICE], COW.codec, expect=None)
    assert len(read_all(game)) == 4


def test_repair_never_overwrites_an_earlier_torn_file(game):
    for chunk in (b"{", b"{{"):
        with open(game, "ab") as f:
            f.write(chunk)
        log.repair(str(game))
    assert open(f"{game}.torn", "rb").read() == b"{"
    assert open(f"{game}.torn.1", "rb").read() == b"{{"


def test_repair_of_a_sound_log_changes_nothing(game):
    before = game.read_bytes()
    assert log.repair(str(game)) == (0, None, ())
    assert game.read_bytes() == before


def test_create_never_overwrites(game):
    before = game.read_bytes()
    with pytest.raises(UsageError):
        new_log(game)
    assert game.read_bytes() == before


def test_reading_streams_one_line_at_a_time(game):
    # the reader is a generator: the first record arrives before the file is read through
    records = engine.iter_records(str(game))
    first = next(records)
    assert first.line == 1
    with open(game, "ab") as f:
        f.write(b"garbage\n")
    assert next(records).line == 2
