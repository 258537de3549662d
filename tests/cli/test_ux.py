"""The command line as a new user meets it: vocabulary, suggestions, JSON, honest messages."""

from __future__ import annotations

import json

import msgspec
import pytest

from tests.conftest import lines

KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"


@pytest.mark.parametrize("game", ["cards-of-war", "liberation", "global-domination",
                                  "battlecards-pacific"])
def test_events_lists_each_type_with_fields_and_an_example_append_takes(run, game, tmp_path):
    r = run("events", game, "--json")
    assert r.exit_code == 0, r.stderr
    kinds = json.loads(r.stdout)
    assert {"undone", "note"} <= {k["type"] for k in kinds}
    for k in kinds:
        assert k["example"]["type"] == k["type"] and k["about"]
        for f in k["fields"]:
            assert f["name"] not in ("seq", "prev") and f["type"]
    text = run("events", game).stdout
    assert all(f"{k['type']} — " in text for k in kinds) and "example: {" in text


def test_events_shows_bounds_and_the_example_is_appended_as_it_stands(run, game):
    kinds = {k["type"]: k for k in json.loads(run("events", "cards-of-war", "--json").stdout)}
    battle = next(f for f in kinds["card_deployed"]["fields"] if f["name"] == "battle")
    assert battle["type"] == "int 1..3" and battle["required"]
    assert "battle  " in run("events", "cards-of-war").stdout
    r = run("append", game, json.dumps({"type": "note", "text": "x"}))
    assert r.exit_code == 0


def test_components_prints_a_template_new_takes(run, tmp_path):
    r = run("components", "cards-of-war")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert all("provenance" in c for c in data["cards"])
    (tmp_path / "mine.json").write_text(r.stdout)
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", "a,b",
            "--components", tmp_path / "mine.json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(lines(tmp_path / "g.jsonl")[0])["components"]["cards"][0]["name"] == \
        data["cards"][0]["name"]


@pytest.mark.parametrize("event, words", [
    ('{"type":"opening_card_drawn","player":"alice","card":"Batleship"}',
     "did you mean 'Battleship'"),
    ('{"type":"opening_card_drawn","player":"alce","card":"Battleship"}', "did you mean 'alice'"),
    ('{"type":"opening_card_drwn","player":"alice","card":"Battleship"}',
     "did you mean 'opening_card_drawn'"),
    ('{"type":"opening_card_drawn","player":"alice","crd":"Battleship"}', "did you mean 'card'"),
])
def test_a_refused_event_suggests_the_closest_names(run, tmp_path, event, words):
    path = tmp_path / "g.jsonl"
    assert run("new", "cards-of-war", path, "--players", "alice,bob").exit_code == 0
    r = run("append", path, event)
    assert r.exit_code in (1, 2) and words in r.stderr, r.stderr


@pytest.mark.parametrize("option, words", [
    ("two_decks=yes", None),
    ("two_decks=off", None),
    ("two_decks=maybe", "give true or false"),
    ("length=shrt", "not one of long, normal, short (did you mean 'short'?)"),
    ("lenght=long", "no such option (did you mean 'length'?)"),
])
def test_options_are_parsed_by_their_type_and_refused_with_the_accepted_values(
        run, tmp_path, option, words):
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", "a,b", "--option", option)
    if words is None:
        assert r.exit_code == 0, r.stderr
        header = json.loads(lines(tmp_path / "g.jsonl")[0])
        assert header["options"].get("two_decks", False) is (option == "two_decks=yes")
    else:
        assert r.exit_code == 2 and words in r.stderr and "Expected" not in r.stderr


def test_an_unknown_game_and_player_and_rule_get_suggestions(run):
    assert "did you mean 'cards-of-war'" in run("rules", "cards-of-wr").stderr
    r = run("replay", KILL_LOG, "--as", "alcie")
    assert r.exit_code == 2 and "did you mean 'alice'" in r.stderr
    r = run("rules", "cards-of-war", "cow.kill.type-mach")
    assert r.exit_code == 2 and "did you mean 'cow.kill.type-match'" in r.stderr
    r = run("rules", "cards-of-war", "cow.kill.type-match")
    assert r.exit_code == 0 and "Special Abilities" in r.stdout


@pytest.mark.parametrize("args, shape", [
    (("new", "cards-of-war", "{d}/n.jsonl", "--players", "alice,bob"),
     {"file", "game", "rules_version", "players", "options", "head"}),
    (("simulate", "cards-of-war", "--seed", "7", "-o", "{d}/s.jsonl"),
     {"file", "game", "events", "head", "finished", "outcome"}),
    (("repair", "{game}"), {"file", "repaired", "moved_bytes", "restored", "aside", "events",
                            "error"}),
    (("keygen", "alice", "--dir", "{d}/keys"), {"name", "private", "public", "fingerprint"}),
])
def test_commands_that_report_take_json(run, game, args, shape):
    d = game.parent
    r = run(*(a.format(d=d, game=game) for a in args), "--json")
    assert r.exit_code == 0, r.stderr
    assert set(json.loads(r.stdout)) == shape


