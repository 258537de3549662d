"""Trust: the index never vouches for bytes it has not read; editor damage is named and
restored only where the chain proves it; the recorded rules version is reported."""

from __future__ import annotations

import os

import msgspec
import pytest

from tabletape import engine
from tabletape.engine import index
from tabletape.engine.index import state_at
from tabletape.games.cards_of_war.events import Options
from tabletape.tape import log
from tabletape.tape.errors import LogFormatError, MissingNewline, TornTail, UsageError
from tabletape.tape.events import Note
from tests.conftest import COW, lines, write
from tests.engine.test_index import lines_hash, same, session_log
from tests.narrow import present
from tests.reliability import figures

# the figure: index edits tried, reads of each edited log compared with a read from line 1,
# and misleading answers (the index used on the first read, or an answer that differs)
TALLY = {"edits": 0, "reads": 0, "misleading": 0}


@pytest.fixture(scope="module", autouse=True)
def _figure():
    yield
    if TALLY["edits"]:
        figures.record("trust: the index after edits by anything but tabletape",
                       edits=TALLY["edits"], reads=TALLY["reads"],
                       misleading=TALLY["misleading"])

# -- C. rules versions -------------------------------------------------------------------

def test_a_log_recorded_under_other_rules_is_valid_and_says_so(tmp_path):
    path = tmp_path / "old.jsonl"
    header = COW.start(("alice", "bob"), Options(length="short"), COW.default_components())
    header = msgspec.structs.replace(header, rules_version="0.0-old")
    log.create(str(path), header, COW.codec)
    r = engine.replay(str(path))
    assert r.ok and r.rules_versions == ("0.0-old", COW.version)
    assert state_at(str(path)).rules_versions == ("0.0-old", COW.version)


def test_a_log_recorded_under_these_rules_has_no_rules_versions(game):
    assert engine.replay(str(game)).rules_versions is None


# -- A. the index never vouches for bytes it has not read --------------------------------

@pytest.fixture
def small_index(monkeypatch):
    """Checkpoints every 16 events, on any log: long logs in miniature."""
    monkeypatch.setattr(index, "INDEX_EVERY", 16)
    monkeypatch.setattr(index, "INDEX_MIN", 0)


@pytest.fixture
def indexed(tmp_path, small_index) -> str:
    """A 100-event log with its index written (checkpoints at 16, 32, ... 96)."""
    path = session_log(tmp_path / "g.jsonl", events=100)
    index.state_at(path)
    assert index.load(path, COW, lines_hash(path)).checkpoints
    return path


def from_checkpoint(path: str, **kw) -> tuple[engine.Replay, bool]:
    """Returns `state_at(path)` and whether it started from a checkpoint."""
    r = state_at(path, **kw)
    return r, bool(r.fold is not None and r.fold.partial)


def agrees_with_a_full_read(path: str) -> None:
    """Asserts the index is not used, and the answer is that of a replay from line 1.

    The first read after the change reads the log whole (and writes the index again
    from what it read); later reads may use that.
    """
    TALLY["edits"] += 1
    for n, to in enumerate((60, None, 30)):
        r, used = from_checkpoint(path, to=to)
        full = engine.replay(path, to=to)
        differs = ([str(e) for e in r.problems] != [str(e) for e in full.problems]
                   or (r.events, r.tail) != (full.events, full.tail))
        TALLY["reads"] += 1
        TALLY["misleading"] += bool((used and n == 0) or differs)
        assert not (used and n == 0)
        assert [str(e) for e in r.problems] == [str(e) for e in full.problems]
        assert (r.events, r.tail) == (full.events, full.tail)


def flip_prev_digit(line: bytes) -> bytes:
    """Returns a line of the same length whose `prev` differs in one hex digit."""
    at = line.index(b'"prev":"') + len(b'"prev":"')
    return line[:at] + (b"0" if line[at:at + 1] != b"0" else b"1") + line[at + 1:]


def test_nothing_changed_or_tabletape_appended_the_checkpoint_is_used(indexed, run):
    assert from_checkpoint(indexed)[1]
    assert run("append", indexed, '{"type":"note","text":"more"}').exit_code == 0
    log.append(indexed, [Note(text="again")], COW.codec, expect=None)
    r, used = from_checkpoint(indexed, to=90)
    assert used
    same(r, engine.replay(indexed, to=90))


