"""The organiser's members page on a phone (360 px) and a laptop (1280 px):

- Retiring a member from their page: the members page says so, lists them under "Retired
  members", a new night's tick list leaves them out, and Bring back puts them on the list again.
- The search, offered from 11 members on: "zoe" finds Zoë and Zoé whatever the case or accents,
  and says how many of how many match; the same without JavaScript (a plain GET form).

The leagues are built through the services; only the clicks under test are a person's.
"""

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from leagues import services
from leagues.models import Membership
from leagues.organiser.selectors import MEMBER_SEARCH_FROM
from tests.helpers.browser import sign_in
from tests.helpers.journeys import SCREENS, assert_fits, small_targets
from tests.helpers.leagues import PASSWORD, UserFactory, league_with

MEMBERS = "/leagues/thursday/members/"

# A 30-character name, the one retired: its button and its line must fit a phone.
SIOBHAN = "Siobhán Marie O'Callaghan-Fitz"
assert len(SIOBHAN) == 30

# More than MEMBER_SEARCH_FROM members, by name; three of them match "zoe" as a person types it.
TWELVE = [
    "Ann Lee",
    "Anne-Zoé Marchand",
    "Bob Ray",
    "Chloe Ward",
    "Dan Moss",
    "Eve Hart",
    "Fay Lund",
    "Gus Park",
    "Kim Zoellner",
    SIOBHAN,
    "Zofia Nowak",
    "Zoë Featherstone",
]
ZOE = ["Anne-Zoé Marchand", "Kim Zoellner", "Zoë Featherstone"]
assert len(TWELVE) > MEMBER_SEARCH_FROM


def league_of(names: list[str]) -> None:
    """Thursday Club (organiser olive) with these members."""
    olive = UserFactory(username="olive", password=PASSWORD)
    league = league_with(olive)
    for name in names:
        services.member_add(league=league, name=name, user=olive)


def member_names(page: Page):
    """The members' table: each row's name."""
    return page.locator("table.org-table tbody th[scope='row']")


def fits(page: Page) -> None:
    assert_fits(page)
    assert small_targets(page, 44) == []


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_organiser_retires_a_member_and_brings_them_back(
    screen, transactional_db, window, journey
):
    league_of(["Ann Lee", "Bob Ray", SIOBHAN])
    page = journey.watch(window(screen), f"organiser-{screen}")
    sign_in(page, journey, "olive", MEMBERS)
    expect(member_names(page)).to_have_text(["Ann Lee", "Bob Ray", SIOBHAN])
    expect(page.locator("details.retired-members")).to_have_count(0)

    # Retire: from the member's own page.
    page.get_by_role("link", name=f"Edit {SIOBHAN}", exact=True).click()
    expect(page.get_by_role("heading", level=2)).to_have_text(f"Retire {SIOBHAN}")
    fits(page)
    journey.check(page, "member-page")
    page.get_by_role("button", name=f"Retire {SIOBHAN}", exact=True).click()

    expect(page).to_have_url(journey.url(MEMBERS))
    expect(page.locator(".messages .message")).to_have_text(
        f"{SIOBHAN} is retired: off the tick lists, kept in the games and standings. "
        "Bring them back below at any time."
    )
    expect(member_names(page)).to_have_text(["Ann Lee", "Bob Ray"])
    retired = page.locator("details.retired-members")
    expect(retired.locator("summary")).to_have_text("Retired members (1)")
    bring_back = retired.get_by_role("button", name=f"Bring back {SIOBHAN}", exact=True)
    expect(bring_back).to_be_hidden()
    retired.locator("summary").click()
    today = timezone.localdate()
    expect(retired.get_by_role("listitem")).to_have_text(
        f"{SIOBHAN} retired {today.day} {today:%b %Y} Bring back {SIOBHAN}"
    )
    expect(bring_back).to_be_visible()
    fits(page)
    journey.check(page, "retired")

    # A new night's tick list leaves the retired member out.
    page.goto(journey.url(reverse("leagues:night_new", args=["thursday"])))
    ticks = page.get_by_role("group", name="Who is here")
    expect(ticks.get_by_role("checkbox")).to_have_count(2)
    expect(ticks.locator("label")).to_have_text(["Ann Lee", "Bob Ray"])
    expect(page.get_by_label(SIOBHAN)).to_have_count(0)

    # Bring back: on the members page again, and on the tick list.
    page.goto(journey.url(MEMBERS))
    retired.locator("summary").click()
    bring_back.click()
    expect(page).to_have_url(journey.url(MEMBERS))
    expect(page.locator(".messages .message")).to_have_text(
        f"{SIOBHAN} is back on the tick lists of Thursday Club."
    )
    expect(member_names(page)).to_have_text(["Ann Lee", "Bob Ray", SIOBHAN])
    expect(retired).to_have_count(0)
    fits(page)
    journey.check(page, "back")
    assert Membership.objects.get(player__name=SIOBHAN).retired_on is None

    page.goto(journey.url(reverse("leagues:night_new", args=["thursday"])))
    expect(page.get_by_role("group", name="Who is here").locator("label")).to_have_text(
        ["Ann Lee", "Bob Ray", SIOBHAN]
    )


