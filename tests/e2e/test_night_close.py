"""Closing a club night from the organiser's phone and laptop: the confirm page flags the table
still playing, the organiser voids it, closes the night, and the night's page says so and stops
refreshing.

With E2E_DOCS=1 the pictures the docs show are redrawn in docs/ (league-night-close-*.png,
league-night-closed-*.png); an ordinary run leaves them alone, since the pages show today's
date and the time the night closed.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from leagues import services
from leagues.models import ClubNight, League
from scorekeeper.rounds.services import round_record
from tests.helpers.browser import sign_in
from tests.helpers.leagues import PASSWORD, UserFactory, league_with, members, table_game

DOCS = Path(__file__).resolve().parents[2] / "docs"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


def docs_picture(page: Page, name: str) -> None:
    if os.environ.get("E2E_DOCS") == "1":
        page.screenshot(path=DOCS / name, full_page=True, caret="initial")


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width} px wide"


def round_played(league_game, totals: list[int]) -> None:
    number = league_game.game.rounds.count() + 1
    round_record(
        game=league_game.game,
        number=number,
        ended_by="stock_exhausted",
        entry=[{"melded_points": total} for total in totals],
    )


@pytest.fixture
def night(db) -> ClubNight:
    """Two tables of a two-round league: table 1 finished, table 2 one round in; Gwen came too
    late to be seated and waits."""
    olive = UserFactory(username="olive", password=PASSWORD)
    league: League = league_with(olive, house_rules={"rounds": 2})
    p = members(league, "Ann", "Bob", "Cat", "Dan", "Eve", "Fin", "Gil", "Hana", "Gwen")
    first = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    second = table_game(league, [[p["Eve"], p["Fin"]], [p["Gil"], p["Hana"]]])
    services.night_arrival(night=first.night, player=p["Gwen"], user=None)
    round_played(first, [850, 600])
    round_played(first, [500, 1100])
    round_played(second, [700, 450])
    return first.night


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360", "1280"])
def test_the_organiser_voids_the_table_left_playing_and_closes_the_night(
    night, page: Page, journey, viewport
):
    width = viewport["width"]
    page.set_viewport_size(viewport)
    journey.watch(page, f"organiser-{width}")
    base = f"/leagues/thursday/nights/{night.pk}"
    sign_in(page, journey, "olive", f"{base}/")
    results = page.locator("#night-results")
    expect(results.locator(".night-state")).to_have_text("Open")
    expect(results).to_have_attribute("hx-trigger", "every 15s")

    page.get_by_role("link", name="Close the night").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Close the club night of Thursday 1 October 2026?"
    )
    flagged = page.locator("article.unfinished-table")
    expect(flagged).to_have_count(1)
    expect(flagged.get_by_role("heading")).to_have_text("Table 2 playing")
    expect(flagged.get_by_role("listitem")).to_have_text(
        ["Side 1: Eve & Fin", "Side 2: Gil & Hana"]
    )
    expect(flagged).to_contain_text("1 round played.")
    expect(page.get_by_role("button", name="Close the night")).to_have_count(0)
    no_sideways_scroll(page)
    journey.check(page, "close-flags-table-2")
    docs_picture(page, f"league-night-close-{width}.png")

    flagged.get_by_role("link", name="Void table 2's game").click()
    page.get_by_label("Why is the game voided?").fill("The hall closed before the last round")
    page.get_by_role("button", name="Void the game").click()
    expect(page).to_have_url(journey.url(f"{base}/"))
    # Gwen waits for a seat, so voiding the last table left the closing to the organiser.
    expect(results.locator(".night-state")).to_have_text("Open")

    page.get_by_role("link", name="Close the night").click()
    expect(page.get_by_text("Every table has finished or been voided.")).to_be_visible()
    page.get_by_role("button", name="Close the night").click()

    expect(page).to_have_url(journey.url(f"{base}/"))
    expect(page.locator("main").get_by_role("status")).to_have_text(
        "The club night of 1 October 2026 is closed; its page no longer refreshes."
    )
    night.refresh_from_db()
    closed = f"Closed on {night.closed_at:%-d %B %Y at %H:%M}"
    expect(results.locator(".night-state")).to_have_text(closed)
    expect(results).not_to_have_attribute("hx-trigger", "every 15s")
    organiser = page.get_by_role("navigation", name="Organiser").get_by_role("link")
    expect(organiser).to_have_text(["Reopen the night"])
    expect(results.get_by_role("heading", level=3)).to_have_text(
        ["Table 1 finished", "Table 2 voided"]
    )
    no_sideways_scroll(page)
    journey.check(page, "night-closed")
    docs_picture(page, f"league-night-closed-{width}.png")
