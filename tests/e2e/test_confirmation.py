"""Scores confirmed at a club night's table, on phones (360 px) and a laptop (1280 px):

- four phones: the scoring phone saves a round, another side's phone sees it wait without a
  reload and confirms it in one tap, and the scoring phone's page says so by itself;
- one phone: the scoring phone hands itself over, and the other side taps "Them: confirm" on
  the round's page; a dispute without a reason is refused beside its field, one with a reason is
  shown on the game page.
"""

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rounds.confirmation import round_dispute
from scorekeeper.rounds.services import round_record
from tests.helpers.browser import sign_in
from tests.helpers.journeys import AXE_URL, SCREENS, assert_fits, small_targets
from tests.helpers.leagues import PASSWORD, UserFactory, league_with, members, table_game
from tests.helpers.offline_browser import AXE_FILE, go_offline, go_online


@pytest.fixture
def table(transactional_db):
    """Table 1 of a club night of Baskets, whose league confirms its rounds at the table."""
    league = league_with(
        UserFactory(username="olive", password=PASSWORD),
        preset="baskets",
        confirm_rounds=True,
        house_rules={"rounds": None, "target_score": 5000},
    )
    p = members(league, "Ann", "Bob")
    return table_game(league, [[p["Ann"]], [p["Bob"]]]).game


def phone(window, journey, game, screen: str, who: str) -> Page:
    """A phone (or laptop) that joined the game by its scorer link."""
    page = journey.watch(window(screen), who)
    page.goto(journey.url(f"/g/{game.public_id}/join/{game.scorer_token}/"))
    expect(page.get_by_text("This phone can now score the game.")).to_be_visible()
    return page


def save_round(page: Page, number: int, melded: tuple[int, int]) -> None:
    page.get_by_role("link", name=f"Enter round {number}").click()
    expect(page.get_by_role("button", name=f"Save round {number}")).to_be_visible()
    page.get_by_label("The stock ran out").check()
    page.locator("input[name='s0-melded_points']").fill(str(melded[0]))
    page.locator("input[name='s1-melded_points']").fill(str(melded[1]))
    page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator(".message.success")).to_contain_text(f"Round {number} saved.")


def looks_right(page: Page, journey, step: str) -> None:
    assert_fits(page)
    assert small_targets(page, 44) == []
    journey.check(page, step)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_another_sides_phone_confirms_a_round_in_one_tap_and_the_scoring_phone_sees_it(
    window, journey, table, screen
):
    ann = phone(window, journey, table, screen, "ann")
    bob = phone(window, journey, table, screen, "bob")

    save_round(ann, 1, (150, 90))
    waiting = ann.locator("#confirm")
    expect(waiting).to_contain_text("Round 1: waiting for the other side.")
    expect(waiting.get_by_role("link", name="Them: confirm round 1")).to_be_visible()
    looks_right(ann, journey, "saved, waiting")
    # Bob's page shows the round without a reload, with his one tap.
    expect(bob.locator("#confirm")).to_contain_text("Round 1: waiting for the other side.")
    looks_right(bob, journey, "the other side sees it")
    bob.get_by_role("button", name="Confirm round 1").click()

    expect(bob.locator(".message.success")).to_have_text("Round 1 confirmed.")
    expect(bob.locator("#confirm")).to_have_text("Confirm the rounds Every round is confirmed (1).")
    expect(ann.locator("#confirm")).to_contain_text("Every round is confirmed (1).")
    looks_right(ann, journey, "confirmed, on the scoring phone")
    assert list(table.rounds.values_list("confirmation", "checked_by")) == [
        ("confirmed", "the other side, on another phone")
    ]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_one_phone_is_handed_to_the_other_side_who_disputes_then_confirms(
    window, journey, table, screen
):
    ann = phone(window, journey, table, screen, "ann")
    save_round(ann, 1, (150, 90))

    ann.get_by_role("link", name="Them: confirm round 1").click()
    expect(ann.locator(".handover")).to_have_text(
        "This phone saved round 1. Hand it to the other side: they check the scores above, "
        "then confirm them or say what is wrong."
    )
    looks_right(ann, journey, "handed over")
    ann.get_by_role("button", name="Dispute round 1").click()
    error = ann.locator("#reason-error")
    expect(error).to_have_text("Say what is wrong with the round, in up to 200 characters.")
    expect(error).to_be_in_viewport()
    looks_right(ann, journey, "a dispute needs a reason")
    ann.get_by_label("What is wrong with round 1?").fill("Bob laid down 100 more")
    ann.get_by_role("button", name="Dispute round 1").click()
    expect(ann.locator("#confirm")).to_contain_text(
        "Round 1 disputed (the other side, on the phone that saved it): “Bob laid down 100 more”"
    )
    looks_right(ann, journey, "disputed")
    ann.get_by_role("link", name="Them: confirm round 1").click()
    ann.get_by_role("button", name="Them: confirm round 1").click()

    expect(ann.locator(".message.success")).to_have_text("Round 1 confirmed.")
    expect(ann.locator("#confirm")).to_contain_text("Every round is confirmed (1).")
    assert list(table.rounds.values_list("confirmation", "checked_by", "dispute_reason")) == [
        ("confirmed", "the other side, on the phone that saved it", "")
    ]


