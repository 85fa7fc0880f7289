"""The Display choices in Chromium, as an older player at a kitchen table uses them: larger text
(body text 20 px or more, every tap target 48 px or more, one column and nothing wider than the
phone), the dark and light colours forced either way, axe-core's contrast at AA in both themes
and AAA in large text, every page at 200% zoom, the screen kept on during a game and the totals
read aloud after a save. Normal text keeps every tap target at 44 px or more."""

import datetime

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import services
from scorekeeper.models import GameEvent
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record
from tests.helpers.journeys import assert_fits, axe_violations, small_targets

MODES = {
    "normal": ("text=normal&theme=auto", 44),
    "large-light": ("text=large&theme=light", 48),
    "large-dark": ("text=large&theme=dark", 48),
    "normal-dark": ("text=normal&theme=dark", 44),
}
# Wake Lock and speech synthesis, recorded: headless Chromium has no screen to keep on and no
# voice, and the test needs to see what the page asked of them.
RECORDERS = """
window.asked = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: async (kind) => {
    window.asked.push("lock " + kind);
    return { release: async () => window.asked.push("release"), addEventListener: () => {} };
  },
}});
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  cancel: () => {}, speak: (u) => window.asked.push("say " + u.text),
}});
"""


@pytest.fixture
def four_rounds(transactional_db):
    game = services.game_start(
        preset="four-rounds",
        sides=[SideSpec("Us", ("Ann", "Carl")), SideSpec("Them", ("Bea", "Dan"))],
    )
    round_record(
        game=game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 1215}, {"melded_points": 890}],
    )
    return game


def chosen(page: Page, base: str, cookie: str) -> None:
    page.context.add_cookies([{"name": "display", "value": cookie, "url": base}])


def pages_of(game) -> list[str]:
    at = f"/g/{game.public_id}"
    return [
        f"{at}/join/{game.scorer_token}/",
        f"{at}/rounds/new/",
        f"{at}/history/",
        "/",
        "/games/new/four-rounds/",
        "/games/new/",
        "/display/",
    ]


# Each mode once, normal text and large text each at both widths and in both colours: the four
# of eight pairings that cover every mode, width and colour (eight took 80 s of CI).
@pytest.mark.parametrize(
    "mode, width",
    [("normal", 360), ("large-dark", 360), ("large-light", 1280), ("normal-dark", 1280)],
)
def test_every_page_fits_and_reads_in_each_display_mode(page, journey, four_rounds, mode, width):
    cookie, least = MODES[mode]
    chosen(page, journey.base_url, cookie)
    page.set_viewport_size({"width": width, "height": 740})
    journey.watch(page)
    for path in pages_of(four_rounds):
        page.goto(journey.url(path))
        assert_fits(page)
        assert small_targets(page, least) == [], path
        if mode.startswith("large"):
            body = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
            assert body >= 20, path
            # AAA: 7:1 for text, in the colours chosen.
            assert axe_violations(page, ["color-contrast-enhanced"]) == [], path
        journey.check(page, f"{mode}-{width}-{path.strip('/').replace('/', '-') or 'home'}")


def test_every_page_works_at_200_percent_zoom(page, journey, four_rounds):
    # 200% zoom of a 1280 px window is a 640 px one with everything twice the size: the same
    # CSS pixels, which is what the page is laid out in.
    page.set_viewport_size({"width": 640, "height": 450})
    journey.watch(page)
    for path in pages_of(four_rounds):
        page.goto(journey.url(path))
        assert_fits(page)
        assert small_targets(page, 44) == [], path


def test_the_headers_switch_makes_the_text_larger_everywhere_in_one_tap(page, journey):
    journey.watch(page)
    page.goto(journey.url("/games/new/"))
    size = "() => parseFloat(getComputedStyle(document.body).fontSize)"
    assert page.evaluate(size) == 18

    page.get_by_role("button", name="Larger text").click()

    expect(page.get_by_role("button", name="Smaller text")).to_be_visible()
    page.wait_for_url(journey.url("/games/new/"))
    page.wait_for_load_state("load")
    assert page.evaluate(size) == 22.4
    page.goto(journey.url("/leagues/"))
    assert page.evaluate(size) == 22.4
    journey.check(page, "large-after-one-tap")
    page.get_by_role("button", name="Smaller text").click()
    expect(page.get_by_role("button", name="Larger text")).to_be_visible()
    page.wait_for_load_state("load")
    assert page.evaluate(size) == 18