def test_undo_and_note_take_json(run, game):
    run("append", game, '{"type":"card_drawn","player":"alice","card":"Tank"}')
    [undo] = json.loads(run("undo", game, "--json").stdout)
    assert undo["seq"] == 4 and undo["event"]["type"] == "undone"
    [note] = json.loads(run("note", game, "seen", "--about", "2", "--dispute", "--json").stdout)
    assert note["seq"] == 5 and note["ruling"]["verdict"] == "legal"
    [plain] = json.loads(run("note", game, "hello", "--json").stdout)
    assert plain["ruling"] is None


def test_messages_that_misled(run, game, tmp_path):
    r = run("replay", game, "--to", "-1")
    assert r.exit_code == 2 and "a seq is 0 (the header) or more" in r.stderr
    assert "unreadable" not in r.stderr
    r = run("explain", game, "--", "-1")
    assert r.exit_code == 2 and "ends at seq -1" not in r.stderr and "0 (the header)" in r.stderr
    r = run("schema", "--check", tmp_path / "nonexistent")
    assert r.exit_code == 2 and "no such folder" in r.stderr and "stale" not in r.stderr


def test_a_path_is_said_once_and_one_is_singular(run, game, tmp_path):
    r = run("new", "cards-of-war", game, "--players", "alice,bob")
    assert r.exit_code == 2
    assert r.stderr == f"error: {game} already exists; tabletape never overwrites a log\n"
    path = tmp_path / "one.jsonl"
    run("new", "cards-of-war", path, "--players", "alice,bob")
    assert ": cards-of-war rules 1.2, 1 event;" in run("validate", path).stdout
    assert "1 event," in run("verify", path).stdout


def test_ids_are_never_cut_short_in_a_pipe_or_a_narrow_terminal(run, monkeypatch):
    import io

    from tabletape.cli import render
    for args in (("games",), ("rules", "cards-of-war")):
        out = run(*args).stdout  # not a terminal: plain text
        assert "…" not in out and "┃" not in out
    assert "battlecards-pacific  " in run("games").stdout
    assert "\ncow.setup.opening-return  " in run("rules", "cards-of-war").stdout
    for width in (80, 120):
        screen = io.StringIO()
        monkeypatch.setattr(render, "console", render.SafeConsole(
            file=screen, force_terminal=True, width=width, highlight=False, color_system=None))
        run("games")
        run("rules", "cards-of-war")
        table = screen.getvalue()
        assert "│ cow.setup.opening-return " in table
        assert all(len(line) <= width for line in table.splitlines())
    # games fits a table at 120 columns (at 80, a block per game: tests/cli/test_trips.py)
    assert "┃" in table and "│ battlecards-pacific │" in table and "│ global-domination " in table


def test_append_with_no_events_at_a_terminal_says_what_it_wants(run, game, monkeypatch):
    from tabletape.cli import group
    monkeypatch.setattr(group, "stdin_is_terminal", lambda: True)
    r = run("append", game)
    assert r.exit_code == 2 and "no events given" in r.stderr
    assert "tabletape events cards-of-war" in r.stderr