def test_a_round_confirmed_offline_is_confirmed_when_the_phone_is_back_online(
    window, journey, table
):
    ann = phone(window, journey, table, "360", "ann")
    bob = phone(window, journey, table, "360", "bob")
    save_round(ann, 1, (150, 90))
    expect(bob.locator("#confirm")).to_contain_text("Round 1: waiting for the other side.")

    go_offline(bob.context)
    # axe-core is not one of the files the phone keeps: handed over even offline.
    bob.context.route(f"**{AXE_URL}", lambda route: route.fulfill(path=AXE_FILE))
    bob.get_by_role("button", name="Confirm round 1").click()
    expect(bob.get_by_role("status").filter(has_text="Round 1 confirmed")).to_have_text(
        "Round 1 confirmed on this phone, not sent yet: it is sent when the phone is online."
    )
    expect(bob.locator("#sync-status")).to_contain_text("1 confirmation waiting to send")
    looks_right(bob, journey, "confirmed offline")
    waiting = list(table.rounds.values_list("confirmation", flat=True))
    go_online(bob.context)

    expect(ann.locator("#confirm")).to_contain_text("Every round is confirmed (1).", timeout=10_000)
    assert waiting == ["waiting"]
    assert list(table.rounds.values_list("confirmation", "checked_by")) == [
        ("confirmed", "the other side, on another phone")
    ]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_organiser_sees_a_disputed_table_on_the_night_page_and_confirms_it(
    window, journey, table, screen
):
    round_record(
        game=table,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 150}, {"melded_points": 90}],
        phone="ann",
    )
    round_dispute(game=table, number=1, version=None, phone="bob", reason="Bob had 100 more")
    page = journey.watch(window(screen), "olive")
    night = f"/leagues/thursday/nights/{table.league_game.night_id}/"
    sign_in(page, journey, "olive", night)

    card = page.locator("article.night-table")
    expect(card.locator("h3")).to_have_text("Table 1 playing disputed")
    expect(card.locator(".confirming")).to_have_text(
        "1 round disputed. The other side says a round is wrong: read why on the game page, "
        "then correct it there or confirm it here."
    )
    looks_right(page, journey, "a disputed table")
    page.get_by_role("button", name="Confirm every round of table 1").click()

    expect(page.locator(".message.success")).to_have_text(
        "Round 1 of Ann vs Bob (table 1, 1 October 2026) confirmed by you: it counts once it "
        "is over."
    )
    expect(card.locator(".confirming")).to_have_count(0)
    looks_right(page, journey, "confirmed by the organiser")
