"""The player's choice when another phone saved the same round while this one was offline
(static/js/offline/game.js, render.js): both rounds shown line by line as the round page shows a
breakdown, each scored by the phone's engine at its place in the game (phone.round_lines), and
nothing entered, deleted or ended on the game page until the choice is made.

The screenshots are under e2e-screenshots/offline-choices-<test>/ at 360 px and 1280 px.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.engine.formatting import number
from scorekeeper.games import services
from scorekeeper.games.selectors import game_view
from scorekeeper.models import Game
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record
from tests.helpers.journeys import SCREENSHOTS, Journey
from tests.helpers.offline_browser import ENGINE_MS, PHONE, WIDE, Phone, go_offline, go_online

# The controls of `selector` a finger taps, visible, lower or narrower than 44 px.
SMALL_TARGETS = """selector => [...document.querySelectorAll(
    `${selector} a, ${selector} button, ${selector} input, ${selector} summary`)]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el.textContent.trim(), el.getBoundingClientRect()])
  .filter(([, box]) => box.height < 44 || box.width < 44)
  .map(([name, box]) => `${name}: ${Math.round(box.width)}x${Math.round(box.height)}`)"""
SETTLE_FIRST = "The next round can be entered once this is settled."

ROUND_1 = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


@pytest.fixture
def game(db) -> Game:
    """Ann and Bob's game of Baskets, round 1 played."""
    sides = [SideSpec(name) for name in ("Ann", "Bob")]
    started = services.game_start(preset="baskets", sides=sides)
    round_record(game=started, number=1, ended_by="stock_exhausted", entry=ROUND_1)
    return started


@pytest.fixture
def shots(request, live_server) -> Journey:
    """The journey helpers' screenshots and axe-core checks, in this test's own folder."""
    name = re.sub(r"[^a-z0-9]+", "-", request.node.name.removeprefix("test_").lower()).strip("-")
    folder = SCREENSHOTS / f"offline-choices-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return Journey(folder=folder, base_url=live_server.url)


# Each side of a version, read in one go: its heading, then each line as `label | points`.
LINES = """version => [...version.querySelectorAll(".breakdown")].map((side) => [
  side.querySelector("h4").innerText,
  ...[...side.querySelectorAll("tr")].map((row) =>
    [...row.querySelectorAll("th, td")].map((cell) => cell.innerText).join(" | ")),
])"""


def expect_lines(version, expected: list[list[str]]) -> None:
    """The version shows `expected`, waited for: the chooser is drawn again as the phone's engine
    answers, so a read cell by cell could mix two drawings."""
    seen = None
    for _ in range(50):
        seen = version.evaluate(LINES)
        if seen == expected:
            return
        version.page.wait_for_timeout(100)
    assert seen == expected


def held_back(page: Page, next_round: int, last: int) -> None:
    """Enter, Delete and End are on the page but hidden while the choice waits, and the choice
    says why."""
    for name in (f"Enter round {next_round}", f"Delete round {last}", "End the game now"):
        link = page.locator("[data-offline-game] a", has_text=re.compile(f"^{name}$"))
        expect(link).to_be_attached()
        expect(link).to_be_hidden()
    expect(page.locator(".offline-problem .settle-first")).to_have_text(SETTLE_FIRST)


