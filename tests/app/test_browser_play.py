"""`tabletape serve --play` in Chromium (issue 27): each player a separate browser context
at phone size, playing from their own page; see test_browser.py for how Chromium is run.
Screenshots go to build/screenshots/play-*.png."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tabletape import engine
from tests.app.test_browser import browser, free_port, served, shot, watch_console  # noqa: F401
from tests.narrow import present

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


# keeps every page data the server pushes on the page's stream (`window.pushed`), as the
# `response` listener keeps what it fetched: a stream's body is not a response's text
PUSHED = """window.pushed = [];
const Stream = window.EventSource;
window.EventSource = class extends Stream {
  constructor(url) { super(url); this.addEventListener("page", e => window.pushed.push(e.data)); }
};"""


def latest(pg) -> str:
    """Returns the page data the page holds now (fetched or pushed), as JSON."""
    return pg.evaluate("JSON.stringify(S)")


@pytest.fixture
def phones(browser):  # noqa: F811
    """Opens a seat's page in a browser context of its own, at phone size."""
    contexts, pages = [], []

    def open_phone(url: str, size: dict = PHONE, init: str | None = None):
        context = browser.new_context(**size)
        context.add_init_script(PUSHED)
        contexts.append(context)
        pg = context.new_page()
        if init is not None:  # run before the page's own script
            pg.add_init_script(init)
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
        said = [s for s in said if not s.startswith((  # and a request failed on purpose
            "Failed to load resource: the server responded with a status of 409",
            "Failed to load resource: net::ERR_CONNECTION_REFUSED"))]
        assert errors == [] and said == [], (errors, said)
    for c in contexts:
        c.close()


def press(pg, item: str | None, log_path) -> None:
    """Presses an event's button (the first when `item` is None) and confirms it; waits
    until the log has it."""
    from playwright.sync_api import expect
    lines = len(log_path.read_text().splitlines())
    expect(pg.locator("#seq")).to_have_text(f"after seq {lines - 1}", timeout=3000)
    from tests.app.test_browser_games import way_to  # the builder's steps to the event
    way_to(pg, lambda event: item is None or item in _strings(event))
    expect(pg.locator("#confirm")).to_be_visible()
    pg.click("#confirm-yes")
    expect(pg.locator("#message")).to_contain_text(f"recorded seq {lines}", timeout=3000)


def pending(path) -> engine.Decision | None:
    result = engine.replay(str(path))
    assert result.ruleset is not None
    assert result.fold is not None
    return result.ruleset.pending(result.fold.state)


def in_deck(path) -> str:
    """Returns the name of a card the next draw may be (the first legal draw)."""
    result = engine.replay(str(path))
    assert result.ruleset is not None
    assert result.fold is not None
    return next(iter(result.ruleset.legal(result.fold.state))).card


def hands(path) -> dict[str, tuple[str, ...]]:
    result = engine.replay(str(path))
    assert result.error is None and not result.problems
    assert result.fold is not None
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
    bob.evaluate("poll(true)")
    expect(bob.locator("#waiting")).to_contain_text("Your move: the card bob turns up",
                                                    timeout=3000)
    press(bob, "Spy", log_path)
    # the draws: each player names the card they drew, which only they see
    while (d := pending(log_path)) is not None and d.actor == "chance":
        who = d.detail.split()[2]  # "the card alice draws (...)"
        pg = alice if who == "alice" else bob
        pg.evaluate("poll(true)")  # at once, not at the page's next second
        expect(pg.locator("#waiting")).to_contain_text(f"Your move: the card {who} draws",
                                                       timeout=3000)
        press(pg, in_deck(log_path), log_path)  # the card drawn: one the deck holds
    now = hands(log_path)
    assert now["alice"] and now["bob"]
    expect(alice.locator("#waiting")).to_contain_text("Your move: alice", timeout=3000)
    events = len(log_path.read_text().splitlines())
    for pg in (alice, bob, table):  # every page has fetched the state since the last draw
        pg.evaluate("poll(true)")
        expect(pg.locator("#seq")).to_have_text(f"after seq {events - 1}", timeout=3000)
    for pg, _sent, me, other in ((alice, alice_sent, "alice", "bob"),
                                (bob, bob_sent, "bob", "alice")):
        secret = set(now[other]) - set(now[me])
        dom = pg.content()
        assert not {c for c in secret if c in dom}, (me, "the DOM")
        assert not {c for c in secret if c in latest(pg)}, (me, "what it was sent last")
        assert all(c in pg.inner_text("#table") or c in dom for c in now[me])
        assert pg.inner_text("#hand") == f"Your hand ({len(now[me])}): " + ", ".join(now[me])
    secret = (set(now["alice"]) ^ set(now["bob"]))
    assert not {c for c in secret if c in table.content()}
    sent_all = table_sent + table.evaluate("window.pushed")
    assert len(sent_all) > 10 and not {c for c in secret for body in sent_all if c in body}
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


