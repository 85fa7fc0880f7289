"""The projector view of a club night on the room's screen: 20 tables and the top of the
standings at once on a 1920×1080 projector, 20 tables of 30-letter names too with no word
broken, 50 tables taking turns, the board following the tables by itself, the clock and the
round timer the organiser starts on the night's page, and a closed night standing still.

`E2E_DOCS=1` also saves the README's pictures into docs/ (league-projector-<width>.png).
"""

import datetime
import os
import random
import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from leagues import services
from leagues.demo import round_entry
from leagues.models import ClubNight, League, LeagueGame
from leagues.public import projector
from leagues.public.board_names import short_name
from scorekeeper import engine
from scorekeeper.games.demo_rounds import random_game
from scorekeeper.rounds.confirmation import round_confirm
from scorekeeper.rounds.services import round_record
from tests.helpers.browser import sign_in
from tests.helpers.journeys import assert_fits, settled
from tests.helpers.leagues import UserFactory, members

DOCS = Path(__file__).resolve().parents[2] / "docs"
PROJECTOR = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}

FIRST = [
    "Ana-María", "José", "Zoë", "Chloé", "Margaret", "Nguyễn", "Søren", "Björn", "Fatima",
    "Mehmet", "Aoife", "Renée", "Tomás", "Kofi", "Łukasz", "Dev", "Ingrid", "Pablo", "Yuki",
    "Olusegun", "Siobhán", "Hamid", "Brigitte", "Rahul", "Eleanor", "Matteo", "Grace", "Kwame",
    "Astrid", "Luis", "Mei", "Declan", "Priya", "Henrik", "Amara", "Jonas", "Rosa", "Tariq",
    "Helga", "Sam",
]  # fmt: skip
LAST = [
    "Pérez", "Martínez", "Clarke", "Dubois", "O'Brien", "Lan", "Nielsen", "Larsson", "Haddad",
    "Yılmaz", "Byrne", "Lefèvre", "Ó Briain", "Mensah", "Nowak", "Patel", "Berg", "Ruiz",
    "Tanaka", "Adeyemi",
]  # fmt: skip


def names(count: int) -> list[str]:
    """`count` different plausible names, accents and all."""
    return [
        f"{FIRST[n % len(FIRST)]} {LAST[(n // len(FIRST) * 7 + n) % len(LAST)]}"
        for n in range(count)
    ]


LONG_FIRST = [
    "Abigail", "Bartholomew", "Cornelius", "Dorothea", "Evangeline", "Frederick", "Gwendolyn",
    "Hildegard", "Isadora", "Jonathan", "Katharina", "Leopold", "Maximilian", "Nathaniel",
    "Octavia", "Penelope", "Quentin", "Rosalind", "Wilhelmina", "Theodora",
]  # fmt: skip
LONG_PARTS = [
    "Fairweather", "Montgomery", "Ashworth", "Pemberton", "Blackwood", "Worthington",
    "Carrington", "Whitmore", "Kensington", "Harrington", "Wellesley", "Thornbury", "Rutherford",
    "Beauchamp", "Fitzwilliam", "Hargreaves", "Lockhart", "Sinclair", "Waverley", "Cavendish",
]  # fmt: skip


def long_names(count: int) -> list[str]:
    """`count` different names of exactly 30 characters, a first name and a double-barrelled
    surname each: "Abigail Fairweather-Montgomery"."""
    found = []
    for n in range(count):
        first = LONG_FIRST[n % len(LONG_FIRST)]
        surnames = sorted(
            f"{a}-{b}"
            for a in LONG_PARTS
            for b in LONG_PARTS
            if a != b and len(f"{first} {a}-{b}") == 30
        )
        found.append(f"{first} {surnames[n // len(LONG_FIRST) * 7 % len(surnames)]}")
    assert len(set(found)) == count and {len(name) for name in found} == {30}
    return found


