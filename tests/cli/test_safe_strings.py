"""Issue 22, items 5-7: one door for every printed string.

Names and free-text header fields are printed as written (never read as rich markup),
escapes are applied at one door (`tape.events.visible`), and names refuse the characters
that print as nothing or that XML refuses.
"""

from __future__ import annotations

import json
import re

import msgspec
import pytest

from tabletape import engine
from tabletape.engine import simulate
from tabletape.tape import log
from tabletape.tape.events import UNSAFE, Note
from tests import session

# The projects these tests make use no hypothesis: its plugin, loaded by every pytest process
# (and each xdist worker), costs about a second to import; blocked in their ini.
INI = "[pytest]\naddopts = -p no:hypothesispytest\ntabletape_corpus = logs\n"

pytest_plugins = ["pytester"]

COW = engine.get("cards-of-war")
LINK = "[link=https://evil.example/x]alice[/link]"
ITALIC = "[i][/i]alice"
CLOSE = "x[/]"
UNSAFE_RE = re.compile(f"[{UNSAFE}]")


def played(path, players=("alice", "bob"), events=40, rules_version=None, seed=3) -> str:
    """Writes a legal Cards of War session with these players (and rules_version)."""
    header = simulate.header_for(COW, tuple(players))
    if rules_version is not None:
        header = msgspec.structs.replace(header, rules_version=rules_version)
    tail = log.create(str(path), header, COW.codec)
    log.append(str(path), list(session.session(COW, header, seed, events)), COW.codec,
               expect=tail)
    return str(path)


def out(r) -> str:
    return r.stdout + r.stderr


def no_controls(text: str) -> None:
    bad = {hex(ord(c)) for c in UNSAFE_RE.findall(text.replace("\n", ""))}
    assert not bad, f"unsafe characters in the output: {sorted(bad)}"


# -- 5. names reach rich as text, never as markup ------------------------------------------
@pytest.mark.parametrize("name", [CLOSE, LINK, ITALIC])
def test_a_name_that_looks_like_markup_is_printed_as_written(run, tmp_path, name):
    path = played(tmp_path / "g.jsonl", (name, "bob"))
    for args in (("replay", path), ("explain", path, 3), ("replay", path, "--to", 5),
                 ("validate", path), ("log", path), ("diff", f"{path}@3", path)):
        r = run(*args)
        assert r.exit_code in (0, 1), (args, out(r))
        assert name in out(r), (args, out(r))


def test_replay_step_and_records_state_print_a_markup_name_as_written(run, tmp_path):
    path = played(tmp_path / "g.jsonl", (CLOSE, LINK))
    r = run("replay", path, "--step", input="n\nn\nn\nq\n")
    assert r.exit_code == 0, out(r)
    assert CLOSE in r.stdout and LINK in r.stdout
    r = run("record", path, input="state\nquit\n")
    assert r.exit_code == 0, out(r)
    assert CLOSE in r.stdout and LINK in r.stdout


def test_a_dispute_by_a_markup_name_does_not_crash_validate(run, tmp_path):
    path = played(tmp_path / "g.jsonl")
    r = run("note", path, "that was wrong", "--about", 3, "--dispute", "--by", "y[/]")
    assert r.exit_code == 0, out(r)
    r = run("validate", path)
    assert r.exit_code in (0, 1) and "y[/]" in r.stdout, out(r)


