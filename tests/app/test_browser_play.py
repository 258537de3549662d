"""`tabletape serve --play` in Chromium (issue 27): each player a separate browser context
at phone size, playing from their own page; see test_browser.py for how Chromium is run.
Screenshots go to build/screenshots/play-*.png."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tabletape import engine
from tests.app.test_browser import browser, free_port, shot, watch_console  # noqa: F401

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


@pytest.fixture
def playing(tmp_path):
    """`tabletape serve --play --umpire` on a new short Cards of War game: its links."""
    pytest.importorskip("uvicorn", reason="serve --play needs the view extra")
    log_path = tmp_path / "game.jsonl"
    subprocess.run([sys.executable, "-m", "tabletape", "new", "cards-of-war", str(log_path),
                    "--players", "alice,bob", "--option", "length=short"], check=True,
                   capture_output=True)
    port = free_port()
    env = {**os.environ, "TABLETAPE_CLOCK": "off", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "tabletape", "serve", str(log_path),
                             "--play", "--umpire", "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    links: dict[str, str] = {}
    try:
        assert proc.stdout is not None
        while len(links) < 3:
            line = proc.stdout.readline()
            assert line, proc.communicate()
            m = re.fullmatch(r"(alice|bob|umpire): (http://\S+)\n", line)
            if m:
                links[m[1]] = m[2]
        links[""] = f"http://127.0.0.1:{port}/"
        for _ in range(200):
            try:
                urllib.request.urlopen(links[""], timeout=1).read()
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)
        yield log_path, links
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def phones(browser):  # noqa: F811
    """Opens a seat's page in a browser context of its own, at phone size."""
    contexts, pages = [], []

    def open_phone(url: str, size: dict = PHONE):
        context = browser.new_context(**size)
        contexts.append(context)
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        said = watch_console(pg)
        sent: list[str] = []
        pg.on("response", lambda r: sent.append(r.text()) if "/state" in r.url
              and r.status == 200 else None)
        pg.goto(url)
        pg.wait_for_selector("#table svg")
        pages.append((pg, errors, said))
        return pg, sent
    yield open_phone
    for _pg, errors, said in pages:  # a refusal the page shows is logged by Chromium too
        said = [s for s in said if not s.startswith("Failed to load resource: the server "
                                                    "responded with a status of 409")]
        assert errors == [] and said == [], (errors, said)
    for c in contexts:
        c.close()


def press(pg, item: str | None, log_path) -> None:
    """Presses an event's button (the first when `item` is None) and confirms it; waits
    until the log has it."""
    from playwright.sync_api import expect
    lines = len(log_path.read_text().splitlines())
    expect(pg.locator("#seq")).to_have_text(f"after seq {lines - 1}", timeout=3000)
    buttons = pg.locator("#groups button")
    exact = re.compile("^" + re.escape(item) + r"(\s|$)") if item else None  # Tank, not Anti-Tank
    (buttons if exact is None else buttons.filter(has_text=exact)).first.click()
    expect(pg.locator("#confirm")).to_be_visible()
    pg.click("#confirm-yes")
    expect(pg.locator("#message")).to_contain_text(f"recorded seq {lines}", timeout=3000)


def pending(path) -> engine.Decision | None:
    result = engine.replay(str(path))
    return result.ruleset.pending(result.fold.state)


def in_deck(path) -> str:
    """Returns the name of a card the next draw may be (the first legal draw)."""
    result = engine.replay(str(path))
    return next(iter(result.ruleset.legal(result.fold.state))).card


def hands(path) -> dict[str, tuple[str, ...]]:
    result = engine.replay(str(path))
    assert result.error is None and not result.problems
    return result.fold.state.hands