def test_branch_copies_a_prefix_byte_for_byte_and_goes_on_like_any_log(run, tmp_path):
    new = tmp_path / "what-if.jsonl"
    r = run("branch", f"{KILL_LOG}@40", "-o", new)
    assert r.exit_code == 0, r.stderr
    assert lines(new) == lines(KILL_LOG)[:41]
    head40 = json.loads(run("verify", new, "--json").stdout)["head"]
    r = run("verify", new, "--parent", KILL_LOG, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["parent"]["shared_to"] == 40
    assert json.loads(r.stdout)["parent"]["head"] == head40
    # appended to like any log: the next event differs from the parent's seq 41
    parent41 = json.loads(lines(KILL_LOG)[41])
    assert parent41["type"] == "card_drawn"
    r = run("note", new, "what if alice had passed here")
    assert r.exit_code == 0, r.stderr
    r = run("diff", KILL_LOG, new, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["first_divergence"]["seq"] == 41
    r = run("verify", new, "--parent", KILL_LOG)
    assert r.exit_code == 0 and "seq 0..40 are its lines byte for byte" in r.stdout
    # never overwrites; a point past the end, or no point, is a usage error
    assert run("branch", f"{KILL_LOG}@40", "-o", new).exit_code == 2
    r = run("branch", f"{KILL_LOG}@999", "-o", tmp_path / "x.jsonl")
    assert r.exit_code == 2 and "it ends at seq 91" in r.stderr
    assert run("branch", KILL_LOG, "-o", tmp_path / "x.jsonl").exit_code == 2
    # a log that is not a branch
    other = tmp_path / "other.jsonl"
    run("new", "cards-of-war", other, "--players", "alice,bob")
    assert run("verify", other, "--parent", KILL_LOG).exit_code == 1


def _complete(shell: str, words: str) -> str:
    """What click's completion script asks for: the candidates for the last word typed."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "_TABLETAPE_COMPLETE": f"{shell}_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
           "PYTHONPATH": os.path.abspath("src")}
    code = "import sys; from tabletape.cli.group import main; main(prog_name='tabletape')"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True).stdout


@pytest.mark.parametrize("words, want, unwanted", [
    ("tabletape rul", "rules", None),
    ("tabletape new ", "cards-of-war", None),
    ("tabletape events glo", "global-domination", "cards-of-war"),
    ("tabletape new cards-of-war g.jsonl --option len", "length=", "two_decks="),
    ("tabletape new cards-of-war g.jsonl --option length=s", "length=short", "length=long"),
    ("tabletape new cards-of-war g.jsonl --option two_decks=", "two_decks=true", None),
    (f"tabletape replay {KILL_LOG} --as ", "alice", None),
    (f"tabletape replay {KILL_LOG} --as b", "bob", "alice"),
    (f"tabletape explain {KILL_LOG} 9", "91", "42"),
    (f"tabletape diff {KILL_LOG}@4", f"{KILL_LOG}@41", f"{KILL_LOG}@5"),
])
def test_shell_completion_knows_games_options_players_and_seqs(words, want, unwanted):
    got = _complete("bash", words).split()
    assert any(want == g.split(",")[-1] for g in got), got
    if unwanted:
        assert all(unwanted != g.split(",")[-1] for g in got), got


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_gets_its_completion_script(shell):
    import os
    import subprocess
    import sys
    env = {**os.environ, "_TABLETAPE_COMPLETE": f"{shell}_source",
           "PYTHONPATH": os.path.abspath("src")}
    code = "from tabletape.cli.group import main; main(prog_name='tabletape')"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True).stdout
    assert "_TABLETAPE_COMPLETE" in out


def test_the_hand_is_shown_beside_its_limit_and_a_liberation_hand_to_its_owner(run):
    r = run("replay", KILL_LOG, "--to", "30", "--as", "bob")
    assert "cards / hand size" in r.stdout and "7 / 8" in r.stdout and "8 / 8" in r.stdout
    lib = "replays/liberation/sim-2-players.jsonl"
    r = run("replay", lib, "--to", "20", "--as", "ann")
    assert "3: Fighter Wing, Leaflet Drop, Submarine" in r.stdout and "2 hidden" in r.stdout
    assert "Fighter Wing" not in run("replay", lib, "--to", "20", "--as", "bob").stdout


def test_a_player_count_is_said_once_when_it_is_fixed(run, tmp_path):
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", "a")
    assert "needs 2 players, got 1" in r.stderr and "2-2" not in r.stderr


def _documented_shapes() -> dict[str, set[str]]:
    """The manual's table of --json shapes (docs/scripting.md): command -> the keys it lists."""
    import re
    page = open("docs/scripting.md", encoding="utf-8").read()
    section = page[page.index("## JSON output"):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    shapes = {}
    for command, shape in re.findall(r"^\| `([^`]+)`[^|]* \|[^`|]*`\[?\{(.*?)\}\]?`", section, flags=re.M):
        keys = {k.split(":")[0].strip() for k in re.sub(r"\[.*?\]", "", shape).split(",")}
        shapes[command.split()[0]] = keys
    return shapes


def test_each_json_shape_is_the_one_the_readme_lists(run, game, tmp_path):
    shapes = _documented_shapes()
    assert {"games", "new", "append", "note", "validate", "verify", "replay", "log", "explain",
            "diff", "simulate", "repair", "branch", "keygen", "svg", "view", "events",
            "legal"} <= set(shapes)
    d = tmp_path
    calls = {
        "games": ("games",), "events": ("events", "liberation"),
        "new": ("new", "cards-of-war", d / "n.jsonl", "--players", "a,b"),
        "append": ("append", game, '{"type":"card_drawn","player":"alice","card":"Tank"}'),
        "note": ("note", game, "hi"),
        "validate": ("validate", KILL_LOG), "verify": ("verify", KILL_LOG),
        "replay": ("replay", KILL_LOG), "log": ("log", KILL_LOG),
        "explain": ("explain", KILL_LOG, "21"), "diff": ("diff", KILL_LOG, KILL_LOG),
        "simulate": ("simulate", "liberation", "-o", d / "s.jsonl"),
        "repair": ("repair", game), "branch": ("branch", f"{KILL_LOG}@5", "-o", d / "b.jsonl"),
        "keygen": ("keygen", "carol", "--dir", d / "keys"),
        "svg": ("svg", KILL_LOG, "-o", d / "t.svg"), "view": ("view", KILL_LOG, "-o", d / "v.html"),
        "legal": ("legal", game),
    }
    for command, args in calls.items():
        r = run(*args, "--json")
        assert r.exit_code in (0, 1), (command, r.stderr)
        text = r.stdout.strip()
        try:
            data = json.loads(text)
        except json.JSONDecodeError:  # JSON lines: one object a line
            data = [json.loads(line) for line in text.splitlines()]
        first = data[0] if isinstance(data, list) else data
        assert set(first) == shapes[command], (command, set(first) ^ shapes[command])


def test_the_stepper_suggests_a_player_too(run):
    r = run("replay", KILL_LOG, "--step", "--as", "bbo", input="q\n")
    assert r.exit_code == 2 and "did you mean 'bob'" in r.stderr


def test_legal_lists_what_append_takes_with_chance_weighted(run, game):
    """`legal` lists the game's `legal(state)`, each line a JSON `append` takes as it stands
    and its sentence; chance's outcomes carry their weights (the cards left)."""
    from tabletape import engine
    r = run("legal", game)
    assert r.exit_code == 0, r.stderr
    head, *rows = r.stdout.splitlines()
    assert head == (f"{game} after seq 2: chance decides draw: the card alice draws (refill the "
                    f"hand); {len(rows)} legal events")
    result = engine.replay(str(game))
    rs = result.ruleset
    assert rs is not None
    want = list(rs.legal(result.state))
    assert len(rows) == len(want) > 1
    weights = rs.weights(result.state, want)
    for row, event, w in zip(rows, want, weights, strict=True):
        line, _, said = row.partition("  ")
        assert json.loads(line) == json.loads(msgspec.json.encode(event))
        assert said == f"{engine.describe(rs, event)} (weight {w} of {sum(weights)})"
    data = json.loads(run("legal", game, "--json").stdout)
    assert data["pending"]["actor"] == "chance" and data["as"] is None
    assert [e["weight"] for e in data["events"]] == weights
    assert run("append", game, rows[-1].partition("  ")[0]).exit_code == 0  # as it stands


def test_legal_as_a_player_lists_their_decisions_and_their_own_draws(run, game):
    alice = json.loads(run("legal", game, "--as", "alice", "--json").stdout)["events"]
    assert alice and all(e["event"]["player"] == "alice" for e in alice)  # her draw, hers
    r = run("legal", game, "--as", "bob")
    assert r.exit_code == 0 and r.stdout.endswith("; no legal event for bob\n")
    run("append", game, '{"type":"card_drawn","player":"alice","card":"Tank"}')
    for _ in range(20):  # the deal goes on until someone deploys
        data = json.loads(run("legal", game, "--json").stdout)
        if data["pending"]["actor"] != "chance":
            break
        run("append", game, json.dumps(data["events"][0]["event"]))
    actor = data["pending"]["actor"]
    other = next(p for p in ("alice", "bob") if p != actor)
    mine = json.loads(run("legal", game, "--as", actor, "--json").stdout)
    assert mine["events"] == data["events"] and all(e["weight"] is None for e in mine["events"])
    assert json.loads(run("legal", game, "--as", other, "--json").stdout)["events"] == []


def test_legal_refuses_an_ended_a_blocked_and_a_broken_log_and_an_unknown_player(run, game,
                                                                                  tmp_path):
    r = run("legal", KILL_LOG)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith(f"error: {KILL_LOG}: [core.game.over] the game is over: alice wins")
    r = run("legal", game, "--as", "bbo")
    assert r.exit_code == 2 and "not a player (did you mean 'bob'?)" in r.stderr
    assert run("append", game, "--force",
               '{"type":"card_drawn","player":"bob","card":"Tank"}').exit_code == 0
    r = run("legal", game)
    assert r.exit_code == 1 and "illegal event at seq 3 that is still in effect" in r.stderr
    assert "[cow.turn.order]" in r.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(lines(game)[:2]) + b'{"type":"note"}\n')
    r = run("legal", broken)
    assert r.exit_code == 1 and "broken.jsonl:3 " in r.stderr and "Traceback" not in r.stderr