def test_one_markup_rules_version_does_not_crash_corpus_check(run, tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    played(folder / "a.jsonl", rules_version="1.1[/]")
    played(folder / "b.jsonl", seed=4)
    r = run("corpus", "check", folder, "--no-cache")
    assert r.exit_code in (0, 1), out(r)
    assert "2 logs" in r.stdout and "1.1[/]" in r.stdout, r.stdout


def test_markup_in_a_name_reaches_a_terminal_as_text(tmp_path):
    """At a terminal too (colours, tables): no hyperlink, no italics, the name as written."""
    pexpect = pytest.importorskip("pexpect")
    path = played(tmp_path / "g.jsonl", (LINK, ITALIC))
    text = _in_a_terminal(pexpect, ["replay", path])
    assert "\x1b]8;" not in text  # no OSC 8 hyperlink
    assert LINK in _plain(text) and ITALIC in _plain(text)


def _in_a_terminal(pexpect, args: list[str], input: str | None = None) -> str:
    import os
    import sys
    env = {**os.environ, "COLUMNS": "200", "LINES": "50", "TERM": "xterm-256color",
           "TABLETAPE_CLOCK": "off"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "tabletape", *map(str, args)], env=env,
                          encoding="utf-8", codec_errors="surrogateescape",
                          dimensions=(50, 200), timeout=30)
    if input is not None:
        for line in input.splitlines():
            child.sendline(line)
    child.expect(pexpect.EOF)
    child.close()
    return child.before


SGR = re.compile(r"\x1b\[[0-9;]*m")


def _plain(text: str) -> str:
    """A terminal's text without rich's colours (SGR) and with \\r\\n as \\n."""
    return SGR.sub("", text).replace("\r\n", "\n")


# -- 6. the pytest plugin prints what a log holds through the same door ---------------------
def test_the_pytest_plugin_escapes_what_a_log_holds(pytester):
    folder = pytester.path / "logs"
    folder.mkdir()
    path = played(folder / "g.jsonl")
    pytester.makeini(INI)
    assert pytester.runpytest_inprocess("-p", "tabletape", "--tabletape-update").ret == 0
    data = open(path, "rb").read().splitlines(keepends=True)
    hostile = "\x1b]0;pwned\x07\x1b[2J"
    head = json.loads(data[5])
    head[hostile] = 1  # an unknown field: reading stops at line 6, naming the field
    data[5] = json.dumps(head, separators=(",", ":")).encode() + b"\n"
    open(path, "wb").write(b"".join(data))
    r = pytester.runpytest_subprocess("-p", "tabletape")
    text = "\n".join(r.outlines + r.errlines)
    assert "reading stopped" in text, text
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in text


# -- 7. names refuse the characters that print as nothing, and those XML refuses ------------
INVISIBLE = ["\u2060", "\u00ad", "\ufe0f", "\u3164", "\u034f", "\u115f", "\u17b4", "\u180b",
             "\u200b", "\u206f", "\ufe00", "\ufeff", "\uffa0", "\ufff0", "\U0001bca0",
             "\U0001d173", "\U000e0001", "\U000e0fff"]
NONCHARACTERS = ["\ufffe", "\uffff", "\ufdd0", "\ufdef", "\U0001fffe", "\U0010ffff"]


@pytest.mark.parametrize("char", INVISIBLE + NONCHARACTERS)
def test_a_name_holding_an_invisible_character_or_a_noncharacter_is_refused(run, tmp_path, char):
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", f"alice,ali{char}ce")
    assert r.exit_code == 2, out(r)
    no_controls(out(r))


@pytest.mark.parametrize("char", INVISIBLE + NONCHARACTERS)
def test_a_log_naming_a_player_with_such_a_character_is_a_format_error(tmp_path, char):
    """By the block reader too: a later line's name, so that the fast path reads it first."""
    from tabletape.engine import reading
    from tabletape.tape.errors import LogFormatError
    path = played(tmp_path / "g.jsonl")
    data = open(path, "rb").read().splitlines(keepends=True)
    k = next(i for i, line in enumerate(data) if b'"player":"bob"' in line and i > 1)
    data[k] = data[k].replace(b'"player":"bob"', b'"player":"b'
                              + msgspec.json.encode(char)[1:-1] + b'ob"', 1)
    open(path, "wb").write(b"".join(data))
    with pytest.raises(LogFormatError) as e:
        list(reading.iter_records(path))
    assert e.value.line == k + 1 and e.value.field == "$.player"


