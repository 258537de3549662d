"""The engine's own fast paths (issue 28), each pinned to its plain definition.

- `reading.walk` is one loop, and a visitor that only folds (`Visitor`, `JudgeAll`, `Chain`)
  finds what one shown every line as a `Judged` (`Watch`, `WatchAll`, `WatchChain`) finds.
- `reader.read_records` yields each block's records through `chain`; a problem is raised
  after the records before it, as a generator reading line by line did.
- `Fold.feed` notes the usual undo in an array and settles `core_seqs` and `retracted` when
  they are read (`Ledger.settle`), as `_feed_core` writes them at once.
- corpus check counts the legal next events with the visitor `Each` and reuses the count of an
  unchanged state; the plain count is `0 if over else len(list(legal))` after every seq.
"""

from __future__ import annotations

import glob
import os
import typing

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape import engine
from tabletape.app import judge
from tabletape.engine import fold as folding
from tabletape.engine import reading
from tabletape.tape import reader
from tabletape.tape.codec import MAX_LINE
from tabletape.tape.errors import TapeError
from tests.conftest import lines, write
from tests.narrow import present

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPLAYS = sorted(glob.glob(os.path.join(ROOT, "replays", "*", "*.jsonl")))


def facts(r: reading.Replay) -> tuple:
    """What a pass found, as plain data."""
    f = r.fold
    folded = None if f is None else (
        msgspec.to_builtins(f.state), dict(f.retracted), sorted(f.core_seqs),
        sorted(f.unjudged), sorted(f.signed), {s: e.rule for s, e in f.corrected.items()},
        sorted(f.illegal), f.blocked, f.evicted, [e.seq for e in f.stack],
        [msgspec.structs.asdict(d) for d in f.disputes], f.last_seq)
    return (r.head, r.events, None if r.error is None else (type(r.error), str(r.error)),
            [str(p) for p in r.problems], msgspec.to_builtins(r.header), folded)


def both(path: str, **kw) -> tuple[tuple, tuple]:
    keep = kw.pop("keep_going", False)
    rules = kw.pop("rules", True)
    folds, watches = ((reading.JudgeAll, reading.WatchAll) if keep else
                      (reading.Visitor, reading.Watch) if rules else
                      (reading.Chain, reading.WatchChain))
    seen: list[int] = []
    fast = reading.walk(reading.Replay(path), reading.iter_records(path), folds())
    plain = reading.walk(reading.Replay(path), reading.iter_records(path),
                         watches(lambda j: seen.append(j.seq)))
    assert seen == list(range(len(seen)))  # every line shown, in order
    return facts(fast), facts(plain)


def broken(tmp_path, path: str) -> list[str]:
    """Copies of a log broken three ways: a changed line, a torn tail, a bad header."""
    raw = lines(path)
    mid = len(raw) // 2
    cases = {"changed": [*raw[:mid], raw[mid].replace(b'"seq":', b'"seq": '), *raw[mid + 1:]],
             "torn": [*raw[:-1], raw[-1][:-5]],
             "header": [raw[0].replace(b'"format":1', b'"format":2'), *raw[1:]]}
    out = []
    for name, data in cases.items():
        write(tmp_path / f"{name}.jsonl", b"".join(data))
        out.append(str(tmp_path / f"{name}.jsonl"))
    return out


@pytest.mark.parametrize("path", REPLAYS, ids=os.path.basename)
def test_a_visitor_that_folds_finds_what_one_that_watches_finds(path):
    for keep in (False, True):
        fast, plain = both(path, keep_going=keep)
        assert fast == plain
    fast, plain = both(path, rules=False)
    assert fast == plain


def test_the_visitors_agree_on_broken_logs_and_a_long_session(tmp_path, long_log):
    for p in [long_log, *broken(tmp_path, long_log)]:
        fast, plain = both(p, keep_going=True)
        assert fast == plain
        fast, plain = both(p, rules=False)
        assert fast == plain


def test_walk_on_from_a_fold_in_steps_is_one_pass(long_log):
    """The index walks a log in slices, on from the fold it has: the same as one pass."""
    import itertools
    whole = reading.walk(reading.Replay(long_log), reading.iter_records(long_log),
                         reading.Visitor())
    records = reading.iter_records(long_log)
    step = reading.Replay(long_log)
    for n in (1, 1, 500, 1000, 10_000):
        reading.walk(step, itertools.islice(records, n), reading.Visitor())
    assert facts(step) == facts(whole)


