"""Every command, and every error path: exit code 0/1/2 and a message naming the line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import lines, write

KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"
SIM = "replays/cards-of-war/sim-normal.jsonl"
DRAW = '{"type":"card_drawn","player":"alice","card":"Tank"}'


def test_games_lists_every_ruleset(run):
    r = run("games", "--json")
    assert r.exit_code == 0
    ids = [g["id"] for g in json.loads(r.stdout)]
    assert "cards-of-war" in ids
    assert "cards-of-war" in run("games").stdout


def test_rules_prints_the_catalogue(run):
    r = run("rules", "cards-of-war", "--json")
    assert r.exit_code == 0 and "cow.kill.type-match" in json.loads(r.stdout)
    assert "core.undo.latest" in run("rules", "cards-of-war").stdout


def test_rules_of_an_unknown_game_is_a_usage_error(run):
    r = run("rules", "chess")
    assert r.exit_code == 2 and "unknown game 'chess'" in r.stderr


def test_new_writes_a_header_with_options(run, tmp_path):
    path = tmp_path / "g.jsonl"
    r = run("new", "cards-of-war", path, "--players", "alice,bob", "--option", "length=long",
            "--option", "two_decks=true", "--by", "scribe")
    assert r.exit_code == 0, r.stderr
    header = json.loads(lines(path)[0])
    assert header["options"] == {"length": "long", "two_decks": True} and header["by"] == "scribe"
    assert header["format"] == 2 and header["components"]["cards"]


def test_new_takes_the_users_own_components(run, tmp_path):
    deck = json.load(open("src/tabletape/games/cards_of_war/components.json"))
    deck["deck_name"] = "my box"
    (tmp_path / "deck.json").write_text(json.dumps(deck))
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", "a,b",
            "--components", tmp_path / "deck.json")
    assert r.exit_code == 0
    assert json.loads(lines(tmp_path / "g.jsonl")[0])["components"]["deck_name"] == "my box"


@pytest.mark.parametrize("args, words", [
    (("--players", "a"), "needs 2 players, got 1"),
    (("--players", "a,a"), "must differ"),
    (("--players", "a,b", "--option", "length=medium"), "length"),
    (("--players", "a,b", "--option", "colour=red"), "no such option"),
    (("--players", "a,b", "--option", "strategic_exhaustion=true"), "length=long"),
    (("--players", "a,b", "--components", "missing.json"), "cannot read components"),
])
def test_new_refuses_bad_set_ups(run, tmp_path, args, words):
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", *args)
    assert r.exit_code == 2 and words in r.stderr
    assert not (tmp_path / "g.jsonl").exists()


def test_new_never_overwrites(run, game):
    before = game.read_bytes()
    r = run("new", "cards-of-war", game, "--players", "a,b")
    assert r.exit_code == 2 and "already exists" in r.stderr and game.read_bytes() == before


def test_append_from_arguments_and_stdin(run, game):
    r = run("append", game, DRAW, "--by", "scribe")
    assert r.exit_code == 0 and "seq 3: alice draws Tank" in r.stdout
    spy = DRAW.replace("Tank", "Spy")
    r = run("append", game, input=DRAW + "\n\n" + spy + "\n")
    assert r.exit_code == 0, r.stderr
    assert "seq 5: alice draws Spy" in r.stdout
    assert json.loads(lines(game)[3])["by"] == "scribe"
    assert run("validate", game).exit_code == 0


def test_append_refuses_an_illegal_event_with_its_rule_and_writes_nothing(run, game):
    before = game.read_bytes()
    r = run("append", game, '{"type":"card_drawn","player":"bob","card":"Tank"}')
    assert r.exit_code == 1 and "[cow.turn.order]" in r.stderr and "seq 3" in r.stderr
    assert game.read_bytes() == before


def test_append_is_all_or_nothing(run, game):
    before = game.read_bytes()
    r = run("append", game, DRAW, '{"type":"card_drawn","player":"bob","card":"Tank"}')
    assert r.exit_code == 1 and game.read_bytes() == before


def test_append_force_records_an_illegal_event_which_validate_reports(run, game):
    r = run("append", game, "--force", '{"type":"card_drawn","player":"bob","card":"Tank"}')
    assert r.exit_code == 0
    # it says what it recorded: illegal, by which rule and why (issue 22, 8)
    assert "recorded an illegal event: seq 3: [cow.turn.order] alice draws now, not bob" \
        in r.stderr and "recorded an illegal" not in r.stdout
    r = run("validate", game)
    assert r.exit_code == 1 and "cow.turn.order" in r.stdout and "game.jsonl:4" in r.stdout
    # a blocked log takes no more game events until the illegal one is undone
    r = run("append", game, DRAW)
    assert r.exit_code == 1 and "undo it first" in r.stderr
    # forced in while it is in effect: recorded, and said to be not judged
    r = run("append", game, "--force", DRAW, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)[0]["illegal"] is None
    assert "recorded seq 4 without judging: the illegal event at seq 3 is in effect" in r.stderr
    assert run("undo", game).exit_code == 0
    assert run("undo", game).exit_code == 0
    assert run("append", game, DRAW).exit_code == 0
    r = run("validate", game)
    assert r.exit_code == 0 and "corrected: seq 3" in r.stdout


def test_append_force_says_in_json_what_was_illegal(run, game):
    r = run("append", game, "--force", "--json",
            '{"type":"card_drawn","player":"bob","card":"Tank"}')
    assert r.exit_code == 0
    (entry,) = json.loads(r.stdout)
    assert entry["illegal"] == {"rule": "cow.turn.order", "reason": "alice draws now, not bob"}
    assert "recorded an illegal event: seq 3: [cow.turn.order]" in r.stderr
    assert run("undo", game).exit_code == 0
    r = run("append", game, DRAW, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)[0]["illegal"] is None and not r.stderr


@pytest.mark.parametrize("text, words", [
    ("nonsense", "not a JSON object"),
    ('["a"]', "one JSON object"),
    ('{"type":"card_drawn","player":"alice"}', "missing required field `card`"),
    ('{"type":"card_drawn","player":"alice","card":"Tank","luck":7}', "unknown field `luck`"),
    ('{"type":"card_stolen"}', "Invalid value 'card_stolen'"),
    ('{"type":"card_drawn","seq":9,"player":"alice","card":"Tank"}', "leave 'seq' out"),
])
def test_append_names_the_malformed_input(run, game, text, words):
    r = run("append", game, DRAW, text)
    assert r.exit_code == 2 and "argument 2" in r.stderr and words in r.stderr
    r = run("append", game, input=DRAW + "\n" + text + "\n")
    assert r.exit_code == 2 and "<stdin>:2" in r.stderr


def test_append_to_a_missing_file(run, tmp_path):
    r = run("append", tmp_path / "none.jsonl", DRAW)
    assert r.exit_code == 2 and "no such log file" in r.stderr


def test_append_to_a_torn_log_is_refused_until_repair(run, game):
    with open(game, "ab") as f:
        f.write(b'{"type":"card_dr')
    r = run("append", game, DRAW)
    assert r.exit_code == 1 and "torn last line" in r.stderr and "game.jsonl:4" in r.stderr
    r = run("verify", game)
    assert r.exit_code == 1 and "TORN" in r.stdout and "first 3 events are intact" in r.stdout
    r = run("repair", game)
    assert r.exit_code == 0 and "moved 16 torn bytes" in r.stdout
    assert (game.parent / "game.jsonl.torn").read_bytes() == b'{"type":"card_dr'
    assert run("append", game, DRAW).exit_code == 0


def test_repair_of_a_sound_log(run, game):
    r = run("repair", game)
    assert r.exit_code == 0 and "nothing to repair" in r.stdout


def test_append_to_a_tampered_log_is_refused(run, game):
    ls = lines(game)
    ls[1] = ls[1].replace(b'"Battleship"', b'"Submarine"')
    write(game, b"".join(ls))
    r = run("append", game, DRAW)
    assert r.exit_code == 1 and "game.jsonl:3" in r.stderr and "prev" in r.stderr


def test_undo_and_note_and_dispute(run, game):
    run("append", game, DRAW)
    r = run("undo", game, "--by", "scribe")
    assert r.exit_code == 0 and "undoes seq 3" in r.stdout
    r = run("note", game, "alice shuffled badly", "--about", "3", "--dispute", "--by", "bob")
    assert r.exit_code == 0 and "ruling on seq 3: legal" in r.stdout
    r = run("note", game, "just a note")
    assert r.exit_code == 0


def test_a_dispute_needs_about(run, game):
    assert run("note", game, "x", "--dispute").exit_code == 2


def test_undo_with_nothing_to_undo(run, game):
    run("undo", game)
    run("undo", game)
    r = run("undo", game)
    assert r.exit_code == 1 and "core.undo.nothing" in r.stderr


def test_validate_reports_disputes_and_corrections(run):
    r = run("validate", KILL_LOG)
    assert r.exit_code == 0
    assert "corrected: seq 21 was illegal [cow.kill.type-match]" in r.stdout
    assert "cow.kill.type-match" in r.stdout and "legal" in r.stdout
    data = json.loads(run("validate", KILL_LOG, "--json").stdout)
    assert data["valid"] and [d["verdict"] for d in data["disputes"]] == ["illegal", "legal"]


def test_validate_many_files(run, tmp_path):
    r = run("validate", KILL_LOG, SIM, tmp_path / "missing.jsonl")
    assert r.exit_code == 1 and "2 of 3 logs valid" in r.stdout and "missing.jsonl" in r.stdout


def test_validate_keep_going(run, game):
    run("append", game, "--force", '{"type":"card_drawn","player":"bob","card":"Tank"}')
    run("append", game, "--force", DRAW)
    r = run("validate", game)
    assert "1 later event was not judged" in r.stdout
    r = run("validate", game, "--keep-going")
    assert r.exit_code == 1 and "skipped 1 illegal event " in r.stdout


def test_verify_prints_the_head_and_checks_an_agreed_one(run):
    r = run("verify", SIM, "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and data["ok"] and len(data["head"]) == 64
    assert run("verify", SIM, "--head", data["head"][:16]).exit_code == 0
    r = run("verify", SIM, "--head", "0" * 16)
    assert r.exit_code == 1 and "not the agreed" in r.stdout


def test_verify_finds_a_flipped_byte_at_its_line(run, game, tmp_path):
    data = bytearray(game.read_bytes())
    at = data.rindex(b'"Battleship"') + 2  # on line 2
    data[at] ^= 0x01
    write(game, bytes(data))
    r = run("verify", game)
    assert r.exit_code == 1 and "game.jsonl:3" in r.stdout


def test_a_changed_last_line_is_caught_only_against_the_agreed_head(run, game):
    head = json.loads(run("verify", game, "--json").stdout)["head"]
    write(game, game.read_bytes().replace(b'"card":"Spy"', b'"card":"Tank"'))
    assert run("verify", game).exit_code == 0  # nothing after it to break
    r = run("verify", game, "--head", head)
    assert r.exit_code == 1 and "not the agreed" in r.stdout


def test_replay_renders_the_state_and_json(run):
    r = run("replay", SIM)
    assert r.exit_code == 0 and "Cards of War" in r.stdout and "battle 1" in r.stdout
    data = json.loads(run("replay", SIM, "--to", "30", "--json").stdout)
    assert data["seq"] == 30 and data["pending"] is not None and "components" not in data["state"]


def test_replay_as_a_player_hides_the_other_hand(run):
    data = json.loads(run("replay", SIM, "--to", "30", "--as", "alice", "--json").stdout)
    assert set(data["state"]["hands"]["bob"]) == {"?"}
    assert "?" not in data["state"]["hands"]["alice"]
    assert run("replay", SIM, "--as", "carol").exit_code == 2


def test_replay_past_the_end(run):
    r = run("replay", SIM, "--to", "100000")
    assert r.exit_code == 2 and "ends at seq" in r.stderr


def test_log_marks_illegal_and_undone_events(run):
    r = run("log", KILL_LOG)
    assert r.exit_code == 0 and "illegal [cow.kill.type-match]" in r.stdout and "undone at 23" in r.stdout
    rows = [json.loads(line) for line in run("log", KILL_LOG, "--json").stdout.splitlines()]
    assert rows[21]["illegal"]["rule"] == "cow.kill.type-match" and rows[21]["undone_at"] == 23


def test_explain_rules_on_a_disputed_event(run):
    r = run("explain", KILL_LOG, "21")
    assert r.exit_code == 0
    assert "ruling: illegal" in r.stdout and "cow.kill.type-match" in r.stdout
    assert "the state before seq 21" in r.stdout and "disputes" in r.stdout
    data = json.loads(run("explain", KILL_LOG, "21", "--json").stdout)
    assert data["verdict"] == "illegal" and data["disputes"][0]["by"] == "bob"
    assert data["state_before"]["turn"] == "alice"


def test_explain_a_legal_event_cites_its_rules(run):
    data = json.loads(run("explain", SIM, "5", "--json").stdout)
    assert data["verdict"] == "legal" and "cow.draw.in-deck" in data["rules"]


@pytest.mark.parametrize("seq", ["0", "99999"])
def test_explain_out_of_range(run, seq):
    assert run("explain", SIM, seq).exit_code == 2


def test_diff_of_a_log_with_itself(run):
    r = run("diff", SIM, SIM)
    assert r.exit_code == 0 and "same game" in r.stdout


def test_diff_finds_the_first_divergence_and_the_state_changes(run):
    r = run("diff", f"{SIM}@40", f"{SIM}@41", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and data["first_divergence"]["seq"] == 41
    assert data["first_divergence"]["a"] is None
    assert any(c["path"].startswith("$.") for c in data["changes"])
    r = run("diff", SIM, KILL_LOG)
    assert r.exit_code == 1 and "first divergence at seq 0" in r.stdout


def test_simulate_writes_a_valid_game(run, tmp_path):
    out = tmp_path / "sim.jsonl"
    r = run("simulate", "cards-of-war", "--players", "2", "--seed", "9", "-o", out,
            "--option", "length=short")
    assert r.exit_code == 0 and "wins" in r.stdout or "draw" in r.stdout
    assert run("validate", out).exit_code == 0
    again = tmp_path / "again.jsonl"
    run("simulate", "cards-of-war", "--seed", "9", "-o", again, "--option", "length=short")
    assert out.read_bytes() == again.read_bytes()


def test_schema_check_and_write(run, tmp_path):
    r = run("schema", "--check", tmp_path)
    assert r.exit_code == 1 and "stale" in r.stderr
    assert run("schema", "-o", tmp_path).exit_code == 0
    assert run("schema", "--check", tmp_path).exit_code == 0


def test_every_command_has_help_with_an_example(run):
    from tabletape.cli.group import main
    for name in main.list_commands(None):  # type: ignore[arg-type]  # (no context is read)
        r = run(name, "--help")
        assert r.exit_code == 0 and "Example" in r.stdout, name


def test_validate_names_a_malformed_line(run, game):
    with open(game, "ab") as f:
        f.write(b'{"type":"card_drawn","seq":3,"player":"alice"}\n')
    r = run("validate", game, "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and not data["valid"]
    [problem] = data["problems"]
    assert problem["line"] == 4 and problem["field"] == "$.card" and "card" in problem["reason"]
    r = run("validate", game)
    assert "game.jsonl:4" in r.stdout and "Traceback" not in r.stdout


def test_python_dash_m_runs_the_cli():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "tabletape", "games", "--json"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "cards-of-war" in done.stdout


# -- the command line's own machinery: parameter types, lazy commands, one error path ------

def test_an_option_is_checked_against_the_game_wherever_the_game_is_named(run, tmp_path):
    path = tmp_path / "g.jsonl"
    r = run("new", "--option", "length=short", "cards-of-war", path, "--players", "a,b")
    assert r.exit_code == 0, r.stderr
    assert json.loads(lines(path)[0])["options"] == {"length": "short"}
    r = run("new", "--option", "colour=red", "cards-of-war", tmp_path / "h.jsonl",
            "--players", "a,b")
    assert r.exit_code == 2 and r.stderr.startswith("error: --option colour: cards-of-war has "
                                                    "no such option")
    r = run("new", "cards-of-war", tmp_path / "h.jsonl", "--players", "a,b", "--option", "x")
    assert r.exit_code == 2 and r.stderr == "error: --option takes key=value, got 'x'\n"


def test_simulate_takes_a_count_of_players_or_their_names(run, tmp_path):
    r = run("simulate", "cards-of-war", "--players", "9", "-o", tmp_path / "s.jsonl")
    assert r.exit_code == 2 and r.stderr == "error: --players 9: give 1-8 or a list of names\n"
    r = run("simulate", "cards-of-war", "--players", "ann,bo", "-o", tmp_path / "s.jsonl")
    assert r.exit_code == 0 and json.loads(lines(tmp_path / "s.jsonl")[0])["players"] == [
        "ann", "bo"]


def test_a_log_point_is_a_file_and_perhaps_a_seq():
    from tabletape.cli.params import AT_SEQ, LogPoint
    assert AT_SEQ.convert("a@b.jsonl@40", None, None) == LogPoint("a@b.jsonl@40", "a@b.jsonl", 40)
    assert AT_SEQ.convert("a@b.jsonl", None, None) == LogPoint("a@b.jsonl", "a@b.jsonl", None)
    assert AT_SEQ.convert("g.jsonl@", None, None).seq is None


def test_each_lazy_command_is_declared_once_and_loaded_when_asked_for():
    import click

    from tabletape.cli.group import LAZY_COMMANDS, main
    for name in LAZY_COMMANDS:
        assert name not in main.commands, f"{name} is registered on main as well"
        command = main.get_command(click.Context(main), name)
        assert isinstance(command, click.Command) and command.name == name


def test_an_os_error_is_one_line_with_exit_2(run, tmp_path):
    (tmp_path / "envelope.schema.json").mkdir()  # where schema would write a file
    r = run("schema", "-o", tmp_path)
    assert r.exit_code == 2
    assert r.stderr == f"error: cannot write {tmp_path / 'envelope.schema.json'}: it is a folder\n"


def test_no_module_imports_another_modules_private_name():
    import ast
    import glob
    found = []
    for path in glob.glob("src/tabletape/**/*.py", recursive=True):
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                found += [f"{path}: {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, found


def test_an_event_from_typed_fields_gets_our_envelope():
    from tabletape import engine
    from tabletape.app import entries
    from tabletape.tape.errors import UsageError
    rs = engine.get("cards-of-war")
    ev: Any = entries.event_from(rs, DRAW, "argument 1", "scribe", "2026-01-01T00:00:00Z")
    assert (ev.by, ev.at, ev.card) == ("scribe", "2026-01-01T00:00:00Z", "Tank")
    with pytest.raises(UsageError, match="leave 'seq' out"):
        entries.event_from(rs, '{"type":"card_drawn","seq":3}', "argument 1", None, None)
