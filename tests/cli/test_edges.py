"""Issue 22, "tell the truth at the edges": what a command says at the ends of a log, of a
broken one, and at an illegal seq, and what it refuses to certify."""

from __future__ import annotations

import json

import pytest

from tests.conftest import lines, write

KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"  # 92 lines; seq 21 illegal, undone at 23
UNDO_LOG = "replays/cards-of-war/undo-correction.jsonl"  # seq 21 illegal, undone at 22


@pytest.fixture
def broken(tmp_path):
    """The kill-dispute log with its line 39 (seq 38) cut short: the chain breaks there."""
    path = tmp_path / "broken.jsonl"
    data = lines(KILL_LOG)
    data[38] = data[38][:-10] + b"\n"
    write(path, b"".join(data))
    return path


def test_branch_refuses_a_parent_broken_after_the_point(run, broken, tmp_path):
    new = tmp_path / "b.jsonl"
    r = run("branch", f"{broken}@37", "-o", new)
    assert r.exit_code == 1, r.output
    assert "broken.jsonl:39" in r.stderr and "no branch is made of a broken log" in r.stderr
    assert not new.exists()
    r = run("branch", f"{KILL_LOG}@37", "-o", new)  # the intact log branches as before
    assert r.exit_code == 0, r.stderr


def test_branch_refuses_a_parent_with_a_torn_tail(run, tmp_path):
    torn = tmp_path / "torn.jsonl"
    write(torn, b"".join(lines(KILL_LOG)) + b'{"type":"no')
    r = run("branch", f"{torn}@5", "-o", tmp_path / "b.jsonl")
    assert r.exit_code == 1 and "torn last line" in r.stderr and "tabletape repair" in r.stderr
    assert not (tmp_path / "b.jsonl").exists()


def test_verify_parent_does_not_certify_a_child_of_a_broken_parent(run, broken, tmp_path):
    child = tmp_path / "child.jsonl"
    assert run("branch", f"{KILL_LOG}@37", "-o", child).exit_code == 0
    r = run("verify", child, "--parent", broken)
    assert r.exit_code == 1
    assert "NOT CONFIRMED" in r.stdout and "which is broken" in r.stdout
    assert "broken.jsonl:39" in r.stdout and "byte for byte" not in r.stdout
    assert "child.jsonl itself: 38 events, chain intact" in r.stdout
    data = json.loads(run("verify", child, "--parent", broken, "--json").stdout)
    assert data["ok"] is False and data["parent"]["shared_to"] is None
    assert "which is broken" in data["error"]["reason"]
    assert run("verify", child, "--parent", KILL_LOG).exit_code == 0


@pytest.mark.parametrize("args", [("X@1000", KILL_LOG), (KILL_LOG, "X@92"),
                                  (KILL_LOG, "X@1000", "--json")])
