"""Roster import from the organiser's phone: a pasted list previewed row by row, a near-duplicate
added anyway, the rest added in one go; and a CSV file with bad rows on a laptop.

The pictures docs/league-roster-import-360.png and -1280.png (the preview, with rows to check
and refused rows) are redrawn only with E2E_DOCS=1.
"""

import datetime
import os
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from leagues import services
from leagues.models import League, Membership
from tests.helpers.browser import sign_in
from tests.helpers.leagues import PASSWORD, UserFactory, members

DOCS = Path(__file__).resolve().parents[2] / "docs"
PASTED = "Anne Smith\nBob\nCy\tcy\nCy\nZoë\nzoe\nDee\tbob\nEve Long\nFay\tnobody"
PREVIEW = [
    "1 Anne Smith Check Looks like Ann Smith, already a member. Row 1, Anne Smith Add anyway Skip",
    "2 Bob Already a member Bob is already a member: not added again.",
    "3 Cy account cy Will be added Linked to the account “cy”.",
    "4 Cy Duplicate The same name as row 3: not added twice.",
    "5 Zoë Will be added",
    "6 zoe Check Looks like Zoë on row 5. Row 6, zoe Add anyway Skip",
    "7 Dee account bob Refused The account “bob” is already linked to Bob, a member.",
    "8 Eve Long Will be added",
    "9 Fay account nobody Refused No account is called “nobody”; check the spelling, or leave "
    "the username out.",
]
BAD_CSV = b"name,username\nGus\nHal,hal,Tuesdays\n,cy\nIvy\n"


@pytest.fixture
def club(db) -> League:
    olive = UserFactory(username="olive", password=PASSWORD)
    league = services.league_create(
        name="Thursday Club", slug="thursday", preset="four-rounds", user=olive
    )
    today = timezone.localdate()
    services.season_create(
        league=league,
        name="This season",
        starts_on=today - datetime.timedelta(days=30),
        ends_on=today + datetime.timedelta(days=60),
        user=olive,
    )
    members(league, "Ann Smith")
    services.member_add(league=league, name="Bob", account=UserFactory(username="bob"), user=None)
    UserFactory(username="cy")
    return league


def rows_shown(page: Page) -> list[str]:
    return [
        " ".join(text.split()) for text in page.locator(".roster-table tbody tr").all_inner_texts()
    ]


def assert_fits(page: Page, width: int) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{page.url} is {wide} px wide at {width} px"


def docs_picture(page: Page, name: str) -> None:
    # Only on request: the header's status line shows the clock, so every run would change
    # the committed pictures.
    if os.environ.get("E2E_DOCS") == "1":
        page.screenshot(path=DOCS / name, full_page=True, caret="initial")


def names_of(league: League) -> list[str]:
    return sorted(Membership.objects.filter(league=league).values_list("player__name", flat=True))


def test_a_pasted_list_is_checked_then_added_in_one_go(club, page: Page, journey):
    journey.watch(page, "organiser")
    sign_in(page, journey, "olive", "/leagues/thursday/members/")
    page.get_by_role("link", name="Add several players").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Add several players to Thursday Club"
    )
    journey.check(page, "import-form")
    assert_fits(page, 360)

    # The same list in a second tab, checked too: it is sent after the first one.
    second = journey.watch(page.context.new_page(), "second tab")
    for tab in (second, page):
        if tab is second:
            tab.goto(journey.url("/leagues/thursday/members/import/"))
        tab.get_by_label("Names, one a line").fill(PASTED)
        tab.get_by_role("button", name="Check the list").click()
        tab.get_by_role("group", name="Row 1, Anne Smith").get_by_label("Add anyway").check()

    expect(page.get_by_role("heading", level=1)).to_have_text("Check the list before adding it")
    expect(page.locator(".roster-summary")).to_have_text(
        "9 rows: 3 will be added, 2 to check, 1 already a member, 1 duplicate and 2 refused."
    )
    assert rows_shown(page) == PREVIEW
    assert names_of(club) == ["Ann Smith", "Bob"]
    row_6 = page.get_by_role("group", name="Row 6, zoe")
    expect(row_6.get_by_label("Skip")).to_be_checked()
    expect(
        page.get_by_role("group", name="Row 1, Anne Smith").get_by_label("Add anyway")
    ).to_be_checked()
    journey.check(page, "import-preview")
    assert_fits(page, 360)
    docs_picture(page, "league-roster-import-360.png")

    page.get_by_role("button", name="Add the players").click()

    expect(page).to_have_url(journey.url("/leagues/thursday/members/"))
    expect(page.get_by_text("4 players added to Thursday Club.")).to_be_visible()
    assert names_of(club) == ["Ann Smith", "Anne Smith", "Bob", "Cy", "Eve Long", "Zoë"]
    journey.check(page, "members-after")

    # The second tab's list is checked against the members as they are now: nobody twice.
    second.get_by_role("button", name="Add the players").click()
    expect(
        second.get_by_text(
            "Nobody was added to Thursday Club. Anne Smith, Cy, Zoë and Eve Long were already "
            "members."
        )
    ).to_be_visible()
    assert names_of(club) == ["Ann Smith", "Anne Smith", "Bob", "Cy", "Eve Long", "Zoë"]


def test_a_csv_file_with_bad_rows_on_a_laptop(club, new_context, journey, tmp_path):
    page = journey.watch(new_context().new_page(), "laptop")
    page.set_viewport_size({"width": 1280, "height": 800})
    sign_in(page, journey, "olive", "/leagues/thursday/members/import/")
    if os.environ.get("E2E_DOCS") == "1":
        # The documentation's picture shows the same list as the phone's.
        page.get_by_label("Names, one a line").fill(PASTED)
        page.get_by_role("button", name="Check the list").click()
        page.get_by_role("group", name="Row 1, Anne Smith").get_by_label("Add anyway").check()
        assert_fits(page, 1280)
        docs_picture(page, "league-roster-import-1280.png")
        page.get_by_role("link", name="Start again with another list").click()
    file = tmp_path / "members.csv"
    file.write_bytes(BAD_CSV)

    page.get_by_label("Or a CSV file").set_input_files(file)
    page.get_by_role("button", name="Check the list").click()

    expect(page.get_by_text("Row 1 is a header row and is skipped.")).to_be_visible()
    assert rows_shown(page) == [
        "2 Gus Will be added",
        "3 Hal account hal Refused 3 columns: a row has a name and, optionally, the username "
        "of the player's account.",
        "4 no name account cy Refused No name: each row starts with the player's name.",
        "5 Ivy Will be added",
    ]
    journey.check(page, "import-file-preview")
    assert_fits(page, 1280)
    assert names_of(club) == ["Ann Smith", "Bob"]

    # Hal's row is put right in the list, each row on its line, and checked again.
    page.get_by_role("button", name="Change the list").click()
    names = page.get_by_label("Names, one a line")
    expect(names).to_have_value("name\tusername\nGus\nHal\thal\n\tcy\nIvy")
    names.fill("name\tusername\nGus\nHal\n\tcy\nIvy")
    page.get_by_role("button", name="Check the list").click()
    expect(page.locator(".roster-summary")).to_have_text("4 rows: 3 will be added and 1 refused.")
    page.get_by_role("button", name="Add the players").click()
    expect(page.get_by_text("3 players added to Thursday Club.")).to_be_visible()
    assert names_of(club) == ["Ann Smith", "Bob", "Gus", "Hal", "Ivy"]
