"""A seat's page under `serve --play` as the connection and the table change under it
(issue 34, points 4, 5 and 9): the bar saying whose move it is, the offline banner, a
confirm box over a table that moved on, a refusal in one sentence, the rematch button.
Chromium as in test_browser.py; each seat a browser context at 390x844. Screenshots go to
build/screenshots/ (with TABLETAPE_DOCS_SCREENSHOTS=1 also to docs/, for docs/play.md)."""

from __future__ import annotations

import shutil

import msgspec
import pytest

from tabletape import engine
from tabletape.app import play
from tabletape.app.page import stage_of
from tests.app.test_browser import browser, shot  # noqa: F401
from tests.app.test_browser_play import (  # noqa: F401
    DESKTOP,
    PHONE,
    PHONE_1X,
    docs_shot,
    phones,
    press,
    serve_play,
)
from tests.narrow import present


@pytest.fixture
def game(tmp_path, monkeypatch):
    """A new short Cards of War game between alice and bob, served in this process."""
    monkeypatch.setattr(play, "RATE", (10**6, 1.0))
    path, server, links = serve_play(tmp_path, "cards-of-war", "alice,bob", "--option",
                                     "length=short")
    yield path, links
    server.close()


def enabled_buttons(pg) -> int:
    """Returns how many of the page's visible buttons may be pressed."""
    return pg.evaluate("""() => [...document.querySelectorAll('button')]
        .filter(b => b.offsetParent !== null && !b.disabled).length""")


def test_the_bar_is_on_the_first_screen_and_goes_to_the_move(phones, game):  # noqa: F811
    """At 390x844 the moves start more than a screen below the top; the bar stays on the
    first screen however far the page is scrolled, and its link brings the moves up."""
    from playwright.sync_api import expect
    path, links = game
    alice, _ = phones(links["alice"], PHONE_1X)  # the docs' picture: a quarter the bytes
    expect(alice.locator("#turn")).to_have_text("Your move")
    expect(alice.locator("#stage")).to_have_text("round 1")
    assert alice.title() == "● Your move — Cards of War"
    shot(alice, "play-bar-390")
    docs_shot("play-bar-390", "play-bar-390")
    assert alice.locator("#groups button").first.bounding_box()["y"] > 844  # below
    alice.click("#go")
    alice.wait_for_function("() => document.querySelector('#groups button')"
                            ".getBoundingClientRect().top < innerHeight")
    first = alice.locator("#groups button").first.bounding_box()
    bar = alice.locator("#bar").bounding_box()
    assert bar["y"] == 0 and first["y"] >= bar["height"]  # not under the bar
    alice.screenshot(path="build/screenshots/play-go-390.png")  # the first screen
    expect(alice.locator("#groups button").first).to_be_focused()


def test_offline_the_banner_shows_and_every_button_is_off_and_comes_back(phones,  # noqa: F811
                                                                         game):
    """Requests failing (as with the server stopped): the banner, every button disabled
    (those drawn meanwhile too), a press said not sent; on reconnect the banner and that
    message go, and the buttons come back."""
    from playwright.sync_api import expect
    path, links = game
    alice, _ = phones(links["alice"], PHONE_1X)
    expect(alice.locator("#turn")).to_have_text("Your move")
    before = enabled_buttons(alice)  # the builder's first step, the tools, the bar's link
    assert before >= 3
    alice.route("**/p/**", lambda route: route.abort("connectionrefused"))
    alice.evaluate("poll(true)")
    expect(alice.locator("#offline")).to_be_visible(timeout=3000)
    expect(alice.locator("#offline")).to_contain_text("Reconnecting…")
    assert enabled_buttons(alice) == 0
    expect(alice.locator("#turn")).to_have_text("Last heard: your move")  # not a promise
    assert alice.locator("#go").is_hidden()
    assert alice.title() == "Last heard: your move — Cards of War"
    assert alice.locator("#bar").bounding_box()["y"] == 0
    alice.evaluate("draw()")  # buttons drawn while offline are off as well
    assert enabled_buttons(alice) == 0
    alice.evaluate("post('note', {text: 'hello', dispute: false})")  # what a press does
    expect(alice.locator("#message")).to_have_text("Not sent: the server cannot be reached")
    shot(alice, "play-offline-390")
    alice.screenshot(path="build/screenshots/play-offline-first-screen-390.png")
    docs_shot("play-offline-first-screen-390", "play-offline-390")
    assert len(path.read_text().splitlines()) == 1
    alice.unroute("**/p/**")
    alice.evaluate("poll(true)")
    expect(alice.locator("#offline")).to_be_hidden(timeout=3000)
    expect(alice.locator("#message")).to_have_text("")
    expect(alice.locator("#turn")).to_have_text("Your move")
    assert enabled_buttons(alice) == before
    press(alice, "Spy", path)  # and the page works again


def test_a_confirm_box_closes_when_another_seat_moves(phones, game):  # noqa: F811
    """alice's confirm box is open when the table moves on (here her other phone: the
    opening card is hers to turn): it closes, saying why, and nothing is sent."""
    from playwright.sync_api import expect
    path, links = game
    first, _ = phones(links["alice"])
    second, _ = phones(links["alice"])
    expect(second.locator("#turn")).to_have_text("Your move")
    from tests.app.test_browser_games import way_to  # down the builder's steps
    way_to(second, lambda event: event.get("card") == "Battleship")
    expect(second.locator("#confirm")).to_be_visible()
    press(first, "Spy", path)
    second.evaluate("poll(true)")
    expect(second.locator("#confirm")).to_be_hidden(timeout=3000)
    expect(second.locator("#message")).to_have_text("The table moved on: look again")
    expect(second.locator("#turn")).to_have_text("Waiting for bob")
    assert len(path.read_text().splitlines()) == 2


