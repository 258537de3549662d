"""Hostile names (hypothesis): whatever a player is called, the CLI refuses the name or
prints it as written.

Each drawn pair of names goes through `new --players`: either it is refused (exit 2, a
clean message) or the log is written, and `validate`, `log` and `replay` print every
name as written (escaped where it must be): no traceback, no control character, no rich
markup read as markup. The names mix rich markup (`[link=...]`, `[/]`, `[i]`), escape
sequences, default-ignorable characters and noncharacters with ordinary text.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletape.tape.events import UNSAFE, visible
from tests.reliability import figures

EXAMPLES = figures.budget(100, 5_000)
UNSAFE_RE = re.compile(f"[{UNSAFE}]")
MARKUP = ["[", "]", "[/]", "[/link]", "[link=https://evil.example/x]", "[i]", "[/i]",
          "[bold red]", ":skull:", "\\", "\\[", "é", "日本", "alice", " ", "=", "@", "zed"]
REFUSED = ["\x1b[2J", "\x1b]8;;https://e.example/\x1b\\", "\x1b]0;t\x07", "\r", "\n", "\u202e",
           "\u2060", "\u00ad", "\ufe0f", "\u3164", "\uffff", "\ufdd0", "\U000e0001", "\U0010fffe"]


def _joined(fragments: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(fragments), min_size=1, max_size=6).map("".join)


# Markup alone (the schema accepts it: it must print as written), markup with a character
# the schema refuses, and any text at all.
name = st.one_of(_joined(MARKUP), _joined(MARKUP + REFUSED), st.text(min_size=1, max_size=12)
                 ).filter(lambda s: "," not in s)
SEEN = {"pairs": 0, "refused": 0, "accepted": 0, "outputs": 0}


@pytest.fixture(scope="module", autouse=True)
def _figure():
    yield
    if SEEN["pairs"]:
        figures.record("hostile names: generated player names through new, validate, log, "
                       "replay", **SEEN, tracebacks=0, misleading=0)


def test_a_hostile_name_is_refused_or_printed_as_written(tmp_path_factory):
    from click.testing import CliRunner

    from tabletape.cli.group import main
    runner = CliRunner()
    folder = tmp_path_factory.mktemp("names")

    def run(*args):
        r = runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
        text = r.stdout + r.stderr
        assert "Traceback" not in text
        bad = {hex(ord(c)) for c in UNSAFE_RE.findall(text.replace("\n", ""))}
        assert not bad, (args, sorted(bad))
        SEEN["outputs"] += 1
        return r, text

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=not figures.STRESS,
              database=None, suppress_health_check=list(HealthCheck))
    @given(a=name, b=name)
    def one(a, b):
        path = folder / f"g{SEEN['pairs']}.jsonl"
        SEEN["pairs"] += 1
        r, text = run("new", "cards-of-war", path, "--players", f"{a},{b}")
        if r.exit_code != 0:
            assert r.exit_code == 2, text
            SEEN["refused"] += 1
            return
        SEEN["accepted"] += 1
        players = json.loads(open(path, encoding="utf-8").readline())["players"]
        for args in (("validate", path), ("log", path), ("replay", path)):
            r, text = run(*args)
            assert r.exit_code in (0, 1), (args, text)
            if args[0] != "validate":  # (validate names no player in a game without disputes)
                for p in players:
                    assert visible(p) in text, (args, p, text)

    one()