def test_a_stale_page_shows_the_refusal(phones, playing):
    """The confirm box of a page that has not yet heard of the other press (its polls
    answered "unchanged") is refused by the server, in one sentence with no rule."""
    from playwright.sync_api import expect
    log_path, links = playing
    first, _ = phones(links["alice"])
    second, _ = phones(links["alice"])  # the same seat on a second phone, say
    expect(second.locator("#waiting")).to_contain_text("Your move")
    expect(second.locator("#seq")).to_have_text("after seq 0")
    second.route("**/state*", lambda route: route.fulfill(status=204))  # hears nothing new
    second.evaluate("connection.stream.close()")  # nor is it pushed anything
    from tests.app.test_browser_games import way_to
    way_to(second, lambda event: event.get("card") == "Battleship")  # not confirmed yet
    press(first, "Spy", log_path)
    second.click("#confirm-yes")  # the page as it was before the other press
    expect(second.locator("#message")).to_have_text(  # no rule: it may rest on a hidden card
        "Not recorded: The table moved on since your page was drawn (the log ends at seq 1); "
        "nothing was written: look again.", timeout=3000)
    assert len(log_path.read_text().splitlines()) == 2
    shot(second, "play-phone-stale")


def test_undo_asked_on_one_phone_is_confirmed_on_the_other(phones, playing):
    """Asking and accepting each confirm with the sentence of the event undone; both are
    lines of the log. A dispute is posted only in the player's own words."""
    from playwright.sync_api import expect
    log_path, links = playing
    alice, _ = phones(links["alice"])
    bob, _ = phones(links["bob"])
    press(alice, "Battleship", log_path)
    expect(alice.locator("#undo")).to_have_text("ask to undo seq 1", timeout=3000)
    alice.click("#undo")
    expect(alice.locator("#confirm-sentence")).to_have_text(
        "Ask to undo seq 1: alice turns up Battleship to decide who starts")
    alice.click("#confirm-yes")
    expect(alice.locator("#message")).to_contain_text("alice asks to undo seq 1")
    expect(bob.locator("#undo")).to_have_text("accept the undo of seq 1", timeout=3000)
    expect(bob.locator("#refuse-undo")).to_be_visible()
    expect(bob.locator("#undo-state")).to_have_text(
        "alice asks to undo seq 1: alice turns up Battleship to decide who starts")
    assert len(log_path.read_text().splitlines()) == 3  # the request is a line of the log
    bob.click("#dispute")  # no words: nothing posted
    expect(bob.locator("#message")).to_contain_text("Write why you dispute the last event")
    assert len(log_path.read_text().splitlines()) == 3
    bob.click("#undo")
    expect(bob.locator("#confirm-sentence")).to_contain_text("Accept undoing seq 1: ")
    bob.click("#confirm-yes")
    expect(bob.locator("#message")).to_contain_text("bob accepts the request at seq 2: undoes "
                                                    "seq 1", timeout=3000)
    lines = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert [x["type"] for x in lines] == ["game_started", "opening_card_drawn", "undo_asked",
                                          "undone"]
    expect(alice.locator("#waiting")).to_contain_text("Your move: the card alice turns up",
                                                      timeout=3000)


