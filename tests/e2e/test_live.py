"""Two phones at one table: what one phone saves shows on the other without a reload, and the
phone that saved a round can undo it for a minute.

The pictures the README links are saved to docs/ at the phones' 360 px width.
"""

import os
import statistics
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent, Round
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record, round_update

DOCS = Path(__file__).resolve().parents[2] / "docs"
# The bound: a round saved on one phone shows on the others within 3 seconds.
LIVE_MS = 3_000
SAVES = 9
# Sets window.shownAt, resolved with the page's own clock (Date.now()) when its next-round
# heading reads "Round n": the moment the phone shows the round saved elsewhere, not the moment
# the test got round to looking.
# The POST's navigation starts at the tap; its redirect arrives once the round is committed.
SAVED_AT = """() => {
  const navigation = performance.getEntriesByType("navigation")[0];
  return [performance.timeOrigin, performance.timeOrigin + navigation.redirectEnd];
}"""
WATCH_FOR = """number => { window.shownAt = new Promise(resolve => {
  const done = () =>
    document.querySelector("section.next-round h2")?.textContent === `Round ${number}`;
  new MutationObserver((_, observer) => {
    if (done()) { observer.disconnect(); resolve(Date.now()); }
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}); }"""


@pytest.fixture
def game(db) -> Game:
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    round_record(
        game=game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}],
    )
    return game


def scoring_phone(new_context, journey, game: Game, who: str) -> Page:
    """A phone given the scorer link, on the game's page."""
    context: BrowserContext = new_context()
    page = journey.watch(context.new_page(), who)
    page.goto(journey.url(f"/g/{game.public_id}/join/{game.scorer_token}/"))
    expect(page.get_by_text("This phone can now score the game.")).to_be_visible()
    return page


def enter_round(page: Page, melded: tuple[int, int]) -> None:
    """The stock ran out; each side laid down `melded` points."""
    page.get_by_label("The stock ran out").check()
    page.locator("input[name='s0-melded_points']").fill(str(melded[0]))
    page.locator("input[name='s1-melded_points']").fill(str(melded[1]))


def save_round(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator(".message.success")).to_contain_text(f"Round {number} saved.")


def timed_save(page: Page, number: int) -> tuple[float, float]:
    """Save; returns when the tap was and when the server answered that the round is saved
    (its redirect), by the page's clock in milliseconds."""
    save_round(page, number)
    return page.evaluate(SAVED_AT)


def docs_picture(page: Page, name: str) -> None:
    # Only on request: the header's status line shows the clock, so every run would change
    # the committed pictures.
    if os.environ.get("E2E_DOCS") == "1":
        page.screenshot(path=DOCS / name, full_page=False, caret="initial")


def totals(page: Page) -> list[str]:
    return page.locator("table.scoreboard tfoot td").all_inner_texts()