def play(league_game: LeagueGame, rounds: int | None, rng: random.Random) -> None:
    """Score the table's game as its phone would, from its next round: up to `rounds` rounds,
    or to the end with None; the other side confirms each round on its own phone."""
    game = league_game.game
    sides = [side.name for side in game.sides.order_by("position")]
    planned = random_game(engine.resolve_rules(game.rules), sides, rng=rng)
    done = game.rounds.count()
    for number, round_ in enumerate(planned[done:rounds], start=done + 1):
        ended_by, entry = round_entry(round_)
        round_record(game=game, number=number, ended_by=ended_by, entry=entry, phone="scorer")
        round_confirm(game=game, number=number, version=None, phone="other-side")


def seated_night(league: League, date: datetime.date, players: list, tables: int) -> ClubNight:
    """A night with `tables` tables of two partnerships, every game started."""
    night = services.night_create(
        league=league, date=date, player_ids=[p.pk for p in players[: 4 * tables]], user=None
    )
    services.night_seating_set(
        night=night,
        choices=[
            services.SeatChoice(p.pk, n // 4 + 1, n % 4 // 2)
            for n, p in enumerate(players[: 4 * tables])
        ],
        user=None,
    )
    services.night_games_start(night=night, user=None)
    return night


def club(tables: int, named=names) -> tuple[League, ClubNight]:
    """The Riverside Card Club playing Four Rounds in partnerships: last week's night finished
    (the standings), tonight's `tables` tables mid-evening: a few finished, most playing, one
    voided. Its members' names are `named`'s."""
    rng = random.Random(17)
    league = services.league_create(
        name="Riverside Card Club",
        slug="riverside",
        preset="four-rounds",
        play=League.Play.TEAMS,
        user=UserFactory(username="olive"),
    )
    today = timezone.localdate()
    services.season_create(
        league=league,
        name="Autumn season",
        starts_on=today - datetime.timedelta(days=30),
        ends_on=today + datetime.timedelta(days=60),
        user=None,
    )
    players = list(members(league, *named(4 * tables)).values())
    last_week = seated_night(league, today - datetime.timedelta(days=7), players, min(tables, 8))
    for game in last_week.games.select_related("game"):
        play(game, None, rng)
    night = seated_night(league, today, rng.sample(players, len(players)), tables)
    for game in night.games.select_related("game").order_by("table"):
        if game.table % 7 == 1:
            play(game, None, rng)
        elif game.table % 7 != 0:
            play(game, 1 + game.table % 3, rng)
    voided = night.games.get(table=min(tables, 5))
    services.game_void(league_game=voided, reason="Misdeal", user=None)
    return league, night


def address(night: ClubNight) -> str:
    return f"/leagues/{night.league.slug}/nights/{night.pk}/projector/"


@pytest.fixture
def screen(browser, browser_context_args, journey):
    """A new browser window of the given size (not the phone the other journeys use)."""
    opened = []

    def open_screen(size: dict, *, javascript: bool = True) -> Page:
        settings = {**browser_context_args, "is_mobile": False, "has_touch": False}
        context = browser.new_context(
            **{**settings, "viewport": size}, java_script_enabled=javascript
        )
        opened.append(context)
        return journey.watch(context.new_page(), f"{size['width']} px")

    yield open_screen
    for context in opened:
        context.close()


def overflow(page: Page) -> tuple[int, int]:
    """How far the page runs past the screen, across and down, in CSS pixels."""
    return page.evaluate(
        """() => [
            document.documentElement.scrollWidth - window.innerWidth,
            document.documentElement.scrollHeight - window.innerHeight,
        ]"""
    )


def outside(page: Page) -> list[str]:
    """The cards, headings and standings rows not wholly on the screen."""
    return page.evaluate(
        """() => [...document.querySelectorAll("h1, h2, .card, .top tr")].filter(element => {
            const box = element.getBoundingClientRect();
            return box.left < 0 || box.top < 0 || box.right > window.innerWidth
                || box.bottom > window.innerHeight;
        }).map(element => element.textContent.trim().slice(0, 40))"""
    )


def docs_picture(page: Page, name: str) -> None:
    # Only on request: the board shows the clock, so every run would change the pictures.
    if os.environ.get("E2E_DOCS") == "1":
        page.screenshot(path=DOCS / name, full_page=False, caret="initial")


@pytest.fixture
def quick(monkeypatch):
    """Refresh every second, so the test need not wait 20."""
    monkeypatch.setattr(projector, "REFRESH_SECONDS", 1)


def test_twenty_tables_and_the_standings_fit_a_1920_projector_and_follow_the_night(
    db, screen, journey, quick
):
    league, night = club(20)
    page = screen(PROJECTOR)

    page.goto(journey.url(address(night)))

    cards = page.locator(".card")
    expect(cards).to_have_count(20)
    expect(page.locator(".top tbody tr")).to_have_count(10)
    assert overflow(page) == [0, 0]
    assert outside(page) == []
    journey.check(page, "projector-1920")
    docs_picture(page, "league-projector-1920.png")

    # A round saved at a playing table shows on the board without anyone touching it.
    playing = night.games.select_related("game").filter(game__finished=False, voided=False)
    table = playing.order_by("table").first()
    card = cards.nth(table.table - 1)
    before = card.locator(".total").all_inner_texts()
    played = table.game.rounds.count()
    play(table, played + 1, random.Random(3))
    table.game.refresh_from_db()
    totals = [side.total for side in table.game.sides.all()]
    # The side ahead is starred, once the game is over too (Four Rounds ends at round 4).
    after = [
        ("★" if total == max(totals) and totals.count(total) == 1 else "")
        + f"{total:,}".replace("-", "\N{MINUS SIGN}")
        for total in totals
    ]
    assert after != before
    expect(card.locator(".total")).to_have_text(after)
    expect(card.locator(".rounds")).to_contain_text(f"{played + 1} rounds")
    assert outside(page) == []


def small_screen(screen, journey, size: dict) -> Page:
    _, night = club(20)
    services.night_timer_start(night=night, minutes=45, user=None)
    page = screen(size)
    page.goto(journey.url(address(night)))
    expect(page.locator(".card")).to_have_count(20)
    assert overflow(page)[0] == 0
    journey.check(page, f"projector-{size['width']}")
    docs_picture(page, f"league-projector-{size['width']}.png")
    return page


def test_on_a_laptop_the_board_fits_the_screen_as_on_the_projector(db, screen, journey, quick):
    page = small_screen(screen, journey, LAPTOP)

    # 16:10 and landscape: the board is sized to the screen, all 20 tables on it.
    assert overflow(page) == [0, 0]
    assert outside(page) == []
    # So is a small projector's 1280×720.
    page.set_viewport_size({"width": 1280, "height": 720})
    assert overflow(page) == [0, 0]
    assert outside(page) == []


def test_on_a_phone_the_board_is_a_page_that_scrolls_down_only(db, screen, journey, quick):
    page = small_screen(screen, journey, PHONE)

    # One card under another, then the standings; nothing runs off to the side.
    assert overflow(page)[1] > 0
    boxes = page.locator(".card, .top").evaluate_all(
        "elements => elements.map(e => e.getBoundingClientRect()).map(b => [b.left, b.right])"
    )
    assert all(left >= 0 and right <= PHONE["width"] for left, right in boxes)


def test_fifty_tables_take_turns_on_the_projector(db, screen, journey, quick):
    _, night = club(50)
    page = screen(PROJECTOR)

    page.goto(journey.url(address(night)))

    heading = page.get_by_role("heading", level=2).first
    expect(heading).to_have_text("Tables 1–17 of 50")
    assert outside(page) == []
    journey.check(page, "projector-50-tables")
    # The next refresh brings the next page, and after the last the first comes round again.
    expect(heading).to_have_text("Tables 18–34 of 50", timeout=5_000)
    expect(page.locator(".card")).to_have_count(17)
    expect(heading).to_have_text("Tables 35–50 of 50", timeout=5_000)
    expect(page.locator(".card")).to_have_count(16)
    assert outside(page) == []
    expect(heading).to_have_text("Tables 1–17 of 50", timeout=5_000)


def test_without_javascript_the_projector_reloads_itself(db, screen, journey, quick):
    _, night = club(21)
    page = screen(PROJECTOR, javascript=False)

    page.goto(journey.url(address(night)))

    expect(page.get_by_role("heading", level=2).first).to_have_text("Tables 1–11 of 21")
    page.wait_for_url(f"**{address(night)}?page=2", timeout=5_000)
    expect(page.get_by_role("heading", level=2).first).to_have_text("Tables 12–21 of 21")
    journey.check(page, "projector-no-js", axe=False)


def test_a_closed_night_shows_its_final_results_and_stops_refreshing(db, screen, journey, quick):
    _, night = club(4)
    page = screen(PROJECTOR)
    # The page's timers run on Playwright's clock: in real time until the night is closed, then
    # paused, so that "no more refreshes" is shown by running the timers on, not by waiting.
    page.clock.install()

    def refresh(response) -> bool:
        return "/projector/" in response.url

    page.goto(journey.url(address(night)))
    expect(page.locator(".board-state")).to_contain_text("Live")
    # While it is open the board asks again every second.
    for _ in range(2):
        with page.expect_response(refresh):
            pass

    # The server fails twice (a restart, a timeout): the board stays as it was and keeps asking.
    failures = []

    def fail_twice(route):
        if len(failures) < 2:
            failures.append(route.request.url)
            route.fulfill(status=500, body="Server Error")
        else:
            route.continue_()

    page.route("**/projector/**", fail_twice)
    board = page.locator(".card").all_inner_texts()
    statuses = []  # a refresh already on its way when the route went in may answer 200 first
    while statuses.count(500) < 2:
        with page.expect_response(refresh) as answered:
            pass
        statuses.append(answered.value.status)
        assert len(statuses) <= 3, statuses
    with page.expect_response(lambda response: refresh(response) and response.ok):
        pass
    assert len(failures) == 2
    assert page.locator(".card").all_inner_texts() == board
    # The two refusals are all the console saw (the browser's line and htmx's, each time).
    assert len(journey.console_errors) == 4, journey.console_errors
    assert all("500" in e or "htmx:responseError" in e for e in journey.console_errors)
    journey.console_errors.clear()

    night.closed_at = timezone.now()
    night.save(update_fields=["closed_at"])

    expect(page.locator(".board-state")).to_contain_text(
        f"Closed at {timezone.localtime(night.closed_at):%H:%M} · final results", timeout=5_000
    )
    expect(page.locator("#board")).not_to_have_attribute("hx-trigger", re.compile(".*"))
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.clock.pause_at(timezone.now() + datetime.timedelta(minutes=1))
    page.clock.run_for(10_000)
    page.evaluate("1")  # a round trip: a request the timers made has been reported by now
    assert asked == []
    page.clock.resume()  # axe-core, in the check, waits on timers of its own
    journey.check(page, "projector-closed")


# -- 30-letter names, the clock and the round timer ----------------------------------------------

# Each word of each name on the board (cards and standings) cut where a line may break: at a
# space, or after a hyphen. A piece whose text boxes sit on two lines was broken mid-word.
BROKEN_WORDS = """() => [...document.querySelectorAll(".card .name, .top .name")]
  .flatMap((name) => {
    const text = name.firstChild;
    const pieces = [...text.textContent.matchAll(/[^\\s-]+-?/g)];
    const broken = pieces.filter((piece) => {
        const range = document.createRange();
        range.setStart(text, piece.index);
        range.setEnd(text, piece.index + piece[0].length);
        const lines = new Set([...range.getClientRects()].filter((box) => box.width > 0)
            .map((box) => Math.round(box.top)));
        return lines.size > 1;
    }).map((piece) => piece[0]);
    return broken.length ? [`${text.textContent}: ${broken.join(" ")}`] : [];
})"""

# Each name on the board: its text, the whole name (its title, when shortened) and how many
# lines it takes.
NAMES_SHOWN = """() => [...document.querySelectorAll(".card .name, .top .name")].map((name) => {
    const range = document.createRange();
    range.selectNodeContents(name);
    const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
    return [name.textContent, name.title || name.textContent, lines.size];
})"""


def assert_board_fits(page: Page, size: dict) -> None:
    """No scrolling either way, everything on the screen and no word of a name broken."""
    height, width = page.evaluate(
        "[document.documentElement.scrollHeight, document.documentElement.scrollWidth]"
    )
    assert height <= size["height"] and width <= size["width"], (width, height)
    assert overflow(page) == [0, 0]
    assert outside(page) == []
    assert page.evaluate(BROKEN_WORDS) == []


@pytest.mark.parametrize("tables", [12, 16, 20])
def test_tables_of_thirty_letter_names_fit_a_1920_projector_with_no_word_broken(
    db, screen, journey, quick, tables
):
    _, night = club(tables, long_names)
    # The round timer running too: the board's header at its fullest.
    services.night_timer_start(night=night, minutes=90, user=None)
    page = screen(PROJECTOR)

    page.goto(journey.url(address(night)))

    expect(page.locator(".card")).to_have_count(tables)
    expect(page.locator(".timer-left")).to_have_text(re.compile(r"^1:[23][0-9]:[0-5][0-9]$"))
    expect(page.locator(".top tbody tr")).to_have_count(10)
    assert_board_fits(page, PROJECTOR)
    # Every name is as board_names shortens it to a card's 25 characters (the standings'
    # column too): the first name an initial, the double-barrelled surname whole.
    shown = page.evaluate(NAMES_SHOWN)
    assert len(shown) == 4 * tables + 10
    for text, whole, _ in shown:
        assert len(whole) == 30
        assert text == short_name(whole, 25) == f"{whole[0]}. {whole.split(' ', 1)[1]}"
    # On the cards each name has its line: none wraps, even at its hyphen.
    assert [text for text, _, lines in shown[: 4 * tables] if lines != 1] == []
    journey.check(page, f"projector-{tables}-long-names")

    # The clock, large, in the top right corner, and the timer beside it as large (measured
    # in one go: the board is swapped for a fresh one every second here).
    expect(page.locator(".clock")).to_have_text(re.compile(r"^The time: [0-2][0-9]:[0-5][0-9]$"))
    clock, timer = page.evaluate(
        """() => [".clock", ".timer-left"].map((selector) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return {left: box.left, right: box.right, top: box.top, height: box.height};
        })"""
    )
    assert clock["top"] < 100 and clock["right"] > PROJECTOR["width"] - 100
    assert clock["height"] >= 60
    assert timer["top"] < 100 and timer["height"] >= 60
    assert timer["right"] < clock["left"]

    # A small projector's 1280×720: the same board, smaller.
    page.set_viewport_size({"width": 1280, "height": 720})
    assert_board_fits(page, {"width": 1280, "height": 720})


def clock_now() -> str:
    return f"{timezone.localtime():%H:%M}"


def left_seconds(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


# How far the right edges of a night card's totals are from one another.
TOTALS_SPREAD = """() => [...document.querySelectorAll(".night-table")].map((card) => {
    const rights = [...card.querySelectorAll(".side-total")]
        .map((total) => total.getBoundingClientRect().right);
    return Math.max(...rights) - Math.min(...rights);
})"""


def test_the_organiser_starts_a_round_timer_on_the_nights_page_and_the_projector_counts_down(
    db, screen, journey, quick
):
    _, night = club(4, long_names)
    path = f"/leagues/{night.league.slug}/nights/{night.pk}/"
    board = screen(PROJECTOR)
    before = clock_now()
    board.goto(journey.url(address(night)))
    # The time now, in the site's zone as the server tells it; no timer yet.
    clock = board.locator("time[data-clock]")
    expect(clock).to_have_text(re.compile(r"^[0-2][0-9]:[0-5][0-9]$"))
    assert clock.inner_text() in {before, clock_now()}
    expect(board.locator(".round-timer")).to_have_count(0)

    laptop = screen(LAPTOP)
    sign_in(laptop, journey, "olive", path)
    # The night's page: each table's totals in one column, the winner's among them.
    winners = laptop.locator(".night-table .winner .side-total")
    assert winners.count() > 0
    settled(laptop)
    assert laptop.evaluate(TOTALS_SPREAD) == [0] * 4
    assert_fits(laptop)
    journey.check(laptop, "night-1280")

    # A length out of range is refused beside the field, with what was typed.
    minutes = laptop.get_by_label("Length, in minutes")
    minutes.fill("0")
    laptop.get_by_role("button", name="Start the round timer").click()
    expect(laptop.get_by_role("alert")).to_have_text(
        "Type the round timer's length as a whole number of minutes from 1 to 180."
    )
    expect(minutes).to_have_value("0")
    expect(minutes).to_have_attribute("aria-invalid", "true")
    journey.check(laptop, "night-timer-refused")

    minutes.fill("15")
    laptop.get_by_role("button", name="Start the round timer").click()
    expect(laptop).to_have_url(journey.url(path))
    expect(laptop.locator("main").get_by_role("status")).to_contain_text(
        "The round timer is running: 15 minutes"
    )
    expect(laptop.get_by_role("button", name="Stop the round timer")).to_be_visible()
    journey.check(laptop, "night-timer-running")

    # The projector's next refresh brings the timer, counted down to the second.
    left = board.locator(".timer-left")
    expect(left).to_have_text(re.compile(r"^1[45]:[0-5][0-9]$"), timeout=5_000)
    night.refresh_from_db()
    ends = f"{timezone.localtime(night.timer_ends_at):%H:%M}"
    expect(board.locator(".timer-label")).to_have_text(f"Round timer ends {ends}")
    first = left_seconds(left.inner_text())
    board.wait_for_timeout(2_100)
    assert 1 <= first - left_seconds(left.inner_text()) <= 4
    assert_board_fits(board, PROJECTOR)
    journey.check(board, "projector-timer")

    # The timer runs out: the board says Time.
    night.timer_ends_at = timezone.now() - datetime.timedelta(seconds=1)
    night.save(update_fields=["timer_ends_at"])
    expect(left).to_have_text("Time", timeout=5_000)
    expect(board.locator(".round-timer")).to_have_class("round-timer out")
    expect(board.locator(".timer-label")).to_contain_text("Round timer ended")
    journey.check(board, "projector-time")

    # On the organiser's phone, the night's page says so and stops it.
    phone = screen(PHONE)
    sign_in(phone, journey, "olive", path)
    expect(phone.locator(".timer-state")).to_contain_text("Ran out at")
    settled(phone)
    assert phone.evaluate(TOTALS_SPREAD) == [0] * 4
    assert_fits(phone)
    journey.check(phone, "night-360")
    phone.get_by_role("button", name="Stop the round timer").click()
    expect(phone.locator("main").get_by_role("status")).to_have_text(
        "The round timer is stopped; the projector no longer shows it."
    )
    expect(board.locator(".round-timer")).to_have_count(0, timeout=5_000)


def test_without_javascript_the_projector_shows_when_the_timer_ends(db, screen, journey, quick):
    _, night = club(3)  # table 2 still playing: the night is open
    services.night_timer_start(night=night, minutes=20, user=None)
    night.refresh_from_db()
    page = screen(PROJECTOR, javascript=False)

    page.goto(journey.url(address(night)))

    ends = f"{timezone.localtime(night.timer_ends_at):%H:%M}"
    expect(page.locator(".timer-label")).to_have_text(f"Round timer ends {ends}")
    expect(page.locator(".timer-left")).to_have_text(re.compile(r"^(19|20) min$"))
    expect(page.locator("time[data-clock]")).to_have_text(re.compile(r"^[0-2][0-9]:[0-5][0-9]$"))
    journey.check(page, "projector-timer-no-js", axe=False)
