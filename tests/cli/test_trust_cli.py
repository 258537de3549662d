"""The trust issue: what a hostile log, components file or file name can make the CLI say."""

from __future__ import annotations

import json
import re
import shutil

import click
import pytest

from tabletape.tape import log
from tabletape.tape.events import UNSAFE
from tests.conftest import COW, lines, new_log, opening, write
from tests.reliability import figures

# The projects these tests make use no hypothesis: its plugin, loaded by every pytest process
# (and each xdist worker), costs about a second to import; blocked in their ini.
INI = "[pytest]\naddopts = -p no:hypothesispytest\ntabletape_corpus = logs\n"

pytest_plugins = ["pytester"]
KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"
UNSAFE_RE = re.compile(f"[{UNSAFE}]")

FORGED = "\x1b[2K\r\x1b[1A\x1b[2K\x1b[32mvalid everything is fine\x1b[8m"
HOSTILE = [
    "".join(map(chr, range(0x20))) + "\x7f",  # C0 and DEL
    "".join(map(chr, range(0x80, 0xa0))),  # C1
    FORGED,  # ESC sequences, CR
    "\r\nvalid forged line\n",  # a line of its own
    "\u202eevil\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c",  # bidi
    "zero\u200bwidth\u200c\u200d\ufeff",
    "\u2028\u2029",
    "[/]x[/] [link=https://evil.example/x]alice[/link] [i][/i]alice :skull:",  # rich markup
    "\x1b]8;;https://evil.example/\x1b\\alice\x1b]8;;\x1b\\",  # an OSC 8 hyperlink
    "\x1b]0;pwned\x07\x1b[2J",  # an OSC 0 window title, a cleared screen
    "in\u00ad\u034f\u115f\u17b4\u180b\u2060\u3164\ufe0f\uffa0\ufff0\U0001bca0\U0001d173\U000e0001vis",
    "\ufffe\uffff\ufdd0\U0001fffe\U0010ffff",  # noncharacters
    "x" * 4000 + "\x1b[31m",  # a long text that ends hostile
]
# Player names a log may hold that look like rich markup: each must print as written
# (every "zedN" in an output is the whole name), never as a link, italics or an error.
MARKUP = ["[link=https://evil.example/x]zed1[/link]", "[i][/i]zed2", "zed3[/]",
          "[bold red]zed4", ":skull:zed5"]
MARKED_FILE = "[i]zed6 [bold]"  # a log's file name (no player holds zed6)
NOTE = "".join(HOSTILE)[:4096]
FILE_NAME = "g\x1b[32m\u202e\r\udcff.jsonl"  # \udcff: the byte 0xff, not UTF-8
# where else hostile strings go in: a player to view as, a player's name, a card's, a
# missing file's, a --by, a `by` in an appended event
ELSEWHERE = ["\x1b[31mzed", "bob" + FORGED, "Tank\u202e", "missing\x1b[31m.jsonl",
             "\u202eumpire", "\u001b[2K"]
TRIED = [*HOSTILE, NOTE, FILE_NAME, *ELSEWHERE]
TALLY: dict = {"commands": set(), "outputs": 0, "misleading": 0, "last": None,
               "terminal": 0, "plugin": 0, "tracebacks": 0}


@pytest.fixture(scope="module", autouse=True)
def _figure():
    """Records the figure of this module's run: hostile strings, commands, misleading outputs."""
    yield
    if TALLY["outputs"]:
        from tabletape.cli.group import main
        commands = main.list_commands(click.Context(main))
        figures.record("trust: hostile strings through the CLI", strings=len(TRIED) + len(MARKUP) + 1,
                       commands=f"{len(TALLY['commands'] & set(commands))} of {len(commands)}",
                       outputs=TALLY["outputs"], in_a_terminal=TALLY["terminal"],
                       through_the_pytest_plugin=TALLY["plugin"],
                       tracebacks=TALLY["tracebacks"], misleading=TALLY["misleading"])


@pytest.fixture
def run():
    """The CLI runner, noting which command ran last (for the figure)."""
    from click.testing import CliRunner

    from tabletape.cli.group import main
    runner = CliRunner()

    def invoke(*args, input: str | None = None):
        TALLY["last"] = str(args[0])
        return runner.invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    return invoke