def test_a_refusal_is_one_sentence_naming_the_rule_that_refused_it(phones, game):  # noqa: F811
    """A dispute with no event to dispute breaks core.note.about: said in one sentence,
    the rule after it; a refusal of no rule (a stale page) names none."""
    from playwright.sync_api import expect
    path, links = game
    alice, _ = phones(links["alice"])
    expect(alice.locator("#turn")).to_have_text("Your move")
    alice.evaluate("post('note', {text: 'no', dispute: true})")
    expect(alice.locator("#message")).to_have_text(
        "Not recorded: There is no event to dispute yet. (rule core.note.about)")
    alice.evaluate("post('note', {text: 'late', dispute: false, after: 'not-the-version'})")
    expect(alice.locator("#message")).to_have_text(
        "Not recorded: The table moved on since your page was drawn (the log ends at seq 0); "
        "nothing was written: look again.")


def test_rematch_is_offered_when_the_page_data_says_so(phones, game):  # noqa: F811
    """At game over the server offers a rematch (the page data's `rematch`: the log it would
    make); the Rematch button starts it, and the same page then shows the new game, pushed
    on its stream, with no button (the new game is not over)."""
    from playwright.sync_api import expect
    path, links = game
    result = engine.replay("replays/cards-of-war/sim-normal.jsonl")
    shutil.copyfile("replays/cards-of-war/sim-normal.jsonl", path)  # a finished game
    assert result.ruleset is not None
    assert result.fold is not None
    assert result.ruleset.outcome(result.fold.state) is not None
    alice, _ = phones(links["alice"])
    expect(alice.locator("#final")).to_be_visible()
    data = msgspec.json.decode(msgspec.json.encode(play.Table(str(path)).shown(
        play.Seat("alice"))))
    new = path.parent / f"{path.stem}-rematch-1.jsonl"
    assert data["rematch"] == str(new)
    expect(alice.locator("#rematch")).to_be_visible(timeout=3000)
    alice.click("#rematch")
    expect(alice.locator("#seq")).to_have_text("after seq 0", timeout=3000)
    assert alice.locator("#rematch").is_hidden() and new.exists()


def test_the_board_and_the_bar_name_the_reporter_of_a_recon(tmp_path):
    """A recon card deployed by one player owes a report from the other: the decision's
    actor, not the turn's player, is who the board, the bar (`acting`) and the panel name."""
    source = "replays/cards-of-war/abilities-normal.jsonl"
    with open(source, "rb") as f:
        rows = f.readlines()
    path = tmp_path / "game.jsonl"
    for cut in range(2, len(rows) + 1):
        path.write_bytes(b"".join(rows[:cut]))
        result = engine.replay(str(path))
        assert result.ruleset is not None
        assert result.fold is not None
        decision = result.ruleset.pending(result.fold.state)
        if decision is not None and decision.kind == "report":
            break
    else:
        pytest.fail(f"no recon report owed in {source}")
    state = result.fold.state
    reporter, turn = decision.actor, state.turn
    assert reporter != turn  # the case the issue saw: "turn: bob" over alice's report
    table = play.Table(str(path))
    for seat in (play.Seat(reporter), play.Seat(turn), play.PUBLIC):
        page = table.shown(seat)
        assert page.acting == [reporter]
        assert f"to act: {reporter}" in page.svg and f"to act: {reporter}" in page.narrow
        assert "turn:" not in page.svg
        assert bool(page.groups) == (seat.name == reporter)


def test_stage_of_reads_each_games_round_or_turn():
    """The bar's round or turn: each game's own `Extras.progress`; a game without one shows
    none (the template game)."""
    wants = {"replays/cards-of-war/sim-normal.jsonl": "round 3",
             "replays/global-domination/cards-builds-and-scoring.jsonl": "turn ",
             "replays/battlecards-pacific/stalemate.jsonl": "turn ",
             }
    for source, want in wants.items():
        result = engine.replay(source)
        assert result.fold is not None
        assert stage_of(present(result.ruleset), result.fold.state).startswith(want), source
    fresh = present(engine.replay("replays/cards-of-war/sim-normal.jsonl", to=0))
    assert stage_of(present(fresh.ruleset), fresh.state) == "round 1"
    from tests.template_game import RULESET as TEMPLATE
    assert stage_of(TEMPLATE, TEMPLATE.bind(TEMPLATE.start(
        ("a", "b"), TEMPLATE.Options(), TEMPLATE.default_components())).initial()) == ""


@pytest.mark.parametrize("size", ["390", "1280"])
def test_the_shared_page_says_whose_move_without_any_button(phones, game, size):  # noqa: F811
    """The shared page (no seat): the bar names the player to move, no link to moves."""
    from playwright.sync_api import expect
    _path, links = game
    table, _ = phones(links[""], PHONE if size == "390" else DESKTOP)
    expect(table.locator("#turn")).to_have_text("Waiting for alice")
    assert table.title() == "Waiting for alice — Cards of War"
    assert table.locator("#go").is_hidden() and table.locator("#buzz-label").is_hidden()
