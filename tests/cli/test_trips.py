"""What a new reader trips on (issue 25, its last bullet): each reproduction, as a story."""

from __future__ import annotations

from typing import TypeVar

import msgspec
import pytest

from tabletape import engine
from tabletape.app.record import RecordSession
from tabletape.games.battlecards_pacific.events import CardsRevealed, ConflictTurned, UnitDeployed
from tabletape.tape.errors import IllegalEvent
from tabletape.tape.events import Event
from tests.conftest import lines
from tests.narrow import instance, present
from tests.registry import GAMES

# -- the recorder's speakers -------------------------------------------------------------


def test_a_speaker_close_to_a_player_is_refused_with_the_player_it_may_mean(game):
    # Given a session on alice and bob's game
    before = lines(game)
    s = RecordSession(str(game))
    # When the scribe mistypes bob as @bobb in a note, or in a dispute
    for entry in ("note @bobb tea break", "undo @bobb", "dispute 2 @bobb bob's card was seen"):
        reply = s.handle(entry)
        # Then nothing is written, and the recorder asks whether bob was meant
        assert reply.refused and not reply.recorded, entry
        assert "did you mean @bob?" in present(reply.message), reply.message
    assert lines(game) == before
    # A player, and a speaker who is no one's typo (an umpire), are taken as they are
    assert s.handle("note @bob tea break").recorded[0][1].by == "bob"
    assert s.handle("note @umpire play on").recorded[0][1].by == "umpire"
    # and a speaker of this log is known from then on
    assert present(s.handle("note @umpir typo of a speaker").message).endswith("nothing was written")


# -- words: articles, lists, counts, a finished game -------------------------------------

GD_TIE = "replays/global-domination/disputed-out-of-turn.jsonl"  # three players share the win
LIB = "replays/liberation/disputed-play.jsonl"


def test_the_shared_words_say_a_list_an_article_and_a_count_as_english_does():
    from tabletape.tape.words import a, agree, counted, listed, the_first
    assert (a("Air"), a("Sea"), a("Intel")) == ("an Air", "a Sea", "an Intel")
    assert listed(["alice"]) == "alice" and listed(["alice", "bob"]) == "alice and bob"
    assert listed(["alice", "bob", "carol"]) == "alice, bob and carol"
    assert (counted(0, "event"), counted(1, "event"), counted(2, "event")) == (
        "0 events", "1 event", "2 events")
    assert [agree(n, "was", "were") for n in (0, 1, 2)] == ["were", "was", "were"]
    assert [the_first(n, "event", "reads", "read") for n in (0, 1, 5)] == [
        "no event reads", "the first event reads", "the first 5 events read"]


def test_a_unit_of_a_type_that_starts_with_a_vowel_is_an_air_unit():
    from tabletape.games.battlecards_pacific.components import UnitType
    from tabletape.games.battlecards_pacific.events import ArsenalDrawn, UnitDeployed
    from tests.games.battlecards_pacific.helpers import JAPAN, US, act, fresh, refusal
    state = act(fresh(), *(ArsenalDrawn(player=p, unit=u) for p, units in (
        (JAPAN, ("A6M Zero", "Infantry Division", "Kongo Battleship", "Infantry Division",
                 "I-Boat Submarine", "D3A Val Dive Bomber")),
        (US, ("F4U Corsair", "Marine Division", "Iowa Battleship", "Gato Submarine",
              "M4 Sherman Tank", "SBD Dauntless"))) for u in units))
    v = refusal(state, UnitDeployed(player=JAPAN, unit="A6M Zero", stack=UnitType.SEA))
    assert "A6M Zero is an Air unit" in v.reason, v.reason


def test_three_winners_are_listed_and_a_finished_game_has_a_result_not_a_next(run):
    r = run("validate", GD_TIE)
    assert "alice, bob and carol share the win" in r.stdout and " and bob and " not in r.stdout
    assert "1 illegal event corrected" in r.stdout and "(s)" not in r.stdout
    shown = run("replay", GD_TIE).stdout
    assert "result: alice, bob and carol share the win" in shown and "next:" not in shown
    assert "next: " in run("replay", GD_TIE, "--to", "40").stdout  # in progress: what comes next


