"""Head to head on a phone and a laptop (issue 17), on the demo's leagues: Riverside's sixteen
players get the chooser and one player's record, sorted in place by htmx; the Baskets Ladder's
six get the whole matrix in its own scroll box. No page is wider than its screen, with or
without JavaScript.

`E2E_DOCS=1` also saves docs/league-head-to-head-360.png and -1280.png.
"""

import os
import re
import shutil

import pytest
from playwright.sync_api import Page, expect

from leagues.models import League, Player
from tests.helpers.paths import DOCS

LAPTOP = {"width": 1280, "height": 800}
CHOSEN = "José Martínez"


@pytest.fixture
def leagues(demo_leagues) -> dict[str, str]:
    """The demo, and each league's head-to-head address for its summer or only season."""
    urls = {}
    for league in League.objects.all():
        season = league.seasons.order_by("starts_on").first()
        urls[league.slug] = f"/leagues/{league.slug}/seasons/{season.pk}/head-to-head/"
    return urls


def overflow(page: Page) -> int:
    """How far the page is wider than its window (0 when it fits)."""
    return page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def for_docs(page: Page, journey, name: str) -> None:
    if os.environ.get("E2E_DOCS") == "1":
        shutil.copy(journey.folder / journey.steps[-1], DOCS / f"{name}.png")


def test_choose_a_player_and_sort_their_record_on_a_phone(page: Page, journey, leagues):
    journey.watch(page)
    page.goto(journey.url(leagues["riverside"]))
    expect(page.get_by_text("16 players played in Summer 2026: too many")).to_be_visible()
    assert overflow(page) == 0

    page.get_by_label("Player").select_option(label=CHOSEN)
    page.get_by_role("button", name="Show").click()
    expect(
        page.get_by_role("heading", level=2, name=f"{CHOSEN} against each opponent")
    ).to_be_visible()
    chosen = Player.objects.get(name=CHOSEN)
    assert f"player={chosen.pk}" in page.url
    assert overflow(page) == 0
    record = page.locator("#h2h-record")
    # Wider than the phone, the record scrolls in its own box.
    assert record.evaluate("(box) => box.scrollWidth > box.clientWidth")
    journey.check(page, "record")
    for_docs(page, journey, "league-head-to-head-360")

    # A header sorts the record in place (htmx) and the address follows.
    record.get_by_role("link", name="Opponent").click()
    expect(page.locator("#h2h-record th[aria-sort='ascending']")).to_have_text("Opponent ▲")
    assert re.search(r"sort=name&order=asc", page.url)
    names = page.locator("#h2h-record tbody th").all_inner_texts()
    assert names == sorted(names, key=str.casefold)
    journey.check(page, "sorted")
    assert overflow(page) == 0


def test_the_record_and_the_matrix_fit_a_laptop(page: Page, journey, leagues):
    journey.watch(page)
    page.set_viewport_size(LAPTOP)
    chosen = Player.objects.get(name=CHOSEN)
    page.goto(journey.url(f"{leagues['riverside']}?player={chosen.pk}"))
    record = page.locator("#h2h-record")
    expect(record).to_be_visible()
    assert overflow(page) == 0
    # On a laptop every column shows: the box has nothing to scroll.
    assert record.evaluate("(box) => box.scrollWidth <= box.clientWidth"), record.evaluate(
        "(box) => [box.scrollWidth, box.clientWidth, window.innerWidth]"
    )
    journey.check(page, "record-laptop")
    for_docs(page, journey, "league-head-to-head-1280")

    page.goto(journey.url(leagues["baskets-ladder"]))
    expect(page.get_by_role("heading", name="Everyone against everyone")).to_be_visible()
    assert overflow(page) == 0
    journey.check(page, "matrix-laptop")


def test_the_matrix_scrolls_in_its_box_on_a_phone(page: Page, journey, leagues):
    journey.watch(page)
    page.goto(journey.url(leagues["baskets-ladder"]))
    expect(page.get_by_role("heading", name="Everyone against everyone")).to_be_visible()
    assert overflow(page) == 0
    journey.check(page, "matrix")


def test_without_javascript_the_form_and_the_sort_links_load_pages(new_context, journey, leagues):
    page = journey.watch(new_context(java_script_enabled=False).new_page())
    page.goto(journey.url(leagues["riverside"]))
    page.get_by_label("Player").select_option(label=CHOSEN)
    page.get_by_role("button", name="Show").click()
    expect(
        page.get_by_role("heading", level=2, name=f"{CHOSEN} against each opponent")
    ).to_be_visible()

    page.locator("#h2h-record").get_by_role("link", name="Win %").click()
    expect(page.locator("#h2h-record th[aria-sort='descending']")).to_have_text("Win % ▼")
    assert "sort=win_pct&order=desc" in page.url
    assert overflow(page) == 0
    journey.check(page, "no-js-sorted", axe=False)
