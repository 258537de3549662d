"""The trust issue: what a hostile log, components file or file name can make the CLI say."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tabletape.tape import log
from tabletape.tape.events import UNSAFE
from tests.conftest import COW, lines, new_log, opening, write

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
    "x" * 4000 + "\x1b[31m",  # a long text that ends hostile
]
NOTE = "".join(HOSTILE)[:4096]


def clean(text: str) -> None:
    """Asserts no control character but a newline, and no line that the log's text began."""
    bad = {hex(ord(c)) for c in UNSAFE_RE.findall(text.replace("\n", ""))}
    assert not bad, f"unsafe characters in the output: {sorted(bad)}"
    assert not [line for line in text.splitlines()
                if line.lstrip(" │┃|").startswith(("valid forged", "valid everything"))]


def out(r) -> str:
    return r.stdout + r.stderr


@pytest.fixture
def hostile(tmp_path):
    """A Cards of War log, under a hostile file name, with hostile notes and a dispute."""
    path = tmp_path / "g\x1b[32m\u202e\r.jsonl"
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
                 ("explain", hostile, 99), ("replay", hostile, "--as", "\x1b[31mzed")):
        r = run(*args)
        assert r.exit_code in (0, 1, 2), args
        clean(out(r))
        assert "Traceback" not in out(r)


def test_the_json_reports_escape_bidi_and_zero_width_too(run, hostile):
    r = run("log", hostile, "--json")
    assert "\u202e" not in r.stdout and "\\u202e" in r.stdout
    texts = [row["text"] for row in json.loads(r.stdout)]
    assert any("\\x1b" in t for t in texts)  # the sentence itself shows the escape


def test_writing_commands_escape_their_reports(run, hostile):
    for args, stdin in (((("note", hostile, NOTE)), None),
                        (("note", hostile, NOTE, "--about", 1, "--dispute", "--by", "alice"), None),
                        (("append", hostile), json.dumps({"type": "note", "text": NOTE}) + "\n"),
                        (("append", hostile, "--json", json.dumps({"type": "note", "text": FORGED})),
                         None),
                        (("undo", hostile), None),
                        (("append", hostile, '{"type":"note","text":"x","by":"\\u001b[2K"}'), None),
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
    header["players"][1] = "bob" + FORGED
    write(path, json.dumps(header, separators=(",", ":")).encode() + b"\n")
    r = run("validate", path)
    assert r.exit_code == 1 and r.stdout.startswith("INVALID")
    clean(out(r))
    assert not [ln for ln in out(r).splitlines() if ln.startswith("valid")]


def test_names_with_control_characters_are_refused_and_the_error_escaped(run, tmp_path):
    r = run("new", "cards-of-war", tmp_path / "g.jsonl", "--players", "alice,bob" + FORGED)
    assert r.exit_code == 2
    clean(out(r))
    deck = json.load(open("src/tabletape/games/cards_of_war/deck.json"))
    deck["cards"][0]["name"] = "Tank\u202e"
    write(tmp_path / "deck.json", json.dumps(deck).encode())
    r = run("new", "cards-of-war", tmp_path / "h.jsonl", "--players", "a,b",
            "--components", tmp_path / "deck.json")
    assert r.exit_code == 2 and "components do not fit" in r.stderr
    clean(out(r))
    r = run("validate", tmp_path / "missing\x1b[31m.jsonl")
    assert r.exit_code == 2
    clean(out(r))
    shutil.copy(KILL_LOG, tmp_path / "k.jsonl")
    r = run("append", tmp_path / "k.jsonl", '{"type":"note","text":"x"}', "--by", "\u202eumpire")
    assert r.exit_code == 2 and "not a valid cards-of-war event" in r.stderr
    clean(out(r))
