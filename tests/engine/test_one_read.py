"""Each command reads its log once (issue 36): the walk is one pass, and what a command
needs besides the fold (the component data judged with, the chain after --to) is found in
that pass, not by opening the log again."""

from __future__ import annotations

import os
import shutil

import pytest

from tabletape.app import reading
from tabletape.app.whatif import Whatif
from tabletape.cli import replaying
from tabletape.tape import reader
from tests.conftest import lines, write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOG = os.path.join(ROOT, "replays", "cards-of-war", "joint-adjacent.jsonl")
BOX = os.path.join(ROOT, "src", "tabletape", "games", "cards_of_war", "components.json")


@pytest.fixture
def opened(monkeypatch) -> list[str]:
    """The logs opened (`tape.reader.open_log`, the only door to a log's bytes)."""
    seen: list[str] = []
    real = reader.open_log

    def counting(path: str):
        seen.append(os.path.basename(path))
        return real(path)
    monkeypatch.setattr(reader, "open_log", counting)
    return seen


@pytest.fixture
def log(tmp_path) -> str:
    out = tmp_path / "game.jsonl"
    shutil.copy(LOG, out)
    return str(out)


def test_validate_with_other_components_opens_the_log_once(opened, log):
    whatif = Whatif(BOX)
    result = reading.judged(log, keep_going=False, single=True, components=whatif)
    assert result.ok and whatif.read  # the box was read with the header, in the walk
    assert opened == ["game.jsonl"]
    reading.judged(log, keep_going=True, single=True, components=Whatif(BOX))
    assert opened == ["game.jsonl"] * 2


def test_explain_with_other_components_opens_the_log_once(opened, log):
    found = reading.explain(log, 5, components=Whatif(BOX))
    assert found.report.seq == 5
    assert opened == ["game.jsonl"]


def test_replay_to_opens_the_log_once_and_still_finds_a_break_after(opened, log, tmp_path):
    result, _ = replaying.replayed(log, 5, None)
    assert result.events == 6 and result.later is None
    assert opened == ["game.jsonl"]
    # a line after --to changed: found in the same pass, as `later`, not as the error
    raw = lines(log)
    raw[40] = raw[40].replace(b'"seq":40', b'"seq": 40')
    write(tmp_path / "game.jsonl", b"".join(raw))
    opened.clear()
    result, _ = replaying.replayed(log, 5, None)
    assert result.error is None and result.later is not None and result.later.line == 41
    assert result.events == 6
    assert opened == ["game.jsonl"]


def test_log_to_opens_a_short_log_once(opened, log):
    from tabletape.app import logrows
    rows: list[int] = []
    result = logrows.stream(log, lambda row: rows.append(row.seq), stop=5)
    assert rows == list(range(6)) and result.later is None and result.error is None
    assert opened == ["game.jsonl"]