def clean(text: str) -> None:
    """Asserts no control character but a newline, no line that the log's text began, no
    markup read as markup (every zedN is its whole name), no traceback; counts the output
    (and a misleading one) for the figure."""
    bad = {hex(ord(c)) for c in UNSAFE_RE.findall(text.replace("\n", ""))}
    forged = [line for line in text.splitlines()
              if line.lstrip(" │┃|").startswith(("valid forged", "valid everything"))]
    marked = [m for m in [*MARKUP, MARKED_FILE]
              if text.count(m[m.index("zed"):][:4]) != text.count(m)]
    TALLY["outputs"] += 1
    TALLY["misleading"] += bool(bad or forged or marked)
    TALLY["tracebacks"] += "Traceback" in text
    TALLY["commands"].add(TALLY["last"])
    assert not bad, f"unsafe characters in the output: {sorted(bad)}"
    assert not forged
    assert not marked, f"read as markup: {marked}"
    assert "Traceback" not in text


def out(r) -> str:
    return r.stdout + r.stderr


@pytest.fixture
def hostile(tmp_path):
    """A Cards of War log, under a hostile file name, with hostile notes and a dispute."""
    path = tmp_path / FILE_NAME
    tail = opening(path, new_log(path))
    from tabletape.tape.events import Note
    log.append(str(path), [Note(text=t, by="bob") for t in HOSTILE] +
               [Note(text=NOTE, about=1, dispute=True, by="bob")], COW.codec, expect=tail)
    return path


def test_every_reading_command_escapes_what_the_log_holds(run, hostile, tmp_path):
    other = tmp_path / "other.jsonl"
    shutil.copy(hostile, other)
    for args in (("validate", hostile), ("validate", hostile, "--json"), ("verify", hostile),
                 ("verify", hostile, "--json"), ("replay", hostile), ("replay", hostile, "--json"),
                 ("log", hostile), ("log", hostile, "--json"), ("explain", hostile, 5),
                 ("explain", hostile, 1), ("explain", hostile, 1, "--json"),
                 ("diff", hostile, other), ("diff", f"{hostile}@3", f"{other}@5"),
                 ("diff", hostile, f"{other}@4", "--json"), ("games",), ("rules", "cards-of-war"),
                 ("explain", hostile, 99), ("replay", hostile, "--as", ELSEWHERE[0])):
        r = run(*args)
        assert r.exit_code in (0, 1, 2), args
        clean(out(r))
        assert "Traceback" not in out(r)


def test_the_json_reports_escape_bidi_and_zero_width_too(run, hostile):
    r = run("log", hostile, "--json")
    assert "\u202e" not in r.stdout and "\\u202e" in r.stdout
    texts = [json.loads(line)["text"] for line in r.stdout.splitlines()]
    assert any("\\x1b" in t for t in texts)  # the sentence itself shows the escape


def test_writing_commands_escape_their_reports(run, hostile):
    for args, stdin in (((("note", hostile, NOTE)), None),
                        (("note", hostile, NOTE, "--about", 1, "--dispute", "--by", "alice"), None),
                        (("append", hostile), json.dumps({"type": "note", "text": NOTE}) + "\n"),
                        (("append", hostile, "--json", json.dumps({"type": "note", "text": FORGED})),
                         None),
                        (("undo", hostile), None),
                        (("append", hostile,
                          json.dumps({"type": "note", "text": "x", "by": ELSEWHERE[5]})), None),
                        (("record", hostile), f"note {FORGED}\n"
                         + json.dumps({"type": "note", "text": NOTE}) + "\nlast 3\nquit\n")):
        r = run(*args, input=stdin)
        assert r.exit_code in (0, 1, 2), (args, out(r))
        clean(out(r))


def test_a_forged_valid_line_cannot_appear(run, tmp_path):
    """The issue's example: a player named bob + ESC sequences, in a log that is invalid."""
    path = tmp_path / "g.jsonl"
    new_log(path)
    header = json.loads(lines(path)[0])
    header["players"][1] = ELSEWHERE[1]
    write(path, json.dumps(header, separators=(",", ":")).encode() + b"\n")
    r = run("validate", path)
    assert r.exit_code == 1 and r.stdout.startswith("INVALID")
    clean(out(r))
    assert not [ln for ln in out(r).splitlines() if ln.startswith("valid")]


