"""The league's settings in a browser, on a phone and a laptop: every house rule offered beside
the preset's value, the page no wider than the screen, a refused value named at the top and
beside its field, and the saved house rules said in words on the league's page.

`E2E_DOCS=1` also saves docs/league-form-360.png and docs/league-form-1280.png.
"""

import os

import pytest
from playwright.sync_api import Page, expect

from leagues import services
from leagues.models import League
from tests.helpers.leagues import UserFactory
from tests.helpers.paths import DOCS

PASSWORD = "correct-horse-9"
SCREENS = {360: {"width": 360, "height": 740}, 1280: {"width": 1280, "height": 800}}
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture
def league(db) -> League:
    olive = UserFactory(username="olive", password=PASSWORD)
    return services.league_create(
        name="Thursday Club",
        slug="thursday",
        preset="ten-thousand",
        house_rules={"decks": 4, "going_out_bonus": 200},
        user=olive,
    )


def sign_in(page: Page, journey, next_path: str) -> None:
    page.goto(journey.url(f"/accounts/login/?next={next_path}"))
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(journey.url(next_path))


@pytest.mark.parametrize("width", SCREENS)
def test_the_house_rules_are_offered_refused_and_saved(league, page: Page, journey, width):
    journey.watch(page, "organiser")
    page.set_viewport_size(SCREENS[width])
    sign_in(page, journey, "/leagues/thursday/edit/")

    # The league's house rules are unfolded, the changed ones marked, the preset's value beside.
    decks = page.locator(".rule-field", has=page.get_by_label("Decks", exact=True))
    expect(decks).to_contain_text("a table of five may need a fourth deck")
    expect(decks).to_contain_text("Preset: 3 · changed")
    expect(page.get_by_label("Decks", exact=True)).to_have_value("4")
    expect(page.locator(".rule-field.differs")).to_have_count(2)
    journey.check(page, f"league-form-{width}")
    assert page.evaluate(OVERFLOW) == 0
    decks.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -160)")
    if os.environ.get("E2E_DOCS") == "1":
        page.screenshot(path=DOCS / f"league-form-{width}.png", caret="initial")

    # A value no table plays: named at the top of the page and beside the field; nothing saved.
    page.get_by_label("Decks", exact=True).fill("13")
    page.get_by_role("button", name="Save the settings").last.click()
    expect(page.locator(".org-form > .field-error").first).to_have_text(
        "Nothing was saved: a house rule below needs changing."
    )
    expect(page.locator(".org-form > .field-error").first).to_be_in_viewport()
    expect(decks.locator(".field-error")).to_have_text(
        "The number of decks must be between 1 and 12."
    )
    assert page.evaluate(OVERFLOW) == 0
    league.refresh_from_db()
    assert league.house_rules == {"decks": 4, "going_out_bonus": 200}

    # A fifth deck, saved; the league's page says which house rules it plays.
    page.get_by_label("Decks", exact=True).fill("5")
    page.get_by_role("button", name="Save the settings").last.click()
    expect(page).to_have_url(journey.url("/leagues/thursday/"))
    expect(page.locator(".facts")).to_contain_text(
        "House rules: 5 decks (the rule set's: 3); going-out bonus 200 (the rule set's: 100)"
    )
    assert page.evaluate(OVERFLOW) == 0
    journey.close()