def test_diff_at_a_seq_past_the_end_is_a_usage_error(run, args):
    args = tuple(a.replace("X", KILL_LOG) for a in args)
    r = run("diff", *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: ") and "ends at seq 91" in r.stderr
    assert KILL_LOG in r.stderr and "same game" not in r.output and not r.stdout
    assert run("diff", f"{KILL_LOG}@91", KILL_LOG).exit_code == 0


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_log_from_past_the_end_is_a_usage_error(run, json_flag):
    r = run("log", KILL_LOG, "--from", "1000", *json_flag)
    assert r.exit_code == 2 and not r.stdout
    assert r.stderr == f"error: {KILL_LOG}: --from 1000: the log ends at seq 91\n"
    r = run("log", KILL_LOG, "--from", "91", *json_flag)
    assert r.exit_code == 0 and "Recon Plane" in r.stdout


def test_log_from_says_how_much_of_a_broken_log_it_shows(run, broken):
    r = run("log", broken, "--from", "30", "--to", "31")
    assert r.exit_code == 1 and r.stdout.count("\n") == 4  # the heading, 2 rows
    assert "the table shows 2 of the" in r.stderr


def test_svg_and_replay_at_an_illegal_seq_say_they_draw_the_state_before_it(run, tmp_path):
    out = tmp_path / "t.svg"
    r = run("svg", UNDO_LOG, "--to", "21", "--as", "bob", "-o", out)
    assert r.exit_code == 1
    assert r.stdout == (f"wrote {out}: the table before seq 21, as bob sees it: seq 21 is "
                        "illegal [cow.turn.step], not applied\n")
    r = run("replay", UNDO_LOG, "--to", "21", "--as", "bob")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[-1] == ("before seq 21, as bob sees it: seq 21 is illegal "
                                         "[cow.turn.step], not applied")
    # the same state as replay --to 20 draws, which says "after seq 20"
    before = run("replay", UNDO_LOG, "--to", "20", "--as", "bob").stdout.splitlines()
    assert before[:-1] == r.stdout.splitlines()[:-1] and before[-1] == "after seq 20, as bob sees it"
    r = run("replay", UNDO_LOG, "--to", "22")  # undone at 22: applied no more, nothing blocked
    assert r.exit_code == 0 and r.stdout.splitlines()[-1] == "after seq 22"


def test_an_illegal_event_in_effect_is_said_with_what_follows_unjudged(run, game, tmp_path):
    bad = '{"type":"card_drawn","player":"bob","card":"Tank"}'
    assert run("append", game, "--force", bad).exit_code == 0
    assert run("note", game, "hm").exit_code == 0
    r = run("svg", game, "-o", tmp_path / "g.svg")
    assert r.exit_code == 1 and r.stdout.endswith(
        "the table before seq 3: seq 3 is illegal [cow.turn.order], not applied, and the rules "
        "judge nothing after it to seq 4\n")


def test_view_of_a_broken_log_writes_the_page_and_exits_1(run, broken, tmp_path):
    out = tmp_path / "v.html"
    r = run("view", broken, "-o", out)
    assert r.exit_code == 1 and out.exists()
    assert "38 lines (seq 0-37), unreadable at line 39" in r.stdout
    r = run("view", broken, "-o", tmp_path / "w.html", "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["verdict"] == "unreadable at line 39"
    assert run("view", KILL_LOG, "-o", tmp_path / "k.html").exit_code == 0


# -- messages: did you mean, one error style, examples that copy and paste --------------------

def test_an_unknown_command_gets_the_closest_names(run):
    r = run("valdate", KILL_LOG)
    assert r.exit_code == 2 and not r.stdout
    prog = "main"  # what the CliRunner names the program
    assert r.stderr.splitlines() == ["error: no such command 'valdate' (did you mean 'validate'?)",
                                     f"Usage: {prog} [OPTIONS] COMMAND [ARGS]...",
                                     f"Try '{prog} --help' for help."]
    r = run("corpus", "chek")
    assert r.exit_code == 2 and r.stderr.startswith(
        "error: no such command 'chek' (did you mean 'check'?)\n")
    r = run("xyzzy")
    assert r.exit_code == 2 and r.stderr.startswith("error: no such command 'xyzzy'\n")


@pytest.mark.parametrize(("args", "first"), [
    (("replay", KILL_LOG, "--to", "x"), "error: invalid value for '--to': 'x' is not a valid integer"),
    (("replay",), "error: missing argument 'FILE'"),
    (("--nope",), "error: no such option '--nope'"),
    (("replay", KILL_LOG, "--tp", "3"),
     "error: no such option '--tp' (did you mean '--help' or '--step' or '--to'?)"),
    (("games", "extra"), "error: got unexpected extra argument (extra)"),
    (("log", KILL_LOG, "--from", "-1"),
     "error: invalid value for '--from': -1 is not in the range x>=0"),
])
def test_click_s_usage_errors_are_in_our_one_style_with_the_usage_hint(run, args, first):
    r = run(*args)
    assert r.exit_code == 2 and not r.stdout
    lines_ = r.stderr.splitlines()
    assert lines_[0] == first and "Error:" not in r.stderr
    assert lines_[1].startswith("Usage: main") and lines_[2].startswith("Try 'main")


def _commands(group=None, path=()):
    """Yields (path, command) for every command of the group, subgroups' commands too."""
    import click

    from tabletape.cli.group import main
    group = group or main
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        yield (*path, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))


def _examples(help_text: str) -> list[str]:
    """Returns the lines under `Example:` / `Examples:` in a help page, up to a blank line."""
    out, inside = [], False
    for line in help_text.splitlines():
        if line.strip() in ("Example:", "Examples:"):
            inside = True
        elif inside and line.strip():
            out.append(line.strip())
        else:
            inside = False
    return out


def test_every_help_example_is_one_whole_command_that_parses(run, monkeypatch, tmp_path):
    import shlex

    import click

    from tabletape.cli.group import main
    monkeypatch.setenv("COLUMNS", "50")  # narrow: nothing an example holds may be wrapped
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.jsonl").write_bytes(b"")  # serve's FILE must exist
    seen = 0
    for path, cmd in [((), main), *_commands()]:
        r = run(*path, "--help")
        assert r.exit_code == 0, path
        examples = _examples(r.stdout)
        assert examples or isinstance(cmd, click.Group) and path, (path, "has no example")
        assert "Example: " not in r.stdout, (path, "an example on its heading's line wraps")
        for example in examples:
            words = shlex.split(example)
            for stop in ("|", ">"):  # a pipe or a redirection ends the command
                if stop in words:
                    words = words[:words.index(stop)]
            assert words[0] == "tabletape", (path, example)
            words = words[1:]
            command: click.Command | None = main
            group: click.Group = main
            parent = main.make_context("tabletape", ["games"])
            while isinstance(command, click.Group):  # the subcommands named, then the rest
                group = command
                command = group.get_command(parent, words[0])
                assert command is not None, (path, example)
                name, words = words[0], words[1:]
                if isinstance(command, click.Group):
                    parent = command.make_context(name, [words[0]], parent=parent)
            if not path:
                assert command is not None
            assert command is not None  # (the walk above stops at a command)
            command.make_context(name, words, parent=parent)  # raises if it does not parse
            seen += 1
    assert seen >= 30