@pytest.mark.parametrize("field,value", [("rules_version", "1\u2060"),
                                         ("rules_version", "1\uffff"),
                                         ("rules_version", "1\x1b[2J"),
                                         ("rules_version", "[link=\x1bc]x[/link]"),
                                         ("rules_version", "x" * 65),
                                         ("game", "cards-of-war\u00ad")])
def test_free_text_header_fields_have_the_bounds_of_names(run, tmp_path, field, value):
    path = played(tmp_path / "g.jsonl")
    data = open(path, "rb").read().splitlines(keepends=True)
    header = json.loads(data[0])
    header[field] = value
    data[0] = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    open(path, "wb").write(b"".join(data))
    r = run("validate", path)
    assert r.exit_code in (1, 2), out(r)
    no_controls(out(r))
    assert ":1 (byte 0, field $." in out(r), out(r)
    if field == "rules_version":
        assert "rules_version" in out(r), out(r)


def test_two_players_can_no_longer_print_alike(run, tmp_path):
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", "alice,alice\u2060")
    assert r.exit_code == 2


def test_visible_escapes_what_prints_as_nothing_and_noncharacters():
    from tabletape.tape.events import visible
    assert visible("a\u2060b\ufffe\U000e0001") == "a\\u2060b\\ufffe\\U000e0001"
    assert visible("a\udc80") == "a\\udc80"  # a file name's undecodable byte
    assert visible("Zoë ✓ 日本") == "Zoë ✓ 日本"


def test_a_note_with_invisible_characters_is_kept_and_printed_escaped(run, tmp_path):
    path = played(tmp_path / "g.jsonl")
    with open(path, "rb") as f:
        tail = log.read_tail(f.fileno())
    log.append(path, [Note(text="see\u2060 this\ufffe", by="bob")], COW.codec, expect=tail)
    r = run("log", path)
    assert r.exit_code == 0, out(r)
    assert "see\\u2060 this\\ufffe" in r.stdout



@pytest.mark.parametrize("value", ["deck\x1b]0;x\x07", "deck\u2060", "deck\uffff"])
def test_a_components_files_free_text_has_the_bounds_of_names(run, tmp_path, value):
    deck = json.load(open("src/tabletape/games/cards_of_war/components.json"))
    deck["deck_name"] = value
    (tmp_path / "deck.json").write_text(json.dumps(deck))
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", "a,b",
            "--components", tmp_path / "deck.json")
    assert r.exit_code == 2 and "components do not fit" in r.stderr, out(r)
    assert "$.deck_name" in r.stderr and "without a control, bidi" in r.stderr, out(r)
    no_controls(out(r))


def test_no_string_is_read_as_markup_anywhere():
    """The door by construction: the consoles read no markup, and no code asks for it."""
    import pathlib

    from tabletape.cli.render import console, err_console
    assert not console._markup and not err_console._markup
    for p in pathlib.Path("src/tabletape").rglob("*.py"):
        code = p.read_text()
        assert "from_markup" not in code and "markup=True" not in code, p


def test_an_svg_never_holds_what_xml_refuses():
    """Names refuse them; whatever else a drawing's text holds is escaped at the same door."""
    from xml.dom import minidom

    from tabletape.engine.kit.svg import esc, text
    assert esc("a\uffff\x1b<b>\u2060") == "a\\uffff\\x1b&lt;b&gt;\\u2060"
    part = text(1, 2, "x\ufffe\x00")
    minidom.parseString(f'<svg xmlns="http://www.w3.org/2000/svg">{part}</svg>')