def test_dark_chosen_on_the_display_page_wins_over_a_light_phone(page, journey):
    journey.watch(page)
    page.emulate_media(color_scheme="light")
    page.goto(journey.url("/"))
    background = "() => getComputedStyle(document.documentElement).backgroundColor"
    assert page.evaluate(background) == "rgb(253, 253, 251)"

    page.get_by_role("link", name="Display").click()
    page.get_by_label("Dark").check()
    page.get_by_label("Large").check()
    page.get_by_role("button", name="Save").click()

    # Back where the player was, once the page and its stylesheet have loaded.
    page.wait_for_url(journey.url("/"))
    page.wait_for_load_state("load")
    assert page.evaluate(background) == "rgb(18, 20, 18)"
    journey.check(page, "dark-chosen")


def test_the_screen_stays_on_during_a_game_and_is_let_go_when_it_ends(page, journey, four_rounds):
    page.add_init_script(RECORDERS)
    journey.watch(page)
    at = f"/g/{four_rounds.public_id}"
    page.goto(journey.url(f"{at}/join/{four_rounds.scorer_token}/"))
    page.wait_for_function("() => window.asked.length > 0")
    assert page.evaluate("() => window.asked") == ["lock screen"]

    page.goto(journey.url(f"{at}/end/"))
    page.get_by_role("button", name="End the game").click()

    expect(page.get_by_text("The game is over.")).to_be_visible()
    assert page.evaluate("() => window.asked") == []


def test_with_the_screen_setting_off_no_lock_is_asked_for(page, journey, four_rounds):
    chosen(page, journey.base_url, "awake=off")
    page.add_init_script(RECORDERS)
    journey.watch(page)
    page.goto(journey.url(f"/g/{four_rounds.public_id}/join/{four_rounds.scorer_token}/"))
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)

    assert page.evaluate("() => window.asked") == []


def test_the_totals_are_read_aloud_after_a_save_and_on_the_button(page, journey, four_rounds):
    chosen(page, journey.base_url, "speak=on")
    page.add_init_script(RECORDERS)
    journey.watch(page)
    at = f"/g/{four_rounds.public_id}"
    page.goto(journey.url(f"{at}/join/{four_rounds.scorer_token}/"))
    page.goto(journey.url(f"{at}/rounds/new/"))
    page.get_by_label("The stock ran out").check()
    # The live breakdown answered first, so that Save is the only request on its way.
    expect(page.locator("#preview")).to_contain_text("Totals after round 2")
    page.get_by_role("button", name="Save round 2").click()

    expect(page.get_by_role("heading", level=2, name="Round 3")).to_be_visible()
    page.wait_for_function("() => window.asked.some((a) => a.startsWith('say'))", timeout=20_000)
    said = [a for a in page.evaluate("() => window.asked") if a.startswith("say")]
    assert said == ["say Us 1,215, Them 890; Carl deals next."]
    page.get_by_role("button", name="Read the totals aloud").click()
    said = [a for a in page.evaluate("() => window.asked") if a.startswith("say")]
    assert said == ["say Us 1,215, Them 890; Carl deals next."] * 2
    journey.check(page, "read-aloud")


def test_times_read_in_the_phones_own_zone(browser, live_server, four_rounds):
    at = datetime.datetime(2026, 11, 27, 17, 35, tzinfo=datetime.UTC)
    GameEvent.objects.filter(game=four_rounds).update(at=at)
    chicago = browser.new_context(
        timezone_id="America/Chicago", viewport={"width": 360, "height": 740}
    )
    try:
        page = chicago.new_page()
        page.goto(f"{live_server.url}/g/{four_rounds.public_id}/history/")

        times = page.locator("time[data-local]").all_inner_texts()
    finally:
        chicago.close()

    assert times and set(times) == {"27 Nov 2026 11:35"}
