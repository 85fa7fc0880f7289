"""Issue 15, points 3, 5 and 10 on a phone 360 px wide: the start page, the picker and the round
form are short, a refused Save shows its first error, a correction's question is in view, and the
steppers show only when they work.

`E2E_DOCS=1` also saves the README's screenshots into docs/.
"""

import os
import shutil

from playwright.sync_api import Page, expect

from scorekeeper.models import Game
from tests.helpers.browser import preview, side, tap
from tests.helpers.paths import DOCS

SCREEN = 740  # the phone's height in CSS pixels (conftest.PHONE)
# Measured at 360x740 before issue 15: the picker 7,772 px, the start page 1,536, the Baskets
# round form 2,269. Now: the picker two screens at most, the start page with Start above the
# fold, and the round form down to its Save button within two screens.
PICKER_MAX = 2 * SCREEN
START_MAX = SCREEN + 200
ROUND_MAX = 1650


def height(page: Page) -> int:
    return page.evaluate("() => document.documentElement.scrollHeight")


def in_view(page: Page, selector: str) -> bool:
    """Whether the element's box lies wholly inside the window as it is scrolled now."""
    return page.evaluate(
        """(selector) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
        }""",
        selector,
    )


def focused_id(page: Page) -> str:
    return page.evaluate("() => document.activeElement.id")


def for_docs(page: Page, journey, step: str, name: str, *, axe=True, full_page=True) -> None:
    """The journey's screenshot, and with E2E_DOCS=1 one for the README in docs/: the whole
    page, or (full_page=False) the window as the player sees it."""
    journey.check(page, step, axe=axe)
    if os.environ.get("E2E_DOCS") != "1":
        return
    target = DOCS / f"{name}.png"
    if full_page:
        shutil.copy(journey.folder / journey.steps[-1], target)
    else:
        page.screenshot(path=target, caret="initial")


def start_baskets(page: Page, journey, *names: str) -> None:
    page.goto(journey.url("/games/new/baskets/"))
    fields = page.get_by_label("Name", exact=True)
    for index, name in enumerate(names):
        fields.nth(index).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(" vs ")


