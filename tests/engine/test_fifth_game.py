"""A fifth game from the docs alone (issue 36): docs/adding-a-game.md followed on a copy of
the template game in a tree of one's own, made into another game, registered, and every
command run on it; its own lines (those the template does not have) counted."""

from __future__ import annotations

import difflib
import os
import sys

import pytest

from tabletape import engine
from tabletape.engine.kit.contract import ContractError
from tests.engine.test_contract import TEMPLATE_DIR, copy_template

OWN_LINES_MOST = 150  # issue 36: a fifth game in no more than 150 lines of its own

# The fifth game, Last Loses: the template's hidden hand, versions, switch and pin kept, its
# own name, rule ids, pile and scoring (the last taker loses three points).
EDITS: dict[str, list[tuple[str, str]]] = {
    "*": [*((f"take.{part}.", f"last.{part}.") for part in ("setup", "turn", "take", "end")),
          ("TakeAway", "LastLoses"), ("Take-away", "Last Loses")],
    "__init__.py": [('"take-away"', '"last-loses"'),
                    ("whoever took the last\ncounter scores more", "whoever took the last\n"
                                                                   "counter scores less")],
    "events.py": [("pile: Count = 15", "pile: Count = 21")],
    "lookups.py": [("+ 3 * (p == state.last)", "- 3 * (p == state.last)"),
                   ("three more for the last taker", "three less for the last taker")],
    "catalogue.py": [("card, whoever took the last counter three more", "card, whoever took "
                                                                       "the last counter three less"),
                     ("the last taker scores three more", "the last taker scores three less")],
}


def make_fifth_game(where) -> str:
    """Copies the template to `where`/last_loses and makes it Last Loses (EDITS)."""
    dest = copy_template(where)
    os.rename(dest, os.path.join(str(where), "last_loses"))
    dest = os.path.join(str(where), "last_loses")
    for name in os.listdir(dest):
        path = os.path.join(dest, name)
        if not name.endswith(".py"):
            continue
        code = open(path).read()
        for old, new in EDITS["*"] + EDITS.get(name, []):
            code = code.replace(old, new)
        open(path, "w").write(code)
    return dest


def own_lines(game: str) -> int:
    """Returns the lines of a game's modules that the template's same module does not have
    (blank lines aside): what its author wrote."""
    count = 0
    for name in sorted(os.listdir(game)):
        if not name.endswith(".py"):
            continue
        mine = [s for s in open(os.path.join(game, name)) if s.strip()]
        template = os.path.join(TEMPLATE_DIR, name)
        theirs = [s for s in open(template) if s.strip()] if os.path.exists(template) else []
        same = difflib.SequenceMatcher(None, theirs, mine, autojunk=False).get_matching_blocks()
        count += len(mine) - sum(b.size for b in same)
    return count


@pytest.fixture
def fifth_game(tmp_path, monkeypatch):
    game = make_fifth_game(tmp_path / "pkgs")
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    monkeypatch.setitem(engine.GAMES, "last-loses", "last_loses")
    yield game
    for name in [m for m in sys.modules if m == "last_loses" or m.startswith("last_loses.")]:
        del sys.modules[name]