def test_the_svg_of_a_finished_game_says_its_result(run, tmp_path):
    out = tmp_path / "end.svg"
    assert run("svg", GD_TIE, "-o", out).exit_code == 0
    svg = out.read_text()
    assert "result: alice, bob and carol share the win" in svg and "next:" not in svg


def test_a_liberation_deal_is_in_no_round(run, tmp_path):
    dealing = run("replay", LIB, "--to", "2").stdout
    assert "turn the country and deal" in dealing and "round 0" not in dealing
    out = tmp_path / "deal.svg"
    run("svg", LIB, "--to", "2", "-o", out)
    assert "round 0" not in out.read_text()
    assert "— round 1" in run("replay", LIB, "--to", "13").stdout


def test_a_log_broken_at_its_first_line_has_no_event_read_correctly(run, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"x"}\n')
    out = run("verify", bad).stdout
    assert "no event reads correctly" in out and "first 0" not in out


def test_an_illegal_last_event_leaves_no_later_event_to_mention(run, tmp_path):
    from tests.conftest import new_log
    path = tmp_path / "g.jsonl"
    new_log(path)
    ev = '{"type":"opening_card_drawn","player":"alice","card":"Tank"}'
    run("append", path, ev, ev, "--force")
    out = run("validate", path).stdout
    assert "later event" not in out and "(s)" not in out
    bob = '{"type":"opening_card_drawn","player":"bob","card":"Spy"}'
    run("append", path, bob, bob, "--force")
    assert "2 later events were not judged" in run("validate", path).stdout


# -- `events GAME`: every example as append takes it -------------------------------------

def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


UNREACHED = {"battlecards-pacific": {"cards_revealed"}, "global-domination": {"scoring_passed"}}


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.usefixtures("template_registered")
def test_every_example_of_events_decodes_and_names_real_players_and_components(game_id):
    from tabletape.app import entries, vocab
    rs = engine.get(game_id)
    made: set[str] = set()
    kinds = {k.type: k for k in vocab.vocabulary(rs)}
    assert vocab.examples(rs, made)  # (the same examples `events` prints)
    known = set(vocab.NAMES) | vocab.names_in(msgspec.to_builtins(rs.default_components()))
    for tag, kind in kinds.items():
        text = msgspec.json.encode(kind.example).decode()
        # as `append` reads a line: the same decoding, bounds and names' patterns
        event = entries.event_from(rs, text, "example", None, None)
        assert type(event).__struct_config__.tag == tag
        if tag == "note":
            continue  # its text is free
        literals = {f.name for f in kind.fields if '"' in f.type}  # enums and literals
        assert kind.example is not None
        for name, value in kind.example.items():
            if name in ("type", *literals):
                continue
            for s in _strings(value):
                assert s in known, f"{game_id} {tag}: {name}={s!r} is a placeholder"
    # what simulation reaches is legal where a game reaches it; the rest is named above:
    # the core events, and what random play with the default box never reaches (no
    # default Conflict card reveals; random scorers always score)
    core = {"undone", "note", "undo_asked", "undo_refused"}
    assert "signed" not in kinds and made >= core
    assert made - core - {"signed"} <= UNREACHED.get(game_id, set()), made


def test_the_printed_examples_hold_no_placeholder(run):
    out = run("events", "battlecards-pacific").stdout + run("events", "global-domination").stdout
    for placeholder in ('"TO"', '"TARGET"', '"CARDS"', "SIGNATURE"):
        assert placeholder not in out


# -- `games` at a narrow terminal ----------------------------------------------------------

def test_the_consoles_take_the_terminals_width_when_they_print_not_when_made(monkeypatch):
    """The module's consoles are made when tabletape.cli.render is first imported; $COLUMNS
    then (80 under pytest-xdist, whose workers inherit the one GNU readline sets in pytest's
    own process) is not the width they print at: that is $COLUMNS at each print."""
    from tabletape.cli import render
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    made_at_80 = render.SafeConsole(soft_wrap=True)
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.setenv("LINES", "50")
    assert (made_at_80.width, made_at_80.height) == (160, 50)
    monkeypatch.setenv("COLUMNS", "123")
    assert render.console.width == render.err_console.width == 123
    assert render.SafeConsole(width=70).width == 70  # a width given is kept


