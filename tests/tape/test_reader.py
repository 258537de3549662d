"""The block reader: the same records and the same errors as reading line by line, on long logs."""

from __future__ import annotations

import hashlib
from collections.abc import MutableSet

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletape import engine
from tabletape.tape import log
from tabletape.tape.errors import ChainError, LogFormatError, TornTail
from tabletape.tape.seqs import SeqMap, SeqSet
from tests.conftest import lines, write


def test_records_match_a_line_by_line_reading(long_log):
    offset = 0
    records = list(engine.iter_records(long_log))
    for n, raw in enumerate(lines(long_log)):
        rec = records[n]
        assert (rec.line, rec.offset, rec.raw) == (n + 1, offset, raw[:-1])
        assert rec.digest == hashlib.sha256(raw[:-1]).hexdigest() and rec.event.seq == n
        offset += len(raw)
    assert len(records) == 3001


@pytest.mark.parametrize("at", [1, 700, 1500, 2999])
@pytest.mark.parametrize("damage, error", [
    (lambda raw: raw.replace(b'"seq":', b'"seq": ', 1), LogFormatError),  # spaced
    (lambda raw: raw.replace(b'"prev":"', b'"prev":"0', 1)[:-2] + b'"}\n', LogFormatError),
    (lambda raw: b"\n" + raw, LogFormatError),  # an empty line
    (lambda raw: raw[:-1] + b"\r\n", LogFormatError),  # only \n ends a line
    (lambda raw: b"", ChainError),  # a line removed
])
def test_a_problem_deep_in_the_log_is_named_exactly(tmp_path, long_log, at, damage, error):
    ls = lines(long_log)
    ls[at] = damage(ls[at])
    path = tmp_path / "bad.jsonl"
    write(path, b"".join(ls))
    seen = []
    with pytest.raises(error) as info:
        for rec in engine.iter_records(str(path)):
            seen.append(rec.line)
    assert info.value.line == at + 1 and seen == list(range(1, at + 1))
    assert info.value.offset is None or info.value.offset >= sum(map(len, ls[:at]))


def test_a_torn_tail_after_many_blocks(tmp_path, long_log):
    path = tmp_path / "torn.jsonl"
    write(path, open(long_log, "rb").read() + b'{"type":"no')
    with pytest.raises(TornTail) as info:
        sum(1 for _ in engine.iter_records(str(path)))
    assert info.value.line == 3002


def test_an_overlong_line_is_refused_unread(tmp_path, long_log):
    path = tmp_path / "long-line.jsonl"
    ls = lines(long_log)
    limit = len(ls[0])  # the header, the longest line, just fits
    write(path, b"".join(ls[:10]) + b"x" * (limit + 1) + b"\n" + b"".join(ls[10:]))
    with pytest.raises(LogFormatError) as info:
        for _ in log.read_records(str(path), engine.codec_for, max_line=limit):
            pass
    assert info.value.line == 11 and f"longer than {limit}" in info.value.reason


ops = st.lists(st.tuples(st.sampled_from(["add", "discard"]), st.integers(0, 5000)))


@given(ops)
def test_seqset_behaves_as_a_set(ops):
    mine = SeqSet()
    ref: MutableSet[int] = set()  # a SeqSet is compared with it as any two sets are
    for op, seq in ops:
        getattr(mine, op)(seq)
        getattr(ref, op)(seq)
    assert mine == ref and len(mine) == len(ref) and sorted(mine) == sorted(ref)
    assert all((s in mine) == (s in ref) for s in range(-1, 5002, 7))


@given(st.lists(st.tuples(st.integers(0, 5000), st.integers(1, 10_000_000))))
def test_seqmap_behaves_as_a_dict(pairs):
    mine, d = SeqMap(), {}
    for k, v in pairs:  # in any order, a seq set again
        mine[k] = v
        d[k] = v
    assert mine == d and len(mine) == len(d) and dict(mine) == d and list(mine) == sorted(d)
    assert all(mine.get(s) == d.get(s) and (s in mine) == (s in d) for s in range(-1, 5002, 7))


def test_seqmap_holds_the_seqs_from_the_lowest_set_not_from_0():
    """A fold resumed at a checkpoint deep in a long log maps only the seqs after it."""
    mine = SeqMap()
    mine[500_000] = 500_001
    mine[500_100] = 500_101
    mine[499_990] = 500_102  # an undo reaching below the first seq set
    assert mine._values.buffer_info()[1] < 1_000
    assert dict(mine) == {499_990: 500_102, 500_000: 500_001, 500_100: 500_101}


@given(st.lists(st.lists(st.integers(0, 5000), max_size=20), max_size=8))
def test_seqset_add_all_is_add_each(batches):
    mine, ref = SeqSet(), SeqSet()
    for batch in batches:
        mine.add_all(batch)
        for s in batch:
            ref.add(s)
        assert mine == ref and len(mine) == len(ref) and bytes(mine._bits).rstrip(b"\0") \
            == bytes(ref._bits).rstrip(b"\0")


@given(st.lists(st.lists(st.tuples(st.integers(0, 5000), st.integers(1, 10_000_000)),
                         max_size=20), max_size=8))
def test_seqmap_set_all_is_setting_each(batches):
    mine, d = SeqMap(), {}
    for batch in batches:
        mine.set_all([k for k, _ in batch], [v for _, v in batch])
        d.update(batch)
        assert dict(mine) == d and len(mine) == len(d)