def test_a_fifth_game_from_the_template_plays_through_every_command(fifth_game, tmp_path, run):
    """docs/adding-a-game.md: new, append (a refusal names its rule), validate, replay,
    explain, svg, view and simulate on a game of one's own, hidden hand and versions included."""
    assert own_lines(fifth_game) <= OWN_LINES_MOST
    log = tmp_path / "game.jsonl"
    res = run("new", "last-loses", log, "--players", "ann,bob", "--option", "pile=4")
    assert res.exit_code == 0, res.output
    res = run("append", log, '{"type":"rolled","count":1}',
              '{"type":"dealt","player":"ann","card":3}', '{"type":"dealt","player":"bob","card":1}',
              '{"type":"taken","player":"ann","count":3}')
    assert res.exit_code == 0, res.output
    res = run("append", log, '{"type":"taken","player":"bob","count":3}')
    assert res.exit_code == 1 and "[last.take.pile]" in res.output, res.output  # rules 1.1
    res = run("append", log, '{"type":"taken","player":"bob","count":2}')
    assert res.exit_code == 0, res.output
    res = run("validate", log)
    assert res.exit_code == 0, res.output
    res = run("replay", log)
    assert res.exit_code == 0 and "ann won with 3; bob took the last counter" in res.output, \
        res.output
    res = run("log", log, "--as", "bob")  # the hidden hand: bob sees ann was dealt a card
    assert res.exit_code == 0 and "ann: dealt (not seen by bob)" in res.output, res.output
    res = run("replay", log, "--as", "bob", "--to", "3")
    assert res.exit_code == 0 and "ann ?" in res.output and "bob 1" in res.output, res.output
    res = run("explain", log, "5")
    assert res.exit_code == 0 and "last.take.pile" in res.output, res.output
    res = run("svg", log, "-o", tmp_path / "t.svg")
    assert res.exit_code == 0 and "pile: 0" in (tmp_path / "t.svg").read_text(), res.output
    res = run("view", log, "-o", tmp_path / "t.html")
    assert res.exit_code == 0 and "Last Loses" in (tmp_path / "t.html").read_text(), res.output
    sim = tmp_path / "sim.jsonl"
    res = run("simulate", "last-loses", "--players", "3", "--seed", "5", "-o", sim)
    assert res.exit_code == 0, res.output
    res = run("validate", sim, "--rules", "1.0")
    assert res.exit_code == 0 and "1.0" in res.output, res.output


def test_the_template_game_judges_an_old_log_by_its_own_version(fifth_game, tmp_path, run):
    """A log recorded under 1.0 keeps 1.0's rules: its switch off (a take may empty the
    pile), its pin in (1.0's scores: the last taker's card doubled; 1.1 would take three)."""
    rs = engine.get("last-loses")
    assert rs.versions == ("1.0", "1.1") and set(rs.switches) == {"pile_bound"}
    log = tmp_path / "old.jsonl"
    assert run("new", "last-loses", log, "--players", "ann,bob", "--option", "pile=1").exit_code == 0
    text = log.read_text().replace('"rules_version":"1.1"', '"rules_version":"1.0"')
    log.write_text(text)
    res = run("append", log, '{"type":"rolled","count":1}',
              '{"type":"dealt","player":"ann","card":2}', '{"type":"dealt","player":"bob","card":3}',
              '{"type":"taken","player":"ann","count":3}')
    assert res.exit_code == 0, res.output
    res = run("replay", log)
    assert res.exit_code == 0 and "ann won with 4" in res.output, res.output  # her 2, doubled


def test_a_misspelled_switch_in_a_game_of_ones_own_fails_at_import(tmp_path, monkeypatch):
    game = make_fifth_game(tmp_path / "pkgs")
    path = os.path.join(game, "catalogue.py")
    code = open(path).read()
    open(path, "w").write(code.replace('{"pile_bound":', '{"pile_bund":'))
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    try:
        with pytest.raises(ContractError, match="game LastLoses: switch 'pile_bund' names no "
                                                "switch field of Lookups"):
            __import__("last_loses")
    finally:
        for name in [m for m in sys.modules if m == "last_loses" or m.startswith("last_loses.")]:
            del sys.modules[name]


@pytest.mark.usefixtures("template_registered")
@pytest.mark.parametrize("n", [2, 4])
def test_the_template_hand_tells_a_seat_nothing_of_the_others(tmp_path, monkeypatch, n):
    """The non-interference harness (tests/reliability/test_secrets.py) on the template game,
    which it meets only when registered: two logs that differ only in a card dealt to another
    player give a seat the same bytes on every surface."""
    from tests.reliability.test_secrets import (
        test_a_seat_receives_the_same_from_logs_that_differ_only_in_its_secrets as same,
    )
    monkeypatch.setenv("TABLETAPE_CLOCK", "off")
    same(tmp_path, "take-away", {}, n)