def test_the_picker_start_page_and_round_form_fit_a_phone(page: Page, journey):
    journey.watch(page)
    page.goto(journey.url("/games/new/"))
    assert height(page) <= PICKER_MAX
    # Each card shows its Play button beside its name; the rules are one tap away.
    first = page.get_by_role("link", name="Play Baskets")
    assert first.bounding_box()["y"] + first.bounding_box()["height"] <= SCREEN
    expect(page.locator(".rules-card details.about[open]")).to_have_count(0)
    for_docs(page, journey, "picker", "picker-360")

    page.get_by_role("link", name="Play Baskets").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New game of Baskets")
    assert height(page) <= START_MAX
    # The names are filled in, and every field and Start are above the fold.
    names = page.get_by_label("Name", exact=True)
    expect(names).to_have_count(2)
    expect(names.nth(0)).to_have_value("Player 1")
    expect(names.nth(1)).to_have_value("Player 2")
    start = page.get_by_role("button", name="Start the game")
    assert start.bounding_box()["y"] + start.bounding_box()["height"] <= SCREEN
    expect(page.locator("details.about")).not_to_have_attribute("open", "")
    for_docs(page, journey, "start-form", "start-form-360")
    start.click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Player 1 vs Player 2")
    page.get_by_role("link", name="Enter round 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    assert height(page) <= ROUND_MAX
    save = page.get_by_role("button", name="Save round 1").bounding_box()
    assert save["y"] + save["height"] <= 2 * SCREEN
    for_docs(page, journey, "round-form", "round-form-360")

    # The names typed last on this phone stand in for "Player 1" and "Player 2" next time.
    start_baskets(page, journey, "Ann", "Zoë")
    page.goto(journey.url("/games/new/baskets/"))
    names = page.get_by_label("Name", exact=True)
    expect(names.nth(0)).to_have_value("Ann")
    expect(names.nth(1)).to_have_value("Zoë")


def test_a_refused_save_focuses_its_first_error_and_says_so_beside_save(page: Page, journey):
    journey.watch(page)
    start_baskets(page, journey, "Ann", "Zoë")
    page.get_by_role("link", name="Enter round 1").click()
    page.get_by_label("Ann went out").check()
    ann, zoe = side(page, "Ann"), side(page, "Zoë")
    tap(ann, "Wicker baskets", 2)
    ann.get_by_label("Points of cards laid down", exact=True).fill("400")
    # The only error is far down the form, in the last side's hand.
    zoe.get_by_label("Points left in hand", exact=True).fill("33")
    expect(page.locator("#err-s1-hand_points")).to_have_text(
        "Zoë's points left in hand must be a multiple of 5, since every card is, not 33."
    )
    page.evaluate("() => window.scrollTo(0, 0)")
    page.get_by_role("button", name="Save round 1").click()

    # A new page: the field with the error is focused and in view, its message with it, and
    # the summary stands beside Save, linking to it.
    expect(page.locator("#s1-hand_points")).to_be_focused()
    assert in_view(page, "#s1-hand_points")
    assert in_view(page, "#err-s1-hand_points")
    summary = page.locator(".save-bar .save-summary")
    expect(summary).to_have_text("Round 1 not saved yet: 1 field to fix, marked in red")
    expect(summary.get_by_role("link")).to_have_attribute("href", "#s1-hand_points")
    assert Game.objects.get().rounds.count() == 0
    for_docs(page, journey, "refused-save", "round-form-error-360", full_page=False)

    # Fixed as typed, the summary goes with the error.
    zoe.get_by_label("Points left in hand", exact=True).fill("35")
    expect(summary).to_have_text("")
    expect(preview(page)).to_contain_text("Totals after round 1: Ann 2,150, Zoë −35")


def test_a_correction_asks_in_a_dialog(page: Page, journey):
    journey.watch(page)
    start_baskets(page, journey, "Ann", "Zoë")
    page.get_by_role("link", name="Enter round 1").click()
    page.get_by_label("The stock ran out").check()
    side(page, "Ann").get_by_label("Points of cards laid down", exact=True).fill("300")
    expect(preview(page)).to_contain_text("Totals after round 1")
    page.get_by_role("button", name="Save round 1").click()
    page.goto(page.url + "rounds/1/edit/")
    zoe = side(page, "Zoë")
    zoe.get_by_label("Points of cards laid down", exact=True).fill("100")
    expect(preview(page)).to_contain_text("Totals after round 1: Ann 300, Zoë 100")
    page.get_by_role("button", name="Save correction").click()

    dialog = page.get_by_role("dialog", name="Save this correction?")
    expect(dialog).to_be_visible()
    assert page.evaluate("() => document.querySelector('dialog.confirm-box').matches(':modal')")
    expect(dialog).to_contain_text("The game's totals go from Ann 300, Zoë 0 to Ann 300, Zoë 100.")
    expect(dialog.get_by_role("button", name="Yes, save the correction")).to_be_focused()
    assert in_view(page, "dialog.confirm-box")
    for_docs(page, journey, "confirm-dialog", "confirm-dialog-360", full_page=False)

    # Keep editing takes the question away (Enter in a field cannot confirm it); Save asks
    # again; Yes saves.
    dialog.get_by_role("button", name="Keep editing").click()
    expect(page.locator("dialog")).to_have_count(0)
    zoe.get_by_label("Points of cards laid down", exact=True).press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog")).to_have_count(0)
    page.get_by_role("button", name="Save correction").click()
    page.get_by_role("button", name="Yes, save the correction").click()
    expect(page.get_by_role("status").filter(has_text="Round 1 corrected.")).to_be_visible()


def test_without_javascript_no_steppers_and_the_question_at_the_top(new_context, journey):
    page = journey.watch(new_context(java_script_enabled=False).new_page(), "no-js phone")
    page.goto(journey.url("/games/new/baskets/"))
    names = page.get_by_label("Name", exact=True)
    expect(names.nth(0)).to_have_value("Player 1")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Zoë")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter round 1").click()
    ann, zoe = side(page, "Ann"), side(page, "Zoë")

    # No + or − that could not work: the numbers are typed.
    expect(page.locator("button.step").first).to_be_hidden()
    expect(page.locator("button.step:visible")).to_have_count(0)
    expect(ann.get_by_label("Wicker baskets", exact=True)).to_be_visible()

    page.get_by_label("The stock ran out").check()
    ann.get_by_label("Points of cards laid down", exact=True).fill("300")
    zoe.get_by_label("Points left in hand", exact=True).fill("33")
    page.get_by_role("button", name="Save round 1").click()
    # autofocus, without any script: the first error is focused and in view.
    expect(page.locator("#s1-hand_points")).to_be_focused()
    assert in_view(page, "#s1-hand_points")
    expect(page.locator(".save-bar .save-summary")).to_have_text(
        "Round 1 not saved yet: 1 field to fix, marked in red"
    )
    journey.check(page, "refused-save", axe=False)
    zoe.get_by_label("Points left in hand", exact=True).fill("35")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_role("status").filter(has_text="Round 1 saved.")).to_be_visible()

    page.goto(page.url + "rounds/1/edit/")
    zoe.get_by_label("Points of cards laid down", exact=True).fill("100")
    page.get_by_role("button", name="Save correction").click()
    # The question stands at the top of the page, in view, its Yes focused.
    expect(page.get_by_role("alert")).to_contain_text(
        "The game's totals go from Ann 300, Zoë −35 to Ann 300, Zoë 65."
    )
    assert in_view(page, "dialog.confirm-box")
    expect(page.get_by_role("button", name="Yes, save the correction")).to_be_focused()
    expect(page.get_by_role("button", name="Keep editing")).to_be_hidden()
    for_docs(page, journey, "confirm-no-js", "confirm-no-js-360", axe=False, full_page=False)
    page.get_by_role("button", name="Yes, save the correction").click()
    expect(page.get_by_role("status").filter(has_text="Round 1 corrected.")).to_be_visible()