def test_names_with_control_characters_are_refused_and_the_error_escaped(run, tmp_path):
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", "alice,bob" + FORGED)
    assert r.exit_code == 2
    clean(out(r))
    deck = json.load(open("src/tabletape/games/cards_of_war/components.json"))
    deck["cards"][0]["name"] = ELSEWHERE[2]
    write(tmp_path / "deck.json", json.dumps(deck).encode())
    r = run("new", "cards-of-war", tmp_path / "h.jsonl", "--players", "a,b",
            "--components", tmp_path / "deck.json")
    assert r.exit_code == 2 and "components do not fit" in r.stderr
    clean(out(r))
    r = run("validate", tmp_path / ELSEWHERE[3])
    assert r.exit_code == 2
    clean(out(r))
    shutil.copy(KILL_LOG, tmp_path / "k.jsonl")
    r = run("append", tmp_path / "k.jsonl", '{"type":"note","text":"x"}', "--by", ELSEWHERE[4])
    assert r.exit_code == 2 and "not a valid cards-of-war event" in r.stderr
    clean(out(r))


# -- 2. explain, log, replay and diff read the whole log ----------------------------------
@pytest.fixture
def forged(tmp_path):
    """kill-dispute with the card of seq 21 (line 22) changed: the chain breaks at line 23."""
    path = tmp_path / "forged.jsonl"
    data = open(KILL_LOG, "rb").read().splitlines(keepends=True)
    assert b'"card":"Anti-Tank Gun"' in data[21]
    data[21] = data[21].replace(b'"card":"Anti-Tank Gun"', b'"card":"Bazooka"')
    write(path, b"".join(data))
    return path