@pytest.mark.parametrize("columns", ["80", "50", "120"])
def test_games_at_a_terminal_never_splits_an_option_value(run, monkeypatch, columns):
    import io
    import json

    from tabletape.cli import render
    monkeypatch.setenv("COLUMNS", columns)  # as the terminal says its width
    screen = io.StringIO()
    monkeypatch.setattr(render, "console", render.SafeConsole(
        file=screen, force_terminal=True, highlight=False, color_system=None))
    assert render.console.width == int(columns)
    run("games")
    shown = screen.getvalue()
    words = {w.strip("│┃,") for line in shown.splitlines() for w in line.split()}
    for game in json.loads(run("games", "--json").stdout):
        assert game["id"] in words
        for key, value in game["options"].items():
            value = str(value).lower() if isinstance(value, bool) else value
            assert f"{key}={value}" in words, (key, shown)
    assert all(len(line) <= int(columns) for line in shown.splitlines()), shown


# -- bash completion, in a real bash -----------------------------------------------------

KILL = "replays/cards-of-war/kill-dispute.jsonl"


def _bash_complete(line: str, words: list[str]) -> list[str]:
    """Sources tabletape's bash completion in a real bash, sets COMP_* as bash sets them for
    `line` (its words split at COMP_WORDBREAKS, as given: an interactive bash 5.2 gives
    `[foo] [x.jsonl] [@]` for `foo x.jsonl@`, COMP_CWORD 2) and returns COMPREPLY."""
    import os
    import shlex
    import shutil
    import subprocess
    import sys
    bin_dir = os.path.dirname(sys.executable)
    assert shutil.which("tabletape", path=bin_dir), "the venv's tabletape script"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
           "PYTHONPATH": os.path.abspath("src")}
    source = subprocess.run(["tabletape"], env={**env, "_TABLETAPE_COMPLETE": "bash_source"},
                            capture_output=True, text=True, check=True).stdout
    script = "\n".join([
        source,
        f"COMP_LINE={shlex.quote(line)}",
        'COMP_POINT=${#COMP_LINE}',
        f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})",
        f"COMP_CWORD={len(words) - 1}",
        "COMPREPLY=()",
        "_tabletape_completion tabletape 2>/dev/null",
        'printf "%s\\n" "${COMPREPLY[@]}"',
    ])
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=env,
                         capture_output=True, text=True, check=True).stdout
    return [w for w in out.splitlines() if w]


@pytest.mark.parametrize("line, words, want, unwanted", [
    # --option length=<Tab>: bash's words are `length` and `=`; the reply replaces ``
    ("tabletape new cards-of-war g.jsonl --option length=",
     ["tabletape", "new", "cards-of-war", "g.jsonl", "--option", "length", "="],
     {"short", "normal", "long"}, "length=short"),
    ("tabletape new cards-of-war g.jsonl --option length=s",
     ["tabletape", "new", "cards-of-war", "g.jsonl", "--option", "length", "=", "s"],
     {"short"}, "long"),
    ("tabletape new cards-of-war g.jsonl --option two_decks=",
     ["tabletape", "new", "cards-of-war", "g.jsonl", "--option", "two_decks", "="],
     {"true", "false"}, None),
    # FILE@<Tab>: the seqs after `@` (readline replaces `@4`, `@` being a special prefix)
    (f"tabletape diff {KILL}@4", ["tabletape", "diff", KILL, "@", "4"], {"@4", "@40", "@41"},
     f"{KILL}@41"),
    (f"tabletape diff {KILL}@", ["tabletape", "diff", KILL, "@"], {"@0", "@91"}, None),
    # words without a break character complete as before
    ("tabletape rul", ["tabletape", "rul"], {"rules"}, None),
    ("tabletape new cards-of-war g.jsonl --option len",
     ["tabletape", "new", "cards-of-war", "g.jsonl", "--option", "len"], {"length="}, None),
    ("tabletape events ", ["tabletape", "events", ""], {"cards-of-war", "liberation"}, None),
])
def test_bash_completes_after_an_equals_sign_and_an_at_sign(line, words, want, unwanted):
    got = _bash_complete(line, words)
    assert want <= set(got), got
    assert unwanted is None or unwanted not in got, got


