"""Sharing a game at the table, in a real Chromium on a phone: scan the QR code, copy the address,
or hand it to the system share sheet; and the same page with JavaScript off and for a spectator."""

import re

from playwright.sync_api import Page, expect

from scorekeeper.models import Game
from scorekeeper.rounds.services import round_record
from tests.helpers.qrcodes import zbar_read

# Stands in for the share sheet, which Chromium on Linux does not have: it records what the page
# asked to share, as a phone's sheet would receive it.
FAKE_SHARE_SHEET = """
window.__shared = [];
Object.defineProperty(navigator, "share", {
  value: (data) => { window.__shared.push(data); return Promise.resolve(); },
});
"""


def start_baskets(page: Page, journey) -> str:
    """Start a game of Baskets (first to 5,000) as this phone; returns the game's path."""
    page.goto(journey.url("/games/new/baskets/"))
    names = page.get_by_label("Name", exact=True)
    names.nth(0).fill("Ann")
    names.nth(1).fill("Zoë")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann vs Zoë")
    return page.url.removeprefix(journey.base_url)


def picture_of(page: Page, locator, path) -> None:
    """A screenshot of the page from the first to the last element the locator finds, across
    the phone's whole width (for docs/)."""
    boxes = [element.bounding_box() for element in locator.all()]
    scrolled = page.evaluate("window.scrollY")
    top = min(box["y"] for box in boxes) + scrolled - 8
    bottom = max(box["y"] + box["height"] for box in boxes) + scrolled + 8
    clip = {"x": 0, "y": top, "width": 360, "height": bottom - top}
    page.screenshot(path=path, full_page=True, clip=clip, caret="initial")


def read_qr(journey, page: Page, key: str) -> list[str]:
    """What zbarimg reads from a picture of the QR code as Chromium draws it on the screen."""
    picture = journey.folder / f"qr-{key}.png"
    figure = page.locator("figure.share-link").filter(has=page.locator(f"#{key}"))
    figure.locator("svg.qr").screenshot(path=picture)
    return zbar_read(picture)


def test_a_scorer_shares_the_game_by_qr_code_copy_and_share_sheet(page: Page, journey):
    journey.watch(page)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script(FAKE_SHARE_SHEET)
    path = start_baskets(page, journey)
    game = Game.objects.get()
    scorer_url = journey.url(f"/g/{game.public_id}/join/{game.scorer_token}/")
    viewer_url = journey.url(path)

    # Two rounds in, so the chart shows its axes and the target line.
    for number, (ann, zoe) in enumerate([(600, 400), (500, 700)], start=1):
        round_record(
            game=game,
            number=number,
            ended_by="stock_exhausted",
            entry=[{"melded_points": ann}, {"melded_points": zoe, "hand_points": 20}],
        )
    page.reload()
    expect(page.locator("ul.to-win li")).to_have_text(
        [
            "Ann needs 3,900 more to win (target 5,000)",
            "Zoë needs 3,940 more to win (target 5,000)",
        ]
    )
    chart = page.locator("svg.chart")
    expect(chart).to_have_accessible_name(
        "Running totals after each round, and the target of 5,000"
    )
    expect(chart.locator("text.target-label")).to_have_text("Target 5,000")
    target_area = page.locator("section.next-round, section:has(> svg.chart)")
    picture_of(page, target_area, journey.folder / "target-light.png")
    page.emulate_media(color_scheme="dark")
    picture_of(page, target_area, journey.folder / "target-dark.png")
    page.emulate_media(color_scheme="light")

    share = page.locator("section.share")
    # Folded until asked for: the QR codes are most of a phone's screen.
    expect(share.get_by_role("figure", name="Scorer link")).to_be_hidden()
    share.locator("summary").click()
    scorer = share.get_by_role("figure", name="Scorer link")
    viewer = share.get_by_role("figure", name="Read-only link")
    expect(scorer.get_by_role("img", name="QR code of the scorer link")).to_be_visible()
    expect(scorer.get_by_role("link")).to_have_text(scorer_url)
    expect(viewer.get_by_role("link")).to_have_text(viewer_url)
    # The codes as the screen shows them read back as the exact addresses.
    assert read_qr(journey, page, "scorer-link") == [scorer_url]
    assert read_qr(journey, page, "viewer-link") == [viewer_url]
    # Nothing wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    picture_of(page, share, journey.folder / "share-section.png")
    journey.check(page, "share-section")

    status = scorer.get_by_role("status")
    expect(status).to_have_text("")
    scorer.get_by_role("button", name="Copy the scorer link").click()
    expect(status).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == scorer_url

    viewer.get_by_role("button", name="Share the read-only link").click()
    expect(viewer.get_by_role("status")).to_have_text("")
    assert page.evaluate("window.__shared") == [{"title": "Ann vs Zoë", "url": viewer_url}]
    journey.check(page, "copied")


def test_without_javascript_or_a_share_sheet_the_buttons_stay_away(new_context, journey):
    no_js = journey.watch(new_context(java_script_enabled=False).new_page(), "no-js phone")
    path = start_baskets(no_js, journey)
    game = Game.objects.get()
    scorer_url = journey.url(f"/g/{game.public_id}/join/{game.scorer_token}/")

    share = no_js.locator("section.share")
    share.locator("summary").click()
    expect(share.get_by_role("button")).to_have_count(0)
    expect(share.locator("#scorer-link")).to_have_text(scorer_url)
    assert read_qr(journey, no_js, "scorer-link") == [scorer_url]
    journey.check(no_js, "no-js-share", axe=False)

    # Chromium on Linux can copy but has no share sheet: Copy only.
    phone = journey.watch(new_context().new_page(), "phone without a share sheet")
    phone.goto(journey.url(f"/g/{game.public_id}/join/{game.scorer_token}/"))
    expect(phone.get_by_text("This phone can now score the game.")).to_be_visible()
    assert phone.evaluate("typeof navigator.share") == "undefined"
    phone.locator("section.share summary").click()
    expect(phone.locator("section.share").get_by_role("button")).to_have_text(
        [re.compile(r"^Copy"), re.compile(r"^Copy")]
    )

    # A spectator, with only the game's address, is offered that address and nothing more.
    spectator = journey.watch(new_context().new_page(), "spectator")
    spectator.goto(journey.url(path))
    share = spectator.locator("section.share")
    share.locator("summary").click()
    expect(share.get_by_role("figure")).to_have_count(1)
    expect(share.get_by_role("link")).to_have_text(journey.url(path))
    assert game.scorer_token not in spectator.content()
    assert read_qr(journey, spectator, "viewer-link") == [journey.url(path)]
    journey.check(spectator, "spectator-share")