def test_completion_never_offers_a_name_the_schema_refuses(tmp_path):
    """A header edited to hold an escape or a newline: the shell is never handed it."""
    import click

    from tabletape.cli import complete
    path = played(tmp_path / "g.jsonl")
    data = open(path, "rb").read().splitlines(keepends=True)
    header = json.loads(data[0])
    header["players"] = ["alice", "b\x1b]0;x\x07ob", "c\nrm -rf ~", "d\u2060", "[i]zed"]
    data[0] = json.dumps(header, separators=(",", ":")).encode() + b"\n"
    open(path, "wb").write(b"".join(data))
    ctx = click.Context(click.Command("x"))
    ctx.params["file"] = path
    assert [c.value for c in complete.players(ctx, None, "")] == [  # type: ignore[arg-type]
        "alice", "[i]zed"]  # (the parameter, unread, left out)


def test_a_file_name_that_is_not_utf8_is_printed_escaped_everywhere(run, tmp_path):
    """Such a name reaches Python holding surrogates: printed, or written into a page, it
    goes through the same door (it used to crash `view`)."""
    import os
    import shutil
    path = os.path.join(tmp_path, os.fsdecode(b"k\xff\x1b[2J.jsonl"))
    shutil.copy("replays/cards-of-war/kill-dispute.jsonl", path)
    for args in (("validate", path), ("replay", path), ("log", path), ("explain", path, 3),
                 ("svg", path, "-o", tmp_path / "k.svg"), ("view", path, "-o", tmp_path / "k.html"),
                 ("corpus", "check", tmp_path, "--no-cache")):
        r = run(*args)
        assert r.exit_code == 0, (args, out(r))
        no_controls(out(r))
    page = open(tmp_path / "k.html", encoding="utf-8").read()
    assert "<title>Cards of War: k\\udcff\\x1b[2J.jsonl</title>" in page


def test_json_escapes_are_json_past_u_ffff_and_for_surrogates():
    from tabletape.tape.events import visible_json
    data = {"t": "a\U000e0001b\u2060\x1b", "f": "k\udcff"}
    text = visible_json(data)
    assert text.isascii() and text.isprintable()
    assert "\\udb40\\udc01" in text
    assert json.loads(text) == data


def test_json_reports_of_a_file_name_that_is_not_utf8(run, tmp_path):
    import os
    import shutil
    path = os.path.join(tmp_path, os.fsdecode(b"k\xff\x1b[2J.jsonl"))
    shutil.copy("replays/cards-of-war/kill-dispute.jsonl", path)
    for args in (("validate", path, "--json"), ("replay", path, "--json"), ("log", path, "--json"),
                 ("verify", path, "--json"), ("corpus", "check", tmp_path, "--no-cache", "--json")):
        r = run(*args)
        assert r.exit_code == 0, (args, out(r))
        no_controls(out(r))
        first = json.loads(r.stdout.splitlines()[0])
        if args[0] in ("validate", "replay", "verify"):
            assert first["file"] == path  # the same string, escaped in the JSON text


def test_an_archive_with_a_file_name_that_is_not_utf8(run, tmp_path, monkeypatch):
    """Cached, and named in a baseline: by its escaped name (it used to raise)."""
    import os
    import shutil
    monkeypatch.setenv("TABLETAPE_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "archive"
    folder.mkdir()
    shutil.copy("replays/cards-of-war/kill-dispute.jsonl", os.path.join(folder, os.fsdecode(b"k\xff.jsonl")))
    base = folder / "baseline.json"
    for args in (("corpus", "check", folder), ("corpus", "check", folder),
                 ("corpus", "check", folder, "--baseline", base, "--update"),
                 ("corpus", "check", folder, "--baseline", base)):
        r = run(*args)
        assert r.exit_code == 0, (args, out(r))
        no_controls(out(r))
    assert "k\\\\udcff.jsonl" in base.read_text()
    shutil.copy(base, folder / "k\\udcff.jsonl")  # a name that reads the same once escaped
    r = run("corpus", "check", folder, "--no-cache")
    assert r.exit_code == 2 and "k\\udcff.jsonl (one file name holds" in r.stderr, out(r)