def test_two_phones_play_and_each_sees_only_its_own_hand(phones, playing):
    from playwright.sync_api import expect
    log_path, links = playing
    alice, alice_sent = phones(links["alice"])
    bob, bob_sent = phones(links["bob"])
    table, table_sent = phones(links[""])
    expect(alice.locator("#waiting")).to_contain_text("Your move: the card alice turns up")
    expect(bob.locator("#waiting")).to_contain_text("Waiting: the card alice turns up")
    assert bob.locator("#groups button").count() == 0
    shot(alice, "play-phone-opening")
    press(alice, "Battleship", log_path)
    expect(bob.locator("#waiting")).to_contain_text("Your move: the card bob turns up",
                                                    timeout=3000)
    press(bob, "Spy", log_path)
    # the draws: each player names the card they drew, which only they see
    while (d := pending(log_path)) is not None and d.actor == "chance":
        who = d.detail.split()[2]  # "the card alice draws (...)"
        pg = alice if who == "alice" else bob
        expect(pg.locator("#waiting")).to_contain_text(f"Your move: the card {who} draws",
                                                       timeout=3000)
        press(pg, in_deck(log_path), log_path)  # the card drawn: one the deck holds
    now = hands(log_path)
    assert now["alice"] and now["bob"]
    expect(alice.locator("#waiting")).to_contain_text("Your move: alice", timeout=3000)
    time.sleep(1.5)  # every page has polled the state since the last draw
    for pg, sent, me, other in ((alice, alice_sent, "alice", "bob"),
                                (bob, bob_sent, "bob", "alice")):
        secret = set(now[other]) - set(now[me])
        dom = pg.content()
        assert not {c for c in secret if c in dom}, (me, "the DOM")
        assert not {c for c in secret if c in sent[-1]}, (me, "what it fetched last")
        assert all(c in pg.inner_text("#table") or c in dom for c in now[me])
        assert pg.inner_text("#hand") == f"Your hand ({len(now[me])}): " + ", ".join(now[me])
    secret = (set(now["alice"]) ^ set(now["bob"]))
    assert not {c for c in secret if c in table.content()}
    assert not {c for c in secret for body in table_sent if c in body}  # never, all along
    assert table.locator("#groups button").count() == 0 and table.locator("#tools").is_hidden()
    # a move pressed on a phone shows on the other pages
    card = now["alice"][0]
    press(alice, card, log_path)  # a deploy: the card goes face up to a battle
    expect(bob.locator("#table")).to_contain_text(card[:8], timeout=3000)
    expect(table.locator("#table")).to_contain_text(card[:8], timeout=3000)
    shot(alice, "play-phone-alice")
    shot(bob, "play-phone-bob")
    shot(table, "play-phone-table")
    result = engine.replay(str(log_path))
    assert result.error is None and not result.problems


def test_a_stale_page_shows_the_refusal_and_its_rule(phones, playing):
    from playwright.sync_api import expect
    log_path, links = playing
    first, _ = phones(links["alice"])
    second, _ = phones(links["alice"])  # the same seat on a second phone, say
    expect(second.locator("#waiting")).to_contain_text("Your move")
    expect(second.locator("#seq")).to_have_text("after seq 0")
    second.locator("#groups button", has_text="Battleship").first.click()  # not confirmed yet
    press(first, "Spy", log_path)
    second.click("#confirm-yes")  # the page as it was before the other press
    expect(second.locator("#message")).to_contain_text(
        "[cow.setup.opening] the table moved on since your page was drawn", timeout=3000)
    assert len(log_path.read_text().splitlines()) == 2
    shot(second, "play-phone-stale")


def test_undo_asked_on_one_phone_is_confirmed_on_the_other(phones, playing):
    from playwright.sync_api import expect
    log_path, links = playing
    alice, _ = phones(links["alice"])
    bob, _ = phones(links["bob"])
    press(alice, "Battleship", log_path)
    expect(alice.locator("#undo")).to_have_text("ask to undo seq 1", timeout=3000)
    alice.click("#undo")
    expect(alice.locator("#message")).to_contain_text("asked to undo seq 1")
    expect(bob.locator("#undo")).to_have_text("confirm the undo of seq 1", timeout=3000)
    expect(bob.locator("#undo-state")).to_have_text("alice asks to undo seq 1")
    assert len(log_path.read_text().splitlines()) == 2
    bob.click("#undo")
    expect(bob.locator("#message")).to_contain_text("undid seq 1", timeout=3000)
    lines = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert [x["type"] for x in lines] == ["game_started", "opening_card_drawn", "undone", "note"]
    expect(alice.locator("#waiting")).to_contain_text("Your move: the card alice turns up",
                                                      timeout=3000)


