"""`tabletape view`: the whole game as one self-contained HTML page (browser tests: test_browser.py).

The page's data says per seq what `explain` and `replay --step` say: the sentence,
the ruling, the undo and the disputes; and the log's verdict and head at the top.
"""

from __future__ import annotations

import base64
import glob
import gzip
import json
import re

import msgspec
import pytest

from tabletape import engine
from tabletape.app import pictures, viewer
from tabletape.app.stepper import Stepper
from tabletape.engine import simulate
from tabletape.tape import log
from tests import session

REPLAYS = sorted(glob.glob("replays/*/*.jsonl"))
KILL = "replays/cards-of-war/kill-dispute.jsonl"


def page_data(page: str) -> dict:
    """Returns the data a viewer page carries (unpacked as the page does)."""
    packed = re.search(r'<script id="data" type="application/gzip;base64">(.*?)</script>', page,
                       flags=re.S)
    assert packed is not None
    return json.loads(gzip.decompress(base64.b64decode(packed.group(1))))


def session_game(path, game: str, players: tuple[str, ...], events: int) -> str:
    rs = engine.get(game)
    header = simulate.header_for(rs, players)
    tail = log.create(str(path), header, rs.codec)
    log.append(str(path), list(session.session(rs, header, 1, events)), rs.codec, expect=tail)
    return str(path)


@pytest.mark.parametrize("path", REPLAYS)
def test_every_replay_has_a_frame_per_seq_with_steppers_words(path):
    book = viewer.build(path)
    stepper = Stepper(path)
    assert len(book.frames) == len(stepper.frames) == book.events
    for f, (seq, frame) in zip(book.frames, enumerate(stepper.frames), strict=True):
        stepper.go(seq)
        assert f["t"] == frame.sentence
        assert f["m"] == [m.text for m in stepper.marks(ruled=True)]  # (reason: the ruling line)
    last = book.pics[-1]
    r = engine.replay(path)
    for v, who in enumerate((None, *r.header.players)):
        assert r.ruleset is not None
        drawn = pictures.draw(r.ruleset, r.state, who)
        assert "".join(book.parts[i] for i in last[v]) + "</svg>\n" == drawn.svg()


def test_the_ruling_is_explains(run):
    book = viewer.build(KILL)
    for seq in (1, 21, 22, 23, len(book.frames) - 1):
        out = json.loads(run("explain", KILL, seq, "--json").output)
        f = book.frames[seq]
        assert f["t"] == out["text"]
        assert f["r"] == f"ruling: {out['verdict']}" + (f" — {out['reason']}" if out["reason"]
                                                         else "")
    assert book.frames[21]["k"] == "i" and book.frames[22]["k"] == "d"
    assert any(m.startswith("disputed at seq 22: illegal [cow.kill.type-match]")
               for m in book.frames[21]["m"])


def test_the_verdict_and_head(tmp_path):
    book = viewer.build(KILL)
    assert (book.ok, book.verdict) == (True, "valid")
    assert book.head == engine.read_chain(KILL).head
    lines = open(KILL, "rb").read().splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join(lines[:10]) + lines[11].replace(b'"seq":11', b'"seq":12')
                       + b"".join(lines[12:]))
    book = viewer.build(str(broken))
    assert not book.ok and book.verdict.startswith("chain broken at line 11")
    assert len(book.frames) == 10
    illegal = tmp_path / "illegal.jsonl"
    illegal.write_bytes(b"".join(lines[:23]))  # ends on the illegal kill, not yet undone
    book = viewer.build(str(illegal))
    assert (book.ok, book.verdict) == (False, "invalid at seq 21 [cow.kill.type-match]")


def test_the_page_is_self_contained(tmp_path, run):
    out = tmp_path / "game.html"
    res = run("view", KILL, "-o", out)
    assert res.exit_code == 0, res.output
    assert re.fullmatch(rf"wrote {out}: 92 lines \(seq 0-91\), valid\n\d+ kB, self-contained: "
                        r"open it in a browser, mail it, or put it on a website\n", res.output)
    page = out.read_text()
    assert not re.search(r"""(src|href)\s*=|https?://|@import|url\(""", page)
    data = page_data(page)
    assert data["frames"] == msgspec.to_builtins(viewer.build(KILL).frames)
    assert page == viewer.html(viewer.build(KILL))  # the same bytes for the same log


def test_a_500_event_game_is_well_under_2_mb(tmp_path):
    """The six-player Global Domination session draws seven tables per seq."""
    sizes = {}
    for game, players in (("cards-of-war", ("alice", "bob")),
                          ("global-domination", tuple("abcdef")),
                          ("liberation", tuple("abcdef")),
                          ("battlecards-pacific", ("alice", "bob"))):
        path = session_game(tmp_path / f"{game}.jsonl", game, players, 500)
        sizes[game] = len(viewer.html(viewer.build(path)).encode())
    print("HTML bytes of a 500-event game:", sizes)
    assert max(sizes.values()) < 2_000_000
    # what it is: 116-204 kB (Liberation's six players under rules 1.2, where every owner of
    # a targeted card is asked, play a longer-drawn 500 events than under 1.1's 155 kB)
    assert max(sizes.values()) < 250_000


def test_following_a_growing_log_draws_only_what_is_new(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(open(KILL, "rb").readlines()[:40]))
    before = viewer.build(str(path))
    with open(path, "ab") as f:
        f.write(open(KILL, "rb").readlines()[40])
    drawn = []
    real = pictures.draw

    def counted(*a, **k):
        drawn.append(a)
        return real(*a, **k)
    monkeypatch.setattr(pictures, "draw", counted)
    after = viewer.build(str(path), before)
    assert len(drawn) == 6  # seq 40, for everyone, alice and bob, on a screen and a phone
    fresh = viewer.build(str(path))
    assert [[[after.parts[i] for i in v] for v in p] for p in after.pics] == \
        [[[fresh.parts[i] for i in v] for v in p] for p in fresh.pics]
    assert after.frames == fresh.frames


def test_the_panel_states_a_ruling_once():
    """Issue 35: the disputed, illegal KILL at seq 21 had its reason in the ruling line, in
    the illegal mark and in the dispute's mark; now the ruling line says it, the mark names
    the rule, and the dispute refers to the ruling above."""
    frame = viewer.build(KILL).frames[21]
    reason = "alice's Anti-Tank Gun kills type T, but the top card in battle 3 is Torpedo Bomber"
    panel = "\n".join([frame["r"], *frame["m"]])
    assert panel.count(reason) == 1 and panel.count("rests on values not from the rulebook") == 1
    assert frame["m"][0] == "illegal [cow.kill.type-match]; the state shown is the one before it"
    assert frame["m"][-1] == "disputed at seq 22: illegal [cow.kill.type-match], as ruled above"
