"""The viewer and the live view in a real browser: headless Chromium driven by Playwright.

Playwright drives the system's Chromium (Debian's `chromium` package) through
`executable_path`; nothing is downloaded. Without Chromium (or Playwright) these
tests skip and say how to enable them; `.ci/run` installs Chromium and sets
TABLETAPE_BROWSER_TESTS=require, so in CI they run or fail, never skip.
Screenshots go to build/screenshots/; with TABLETAPE_DOCS_SCREENSHOTS=1 the README's
(docs/viewer-GAME.png) are made again too (`make screenshots`).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tabletape import engine
from tabletape.app import viewer
from tests.conftest import session_log
from tests.games.test_svg import DISPUTED
from tests.narrow import present
from tests.registry import BUNDLED

SHOTS = "build/screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
HOW = ("the browser tests need Chromium and Playwright: apt-get install chromium (Debian) "
       "and pip install -e '.[dev,view]'; set TABLETAPE_CHROMIUM=/path/to/chromium if it "
       "is elsewhere")
KILL = DISPUTED["cards-of-war"]


def _chromium() -> str | None:
    return (os.environ.get("TABLETAPE_CHROMIUM") or shutil.which("chromium")
            or shutil.which("chromium-browser"))


@pytest.fixture(scope="module")
def browser():
    path = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        path = None
    if path is None:
        if os.environ.get("TABLETAPE_BROWSER_TESTS") == "require":
            pytest.fail(f"TABLETAPE_BROWSER_TESTS=require, but {HOW}")
        pytest.skip(HOW)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def shot(pg, name: str) -> str:
    os.makedirs(SHOTS, exist_ok=True)
    path = f"{SHOTS}/{name}.png"
    pg.screenshot(path=path, full_page=True)
    return path


def open_page(pg, url: str) -> None:
    pg.goto(url)
    pg.wait_for_selector("body[data-ready='1']", timeout=10_000)


@pytest.fixture(scope="module")
def kill_html(tmp_path_factory):
    out = tmp_path_factory.mktemp("view") / "kill-dispute.html"
    viewer.write(KILL, str(out))
    return out


def explained(seq: int) -> dict:
    done = subprocess.run([sys.executable, "-m", "tabletape", "explain", KILL, str(seq), "--json"],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_step_with_the_keys_and_the_buttons(page, kill_html):
    open_page(page, kill_html.as_uri())
    assert page.inner_text("#sentence").startswith("seq 0: cards-of-war 1.1 starts: alice, bob")
    assert page.inner_text("#verdict") == "valid"
    assert engine.read_chain(KILL).head in page.inner_text("#head")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.input_value("#seq") == "2"
    page.keyboard.press("ArrowLeft")
    assert page.input_value("#seq") == "1"
    page.keyboard.press("End")
    assert page.input_value("#seq") == "91" and page.input_value("#slider") == "91"
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#message") == "this is the last event"
    page.keyboard.press("Home")
    assert page.input_value("#seq") == "0"
    page.click("#next-illegal")
    assert page.input_value("#seq") == "21"
    page.click("#next-dispute")
    assert page.input_value("#seq") == "22"
    assert page.evaluate("location.hash") == "#seq=22"
    page.fill("#seq", "40")
    page.press("#seq", "Enter")
    assert page.inner_text("#where").startswith("seq 40 of 91")
    page.click("#next")
    page.click("#prev")
    page.click("#prev")
    assert page.input_value("#seq") == "39"
    fold = engine.replay(KILL).fold
    assert fold is not None
    assert page.locator("#ticks span.i").count() == len(fold.illegal) + len(fold.corrected) == 1
    assert page.locator("#ticks span.d").count() == len(fold.disputes) == 2
    shot(page, "keys")
    page.click("#play")  # plays on from here, one event every 0.7 s, until paused
    assert page.inner_text("#play") == "pause"
    page.wait_for_function("document.getElementById('seq').value === '40'", timeout=3000)
    page.click("#play")
    assert page.inner_text("#play") == "play"
    paused = page.input_value("#seq")
    page.wait_for_timeout(1000)
    assert page.input_value("#seq") == paused


def test_seq_in_the_link_opens_there_and_says_what_explain_says(page, kill_html):
    for seq in (21, 22, 23):
        open_page(page, f"{kill_html.as_uri()}#seq={seq}")
        out = explained(seq)
        assert page.inner_text("#sentence") == f"seq {seq}: {out['text']}"
        assert page.inner_text("#ruling") == f"ruling: {out['verdict']}" + (
            f" — {out['reason']}" if out["reason"] else "")
    open_page(page, f"{kill_html.as_uri()}#seq=21")
    marks = page.inner_text("#marks")
    assert "undone at seq 23" in marks
    assert "disputed at seq 22: illegal [cow.kill.type-match]" in marks
    shot(page, "seq-21")


def test_seen_by_hides_the_other_hand(page, kill_html):
    open_page(page, f"{kill_html.as_uri()}#seq=30")
    hand = engine.replay(KILL, to=30).state.hands["alice"]
    alice = '#table g[data-part="player alice"] text'
    assert "?" not in page.locator(alice).all_text_contents()
    page.select_option("#viewer", label="bob")
    assert page.locator(alice).all_text_contents().count("?") == len(hand)
    assert page.inner_text("#where").endswith("as bob sees it")
    assert page.evaluate("location.hash") == "#seq=30&as=bob"
    shot(page, "as-bob")
    open_page(page, f"{kill_html.as_uri()}#seq=31&as=alice")
    assert page.input_value("#viewer") == "1"
    assert "?" not in page.locator(alice).all_text_contents()


@pytest.mark.parametrize("game", BUNDLED)  # the games with a disputed replay
def test_each_games_disputed_replay_in_the_viewer(page, game, tmp_path):
    path = DISPUTED[game]
    out = tmp_path / f"{game}.html"
    viewer.write(path, str(out))
    ruling = present(engine.replay(path).fold).disputes[0]
    open_page(page, f"{out.as_uri()}#seq={ruling.about}")
    assert f"disputed at seq {ruling.dispute_seq}: {ruling.verdict}" in page.inner_text("#marks")
    assert page.locator("#table svg").count() == 1
    made = shot(page, f"viewer-{game}")
    if os.environ.get("TABLETAPE_DOCS_SCREENSHOTS") == "1":
        os.makedirs("docs", exist_ok=True)
        shutil.copyfile(made, f"docs/viewer-{game}.png")


def test_a_10000_event_log_opens_and_steps_to_its_end(page, tmp_path):
    """Behaviour only: the time it takes to open is a benchmark's (a timed test fails
    on a loaded machine and proves nothing about speed)."""
    path = session_log(tmp_path / "long.jsonl", 3, 10_000)
    out = tmp_path / "long.html"
    viewer.write(path, str(out))
    start = time.perf_counter()
    open_page(page, out.as_uri())
    took = time.perf_counter() - start
    ready = page.evaluate("performance.now()")
    print(f"10,000-event log: {out.stat().st_size / 1e6:.2f} MB of HTML, open to ready "
          f"{took:.2f} s (in-page {ready / 1000:.2f} s)")
    page.keyboard.press("End")
    assert page.input_value("#seq") == str(10_000)


# -- the live view -------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    """`tabletape serve` on a copy of the disputed Cards of War game, on a free port."""
    pytest.importorskip("uvicorn", reason="tabletape serve needs the view extra: "
                        "pip install -e '.[dev,view]'")
    log_path = tmp_path / "game.jsonl"
    shutil.copyfile(KILL, log_path)
    port = free_port()
    env = {**os.environ, "TABLETAPE_CLOCK": "off"}
    proc = subprocess.Popen([sys.executable, "-m", "tabletape", "serve", str(log_path),
                             "--port", str(port)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url, timeout=1).read()
                break
            except (urllib.error.URLError, ConnectionError):
                assert proc.poll() is None, proc.communicate()
                time.sleep(0.05)
        yield url, log_path, proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def watch_console(pg) -> list[str]:
    """Returns the list the page's console errors and CSP violations will be put in."""
    said: list[str] = []
    pg.on("console", lambda m: said.append(m.text) if m.type in ("error", "warning") else None)
    pg.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                       "console.error('CSP violation: ' + e.violatedDirective))")
    return said