def test_a_round_saved_on_one_phone_shows_on_the_others_within_3_seconds(
    game, new_context, journey
):
    ann = scoring_phone(new_context, journey, game, "Ann")
    bob = scoring_phone(new_context, journey, game, "Bob")
    # Ann's second tab: the form for round 2, half filled in when Bob saves round 2.
    form = journey.watch(ann.context.new_page(), "Ann's form")
    form.goto(journey.url(f"/g/{game.public_id}/rounds/new/"))
    form.get_by_label("The stock ran out").check()
    # A third phone, with the read-only link, has round 1's breakdown open.
    viewer = journey.watch(new_context().new_page(), "viewer")
    viewer.goto(journey.url(f"/g/{game.public_id}/rounds/1/"))
    expect(ann.get_by_role("link", name="Enter round 2")).to_be_visible()
    assert totals(ann) == ["50", "25"]
    # Ann has round 1's breakdown open below the scoreboard (htmx, in place).
    ann.get_by_role("link", name="Round 1, Ann: +50 , total 50").click()
    expect(ann.locator("#breakdown-panel h1")).to_have_text("Round 1")
    journey.check(ann, "game-before")
    docs_picture(ann, "live-game-before-360.png")

    bob.get_by_role("link", name="Enter round 2").click()
    enter_round(bob, (100, 0))
    ann.evaluate(WATCH_FOR, 3)
    tapped, saved = timed_save(bob, 2)

    expect(ann.get_by_role("link", name="Enter round 3")).to_be_visible(timeout=LIVE_MS)
    assert totals(ann) == ["150", "25"]
    shown = ann.evaluate("window.shownAt")
    from_tap, from_save = [shown - tapped], [shown - saved]
    journey.check(ann, "game-after")
    docs_picture(ann, "live-game-after-360.png")

    # The form for round 2 says why it is no longer round 2's, keeps what was typed and offers to
    # save it as round 3, with no error for fields nobody got wrong.
    notice = form.get_by_role("alert").filter(has_text="Round 2 was just saved on another phone")
    expect(notice).to_be_visible(timeout=LIVE_MS)
    expect(notice).to_have_text(
        "Round 2 was just saved on another phone. What you typed is kept: if the table played "
        "another round, save it as round 3; if not, see round 2."
    )
    expect(form.get_by_label("The stock ran out")).to_be_checked()
    expect(form.get_by_label("The stock ran out")).to_be_enabled()
    expect(form.get_by_role("heading", name="Round 3", level=1)).to_be_visible()
    expect(form.get_by_role("button", name="Save as round 3")).to_be_enabled()
    expect(form.locator("#preview")).to_contain_text("Totals after round 3", timeout=LIVE_MS)
    expect(form.locator("[aria-invalid='true']")).to_have_count(0)
    journey.check(form, "round-form-closed")
    docs_picture(form, "live-round-form-closed-360.png")
    form.get_by_role("link", name="see round 2").click()
    expect(form.get_by_role("heading", name="Round 2", level=1)).to_be_visible()

    # Round 1's breakdown follows too: Bob corrects it, the viewer sees the new points.
    round_update(game=game, number=1, ended_by="stock_exhausted", entry=[{"melded_points": 70}, {}])
    expect(viewer.locator("#breakdown h2").first).to_have_text(
        "Ann: +70 (total 70)", timeout=LIVE_MS
    )
    journey.check(viewer, "round-detail-after")

    # The time from a save on one phone to the other phone's page showing it, several times.
    for number in range(3, 3 + SAVES):
        bob.get_by_role("link", name=f"Enter round {number}").click()
        enter_round(bob, (10, 5))
        ann.evaluate(WATCH_FOR, number + 1)
        tapped, saved = timed_save(bob, number)
        expect(ann.get_by_role("link", name=f"Enter round {number + 1}")).to_be_visible(
            timeout=LIVE_MS
        )
        shown = ann.evaluate("window.shownAt")
        from_tap.append(shown - tapped)
        from_save.append(shown - saved)
    for what, delays in (("tap on Save", from_tap), ("save committed", from_save)):
        print(
            f"\n{what} to the other phone's update: median "
            f"{statistics.median(delays) / 1000:.2f} s, max {max(delays) / 1000:.2f} s, "
            f"min {min(delays) / 1000:.2f} s over {len(delays)} saves"
        )
    assert max(from_save) <= LIVE_MS


def test_undo_right_after_a_save_removes_the_round_and_its_history_entry(
    game, new_context, journey
):
    ann = scoring_phone(new_context, journey, game, "Ann")
    bob = scoring_phone(new_context, journey, game, "Bob")
    ann.clock.install()
    ann.reload()

    ann.get_by_role("link", name="Enter round 2").click()
    enter_round(ann, (100, 0))
    save_round(ann, 2)
    message = ann.locator(".message.success")
    expect(message).to_have_text("Round 2 saved. Undo round 2")
    expect(bob.get_by_role("link", name="Enter round 3")).to_be_visible(timeout=LIVE_MS)
    journey.check(ann, "undo-offered")
    docs_picture(ann, "undo-offered-360.png")

    ann.get_by_role("button", name="Undo round 2").click()
    expect(ann.locator(".message.success")).to_have_text("Round 2 removed.")
    expect(ann.get_by_role("link", name="Enter round 2")).to_be_visible()
    assert totals(ann) == ["50", "25"]
    assert list(game.rounds.values_list("number", flat=True)) == [1]
    assert list(
        GameEvent.objects.filter(game=game).order_by("at", "id").values_list("kind", flat=True)
    ) == ["started", "round_added"]
    journey.check(ann, "undo-done")
    docs_picture(ann, "undo-done-360.png")
    # Bob's page follows the Undo too.
    expect(bob.get_by_role("link", name="Enter round 2")).to_be_visible(timeout=LIVE_MS)
    assert totals(bob) == ["50", "25"]

    # Saved again; a minute later the button has gone, and a late Undo (a page kept from
    # before, replayed) is refused and changes nothing.
    ann.get_by_role("link", name="Enter round 2").click()
    enter_round(ann, (100, 0))
    save_round(ann, 2)
    undo_button = ann.get_by_role("button", name="Undo round 2")
    expect(undo_button).to_be_visible()
    kept = ann.evaluate_handle("document.querySelector('form.undo').cloneNode(true)")
    ann.clock.fast_forward("01:01")
    expect(undo_button).to_have_count(0)
    expect(ann.locator(".message.success")).to_have_text("Round 2 saved.")
    Round.objects.filter(game=game, number=2).update(
        created_at=Round.objects.get(game=game, number=2).created_at.replace(year=2000)
    )
    ann.evaluate("form => document.querySelector('.message.success').append(form)", kept)
    ann.get_by_role("button", name="Undo round 2").click()
    expect(ann.locator(".message")).to_have_text(
        "Round 2 was saved more than 60 seconds ago, so it can no longer be undone and nothing "
        "was removed. If it is wrong, correct or delete it from the game page."
    )
    assert list(game.rounds.values_list("number", flat=True)) == [1, 2]
    journey.check(ann, "undo-refused")