def test_explain_of_a_line_before_a_break_says_the_log_breaks_and_exits_1(run, forged):
    r = run("validate", forged)
    assert r.exit_code == 1 and "forged.jsonl:23" in r.stdout
    r = run("explain", forged, 21)
    assert r.exit_code == 1
    assert "forged.jsonl:23 (seq 22" in r.stdout and "the log breaks after seq 21" in r.stdout
    assert "ruling: illegal" in r.stdout  # still explained, as it stands
    r = run("explain", forged, 21, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["problems"][0]["line"] == 23
    assert run("explain", KILL_LOG, 21).exit_code == 0


def test_replay_to_a_seq_before_a_break_still_finds_the_break(run, forged):
    r = run("replay", forged, "--to", 10)
    assert r.exit_code == 1 and "forged.jsonl:23" in r.stderr  # the error, on stderr
    assert "the state shown is after seq 10, but the log breaks later" in r.stderr
    assert "forged.jsonl:23" not in r.stdout and "after seq 10" in r.stdout
    r = run("replay", forged, "--to", 10, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["problems"][-1]["line"] == 23
    assert run("replay", KILL_LOG, "--to", 10).exit_code == 0


def test_replay_and_log_say_what_they_show_of_a_broken_log(run, forged):
    r = run("replay", forged)
    assert r.exit_code == 1 and "the last line read before the log breaks" in r.stderr
    r = run("log", forged)
    assert r.exit_code == 1 and "the table shows the 22 lines read before the log breaks" in r.stderr
    assert "the table shows" not in r.stdout and "forged.jsonl:23" in r.stderr
    r = run("log", forged, "--json")
    assert r.exit_code == 1 and "the lines show the 22 lines" in r.stderr
    assert all(json.loads(line) for line in r.stdout.splitlines())


# -- 6. diff reports a broken or invalid side first; other games are a usage error --------
def test_diff_reports_a_broken_side_before_the_divergence(run, forged):
    r = run("diff", forged, KILL_LOG)
    assert r.exit_code == 1
    out = r.stdout
    assert out.startswith("BROKEN A = ") and "compared up to its break" in out
    assert out.index("forged.jsonl:23") < out.index("first divergence at seq 21")
    data = json.loads(run("diff", forged, KILL_LOG, "--json").stdout)
    assert not data["same"] and data["problems"]["A"] and not data["problems"]["B"]
    r = run("diff", f"{forged}@5", f"{KILL_LOG}@5")  # a break after the point: still reported
    assert r.exit_code == 1 and "BROKEN A" in r.stdout


def test_diff_of_logs_of_different_games_is_a_usage_error(run):
    other = "replays/liberation/disputed-play.jsonl"
    r = run("diff", KILL_LOG, other)
    assert r.exit_code == 2 and "logs of different games cannot be compared" in r.stderr
    assert r.stdout == ""


# -- 3. --head is compared in full --------------------------------------------------------
def test_verify_head_takes_a_full_head_or_a_prefix_of_16(run):
    head = json.loads(run("verify", KILL_LOG, "--json").stdout)["head"]
    assert run("verify", KILL_LOG, "--head", head).exit_code == 0
    assert run("verify", KILL_LOG, "--head", head[:16].upper()).exit_code == 0
    for bad in ("7", "zz", head[:15], head + "0", "g" * 16):
        r = run("verify", KILL_LOG, "--head", bad)
        assert r.exit_code == 2 and "at least its first 16" in r.stderr, bad
    r = run("verify", KILL_LOG, "--head", "0" * 16)
    assert r.exit_code == 1 and "not the agreed" in r.stdout
    assert "at least the first 16" in " ".join(run("verify", "--help").stdout.split())


# -- 4. signatures only through `sign` ----------------------------------------------------
SIGNED = json.dumps({"type": "signed", "player": "alice", "signature": "0" * 128})


def test_append_and_record_refuse_a_signed_event(run, tmp_path):
    path = tmp_path / "k.jsonl"
    shutil.copy(KILL_LOG, path)
    before = path.read_bytes()
    for args, stdin in ((("append", path, SIGNED), None), (("append", path), SIGNED + "\n")):
        r = run(*args, input=stdin)
        assert r.exit_code == 2 and "tabletape sign FILE --key KEY" in r.stderr
    r = run("record", path, input=SIGNED + "\nquit\n")
    assert "tabletape sign FILE --key KEY" in r.stdout
    assert path.read_bytes() == before


def test_undo_after_a_signature_says_which_event_it_retracts(run, tmp_path):
    path = tmp_path / "g.jsonl"
    opening(path, new_log(path))
    assert run("keygen", "alice", "--dir", tmp_path / "keys").exit_code == 0
    assert run("sign", path, "--key", tmp_path / "keys" / "alice.key").exit_code == 0
    r = run("undo", path)
    assert r.exit_code == 0
    said = " ".join(r.stdout.split())
    assert ("the latest line, seq 3, is alice's signature, which cannot be undone; this undo "
            "retracts seq 2: ") in said and "still seals the log through seq 2" in said


# -- 5. signature failures first; validate counts signatures ------------------------------
def test_verify_puts_a_bad_signature_first_and_validate_counts_signatures(run, tmp_path):
    path = tmp_path / "g.jsonl"
    opening(path, new_log(path))
    keys = tmp_path / "keys"
    other = tmp_path / "other"
    assert run("keygen", "alice", "--dir", keys).exit_code == 0
    assert run("keygen", "alice", "--dir", other).exit_code == 0
    assert run("sign", path, "--key", keys / "alice.key").exit_code == 0
    r = run("verify", path, "--keys", other)
    assert r.exit_code == 1
    first = r.stdout.splitlines()[0]
    assert first.startswith("BAD SIGNATURE ") and "seq 3 by alice: invalid" in first
    assert "ok" not in first.split()
    assert run("verify", path, "--keys", keys).stdout.startswith("ok ")
    r = run("validate", path)
    assert r.exit_code == 0 and "1 signature not checked: `tabletape verify" in r.stdout
    data = json.loads(run("validate", path, "--json").stdout)
    assert data["signatures"] == 1 and data["signatures_checked"] is False


# -- 7. a log recorded under other rules says so -------------------------------------------
def test_a_log_of_another_rules_version_is_judged_with_a_note(run, tmp_path):
    path = tmp_path / "old.jsonl"
    data = open(KILL_LOG, "rb").read().splitlines(keepends=True)
    data[0] = data[0].replace(b'"rules_version":"1.1"', b'"rules_version":"0.9"')
    write(path, b"".join(data))
    from tests.tape.test_signing import rechain
    rechain(path)
    note = "note: recorded under cards-of-war rules 0.9, judged by rules 1.2"
    args: tuple[object, ...]
    for args in (("validate", path), ("explain", path, 21), ("replay", path)):
        r = run(*args)
        assert note in r.stdout, args
    for args in (("validate", path, "--json"), ("explain", path, 21, "--json"),
                 ("replay", path, "--json")):
        v = json.loads(run(*args).stdout)["rules_version"]
        assert v == {"recorded": "0.9", "judged_by": "1.2"}, args
    assert "note: recorded under" not in run("validate", KILL_LOG).stdout


def test_the_recorders_undo_after_a_signature_says_so_too(run, tmp_path):
    path = tmp_path / "g.jsonl"
    opening(path, new_log(path))
    assert run("keygen", "alice", "--dir", tmp_path / "keys").exit_code == 0
    assert run("sign", path, "--key", tmp_path / "keys" / "alice.key").exit_code == 0
    r = run("record", path, input="undo\nquit\n")
    said = " ".join(r.stdout.split())
    assert ("the latest line, seq 3, is alice's signature, which cannot be undone; this undo "
            "retracts seq 2") in said


def test_the_other_commands_escape_what_they_are_handed_too(run, hostile, tmp_path,
                                                          monkeypatch):
    """The rest of the commands, each given a hostile file name, log, name or text."""
    uvicorn = pytest.importorskip("uvicorn", reason="serve needs the view extra")
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)  # serve's report, no server
    folder = tmp_path / "archive\x1b[31m"
    folder.mkdir()
    shutil.copy(hostile, folder / FILE_NAME)
    keys = tmp_path / "keys"
    keys.mkdir()
    assert run("keygen", "alice", "--dir", keys).exit_code == 0
    for args in (("corpus", "check", folder, "--no-cache"),
                 ("corpus", "check", folder, "--no-cache", "--json"),
                 ("keygen", "\u202eeve" + FORGED, "--dir", keys),
                 ("repair", hostile), ("repair", hostile, "--json"),
                 ("schema", "--check", tmp_path / ELSEWHERE[3]),
                 ("sign", hostile, "--key", keys / "alice.key", "--by", "alice"),
                 ("simulate", "cards-of-war", tmp_path / FILE_NAME.replace("g", "s", 1),
                  "--players", "alice,bob", "--seed", 1),
                 ("svg", hostile, "-o", tmp_path / ("t\u202e.svg")),
                 ("view", hostile, "-o", tmp_path / ("t\x1b[2K.html")),
                 ("events", "cards-of-war\u202e"), ("components", "cards\x1b[31m"),
                 ("branch", f"{hostile}@3", "-o", tmp_path / ("b\u202e\r.jsonl")),
                 ("new", "cards-of-war", tmp_path / "n.jsonl", "--players",
                  "alice," + ELSEWHERE[0]),
                 ("migrate", hostile, "-o", tmp_path / ("m\u202e.jsonl")),
                 ("migrate", hostile, "-o", tmp_path / "m10.jsonl", "--rules", "1.0"),
                 ("serve", hostile, "--host", "0.0.0.0\x1b[2K"),
                 ("legal", hostile), ("legal", hostile, "--json"),
                 ("legal", hostile, "--as", ELSEWHERE[0]), ("legal", hostile, "--as", "bob")):
        r = run(*args)
        assert r.exit_code in (0, 1, 2), (args, out(r))
        assert "Traceback" not in out(r)
        clean(out(r))


# -- issue 22: names that look like markup, in a terminal too, and through the pytest plugin --
@pytest.fixture
def marked(tmp_path):
    """A Cards of War game between players named like markup, with the hostile notes and a
    dispute raised under another such name."""
    from tabletape.engine import simulate
    from tabletape.tape.events import Note
    from tests import session
    path = tmp_path / f"{MARKED_FILE}.jsonl"
    header = simulate.header_for(COW, (MARKUP[0], MARKUP[2]))
    tail = log.create(str(path), header, COW.codec)
    tail = log.append(str(path), list(session.session(COW, header, 5, 30)), COW.codec, expect=tail)
    log.append(str(path), [Note(text=t, by=MARKUP[3]) for t in HOSTILE[8:13]]
               + [Note(text=MARKUP[4], about=3, dispute=True, by=MARKUP[1])],
               COW.codec, expect=tail)
    return path


def marked_commands(path, tmp_path) -> list[tuple[tuple, str | None]]:
    """Every command that prints what the log holds, with its input."""
    folder = tmp_path / "archive"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, folder / f"{MARKED_FILE}.jsonl")
    return [(("validate", path), None), (("validate", path, "--json"), None),
            (("verify", path), None), (("replay", path), None), (("replay", path, "--json"), None),
            (("replay", path, "--to", 5), None), (("replay", path, "--as", MARKUP[0]), None),
            (("replay", path, "--step"), "n\nn\nn\nq\n"), (("log", path), None),
            (("log", path, "--json"), None), (("explain", path, 3), None),
            (("explain", path, 1), None), (("explain", path, 33), None),
            (("diff", f"{path}@3", path), None), (("record", path), "state\nlast 5\nquit\n"),
            (("corpus", "check", folder, "--no-cache"), None),
            (("svg", path, "-o", tmp_path / "m.svg"), None),
            (("view", path, "-o", tmp_path / "m.html"), None),
            (("branch", f"{path}@3", "-o", tmp_path / "b.jsonl"), None),
            (("migrate", path, "-o", tmp_path / "mig.jsonl", "--rules", "1.0"), None),
            (("note", path, "x", "--about", 2, "--dispute", "--by", MARKUP[1]), None),
            (("append", path, json.dumps({"type": "note", "text": MARKUP[2], "by": MARKUP[3]})),
             None)]