def test_the_live_view_shows_an_append_within_2_seconds(page, served, tmp_path):
    from playwright.sync_api import expect
    url, log_path, _ = served
    said = watch_console(page)
    open_page(page, url)
    assert page.inner_text("#verdict") == "valid"
    assert page.inner_text("#live") == "● live"
    assert page.input_value("#seq") == "91"  # the live view opens at the latest event
    before = sorted(os.listdir(tmp_path))
    subprocess.run([sys.executable, "-m", "tabletape", "note", str(log_path),
                    "the umpire is watching", "--by", "carol"], check=True, capture_output=True)
    appended = time.perf_counter()
    # waits by locators: the page's CSP forbids the eval that wait_for_function uses
    expect(page.locator("#sentence")).to_contain_text("carol notes: the umpire is watching",
                                                      timeout=2000)
    took = time.perf_counter() - appended
    print(f"live view: the appended note showed {took:.2f} s after the append returned")
    assert took < 2.0
    assert page.input_value("#seq") == "92"
    assert sorted(os.listdir(tmp_path)) == before  # nothing written beside the log
    shot(page, "live")
    assert said == []  # the page runs under the server's CSP: nothing refused


def test_the_live_view_says_when_the_log_cannot_be_read(page, served):
    from playwright.sync_api import expect
    url, log_path, _ = served
    said = watch_console(page)
    open_page(page, url)
    kept = log_path.read_bytes()
    log_path.unlink()
    expect(page.locator("#verdict")).to_have_text(
        "unreadable: the file is gone (deleted or moved)", timeout=3000)
    assert page.inner_text("#head") == "nothing to show: the file cannot be read as a log"
    assert page.locator("#table svg").count() == 0 and page.inner_text("#sentence") == ""
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("End")
    shot(page, "live-unreadable")
    log_path.write_bytes(kept)  # back: the game again, at its last event
    expect(page.locator("#verdict")).to_have_text("valid", timeout=3000)
    assert page.input_value("#seq") == "91" and page.locator("#table svg").count() == 1
    assert said == []


def test_the_live_view_is_read_only(served):
    url, log_path, _ = served
    data = open(log_path, "rb").read()
    for method in ("POST", "PUT", "DELETE"):
        req = urllib.request.Request(url, data=b"{}", method=method)
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=5)
        assert e.value.code == 405
    with urllib.request.urlopen(url + "data?v=x", timeout=5) as r:
        assert json.loads(r.read())["version"].startswith("92-")
    with urllib.request.urlopen(url + "data?v=" + viewer.build(str(log_path)).version,
                                timeout=5) as r:
        assert r.status == 204  # unchanged: nothing sent
    assert open(log_path, "rb").read() == data
