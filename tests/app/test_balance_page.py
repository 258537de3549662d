"""The balance report's page in Chromium, at a phone's width and a desktop's: the plots are
there, nothing scrolls sideways but a table, and the docs' screenshots (docs/balance.md)
are made from the report the page's transcript prints (TABLETAPE_DOCS_SCREENSHOTS=1)."""

from __future__ import annotations

import os
import shutil

import pytest

from tabletape import engine
from tabletape.app import balance as lab
from tabletape.app import balance_page
from tabletape.app import balance_report as rep
from tests.app.test_browser import browser, shot  # noqa: F401 - the browser fixture

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def report_html(tmp_path_factory):
    """The report of docs/balance.md's transcript: Cards of War 1.1 against 1.2, SPRT."""
    rules = engine.get("cards-of-war").versions
    a = lab.Config(game="cards-of-war", rules=rules[-2], players=2)
    b = lab.Config(game="cards-of-war", rules=rules[-1], players=2)
    report = rep.measure(a, b, seed=0, games=2000, sprt=rep.SprtAsk(0.05, 0.05, 0.05))
    out = tmp_path_factory.mktemp("balance") / "balance.html"
    out.write_text(balance_page.page(report), encoding="utf-8")
    return out


@pytest.mark.parametrize("width", [390, 1280])
def test_the_report_page_reads_at_a_phone_and_a_desktop_width(browser, report_html,  # noqa: F811
                                                              width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(report_html.as_uri())
        assert "does not move seat 1's win rate" in page.inner_text(".verdict")
        assert page.locator("svg").count() == 6  # SPRT, seats, events, rounds, lead, what wins
        # nothing wider than the screen but the tables, which scroll in their own box
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for box in page.locator("svg").all():
            assert box.bounding_box()["width"] <= width
        made = shot(page, f"balance-{width}")
    finally:
        context.close()
    if os.environ.get("TABLETAPE_DOCS_SCREENSHOTS") == "1":
        shutil.copyfile(made, f"docs/balance-{width}.png")