def readable_at_390(pg) -> None:
    """The page no wider than the phone, every visible text at least 10 CSS px, the
    table's text too as drawn (the SVG's scale times its font size)."""
    assert pg.evaluate("() => document.scrollingElement.scrollWidth") <= 390
    smallest = pg.evaluate("""() => Math.min(...[...document.querySelectorAll('body *')]
        .filter(e => e.offsetParent !== null && !(e instanceof SVGElement)
                && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
        .map(e => parseFloat(getComputedStyle(e).fontSize)))""")
    assert smallest >= 10
    table = pg.evaluate("""() => { const svg = document.querySelector('#table svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Math.min(...[...svg.querySelectorAll('text')].map(
            t => parseFloat(t.getAttribute('font-size')) * scale)); }""")
    assert table >= 9.99, table
    box = pg.locator("#table svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_the_phone_page_reads_at_390_px(phones, playing):
    """The table first, the panel below it; no text under 10 CSS px on the page."""
    log_path, links = playing
    alice, _ = phones(links["alice"])
    box_table = alice.locator("#table").bounding_box()
    box_panel = alice.locator("#panel").bounding_box()
    assert box_panel["y"] >= box_table["y"] + box_table["height"] - 1  # below, not beside
    assert box_panel["width"] <= 390
    smallest = alice.evaluate("""() => Math.min(...[...document.querySelectorAll(
        'button, #waiting, #message, h1, h2')].map(e => parseFloat(getComputedStyle(e).fontSize)))""")
    assert smallest >= 10
    table = alice.evaluate("""() => { const svg = document.querySelector('#table svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Math.min(...[...svg.querySelectorAll('text')].map(
            t => parseFloat(t.getAttribute('font-size')) * scale)); }""")
    assert table >= 9.99  # the table's smallest text, as drawn on the phone
    readable_at_390(alice)
    shot(alice, "play-phone-390")


def test_the_viewer_on_a_phone_keeps_the_table_readable(browser, tmp_path):  # noqa: F811
    """`view` and `serve` pages at 390 px: the table at its own size, not shrunk."""
    from tabletape.app import viewer
    out = tmp_path / "kill.html"
    viewer.write("replays/cards-of-war/kill-dispute.jsonl", str(out))
    context = browser.new_context(**PHONE)
    pg = context.new_page()
    pg.goto(out.as_uri())
    pg.wait_for_selector("#table svg")
    scale = pg.evaluate("""() => { const svg = document.querySelector('#table svg');
        return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; }""")
    assert scale >= 0.99
    shot(pg, "view-phone-390")
    context.close()


GAMES = {"cards-of-war": "replays/cards-of-war/kill-dispute.jsonl",
         "liberation": sorted(__import__("glob").glob("replays/liberation/*.jsonl"))[0],
         "global-domination": "replays/global-domination/cards-builds-and-scoring.jsonl",
         "battlecards-pacific": "replays/battlecards-pacific/stalemate.jsonl"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_player_page_at_phone_and_desktop_size(phones, game, tmp_path):
    """Halfway through each game, the first player's page at 390x844 and 1280x900
    (build/screenshots/play-GAME-390.png, -1280.png): no console error, no CSP violation."""
    from tabletape.app import live, play
    from tests.app.test_serve import Served
    with open(GAMES[game], "rb") as f:
        rows = f.readlines()
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(rows[:len(rows) // 2]))
    result = engine.replay(str(path))
    first = result.fold.header.players[0]
    seats = play.Seats(tuple(result.fold.header.players))
    served = Served(live.play_app(play.Table(str(path)), seats))
    try:
        link = dict((s.name, p) for s, p in seats.links())[first]
        url = f"http://127.0.0.1:{served.port}{link}"
        for size, name in ((PHONE, "390"), ({"viewport": {"width": 1280, "height": 900}},
                                            "1280")):
            pg, _ = phones(url, size)
            assert pg.inner_text("#you") == first
            if name == "390":
                readable_at_390(pg)
            shot(pg, f"play-{game}-{name}")
    finally:
        served.close()
