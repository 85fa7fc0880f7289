"""Issue 29's faster entry on a phone 360 px wide: the Four Rounds round form within two screens
(1,827 px before, the two sides one above the other; now side by side as on the paper sheet, their
rows level), and a realistic round in 9 taps (14 before), since choosing who went out fills in
the canastas going out needs.

A tap is a touch on the page: a button, a choice or a field. A typed number is its field's one
tap; the keys of the phone's keyboard are not counted."""

from playwright.sync_api import Locator, Page, expect

from tests.helpers.browser import preview, side
from tests.helpers.games import start_form
from tests.helpers.journeys import assert_fits

SCREEN = 740  # the phone's height in CSS pixels (conftest.PHONE)


class Thumb:
    """Taps on the page, counted."""

    def __init__(self) -> None:
        self.taps = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.taps += 1

    def type(self, field: Locator, number: str) -> None:
        field.click()
        field.press_sequentially(number)
        self.taps += 1


def start_four_rounds(page: Page, journey) -> None:
    page.goto(journey.url("/games/new/four-rounds/"))
    for field, name in start_form("four-rounds").items():
        if field != "first_dealer":
            page.locator(f"input[name='{field}']").fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter round 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    # The heading shows before the round form's modules have run; a tap sooner than a thumb's
    # would find the steppers and the going-out filling not yet listening.
    page.wait_for_load_state("load")


def top(page: Page, selector: str) -> float:
    return page.locator(selector).bounding_box()["y"]


def test_the_four_rounds_round_form_fits_two_screens_with_both_sides_level(page: Page, journey):
    journey.watch(page)
    start_four_rounds(page, journey)
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 2 * SCREEN
    assert_fits(page)
    # Side by side, each row of one side level with the other's.
    assert top(page, "#s1") == top(page, "#s0")
    assert page.locator("#s1").bounding_box()["x"] > page.locator("#s0").bounding_box()["x"]
    for field in ("canastas-natural", "red_threes", "melded_points", "red_threes_in_hand"):
        assert top(page, f"#s1-{field}") == top(page, f"#s0-{field}")
    # The dealer's cut comes last, in the dealer's column only.
    expect(page.locator("#s0 .field").last).to_contain_text("Cut the deck exactly (+100)")
    expect(page.locator("#s1-exact_cuts")).to_have_count(0)
    journey.check(page, "round form")


def test_a_realistic_round_takes_nine_taps(page: Page, journey):
    journey.watch(page)
    start_four_rounds(page, journey)
    us, them = side(page, "Ann & Cy"), side(page, "Bob & Di")
    thumb = Thumb()

    # Ann & Cy went out with the five canastas it needs (two natural, three mixed), one red three
    # and 1,250 laid down; Bob & Di laid down a natural and a mixed canasta and 640, and hold 185
    # and a red three.
    thumb.tap(page.get_by_label("Ann & Cy went out"))
    expect(us.get_by_label("Natural canastas", exact=True)).to_have_value("2")
    expect(us.get_by_label("Mixed canastas", exact=True)).to_have_value("3")
    thumb.tap(us.get_by_role("button", name="Red threes laid down (+100 each): more"))
    thumb.type(us.get_by_label("Points of cards laid down", exact=True), "1250")
    thumb.tap(them.get_by_role("button", name="Natural canastas: more"))
    thumb.tap(them.get_by_role("button", name="Mixed canastas: more"))
    thumb.type(them.get_by_label("Points of cards laid down", exact=True), "640")
    thumb.type(them.get_by_label("Points left in hand", exact=True), "185")
    thumb.tap(them.get_by_role("button", name="Red threes left in hand (−100 each): more"))
    # 1,000 + 900 for the canastas, 100 for the red three, 100 for going out, 1,250 laid down;
    # 500 + 300 + 640, less 185 and 100.
    expect(preview(page).locator(".new-totals")).to_have_text(
        "Totals after round 1: Ann & Cy 3,350, Bob & Di 1,155"
    )
    thumb.tap(page.get_by_role("button", name="Save round 1"))

    expect(page.locator("table.scoreboard tfoot")).to_contain_text("3,350")
    expect(page.locator("table.scoreboard tfoot")).to_contain_text("1,155")
    assert thumb.taps == 9


def test_a_change_of_mind_about_who_went_out_moves_the_filled_canastas(page: Page, journey):
    journey.watch(page)
    start_four_rounds(page, journey)
    us, them = side(page, "Ann & Cy"), side(page, "Bob & Di")
    them.get_by_role("button", name="Natural canastas: more").click()
    page.get_by_label("Ann & Cy went out").check()
    us.get_by_role("button", name="Mixed canastas: more").click()
    page.get_by_label("Bob & Di went out").check()
    # Ann & Cy's untouched natural canastas are taken back, the stepped mixed ones kept; Bob & Di's
    # typed natural canasta is kept and their mixed ones filled.
    expect(us.get_by_label("Natural canastas", exact=True)).to_have_value("")
    expect(us.get_by_label("Mixed canastas", exact=True)).to_have_value("4")
    expect(them.get_by_label("Natural canastas", exact=True)).to_have_value("1")
    expect(them.get_by_label("Mixed canastas", exact=True)).to_have_value("3")