def test_tab_in_an_interactive_bash_completes_an_option_value_and_a_seq(tmp_path):
    """The whole thing, as a person meets it: an interactive bash with the completion
    sourced, a line typed, Tab pressed; the line as bash then shows it."""
    import os
    import shutil
    import subprocess
    import sys

    import pexpect
    bin_dir = os.path.dirname(sys.executable)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "TERM": "dumb", "HOME": str(tmp_path),
           "PYTHONPATH": os.path.abspath("src"), "TABLETAPE_CLOCK": "off"}
    rc = tmp_path / "rc.sh"
    rc.write_text(subprocess.run(["tabletape"], env={**env, "_TABLETAPE_COMPLETE": "bash_source"},
                                 capture_output=True, text=True, check=True).stdout
                  + "\nPS1='READY> '\n")
    if shutil.which("bash") is None:
        pytest.skip("no bash here")
    for typed, shown in [("tabletape new cards-of-war g.jsonl --option length=sh\t",
                          "--option length=short "),  # the word completed in place
                         ("tabletape new cards-of-war g.jsonl --option two_d\tt\t",
                          "--option two_decks=true "),  # no space after `two_decks=`
                         (f"tabletape diff {KILL}@4\t\t", "@40"),  # the choices
                         (f"tabletape diff {KILL}@91\t", f"{KILL}@91 ")]:
        child = pexpect.spawn("bash", ["--norc", "--noprofile", "-i"], env=env,
                              encoding="utf-8", timeout=20, dimensions=(24, 200))
        try:
            child.sendline(f"source {rc}")
            child.expect("READY> ")
            child.send(typed)
            child.expect_exact(shown)
        finally:
            child.sendcontrol("c")
            child.close(force=True)


# -- BATTLECARDS: what the table decides is filled in by the recorder --------------------

E = TypeVar("E", bound=Event)


def _bcp_log_until(path, wanted: type[E], components=None, seed: int = 0
                   ) -> tuple[RecordSession, E]:
    """Writes a simulated BATTLECARDS game up to the first moment an event of type `wanted`
    is legal; returns the recorder on it and the legal event of that type it would list."""
    from tabletape.engine import simulate
    from tabletape.tape import log
    rs = engine.get("battlecards-pacific")
    header = simulate.header_for(rs, ("alice", "bob"), components=components)
    bound, played = rs.bind(header), []
    state = bound.initial()
    for event, after in simulate.play(rs, header, seed):
        legal = [e for e in bound.legal(state) if isinstance(e, wanted)]
        if legal:
            break
        played.append(event)
        state = after
    tail = log.create(str(path), header, rs.codec)
    log.append(str(path), played, rs.codec, expect=tail)
    return RecordSession(str(path)), legal[0]


def _json(event, *leave_out: str) -> str:
    body = {k: v for k, v in msgspec.to_builtins(event).items() if k not in leave_out}
    return msgspec.json.encode(body).decode()


def test_a_conflict_card_for_a_shot_needs_only_its_name(tmp_path):
    # Given a battle in which a shot is owed: the tool knows the window and the card's number
    s, legal = _bcp_log_until(tmp_path / "bcp.jsonl", ConflictTurned)
    before = lines(tmp_path / "bcp.jsonl")
    # When the scribe enters the card turned, and nothing the table decides
    reply = s.handle(f'{{"type":"conflict_turned","card":"{legal.card}"}}')
    # Then nothing is written yet: the event is offered with the rest filled in
    assert not reply.recorded and not reply.refused and lines(tmp_path / "bcp.jsonl") == before
    assert reply.offer == _json(legal) and s.offer == reply.offer
    for name in ("action", "above", "upto", "hit", "player", "unit", "target"):
        assert f"{name}=" in present(reply.message)
    # and Enter records it as offered: every field written out, as the log format wants
    seq, event = s.handle("").recorded[0]
    assert event == msgspec.structs.replace(legal, at=event.at, by=event.by)
    assert f'"action":{legal.action},"above":{legal.above}' in lines(tmp_path / "bcp.jsonl")[seq].decode()


