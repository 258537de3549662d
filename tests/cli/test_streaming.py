"""`log` streams: flat memory on a long log, rows as they come, --from/--to, --as, `| head`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tabletape.app import logrows
from tabletape.engine import index, reading
from tests.conftest import lines, session_log, write
from tests.narrow import present

KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"
SHORT = "replays/cards-of-war/sim-normal.jsonl"
ENV = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))), "src"), "TABLETAPE_CLOCK": "off"}


@pytest.fixture(scope="module")
def long_log(tmp_path_factory) -> str:
    return session_log(tmp_path_factory.mktemp("stream") / "long.jsonl", 11, 40_000)


def peak_rss_kib(*args: str) -> int:
    """Runs `tabletape ARGS` with its output thrown away; returns its peak RSS (KiB)."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen([sys.executable, "-m", "tabletape", *args], stdout=null,
                             stderr=null, env=ENV)
        _, _, usage = os.wait4(p.pid, 0)
    return usage.ru_maxrss


@pytest.mark.parametrize("as_json", [False, True])
def test_log_of_a_long_log_uses_flat_memory(long_log, as_json):
    """Before streaming, 40,000 events took ~4 KiB each (~160 MiB); now memory is bounded
    by the undo stack, whatever the log's length."""
    extra = ["--json"] if as_json else []
    short = peak_rss_kib("log", SHORT, *extra)
    long = peak_rss_kib("log", long_log, *extra)
    assert long - short < 32 * 1024, (short, long)


def test_rows_are_handed_out_before_the_log_is_read(long_log, monkeypatch):
    read = [0]  # lines read so far
    seen: list[int] = []  # the seqs handed out
    first_at: list[int] = []  # lines read when the first row went out
    walk = reading.walk

    def counting(result, records, visitor):
        def counted():
            for rec in records:
                read[0] += 1
                yield rec
        return walk(result, counted(), visitor)
    monkeypatch.setattr(reading, "walk", counting)

    def sink(row: logrows.Row) -> None:
        if not seen:
            first_at.append(read[0])
        seen.append(row.seq)
    logrows.stream(long_log, sink)
    assert seen == list(range(40_001))
    assert first_at[0] < 5_000  # long before the 40,001st line was read


def test_log_from_and_to_show_the_same_rows_as_the_whole_log(long_log, run):
    """--from starts from a checkpoint; its rows are those of a read from line 1 (as of
    --to: an undo after it is not known there)."""
    to = run("log", long_log, "--json", "--to", "30500")
    whole = [json.loads(x) for x in to.stdout.splitlines()]
    index.state_at(long_log)  # writes the index: --from starts from a checkpoint
    part = run("log", long_log, "--json", "--from", "30000", "--to", "30500")
    rows = [json.loads(x) for x in part.stdout.splitlines()]
    assert len(whole) == 30_501 and rows == whole[30_000:]
    assert part.exit_code == to.exit_code
    assert run("log", long_log, "--from", "10", "--to", "5").exit_code == 2


def test_log_as_a_player_hides_the_others_draws(run):
    rows = [json.loads(x) for x in run("log", KILL_LOG, "--json", "--as", "alice").stdout.splitlines()]
    assert rows[3]["hidden"] and rows[3]["text"] == "bob: card_drawn (not seen by alice)"
    assert not rows[11]["hidden"] and rows[11]["text"] == "alice draws Anti-Tank Gun"
    assert not rows[19]["hidden"] and rows[19]["text"] == "bob deploys Torpedo Bomber to battle 3"
    assert not rows[2]["hidden"]  # the opening card is turned up for both
    assert "Radar" not in run("log", KILL_LOG, "--as", "alice", "--to", "18").stdout
    assert run("log", KILL_LOG, "--as", "zed").exit_code == 2