def _one_by_one(path: str):
    """The records a line-by-line reader yields before its error (the strict path only)."""
    out: list[reader.Record] = []
    at = reader._Cursor(0, 0, None, None)
    with open(path, "rb") as f:
        data = f.read()
    try:
        reader._check_lines(data, at, path, engine.codec_for, MAX_LINE, out)
    except TapeError as e:
        return out, (type(e), str(e))
    return out, None


def test_records_come_before_the_error_of_their_block(tmp_path, long_log):
    for p in [long_log, *broken(tmp_path, long_log)]:
        got = []
        err = None
        try:
            for rec in reader.read_records(p, engine.codec_for):
                got.append(rec)
        except TapeError as e:
            err = (type(e), str(e))
        want, want_err = _one_by_one(p)
        assert [(r.line, r.offset, r.digest) for r in got] == \
            [(r.line, r.offset, r.digest) for r in want]
        assert err == want_err


def test_nothing_is_opened_until_a_record_is_asked_for(tmp_path):
    records = reader.read_records(str(tmp_path / "gone.jsonl"), engine.codec_for)
    with pytest.raises(TapeError, match="no such log file"):
        next(records)


def test_undos_settled_in_small_batches_are_the_same_facts(long_log, monkeypatch):
    big = facts(reading.replay(long_log))
    monkeypatch.setattr(folding, "UNDOS_PENDING", 2)
    assert facts(reading.replay(long_log)) == big
    monkeypatch.setattr(folding, "UNDOS_PENDING", 6)
    seen = []
    reading.replay(long_log, visit=lambda j: seen.append((j.seq in present(j.fold).core_seqs,
                                                         dict(present(j.fold).retracted))) if j.seq
                   % 97 == 0 else None)
    monkeypatch.setattr(folding, "UNDOS_PENDING", 1 << 20)
    again = []
    reading.replay(long_log, visit=lambda j: again.append((j.seq in present(j.fold).core_seqs,
                                                          dict(present(j.fold).retracted))) if j.seq
                   % 97 == 0 else None)
    assert seen == again


def plain_counts(path: str) -> tuple[list[int], int | None]:
    """The number of legal next events after every seq, as `len(list(legal))`, and the seq
    that ended the game: the plain definition, with a visitor."""
    counts: list[int] = []
    over_at: list[int] = []

    def visit(j: reading.Judged) -> None:
        assert j.fold is not None
        rs, state = j.fold.ruleset, j.fold.state
        over = rs.over(state)
        if over and not over_at:
            over_at.append(j.seq)
        counts.append(0 if over else len(list(rs.legal(state))))
    reading.replay(path, visit=visit)
    return counts, (over_at[0] if over_at else None)


@pytest.mark.parametrize("path", REPLAYS, ids=os.path.basename)
def test_judges_counts_are_the_plain_counts(path):
    entry = judge.judge(path)
    counts, over_at = plain_counts(path)
    assert judge.decode_counts(entry.moves) == counts
    assert entry.over_at == over_at


def test_judges_counts_on_a_long_session_with_undos_and_notes(long_log):
    entry = judge.judge(long_log)
    counts, over_at = plain_counts(long_log)
    assert judge.decode_counts(entry.moves) == counts
    assert entry.over_at == over_at


def _plain_encoding(counts: list[int]) -> str:
    return "".join("?" if n < 0 else judge._DIGITS[n] if n < len(judge._DIGITS) else f"~{n}."
                   for n in counts)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.lists(st.integers(0, 61)), st.lists(st.integers(-1, 300))))
def test_counts_are_encoded_as_the_plain_loop_writes_them(counts):
    assert judge.encode_counts(counts) == _plain_encoding(counts)
    assert judge.decode_counts(judge.encode_counts(counts)) == counts


def test_the_core_test_by_type_is_isinstance():
    """Fold.feed asks `_IS_CORE` by the event's type: isinstance(event, _CORE) by definition."""
    seen = 0
    for path in REPLAYS:
        for rec in reader.read_records(path, engine.codec_for):
            kind = type(rec.event)
            core = folding._IS_CORE.get(kind)
            if core is None:
                core = folding._is_core(kind)
            assert core == isinstance(rec.event, folding._CORE)
            seen += core
    assert seen  # (headers, notes, undos among them)
    for rs in engine.all_games():
        for kind in typing.get_args(rs.union()):
            assert folding._is_core(kind) == issubclass(kind, folding._CORE)