def test_an_undo_request_refused_is_a_line_of_the_log(phones, playing):
    from playwright.sync_api import expect
    log_path, links = playing
    alice, _ = phones(links["alice"])
    bob, _ = phones(links["bob"])
    press(alice, "Battleship", log_path)
    expect(alice.locator("#undo")).to_have_text("ask to undo seq 1", timeout=3000)
    alice.click("#undo")
    alice.click("#confirm-yes")
    expect(bob.locator("#refuse-undo")).to_be_visible(timeout=3000)
    bob.click("#refuse-undo")
    expect(bob.locator("#message")).to_contain_text("refuses", timeout=3000)
    lines = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert [x["type"] for x in lines][-2:] == ["undo_asked", "undo_refused"]
    expect(alice.locator("#refuse-undo")).to_be_hidden(timeout=3000)


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


@pytest.mark.parametrize("game", ["cards-of-war", "liberation", "global-domination",
                                  "battlecards-pacific"])
def test_the_viewer_on_a_phone_reflows(browser, tmp_path, game):  # noqa: F811
    """`view` at 390 px: the table laid out narrow at its own size, the panel below it, no
    sideways scrolling, no text under 10 px; at 1280 px the usual table beside the panel."""
    from tabletape.app import viewer
    out = tmp_path / "game.html"
    viewer.write(GAMES[game], str(out))
    context = browser.new_context(**PHONE)
    pg = context.new_page()
    pg.goto(out.as_uri() + "#seq=12")
    pg.wait_for_selector("#table svg")
    readable_at_390(pg)
    assert pg.evaluate("() => document.querySelector('#table svg').viewBox.baseVal.width") \
        == 360
    table, panel = pg.locator("#table").bounding_box(), pg.locator("aside").bounding_box()
    assert panel["y"] >= table["y"] + table["height"] - 1
    pg.select_option("#viewer", "1")  # a player's view, narrow too
    readable_at_390(pg)
    shot(pg, f"view-{game}-390")
    pg.set_viewport_size({"width": 1280, "height": 900})
    pg.wait_for_function("() => document.querySelector('#table svg').viewBox.baseVal.width"
                         " > 600")
    context.close()


def test_the_live_page_on_a_phone_reflows(browser, served):  # noqa: F811
    """`serve` at 390 px, as the viewer."""
    url, _, _ = served
    context = browser.new_context(**PHONE)
    pg = context.new_page()
    pg.goto(url)
    pg.wait_for_selector("#table svg")
    readable_at_390(pg)
    shot(pg, "live-phone-390")
    context.close()


GAMES = {"cards-of-war": "replays/cards-of-war/kill-dispute.jsonl",
         "liberation": sorted(__import__("glob").glob("replays/liberation/*.jsonl"))[0],
         "global-domination": "replays/global-domination/cards-builds-and-scoring.jsonl",
         "battlecards-pacific": "replays/battlecards-pacific/stalemate.jsonl"}

# the docs' screenshots: each game mid-game (its first lines), from a bundled game
DOCS = {"cards-of-war": ("replays/cards-of-war/sim-normal.jsonl", 62),
        "liberation": ("replays/liberation/sim-2-players.jsonl", 36),
        "global-domination": ("replays/global-domination/simulated-3-players.jsonl", 201),
        "battlecards-pacific": ("replays/battlecards-pacific/"
                                "simulated-seed-11-invasion-of-australia.jsonl", 121)}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE_1X = {**PHONE, "device_scale_factor": 1}  # the docs' pictures: a quarter the bytes