def test_a_conflict_shows_both_rounds_line_by_line_and_holds_back_new_rounds_until_chosen(
    new_context, live_server, game: Game, shots: Journey
):
    ann = Phone(new_context(), live_server.url, game, shots, "ann")
    bob = Phone(new_context(), live_server.url, game, shots, "bob")

    # Offline, Ann goes out with two wicker baskets and a plastic one.
    go_offline(ann.context)
    page = ann.page
    page.get_by_role("link", name="Enter round 2").click()
    page.get_by_label("Ann went out").check(timeout=ENGINE_MS)
    for name, value in (
        ("s0-canastas-natural", "2"),
        ("s0-canastas-mixed", "1"),
        ("s0-melded_points", "235"),
        ("s1-melded_points", "50"),
        ("s1-hand_points", "35"),
    ):
        page.locator(f"input[name='{name}']").fill(value)
    expect(page.locator("#preview .new-totals")).to_have_text(
        "Totals after round 2: Ann 1,835, Bob 40", timeout=ENGINE_MS
    )
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator(".message.success")).to_have_text(
        "Round 2 saved on this phone, not sent yet."
    )
    # A round waiting to be sent is no choice: the next one may be entered.
    expect(page.get_by_role("link", name="Enter round 3")).to_be_visible(timeout=ENGINE_MS)

    # Meanwhile Bob, online, saves his round 2: the stock ran out.
    bob.page.get_by_role("link", name="Enter round 2").click()
    bob.page.get_by_label("The stock ran out").check()
    bob.page.locator("input[name='s0-melded_points']").fill("10")
    bob.page.locator("input[name='s1-melded_points']").fill("20")
    bob.page.get_by_role("button", name="Save round 2").click()
    expect(bob.page.locator(".message.success")).to_contain_text("Round 2 saved.")

    go_online(ann.context)
    conflict = page.locator(".offline-problem.conflict")
    expect(conflict.get_by_role("heading", level=2)).to_have_text(
        "Round 2 was saved on two phones", timeout=ENGINE_MS
    )
    mine, theirs = conflict.locator(".version").nth(0), conflict.locator(".version").nth(1)
    expect(mine.get_by_role("heading", level=3)).to_have_text("This phone's round 2")
    expect(theirs.get_by_role("heading", level=3)).to_have_text("The other phone's round 2")
    minus = "\N{MINUS SIGN}"
    expect_lines(
        mine,
        [
            [
                "Ann: +1,785 (total 1,835)",
                "Wicker baskets 2 × 500 | +1,000",
                "Plastic baskets 1 × 300 | +300",
                "Going out | +250",
                "Cards melded | +235",
            ],
            [
                "Bob: +15 (total 40)",
                "Cards melded | +50",
                f"Cards left in biscuits and buns | {minus}35",
            ],
        ],
    )
    expect_lines(
        theirs,
        [
            ["Ann: +10 (total 60)", "Cards melded | +10"],
            ["Bob: +20 (total 45)", "Cards melded | +20"],
        ],
    )
    held_back(page, 3, 2)
    assert page.evaluate(SMALL_TARGETS, ".offline-problem") == []
    ann.shot("conflict")
    # Wider, the two rounds stand side by side; on the phone, one above the other.
    page.set_viewport_size(WIDE)
    assert mine.bounding_box()["y"] == theirs.bounding_box()["y"]
    page.set_viewport_size(PHONE)
    assert theirs.bounding_box()["y"] > mine.bounding_box()["y"] + mine.bounding_box()["height"]

    # Reloaded, the server's page offers Enter round 3 until the phone says what waits.
    page.reload()
    expect(conflict.get_by_role("heading", level=2)).to_have_text(
        "Round 2 was saved on two phones", timeout=ENGINE_MS
    )
    held_back(page, 3, 2)

    conflict.get_by_role("button", name="Keep both").click()
    expect(page.locator(".offline-problem")).to_have_count(0)
    expect(page.locator("#sync-status")).to_have_text(
        re.compile(r"^Online · Last synced \d{1,2}:\d\d$")
    )
    assert ann.stored("waiting") == []
    assert list(game.rounds.order_by("number").values_list("number", flat=True)) == [1, 2, 3]
    # Settled: the game goes on, and its last round may be deleted again.
    expect(page.get_by_role("link", name="Enter round 4")).to_be_visible()
    expect(page.get_by_role("link", name="Delete round 3")).to_be_visible()
    expect(page.get_by_role("link", name="End the game now")).to_be_visible()
    server = [number(t) for t in game_view(Game.objects.get(pk=game.pk)).totals]
    expect(page.locator("table.scoreboard tfoot td")).to_have_text(server)
    ann.shot("chose-both")