def edit_in_place(path: str, line: int, keep_mtime: bool = False) -> None:
    """Changes one byte of a line without changing the file's length (as an editor might)."""
    st = os.stat(path)
    ls = lines(path)
    with open(path, "r+b") as f:
        f.seek(sum(map(len, ls[:line])))
        f.write(flip_prev_digit(ls[line]))
    if keep_mtime:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.path.getsize(path) == st.st_size


@pytest.mark.parametrize("keep_mtime", [False, True])
def test_an_early_byte_changed_in_place_is_never_trusted(indexed, run, keep_mtime):
    edit_in_place(indexed, 5, keep_mtime)
    full = engine.replay(indexed)
    assert full.error is not None and full.error.line == 6
    agrees_with_a_full_read(indexed)
    size = os.path.getsize(indexed)
    r = run("append", indexed, '{"type":"note","text":"more"}')
    assert r.exit_code == 1 and os.path.getsize(indexed) == size
    assert run("note", indexed, "hello").exit_code == 1 and os.path.getsize(indexed) == size
    assert run("replay", indexed, "--to", 90).exit_code == 1


def test_an_edit_with_its_custody_record_rewritten_is_never_trusted(indexed):
    """Issue 22, 10: the custody record is sealed with the user's key like the index; a
    forger who edits the log and writes the record a stamp of the edited file (every field
    of which anyone can read), keeping the epoch, is not believed."""
    import hashlib
    import time
    cpath = log.custody_path(indexed)
    old = open(cpath, "rb").read()
    held = msgspec.msgpack.decode(old[-len(msgspec.msgpack.encode(log.read_custody(indexed))):],
                                  type=log.Custody)
    edit_in_place(indexed, 5)
    time.sleep(0.05)  # the clock passes the edit: the stamp a reader takes is this one
    body = msgspec.msgpack.encode(log.Custody(held.epoch, log.Stamp.of(os.stat(indexed))))
    sealed = len(old) > len(body)  # the best guess at a seal without the key
    write(cpath, (hashlib.sha256(b"custody" + body).digest() if sealed else b"") + body)
    assert present(engine.replay(indexed).error).line == 6
    agrees_with_a_full_read(indexed)


def test_an_edit_right_after_an_append_is_never_trusted(indexed):
    log.append(indexed, [Note(text="again")], COW.codec, expect=None)
    edit_in_place(indexed, 5)  # in the same clock tick, as like as not
    agrees_with_a_full_read(indexed)


def test_a_truncated_log_is_never_trusted(indexed):
    data = open(indexed, "rb").read()
    cut = sum(map(len, lines(indexed)[:98]))  # keeps every checkpoint's line
    for at in (cut, cut + 7, 700):
        with open(indexed, "r+b") as f:
            f.truncate(at)
        agrees_with_a_full_read(indexed)
        write(indexed, data)


@pytest.mark.parametrize("extra", [b'{"type":"note","seq":101,"prev":"' + b"0" * 64
                                   + b'","text":"by hand"}\n', b"junk\n"])
def test_a_line_appended_by_hand_is_never_trusted(indexed, extra):
    with open(indexed, "ab") as f:
        f.write(extra)
    assert engine.replay(indexed).error is not None
    agrees_with_a_full_read(indexed)


