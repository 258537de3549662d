"""Trust: the index never vouches for bytes it has not read; editor damage is named and
restored only where the chain proves it; the recorded rules version is reported."""

from __future__ import annotations

import os

import msgspec
import pytest

from tabletape import engine
from tabletape.engine import index
from tabletape.games.cards_of_war.events import Options
from tabletape.tape import log
from tabletape.tape.events import Note
from tests.conftest import COW, lines, write
from tests.test_index import lines_hash, same, session_log

# -- C. rules versions -------------------------------------------------------------------

def test_a_log_recorded_under_other_rules_is_valid_and_says_so(tmp_path):
    path = tmp_path / "old.jsonl"
    header = COW.start(("alice", "bob"), Options(length="short"), COW.default_components())
    header = msgspec.structs.replace(header, rules_version="0.0-old")
    log.create(str(path), header, COW.codec)
    r = engine.replay(str(path))
    assert r.ok and r.rules_versions == ("0.0-old", COW.version)
    assert engine.replay(str(path), history=False).rules_versions == ("0.0-old", COW.version)


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
    index.replay(path)
    assert index.load(path, COW, lines_hash(path)).checkpoints
    return path


def from_checkpoint(path: str, **kw) -> tuple[engine.Replay, bool]:
    """Returns `replay(path, history=False)` and whether it started from a checkpoint."""
    r = engine.replay(path, history=False, **kw)
    return r, bool(r.fold is not None and r.fold.partial)


def agrees_with_a_full_read(path: str) -> None:
    """Asserts the index is not used, and the answer is that of a replay from line 1.

    The first read after the change reads the log whole (and writes the index again
    from what it read); later reads may use that.
    """
    for n, to in enumerate((60, None, 30)):
        r, used = from_checkpoint(path, to=to)
        assert not (used and n == 0)
        full = engine.replay(path, to=to)
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
