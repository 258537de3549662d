"""cli/entry.py parses `replay FILE [--to SEQ] [--as PLAYER]` without click (the console
script's quick path): whatever it takes, click takes alike, with the same values.

tests/games/test_fast_paths.py runs both paths on real logs and compares their bytes; this
is the parser's own contract, over every arrangement of the words that matter.
"""

from __future__ import annotations

import os

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.cli.entry import ReplayArgs, replay_args
from tabletape.cli.group import main

LOG = "replays/cards-of-war/kill-dispute.jsonl"
WORDS = ["--to", "--as", "--json", "--step", "--rules", "--components", "-h", "--help", "--",
         "-", "", "5", "-1", "+7", "0", "x", "1_0", " 3", "4 ", "٣", "alice", "bob", "-x",
         "--to=5", "--as=bob", "--nope", "--t", LOG, "tests", "missing.jsonl"]


def clicks(args: list[str]) -> dict | None:
    """Returns the parameters click's `replay` command parses from `args` (the words after
    `replay`), or None when click refuses them or shows its help instead."""
    root = click.Context(main, info_name="tabletape", **main.context_settings)
    command = main.get_command(root, "replay")
    assert command is not None
    try:
        with command.make_context("replay", list(args), parent=root) as ctx:
            return dict(ctx.params)
    except (click.ClickException, click.exceptions.Exit):
        return None


DEFAULTS = {k: v for k, v in (clicks([LOG]) or {}).items() if k not in ("file", "to", "as_player")}


def agrees(args: list[str]) -> None:
    """What entry takes, click takes alike: the same file, seq and player, and every other
    option of `replay` left at its default (entry hands anything else to click)."""
    quick = replay_args(["replay", *args])
    if quick is None:
        return  # click's to parse, as typed
    parsed = clicks(args)
    assert parsed is not None, f"entry took {args!r}, click refuses it"
    assert ReplayArgs(parsed.pop("file"), parsed.pop("to"), parsed.pop("as_player")) == quick
    assert parsed == DEFAULTS, args


@pytest.mark.parametrize("args", [
    [LOG], [LOG, "--to", "21"], [LOG, "--to", "21", "--as", "bob"], ["--as", "bob", LOG],
    ["--to", "5", LOG], [LOG, "--to", "+7"], [LOG, "--to", " 3"], [LOG, "--to", "1_0"],
    [LOG, "--as", ""], ["missing.jsonl", "--to", "3"],
])
def test_what_entry_takes_it_reads_as_click_does(args):
    assert replay_args(["replay", *args]) is not None
    agrees(args)


@pytest.mark.parametrize("args", [
    [LOG, "--to", "-1"], [LOG, "--to", "x"], [LOG, "--to=5"], [LOG, "--json"], [LOG, "-h"],
    [LOG, "--to", "3", "--to", "4"], [LOG, LOG], [LOG, "--to"], [LOG, "--as", "-x"], ["tests"],
    ["--", LOG], [], [LOG, "--t", "5"],
])
def test_what_entry_does_not_take_goes_to_click_as_typed(args):
    assert replay_args(["replay", *args]) is None


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=6))
def test_entry_never_takes_words_click_would_read_otherwise(args):
    if not os.path.exists(LOG):  # (run from the repository's root, as every test is)
        pytest.skip("no bundled log here")
    agrees(args)


def test_every_arrangement_of_up_to_four_words_is_read_alike():
    """Every list of up to four words from a small set (11,110 of them; 52 taken by entry)."""
    import itertools
    small = ["--to", "--as", "5", "-1", "x", "alice", "", LOG, "--json", "--"]
    taken = 0
    for n in range(5):
        for args in itertools.product(small, repeat=n):
            agrees(list(args))
            taken += replay_args(["replay", *args]) is not None
    assert taken == 52