def test_a_replaced_file_is_never_trusted(indexed):
    ls = lines(indexed)
    ls[5] = flip_prev_digit(ls[5])
    new = indexed + ".new"
    write(new, b"".join(ls))
    st = os.stat(indexed)
    os.utime(new, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(new, indexed)
    agrees_with_a_full_read(indexed)


def test_a_log_read_whole_again_gets_a_trusted_index_again(indexed):
    ls = lines(indexed)
    write(indexed, b"".join(ls))  # rewritten (same bytes) by something else
    agrees_with_a_full_read(indexed)  # read whole: the index is rewritten
    assert from_checkpoint(indexed)[1]


# -- B. editor damage is named, and undone only where the chain proves it -----------------

def damaged(game, kind: str) -> bytes:
    """Writes the game log as an editor might have saved it; returns the recorded bytes."""
    data = game.read_bytes()
    edits = {"crlf": data.replace(b"\n", b"\r\n"), "blank": data + b"\n",
             "blanks": data + b"\r\n\n", "bom": log.BOM + data, "no-newline": data[:-1],
             "notepad": log.BOM + data[:-1].replace(b"\n", b"\r\n"),
             "all": log.BOM + data.replace(b"\n", b"\r\n") + b"\r\n"}
    write(game, edits[kind])
    return data


def first_error(path):
    r = engine.read_chain(str(path))
    assert r.error is not None
    return r.error


def test_windows_line_endings_are_named(game):
    damaged(game, "crlf")
    e = first_error(game)
    assert isinstance(e, LogFormatError) and (e.line, e.field) == (1, None)
    assert e.reason == (f"ends with CR: a Windows line ending (CRLF), as an editor may save a "
                        f"file; tabletape writes LF only: `tabletape repair {game}` restores LF "
                        "endings if the hash chain proves nothing else changed")
    assert e.offset == len(lines(game)[0]) - 2  # the CR itself
    with pytest.raises(LogFormatError, match="the last line ends with CR"):  # never chained on
        log.append(str(game), [Note(text="x")], COW.codec, expect=None)


def test_a_trailing_empty_line_is_named(game):
    damaged(game, "blank")
    e = first_error(game)
    assert (e.line, e.reason) == (4, "empty line at the end of the log, as an editor may add one; "
                                  f"`tabletape repair {game}` removes trailing empty lines")
    with pytest.raises(LogFormatError) as info:
        log.append(str(game), [Note(text="x")], COW.codec, expect=None)
    assert info.value.reason == ("the log ends with an empty line, as an editor may add one; "
                                 "`tabletape repair` removes trailing empty lines")


def test_an_empty_line_inside_the_log_is_still_just_an_empty_line(game):
    ls = lines(game)
    write(game, ls[0] + b"\n" + b"".join(ls[1:]))
    assert first_error(game).reason == "empty line"


def test_a_byte_order_mark_is_named(game):
    damaged(game, "bom")
    e = first_error(game)
    assert (e.line, e.offset) == (1, 0)
    assert e.reason == ("starts with a byte-order mark (BOM), as an editor may save a file; lines "
                        f"must be plain UTF-8 JSON: `tabletape repair {game}` removes it if the "
                        "hash chain proves nothing else changed")


def test_a_complete_last_line_without_its_newline_is_named(game):
    damaged(game, "no-newline")
    e = first_error(game)
    assert isinstance(e, MissingNewline) and e.line == 3
    assert e.reason == ("last line is a complete event without its final newline, as an editor "
                        f"may save a file; `tabletape repair {game}` restores the newline")


def test_what_repair_does_is_told_by_the_kind_of_tear_not_by_its_words(game, run):
    """A whole event without its newline (an editor) and a line cut short (a crash) are two
    kinds of TornTail; what `repair` does about each goes with its kind, and validate says it."""
    # an editor saved the log without its last newline: repair adds it back
    damaged(game, "no-newline")
    assert isinstance(first_error(game), MissingNewline)
    r = run("validate", game)
    assert r.exit_code == 1
    assert f"`tabletape repair {game}` restores the newline" in r.output
    # a crash cut the last line short: repair moves the torn bytes aside
    write(game, game.read_bytes()[:-5])
    e = first_error(game)
    assert isinstance(e, TornTail) and not isinstance(e, MissingNewline)
    assert e.repairs == "moves the torn bytes aside"
    r = run("validate", game)
    assert r.exit_code == 1
    assert f"`tabletape repair {game}` moves the torn bytes aside" in r.output


@pytest.mark.parametrize("kind", ["crlf", "blank", "blanks", "bom", "no-newline", "notepad", "all"])
@pytest.mark.parametrize("codec_for", [engine.codec_for, None])
def test_repair_restores_editor_damage_byte_for_byte(game, kind, codec_for):
    recorded = damaged(game, kind)
    original = game.read_bytes()
    done = log.repair(str(game), codec_for)
    moved, aside, _ = done
    assert game.read_bytes() == recorded
    assert (moved, aside) == (len(original), f"{game}.orig") and done.restored
    assert aside is not None
    assert open(aside, "rb").read() == original  # nothing recorded is lost
    assert engine.replay(str(game)).ok
    assert log.repair(str(game)) == (0, None, ())  # and there is nothing left to do


def test_what_repair_says_it_restored(game):
    damaged(game, "all")
    assert log.repair(str(game), engine.codec_for).restored == (
        "a byte-order mark (BOM) before line 1", "Windows line endings (CRLF) on 3 of 3 lines",
        "1 empty line at the end")


def test_repair_refuses_what_the_chain_does_not_prove(game):
    data = game.read_bytes().replace(b'"alice"', b'"alicf"', 1)  # changed, then saved as CRLF
    write(game, data.replace(b"\n", b"\r\n"))
    before = game.read_bytes()
    with pytest.raises(UsageError) as info:
        log.repair(str(game), engine.codec_for)
    assert info.value.line == 2 and info.value.reason == (
        f"cannot restore {game}: it has Windows line endings (CRLF), but line 2's prev is not "
        "the SHA-256 of line 1, so line 1 is not as recorded; a log is restored only where its "
        "hash chain proves every line as recorded; nothing was changed")
    assert game.read_bytes() == before
    assert [f for f in os.listdir(game.parent) if not f.startswith(".")] == ["game.jsonl"]


def test_repair_with_a_codec_refuses_a_line_that_is_not_canonical(game):
    ls = lines(game)
    ls[2] = ls[2].replace(b'{"type":"opening_card_drawn",', b'{"type": "opening_card_drawn",')
    write(game, b"".join(x.replace(b"\n", b"\r\n") for x in ls))
    with pytest.raises(UsageError, match="once undone line 3 still reads: not canonical"):
        log.repair(str(game), engine.codec_for)


def test_an_unterminated_line_that_does_not_chain_is_moved_aside_as_torn(game):
    last = lines(game)[-1]
    with open(game, "ab") as f:
        f.write(last[:-1])  # a whole event, but a copy: its seq and prev do not follow
    assert isinstance(first_error(game), TornTail)
    assert "torn last line" in first_error(game).reason
    moved, aside, _ = log.repair(str(game), engine.codec_for)
    assert aside is not None
    assert (moved, open(aside, "rb").read()) == (len(last) - 1, last[:-1])
    assert aside.endswith(".torn") and engine.replay(str(game)).ok


def test_a_writer_waiting_for_a_repair_appends_to_the_repaired_file(game, monkeypatch):
    import fcntl
    recorded = damaged(game, "blank")
    fixed = game.parent / "fixed.jsonl"
    write(fixed, recorded)
    real, calls = fcntl.flock, list[int]()

    def repair_finishes_first(fd, op):
        if op == fcntl.LOCK_EX and not calls:
            os.replace(fixed, game)  # the repair renames its result into place meanwhile
        calls.append(op)
        return real(fd, op)
    monkeypatch.setattr(fcntl, "flock", repair_finishes_first)
    log.append(str(game), [Note(text="after")], COW.codec, expect=None)
    assert engine.replay(str(game)).ok and len(lines(game)) == 4


def test_custody_files_are_not_taken_for_logs(indexed, run):
    custody = log.custody_path(indexed)
    assert os.path.exists(custody) and index.is_index(custody)
    r = run("validate", indexed, custody)
    assert r.exit_code == 0 and "1 of 1" not in r.stdout


@pytest.mark.parametrize("tail", [b"\n{}\n", b"\n\n{\"type\":\"no", b"\n\n{}"])
def test_empty_lines_inside_the_log_are_refused_not_removed(game, tail):
    write(game, game.read_bytes().replace(b"\n", b"\r\n") + tail)
    before = game.read_bytes()
    with pytest.raises(UsageError, match="line 4 is not a JSON event"):
        log.repair(str(game), engine.codec_for)
    assert game.read_bytes() == before


def test_a_torn_line_after_editor_damage_is_left_out_and_kept_in_the_side_file(game):
    recorded = game.read_bytes()
    write(game, recorded.replace(b"\n", b"\r\n") + b'{"type":"no')
    original = game.read_bytes()
    done = log.repair(str(game), engine.codec_for)
    assert done.aside is not None
    assert game.read_bytes() == recorded and open(done.aside, "rb").read() == original
    assert done.restored == ("Windows line endings (CRLF) on 3 of 3 lines",
                             "a torn last line of 11 bytes (left out)")


def test_the_cli_repair_restores_windows_line_endings_and_says_what_it_undid(game, run):
    original = open(game, "rb").read()
    write(game, original.replace(b"\n", b"\r\n"))
    broken = run("validate", game)
    assert broken.exit_code == 1 and "Windows line ending (CRLF)" in broken.output
    r = run("repair", game)
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"restored {game}: undid Windows line endings (CRLF) on ")
    assert f"the original file is in {game}.orig" in r.output
    assert open(game, "rb").read() == original
    assert run("validate", game).exit_code == 0