def test_log_stops_quietly_when_its_reader_goes_away(long_log):
    p = subprocess.Popen([sys.executable, "-m", "tabletape", "log", long_log],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()
    assert p.wait(timeout=60) == 141  # as a process killed by SIGPIPE
    assert b"Traceback" not in p.stderr.read()


def test_later_break_is_the_plain_read_s_error(long_log, tmp_path):
    """The fast path (vouched by the index up to its last checkpoint) against its definition."""
    index.state_at(long_log)
    assert index.later_break(long_log) is None
    assert reading.read_chain(long_log).error is None
    broken = str(tmp_path / "broken.jsonl")
    ls = lines(long_log)
    ls[-3] = ls[-3][:-2] + b" }\n"  # not canonical, and the next line's prev no longer holds
    write(broken, b"".join(ls))
    index.state_at(broken)  # its own index, of the changed bytes
    expected = reading.read_chain(broken).error
    assert expected is not None
    assert str(index.later_break(broken)) == str(expected)


def test_the_viewers_export_uses_flat_memory(long_log, tmp_path):
    """Before streaming, `view -o` held the whole page: +172 MiB at 20,000 events (~9 KiB an
    event, so ~70 MiB at the 8,000 exported here, over twice the bound below). Now each seq
    goes to the file as it is drawn; what stays is a digest per distinct part (about one new
    part an event here: ~0.1 KiB an event). The bench exports 20,000 events."""
    prefix = tmp_path / "long-8000.jsonl"
    prefix.write_bytes(b"".join(lines(long_log)[:8_001]))
    short = peak_rss_kib("view", SHORT, "-o", str(tmp_path / "short.html"))
    long = peak_rss_kib("view", str(prefix), "-o", str(tmp_path / "long.html"))
    assert os.path.getsize(tmp_path / "long.html") > 500_000  # the whole page was written
    assert long - short < 32 * 1024, (short, long)


def _checkpoints(path: str) -> list[int]:
    found = index._checkpoints(path)
    assert found is not None
    return [c.seq for c in found[1].checkpoints]


@pytest.mark.parametrize(("where", "indexed_to", "folded"), [
    (-3, 39_000, False), (-1_000, 39_000, False), (-3, 30_000, True), (-1_500, 30_000, True)])
def test_later_break_checks_the_chain_only_after_the_last_checkpoint(long_log, tmp_path, where,
                                                                    indexed_to, folded):
    """A short unindexed tail (under two checkpoints' worth) is read for its format and chain
    only, the index left as it is; a long one is folded, and the index extended up to the
    break. Either way the error is the plain read's."""
    ls = lines(long_log)
    ls[where] = ls[where][:-2] + b" }\n"  # not canonical
    broken = str(tmp_path / "broken.jsonl")
    write(broken, b"".join(ls))
    index.state_at(broken, to=indexed_to)  # an index up to there
    before = _checkpoints(broken)
    expected = reading.read_chain(broken).error
    assert expected is not None and expected.line == len(ls) + where + 1
    assert str(index.later_break(broken)) == str(expected)
    after = _checkpoints(broken)
    if folded:
        assert after[-1] == (present(expected.line) - 2) // index.INDEX_EVERY * index.INDEX_EVERY > before[-1]
    else:
        assert after == before


def test_later_break_without_an_index(long_log, tmp_path):
    """A log too small to be indexed is read from line 1 for its chain; a long one is folded
    from line 1 and its index written."""
    for path in (SHORT, long_log):
        assert str(index.later_break(path)) == str(reading.read_chain(path).error)
    small = str(tmp_path / "small.jsonl")
    ls = lines(SHORT)
    ls[-2] = ls[-2][:-2] + b" }\n"
    write(small, b"".join(ls))
    assert str(index.later_break(small)) == str(reading.read_chain(small).error) != "None"
    assert not os.path.exists(index.index_path(small))
    fresh = str(tmp_path / "long.jsonl")
    write(fresh, b"".join(lines(long_log)))
    assert index.later_break(fresh) is None
    assert _checkpoints(fresh)[-1] == 39_936  # the whole log, indexed