@pytest.mark.parametrize("game", sorted(DOCS))
def test_each_games_pages_at_phone_and_desktop_size(phones, game, tmp_path):
    """Mid-game, the page of the player the game waits on and the shared table, at 390x844
    and 1280x900 (build/screenshots/play-GAME-390.png, -1280.png, table-GAME-...; `make
    screenshots` copies them to docs/): readable on the phone, no console error, no CSP
    violation."""
    from tabletape.app import play
    from tabletape.web import table as live
    from tests.app.test_serve import Served
    source, cut = DOCS[game]
    with open(source, "rb") as f:
        rows = f.readlines()
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(rows[:cut]))
    result = engine.replay(str(path))
    assert result.error is None and not result.problems
    assert result.fold is not None
    players = tuple(result.fold.header.players)
    assert result.ruleset is not None
    decision = result.ruleset.pending(result.fold.state)
    who = decision.actor if decision and decision.actor in players else players[0]
    seats = play.Seats(players)
    server = Served(live.play_app(play.Table(str(path)), seats))
    try:
        link = dict((s.name, p) for s, p in seats.links())[who]
        base = f"http://127.0.0.1:{server.port}"
        for size, name in ((PHONE_1X, "390"), (DESKTOP, "1280")):
            pg, _ = phones(base + link, size)
            assert pg.inner_text("#you") == who
            table, _ = phones(base + "/", size)
            if name == "390":
                readable_at_390(pg)
                readable_at_390(table)
            shot(pg, f"play-{game}-{name}")
            shot(table, f"table-{game}-{name}")
    finally:
        server.close()


# -- done when: a whole game from two phones, a few turns of each other game ---------------

def press_any(pages: dict, log_path, rng) -> str:
    """Presses, on the page the game waits on, one of its buttons at random that an honest
    player would (a draw names a card the deck holds: the page also offers the cards the
    player cannot rule out, some of which another player holds), confirming it; returns
    whose page it was. Each page is told to poll at once rather than in a second."""
    from tests.app.test_browser_games import press_through  # down the builder's steps
    return press_through(pages, log_path, rng, [])[0]


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in _strings(k) | _strings(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in _strings(v)}
    return set()


def hidden_from(pages: dict, log_path) -> None:
    """Each page holds no name another player's view has and its player's view has not
    (another hand's cards): not in the DOM, not in the state it fetched last. Skipped on the page
    of a player naming a draw, whose buttons name every card they may have drawn, on
    purpose (the deck's and the other hands', telling nothing); the page's echo of what its
    own player just entered (#message, #confirm) is theirs."""
    import msgspec
    from playwright.sync_api import expect
    result = engine.replay(str(log_path))
    assert result.fold is not None
    rs, state = result.ruleset, result.fold.state
    assert rs is not None
    seen_by = {p: _strings(msgspec.to_builtins(rs.view(state, p))) for p in pages}
    for me, (pg, _sent) in pages.items():
        pg.evaluate("poll(true)")  # the page as the log is now, not as it was a press ago
        expect(pg.locator("#seq")).to_have_text(f"after seq {result.events - 1}")
        if pg.evaluate("S.actor === 'chance' && S.groups.length > 0"):
            continue
        secret = set().union(*(v for p, v in seen_by.items() if p != me)) - seen_by[me]
        secret = {c for c in secret if len(c) > 2}
        dom = pg.evaluate("""() => { const d = document.documentElement.cloneNode(true);
            for (const own of ['#message', '#confirm']) d.querySelector(own).remove();
            return d.outerHTML; }""")
        for where, body in (("the DOM", dom), ("what it was sent last", latest(pg))):
            seen = {c for c in secret if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])",
                                                   body)}
            assert not seen, (me, where, seen, [body[max(0, m.start() - 300):m.end() + 50]
                                                for c in seen for m in re.finditer(
                                                    re.escape(c), body)][:2])


def serve_play(tmp_path, game: str, players: str, *options: str):
    """A new game served in this process (the write rate unlimited), and its links."""
    from tabletape.app import play
    from tabletape.web import table as live
    from tests.app.test_serve import Served
    path = tmp_path / "game.jsonl"
    subprocess.run([sys.executable, "-m", "tabletape", "new", game, str(path), "--players",
                    players, *options], check=True, capture_output=True)
    seats = play.Seats(tuple(players.split(",")))
    server = Served(live.play_app(play.Table(str(path)), seats))
    base = f"http://127.0.0.1:{server.port}"
    return path, server, {"": base + "/", **{s.name: base + p for s, p in seats.links()}}


# a page's navigator.vibrate, counted (Chromium's does nothing a test can see)
VIBRATE = "window.buzzed = 0; navigator.vibrate = () => { window.buzzed += 1; return true; };"


