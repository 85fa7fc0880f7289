"""Using the app in Chromium as a person does: signing in, and the round form's side blocks,
steppers and live preview."""

import re

from playwright.sync_api import Locator, Page, expect

from tests.helpers.leagues import PASSWORD


def sign_in(page: Page, journey, username: str, next_path: str, *, check: bool = False) -> None:
    """Sign in through the sign-in page (with the accounts' PASSWORD), landing on next_path."""
    page.goto(journey.url(f"/accounts/login/?next={next_path}"))
    if check:
        journey.check(page, "sign-in")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(journey.url(next_path))


def side(page: Page, name: str) -> Locator:
    """A side's block of the round form, found by its legend."""
    return page.locator("fieldset.side-block").filter(
        has=page.locator("legend", has_text=re.compile(rf"^{re.escape(name)}(\s|$)"))
    )


def tap(block: Locator, label: str, times: int = 1) -> None:
    """Tap a stepper's + (or − with a negative count) as a thumb would."""
    button = block.get_by_role("button", name=f"{label}: {'more' if times > 0 else 'less'}")
    for _ in range(abs(times)):
        button.click()


def preview(page: Page) -> Locator:
    """The round form's live preview of the round's scores."""
    return page.locator("#preview")