def test_the_scribe_may_change_what_was_filled_in_and_the_rules_still_judge_it(tmp_path):
    s, legal = _bcp_log_until(tmp_path / "bcp.jsonl", ConflictTurned)
    offer = s.handle(_json(legal, "hit", "action")).offer
    assert offer is not None
    wrong = offer.replace(f'"hit":{str(legal.hit).lower()}', f'"hit":{str(not legal.hit).lower()}')
    reply = s.handle(wrong)  # changed: every field given, so it is judged as it stands
    assert instance(IllegalEvent, reply.refusal).rule == "bcp.fire.hit"
    # a given field is kept: only what is left out is filled in
    assert s.handle(_json(legal, "hit")).offer == _json(legal)
    assert s.handle(_json(legal)).recorded  # a whole event is recorded at once, as before


def test_a_deployed_unit_goes_on_its_own_stack_unless_the_scribe_says_otherwise(tmp_path):
    s, legal = _bcp_log_until(tmp_path / "bcp.jsonl", UnitDeployed)
    reply = s.handle(_json(legal, "stack"))
    assert reply.offer == _json(legal) and f'stack="{legal.stack}"' in present(reply.message)
    assert instance(UnitDeployed, s.handle("").recorded[0][1]).stack == legal.stack
    # the contract: a game without `legality.implied` fills in nothing
    cow = engine.get("cards-of-war")
    assert cow.bind(cow.start(("a", "b"), cow.Options(), cow.default_components())).implied(
        None, {"type": "card_drawn"}) == {}


def test_at_a_terminal_the_filled_in_event_is_the_next_line_to_confirm(tmp_path):
    import re

    import pexpect

    from tests.cli.test_record import prompt, spawn
    path = tmp_path / "bcp.jsonl"
    s, legal = _bcp_log_until(path, ConflictTurned)
    seq = s.next_seq
    child = spawn("record", path)
    try:
        child.expect(prompt(seq))
        child.sendline(f'{{"type":"conflict_turned","card":"{legal.card}"}}')
        child.expect("filled in from the table")
        # the next prompt holds the whole event, ready to be recorded or changed
        child.expect(prompt(seq) + " " + re.escape(_json(legal)[:40]))
        child.send("\r")
        child.expect(re.escape(f"seq {seq}: "))
        child.expect(prompt(seq + 1))
        child.sendeof()
        child.expect("stopped: ")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert engine.replay(str(path)).events == seq + 1


def test_owed_steps_count_one_thing_in_the_singular():
    from tabletape.games.global_domination.state import Owed, Step
    from tabletape.games.global_domination.turn import owed_text
    assert owed_text(Owed(Step.BUILD, "alice", "Fog of War", points=1)) == \
        "alice: 1 Build left from Fog of War"
    assert owed_text(Owed(Step.BUILD, "alice", "Fog of War", points=4)) == \
        "alice: 4 Builds left from Fog of War"
    assert "(1 Reduction)" in owed_text(Owed(Step.CHAIN, "bob", "Megastorm", points=1))


def test_what_a_conflict_card_reveals_is_filled_in_too(tmp_path):
    from tests.games.battlecards_pacific.test_properties import us_first_with_a_reveal_card
    s, legal = _bcp_log_until(tmp_path / "bcp.jsonl", CardsRevealed,
                              us_first_with_a_reveal_card())
    reply = s.handle('{"type":"cards_revealed"}')
    assert reply.offer == _json(legal), reply.message
    assert instance(CardsRevealed, s.handle("").recorded[0][1]).cards == legal.cards


def test_a_battlecards_deal_is_in_no_turn(run):
    log = "replays/battlecards-pacific/battle-withdrawal-dispute.jsonl"
    dealing = run("replay", log, "--to", "1").stdout
    assert "BATTLECARDS Pacific — the deal" in dealing and "turn 0" not in dealing
    assert "BATTLECARDS Pacific — turn 4" in run("replay", log).stdout
