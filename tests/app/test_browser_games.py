"""The move builder in Chromium (issue 34, points 3 and 8): for each of the four games, the
seats' phone pages (a browser context per seat at 390x844) press a game through the
builder's steps (Global Domination: 60 events or more), the set-up at random where the
game has one; after each tap no step shows more than 20 buttons; the log validates at the
end. Screenshots of the builder in each game go to build/screenshots/builder-*.png.

The player who presses is an honest one: a draw names a card the deck holds (the page also
offers the cards the player cannot rule out, some of which another seat holds)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time

import pytest

from tabletape import engine
from tabletape.engine.kit.moves import MOST
from tests.app.test_browser import SHOTS, browser, shot  # noqa: F401
from tests.app.test_browser_play import phones, serve_play  # noqa: F401

REFRESH = "typeof poll === 'function' ? poll(true) : null"  # at once, not at the next second


def _legal(path) -> list[dict]:
    result = engine.replay(str(path))
    assert result.ruleset is not None
    codec = result.ruleset.codec
    assert result.fold is not None
    return [{**json.loads(codec.encode(e)), "seq": -1}
            for e in result.ruleset.legal(result.fold.state)]


def _leaves(step: dict, trail: tuple = ()) -> list[tuple[tuple, dict]]:
    """Returns every leaf of a page's tree with the taps that reach it: a tap is a label,
    or in a ticked step the items to tick."""
    out = []
    for c in step["choices"]:
        tap = ("tick", tuple(c["ticks"])) if step.get("tick") else ("tap", c["label"])
        if c.get("setup"):
            out.append(((*trail, tap), {"setup": True}))
        elif c.get("move"):
            out.append(((*trail, tap), c["move"]))
        elif c.get("next"):
            out += _leaves(c["next"], (*trail, tap))
    return out


def _button(pg, label: str, nth: int = 0):
    exact = re.compile("^" + re.escape(label) + "$")
    return pg.locator("#groups .step button.choice").filter(has_text=exact).nth(nth)


def _widest(pg) -> int:
    return pg.locator("#groups .step button.choice").count()


def tap(pg, taps: tuple, counts: list[int], snap: str | None = None) -> bool:
    """Taps `taps` down the page's builder (each step's buttons counted into `counts`, at
    most MOST); with `snap`, saves the moves panel after the first tap of two or more
    (build/screenshots/SNAP.png) and returns True."""
    snapped = False
    for n, (kind, what) in enumerate(taps):
        if snap and n == 1:  # a step past the first
            os.makedirs(SHOTS, exist_ok=True)
            pg.locator("#panel").screenshot(path=f"{SHOTS}/{snap}.png")
            snapped = True
        counts.append(_widest(pg))
        assert counts[-1] <= MOST
        if kind == "tap":
            _button(pg, what).click()
        else:
            for k, item in enumerate(what):  # a card held twice is two buttons
                _button(pg, item, what[:k].count(item)).click()
            pg.locator("#groups .step button.done").click()
    return snapped


def way_to(pg, wanted) -> dict:
    """Taps down the page's builder to the first event `wanted(event)` accepts, until its
    confirm shows; returns the leaf (its sentence and event)."""
    from playwright.sync_api import expect
    tree = pg.evaluate("S.moves")
    taps, leaf = next((t, x) for t, x in _leaves(tree) if not x.get("setup")
                      and wanted(x["event"]))
    tap(pg, taps, [])
    expect(pg.locator("#confirm")).to_be_visible()
    return leaf


def back_and_forth(pages: dict, path) -> bool:
    """On a page with a move of two steps or more: a tap goes one step down (its answer
    shown above the next question), Back comes up again."""
    from playwright.sync_api import expect
    lines = _events(path)
    for pg, _ in pages.values():
        pg.evaluate(REFRESH)
        expect(pg.locator("#seq")).to_have_text(f"after seq {lines - 1}", timeout=4000)
        if pg.locator("#groups .step .path").count():  # not at the first step
            continue
        tree = pg.evaluate("S.moves")
        deeper = next((c for c in (tree or {}).get("choices", []) if c.get("next")), None)
        if deeper is None or tree.get("tick"):
            continue
        _button(pg, deeper["label"]).click()
        expect(pg.locator("#groups .step h2")).to_have_text(deeper["next"]["ask"])
        expect(pg.locator("#groups .step .path")).to_have_text(deeper["label"])
        pg.locator("#groups .step button.back").click()
        expect(pg.locator("#groups .step h2")).to_have_text(tree["ask"])
        return True
    return False


def press_through(pages: dict, path, rng: random.Random, counts: list[int],
                  snap: str | None = None) -> tuple[str, bool]:
    """On the page the game waits on, taps a way down the builder to an honest event (or the
    set-up at random), confirms it, and waits until the log has it; returns whose page and
    whether it saved a screenshot. With `snap`, the moves panel is saved as build/screenshots/SNAP.png after the first tap
    of a way of two taps or more."""
    from playwright.sync_api import expect
    lines = len(path.read_text().splitlines())
    ready = []
    for name, (pg, _) in pages.items():  # the first page that has a move (the rest wait)
        pg.evaluate(REFRESH)
        expect(pg.locator("#seq")).to_have_text(f"after seq {lines - 1}", timeout=4000)
        if pg.evaluate("!!(S && S.moves)"):
            ready.append(name)
            break
    assert ready, "nobody's move, and the game is not over"
    who = ready[0]
    pg = pages[who][0]
    tree = pg.evaluate("S.moves")
    legal = _legal(path)
    options = [(taps, leaf) for taps, leaf in _leaves(tree)
               if leaf.get("setup") or {**leaf["event"], "seq": -1} in legal]
    assert options, f"{who}'s page offers no event the deck can hold"
    setups = [o for o in options if o[1].get("setup")]
    taps, leaf = setups[0] if setups else rng.choice(options)
    snapped = tap(pg, taps, counts, snap if rng.random() < 0.3 else None)
    expect(pg.locator("#confirm")).to_be_visible()
    if not leaf.get("setup"):
        expect(pg.locator("#confirm-sentence")).to_contain_text(leaf["sentence"])
    with pg.expect_response(lambda r: r.request.method == "POST") as answer:
        pg.click("#confirm-yes")
    assert answer.value.status == 200, answer.value.text()
    expect(pg.locator("#message")).to_contain_text(f"recorded seq {lines}", timeout=4000)
    return who, snapped


GAMES = [  # (game, players, options, a simulated game's first lines to start from, or None;
    #         events to press at most: None for the rest of the game)
    ("cards-of-war", "alice,bob", ("--option", "length=short"), None, None),
    ("liberation", "ann,bob", ("--option", "victory_points=5"), None, None),
    # a whole game is 600 events or more: its last ones are pressed (seed 2, from line 635)
    ("battlecards-pacific", "ann,bob", (), (2, 635), None),
    ("global-domination", "ann,bob,cat", (), None, 60),
]


def seeded(tmp_path, game: str, players: str, options: tuple, start: tuple[int, int] | None):
    """Serves a new game, or the first lines of a simulated one (`start`: its seed and how
    many lines): its path, server and links (the write rate unlimited)."""
    if start is None:
        return serve_play(tmp_path, game, players, *options)
    from tabletape.app import play
    from tabletape.web import table as live
    from tests.app.test_serve import Served
    whole, path = tmp_path / "whole.jsonl", tmp_path / "game.jsonl"
    subprocess.run([sys.executable, "-m", "tabletape", "simulate", game, "--players", players,
                    "--seed", str(start[0]), "-o", str(whole), *options], check=True,
                   capture_output=True)
    with open(whole, "rb") as f:
        path.write_bytes(b"".join(f.readlines()[:start[1]]))
    seats = play.Seats(tuple(players.split(",")))
    server = Served(live.play_app(play.Table(str(path)), seats))
    base = f"http://127.0.0.1:{server.port}"
    return path, server, {"": base + "/", **{s.name: base + p for s, p in seats.links()}}


@pytest.mark.parametrize(("game", "players", "options", "start", "most"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_a_game_pressed_through_the_builder_from_phones(phones, tmp_path, monkeypatch,  # noqa: F811
                                                        game, players, options, start, most):
    from tabletape.app import play
    monkeypatch.setattr(play, "RATE", (10**6, 1.0))
    path, server, links = seeded(tmp_path, game, players, options, start)
    counts: list[int] = []
    begun = time.monotonic()
    first = _events(path)
    try:
        pages = {p: phones(links[p]) for p in players.split(",")}
        rng = random.Random(34)
        pressed, shots, snapped, backed = 0, 0, 0, False
        while _pending(path) and (most is None or _events(path) < most + 1):
            if not backed and pressed >= 2:
                backed = back_and_forth(pages, path)
            snap = f"builder-{game}-step{snapped + 1}" if snapped < 2 else None
            who, took_snap = press_through(pages, path, rng, counts, snap)
            snapped += took_snap
            pressed += 1
            if pressed in (1, 12) and shots < 2:  # the builder on a phone, mid-step
                pg = pages[who][0]
                pg.evaluate(REFRESH)
                step = pg.locator("#groups .step button.choice")
                if step.count():
                    shots += 1
                    shot(pg, f"builder-{game}-{shots}")
            assert pressed < 150
    finally:
        server.close()
    took = time.monotonic() - begun
    result = engine.replay(str(path))
    assert result.error is None and not result.problems
    if most is None:
        assert result.ruleset is not None
        assert result.fold is not None
        assert result.ruleset.outcome(result.fold.state) is not None  # to the game's end
    else:
        assert result.events - 1 >= most
    assert counts and max(counts) <= MOST
    assert backed  # a step down and Back up, on some page along the way
    assert subprocess.run([sys.executable, "-m", "tabletape", "validate", str(path)],
                          capture_output=True).returncode == 0
    print(f"{game}: {result.events - first} events from {pressed} presses, {len(counts)} "
          f"taps, widest step {max(counts)} buttons, {took:.1f} s")


def _pending(path) -> bool:
    result = engine.replay(str(path))
    assert result.ruleset is not None
    assert result.fold is not None
    return result.ruleset.pending(result.fold.state) is not None


def _events(path) -> int:
    return len(path.read_text().splitlines())