def bar_agrees(pages: dict, log_path, board: bool = True) -> None:
    """On every page, scrolled to its foot: the bar inside the first screen, saying whose
    move it is as the engine does (`play.acts`) and, with `board`, as the board does
    (Cards of War's "to act: bob"); the tab's title too."""
    from playwright.sync_api import expect

    from tabletape.app.page import acts
    result = engine.replay(str(log_path))
    assert result.fold is not None
    rs, state = result.ruleset, result.fold.state
    assert rs is not None
    acting = acts(rs, state, rs.pending(state))
    over = rs.outcome(state) is not None
    for me, (pg, _) in pages.items():
        pg.evaluate("poll(true)")
        expect(pg.locator("#seq")).to_have_text(f"after seq {result.events - 1}")
        pg.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        box, height = pg.locator("#bar").bounding_box(), pg.viewport_size["height"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (me, box)
        mine = pg.evaluate("mine()")  # moves offered (a public draw: to every player)
        assert mine or me not in acting
        said = ("Game over" if over else "Your move" if mine
                else "Waiting for " + " and ".join([", ".join(acting[:-1]), acting[-1]]
                                                   if len(acting) > 1 else acting)
                if acting else "Waiting: " + present(rs.pending(state)).detail)
        expect(pg.locator("#turn")).to_have_text(said)
        assert pg.title() == ("● " if said == "Your move" else "") + f"{said} — {rs.title}"
        if board and not over:  # the board names the same player
            assert f"to act: {acting[0]}" in pg.locator("#table svg").text_content()
        pg.evaluate("window.scrollTo(0, 0)")


def test_two_phones_play_a_whole_short_game_of_cards_of_war(phones, tmp_path, monkeypatch):
    """alice and bob, each in a browser context of their own at 390x844, press every event
    of a short game from their pages until it is over, the shared page open at 1280x900;
    after each press every page's bar says whose move it is, on the first screen, as the
    board does; bob's phone vibrates (ticked) each time it becomes his move; neither page
    ever holds the other's hidden cards; at the end every page shows the outcome, its
    scores and the table as the last move found it; the log validates."""
    from tabletape.app import play
    monkeypatch.setattr(play, "RATE", (10**6, 1.0))
    path, server, links = serve_play(tmp_path, "cards-of-war", "alice,bob", "--option",
                                     "length=short")
    try:
        pages = {"alice": phones(links["alice"]), "bob": phones(links["bob"], PHONE, VIBRATE)}
        bob = pages["bob"][0]
        bob.check("#buzz")
        rng = random.Random(27)
        table = phones(links[""], DESKTOP)
        everyone = {**pages, "": table}
        pressed, turns = 0, 0
        bobs = False
        bar_agrees(everyone, path)
        while pending(path) is not None:
            press_any(pages, path, rng)
            pressed += 1
            hidden_from(pages, path)
            bar_agrees(everyone, path)
            now = bool(bob.evaluate("mine()"))
            turns += now and not bobs
            bobs = now
            assert pressed < 200
        assert turns > 3 and bob.evaluate("window.buzzed") == turns
        game_over_shown(everyone, path)
        shot(pages["alice"][0], "play-phone-game-over")
        shot(table[0], "play-table-game-over-1280")
        shot(phones(links["alice"], PHONE_1X)[0], "play-phone-game-over-1x")  # the docs'
        docs_shot("play-phone-game-over-1x", "play-game-over-390")
        docs_shot("play-table-game-over-1280", "table-game-over-1280")
    finally:
        server.close()
    result = engine.replay(str(path))
    assert result.error is None and not result.problems
    assert result.ruleset is not None
    assert result.fold is not None
    assert result.ruleset.outcome(result.fold.state) is not None
    assert pressed == result.events - 1
    assert subprocess.run([sys.executable, "-m", "tabletape", "validate", str(path)],
                          capture_output=True).returncode == 0


def game_over_shown(pages: dict, log_path) -> None:
    """Every page: the outcome and each player's score, and the table as the game-ending
    move found it (Cards of War clears the battles once the war is decided: their piles
    are on that drawing)."""
    from playwright.sync_api import expect
    result = engine.replay(str(log_path))
    assert result.ruleset is not None
    assert result.fold is not None
    outcome = result.ruleset.outcome(result.fold.state)
    before = result.fold.stack[-1].before
    piles = {c for b in before.battles for pile in b.piles.values() for c in pile}
    assert outcome is not None and piles
    for pg, _ in pages.values():
        pg.evaluate("poll(true)")
        expect(pg.locator("#final")).to_be_visible()
        expect(pg.locator("#final-summary")).to_have_text(f"Game over: {outcome.summary}")
        rows = [r.split("\t") for r in pg.locator("#final-scores").inner_text().split("\n")]
        assert {(w.removesuffix(" ★"), int(n)) for w, n in rows} == set(outcome.scores.items())
        expect(pg.locator("#last-move")).to_contain_text("The table as the last move found it")
        drawn = pg.locator("#last svg").text_content()
        assert "battle 1" in drawn and {c for c in piles if c[:8] in drawn}, drawn
        # a rematch offered at game over, on every player's page (not the shared one)
        assert pg.locator("#rematch").is_visible() == pg.evaluate("!!S.you")


def docs_shot(name: str, docs: str) -> None:
    """With TABLETAPE_DOCS_SCREENSHOTS=1 (`make screenshots`), copies a screenshot to docs/."""
    if os.environ.get("TABLETAPE_DOCS_SCREENSHOTS") == "1":
        import shutil

        from tests.app.test_browser import SHOTS
        shutil.copyfile(f"{SHOTS}/{name}.png", f"docs/{docs}.png")


def expect_text(pg, selector: str, text: str) -> None:
    from playwright.sync_api import expect
    expect(pg.locator(selector)).to_contain_text(text, timeout=3000)


@pytest.mark.parametrize(("game", "players"), [("liberation", "ann,bob"),
                                               ("battlecards-pacific", "ann,bob"),
                                               ("global-domination", "ann,bob,cat")])
def test_a_few_turns_of_each_other_game_from_phones(phones, tmp_path, monkeypatch, game,
                                                     players):
    """Each player a browser context at 390x844; 8 events pressed from their pages; after
    each, every page's bar says whose move it is, on the first screen; no page holds
    another hand's hidden cards; the log validates."""
    from tabletape.app import play
    monkeypatch.setattr(play, "RATE", (10**6, 1.0))
    path, server, links = serve_play(tmp_path, game, players)
    try:
        pages = {p: phones(links[p]) for p in players.split(",")}
        rng = random.Random(27)
        for _ in range(8):
            press_any(pages, path, rng)
            hidden_from(pages, path)
            bar_agrees(pages, path, board=False)
    finally:
        server.close()
    result = engine.replay(str(path))
    assert result.error is None and not result.problems
    assert result.events >= 9  # a set-up drawn at random is one press


def test_a_page_is_updated_by_push_not_by_polling(phones, playing):
    # alice's page is open; a move is appended from a shell beside the server
    import msgspec
    from playwright.sync_api import expect
    log_path, links = playing
    alice, fetched = phones(links["alice"])
    lines = len(log_path.read_text().splitlines())
    expect(alice.locator("#seq")).to_have_text(f"after seq {lines - 1}")
    assert alice.evaluate("connection.online") is True
    result = engine.replay(str(log_path))
    assert result.ruleset is not None
    assert result.fold is not None
    event = next(iter(result.ruleset.legal(result.fold.state)))
    raw = {k: v for k, v in msgspec.to_builtins(event).items()
           if k not in ("seq", "prev", "at", "by", "salt")}
    done = subprocess.run([sys.executable, "-m", "tabletape", "append", str(log_path),
                           json.dumps(raw)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # the page has it within a moment, pushed on its stream: it fetched nothing
    expect(alice.locator("#seq")).to_have_text(f"after seq {lines}", timeout=3000)
    assert fetched == [] and alice.evaluate("window.pushed.length") == 2
