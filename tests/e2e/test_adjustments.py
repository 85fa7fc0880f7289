"""League points adjustments in a browser, on a phone (360 px) and a laptop (1280 px), with and
without JavaScript: from the season's standings the organiser opens Adjust points, gives a
30-character-named member a penalty with a long reason, sees it listed and the standings mark
the points and note why, then removes it. Every page fits its window and its buttons a finger.

The journey's screenshots (with its accessibility checks) go to e2e-screenshots/adjusts-*/ as
every journey's do.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.browser import sign_in
from tests.helpers.journeys import SCREENS, assert_fits, small_targets
from tests.helpers.leagues import PASSWORD, UserFactory, league_with, members, play, table_game

SIOBHAN = "Siobhán Marie O'Callaghan-Fitz"
assert len(SIOBHAN) == 30
# A long reason, one word of it longer than a phone is wide.
REASON = "Late twice and left early on 12 November: " + "no-show-without-notice" * 3


def fits(page: Page) -> None:
    assert_fits(page)
    assert small_targets(page, 44) == []


def shown(page: Page, journey, step: str, javascript: bool) -> None:
    """The step's screenshot; with JavaScript, the journey's accessibility check too (axe runs
    in the page)."""
    if javascript:
        journey.check(page, step)
    else:
        page.screenshot(path=journey.folder / f"{step}.png", full_page=True)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_organiser_adjusts_and_takes_back_a_players_points(
    screen, javascript, transactional_db, window, journey
):
    olive = UserFactory(username="olive", password=PASSWORD)
    league = league_with(olive)
    p = members(league, SIOBHAN, "Bob Ray")
    play(table_game(league, [[p[SIOBHAN]], [p["Bob Ray"]]]), [500, 300])
    season = league.seasons.get()
    standings = f"/leagues/thursday/seasons/{season.pk}/standings/"
    page = journey.watch(window(screen, javascript=javascript), f"adjust-{screen}")
    sign_in(page, journey, "olive", standings)

    page.get_by_role("link", name="Adjust points: a penalty or bonus in Autumn 2026").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Adjust points in Autumn 2026")
    fits(page)
    page.get_by_label("Player").select_option(label=SIOBHAN)
    page.get_by_label("Points").fill("−10")
    page.get_by_label("Why?").fill(REASON)
    page.get_by_role("button", name="Adjust the points").click()

    expect(page.locator(".messages .message")).to_have_text(
        f"−10 league points for {SIOBHAN} in Autumn 2026: the standings show it."
    )
    listed = page.locator(".adjustment-list li")
    expect(listed).to_have_count(1)
    expect(listed.locator(".what")).to_contain_text(f"−10 {SIOBHAN}: {REASON} (olive, ")
    fits(page)
    shown(page, journey, "adjusted", javascript)

    page.goto(journey.url(standings))
    # Bob (0) above her (2 − 10): her league points marked, the note under the table.
    rows = page.locator("table.standings tbody tr")
    expect(rows.locator("th")).to_have_text(["Bob Ray", SIOBHAN])
    expect(rows.nth(1).locator("td.total")).to_have_text("−8* (adjusted)")
    expect(page.locator(".adjustment-notes li")).to_have_text(
        re.compile(rf"^−10 {re.escape(SIOBHAN)}: {re.escape(REASON)} \(olive, ")
    )
    fits(page)
    shown(page, journey, "standings", javascript)

    page.goto(journey.url(f"/leagues/thursday/seasons/{season.pk}/adjustments/"))
    page.get_by_role("button", name=f"Remove −10 {SIOBHAN}").click()
    expect(page.locator(".messages .message")).to_have_text(
        f"The adjustment of −10 for {SIOBHAN} is removed: the standings no longer count it."
    )
    expect(page.locator(".adjustment-list li")).to_have_count(0)
    expect(page.get_by_text("No adjustments in Autumn 2026.")).to_be_visible()
    fits(page)