def search(page: Page, typed: str) -> None:
    """Type into the search and submit it with Find."""
    search = page.get_by_role("search")
    search.get_by_label("Find a member").fill(typed)
    search.get_by_role("button", name="Find", exact=True).click()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_member_search_finds_names_whatever_their_case_and_accents(
    screen, transactional_db, window, journey
):
    league_of(TWELVE)
    page = journey.watch(window(screen), f"organiser-{screen}")
    sign_in(page, journey, "olive", MEMBERS)
    expect(member_names(page)).to_have_count(12)

    search(page, "zoe")
    expect(page).to_have_url(journey.url(f"{MEMBERS}?q=zoe"))
    expect(page.get_by_role("search").get_by_role("status")).to_have_text(
        "3 of 12 members match “zoe”. Show every member"
    )
    expect(member_names(page)).to_have_text(ZOE)
    expect(page.get_by_label("Find a member")).to_have_value("zoe")
    fits(page)
    journey.check(page, "zoe")

    # Capitals and the accent typed find the same three; a name nobody has, nobody.
    search(page, "ZOË")
    expect(page.get_by_role("search").get_by_role("status")).to_have_text(
        "3 of 12 members match “ZOË”. Show every member"
    )
    expect(member_names(page)).to_have_text(ZOE)
    search(page, "zoey")
    expect(page.get_by_role("search").get_by_role("status")).to_have_text(
        "No member matches “zoey”. Show every member"
    )
    expect(page.locator("table.org-table tbody td.empty")).to_have_text("No member matches “zoey”.")
    fits(page)

    page.get_by_role("link", name="Show every member", exact=True).click()
    expect(page).to_have_url(journey.url(MEMBERS))
    expect(member_names(page)).to_have_count(12)
    expect(page.get_by_role("search").get_by_role("status")).to_have_count(0)


def test_the_member_search_works_without_javascript(transactional_db, window, journey):
    league_of(TWELVE)
    page = journey.watch(window("360", javascript=False), "no-js")
    sign_in(page, journey, "olive", MEMBERS)

    search(page, "zoe")
    expect(page).to_have_url(journey.url(f"{MEMBERS}?q=zoe"))
    expect(page.get_by_role("search").get_by_role("status")).to_have_text(
        "3 of 12 members match “zoe”. Show every member"
    )
    expect(member_names(page)).to_have_text(ZOE)
    fits(page)
    journey.check(page, "no-js-zoe", axe=False)

    # Enter in the field submits too.
    page.get_by_label("Find a member").fill("Zoë f")
    page.get_by_label("Find a member").press("Enter")
    expect(page.get_by_role("search").get_by_role("status")).to_have_text(
        "1 of 12 members matches “Zoë f”. Show every member"
    )
    expect(member_names(page)).to_have_text(["Zoë Featherstone"])