def test_markup_names_print_as_written_through_every_command(run, marked, tmp_path):
    for args, stdin in marked_commands(marked, tmp_path):
        r = run(*args, input=stdin)
        assert r.exit_code in (0, 1), (args, out(r))
        clean(out(r))
    assert MARKUP[0] in run("replay", marked).stdout


# What rich itself writes at a terminal: colours (SGR) and, for a progress bar, the cursor
# hidden and shown, the line cleared, the cursor moved up a line.
RICH_OWN = re.compile(r"\x1b\[[0-9;]*m|\x1b\[\?25[lh]|\r?\x1b\[2K|\r?\x1b\[1A")


def test_hostile_strings_in_a_terminal(marked, tmp_path):
    """The same commands in a pseudo-terminal (rich draws tables and colours there): only
    rich's own colours and progress bar are escape sequences (RICH_OWN); never a link, a title
    or a cleared screen."""
    pexpect = pytest.importorskip("pexpect")
    import os
    import sys
    env = {**os.environ, "COLUMNS": "200", "LINES": "50", "TERM": "xterm-256color",
           "TABLETAPE_CLOCK": "off"}
    env.pop("NO_COLOR", None)
    interactive = ("record", "--step")
    coloured = 0  # outputs with rich's colours: proof that rich saw a terminal
    for args, stdin in marked_commands(marked, tmp_path / "pty"):
        if args[0] in ("branch", "svg", "view", "note", "append"):
            continue  # they print one line about a file written: run above
        TALLY["last"] = args[0]
        child = pexpect.spawn(sys.executable, ["-m", "tabletape", *map(str, args)], env=env,
                              encoding="utf-8", codec_errors="surrogateescape",
                              dimensions=(50, 200), timeout=60)
        for line in (stdin or "").splitlines():
            child.sendline(line)
        child.expect(pexpect.EOF)
        child.close()
        text = child.before
        assert "\x1b]" not in text and "\x07" not in text, args  # no OSC: link, title
        TALLY["terminal"] += 1
        coloured += "\x1b[" in text
        if any(a in interactive for a in args):  # the line editor's own sequences: theirs
            assert "Traceback" not in text
            continue
        clean(RICH_OWN.sub("", text.replace("\r\n", "\n")))
    assert coloured >= 10


def test_hostile_strings_through_the_pytest_plugin(pytester, marked):
    """A hostile log (and a hostile file name) in a project's corpus: pytest's report holds
    what it holds escaped."""
    folder = pytester.path / "logs"
    folder.mkdir()
    target = folder / FILE_NAME
    shutil.copy(marked, target)
    pytester.makeini(INI)
    assert pytester.runpytest_subprocess("-p", "tabletape", "--tabletape-update").ret == 0
    data = lines(target)
    for k, s in enumerate(HOSTILE[8:13]):  # unknown fields named by hostile strings, and notes
        body = json.loads(data[4 + k])
        body[s] = 1
        data[4 + k] = json.dumps(body, separators=(",", ":")).encode() + b"\n"
    write(target, b"".join(data))
    for args in (("-p", "tabletape"), ("-p", "tabletape", "-v", "-rA")):
        r = pytester.runpytest_subprocess(*args)
        assert r.ret == 1
        text = "\n".join(r.outlines + r.errlines)
        assert "reading stopped" in text
        TALLY["last"] = "pytest plugin"
        TALLY["plugin"] += 1
        clean(text)
