"""The projector view of a club night on the room's screen: 20 tables and the top of the
standings at once on a 1920×1080 projector, 50 tables taking turns, the board following the
tables by itself, and a closed night standing still.

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
from scorekeeper import engine
from scorekeeper.games.demo_rounds import random_game
from scorekeeper.rounds.services import round_record
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


def play(league_game: LeagueGame, rounds: int | None, rng: random.Random) -> None:
    """Score the table's game as its phone would, from its next round: up to `rounds` rounds,
    or to the end with None."""
    game = league_game.game
    sides = [side.name for side in game.sides.order_by("position")]
    planned = random_game(engine.resolve_rules(game.rules), sides, rng=rng)
    done = game.rounds.count()
    for number, round_ in enumerate(planned[done:rounds], start=done + 1):
        ended_by, entry = round_entry(round_)
        round_record(game=game, number=number, ended_by=ended_by, entry=entry)


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


def club(tables: int) -> tuple[League, ClubNight]:
    """The Riverside Card Club playing Four Rounds in partnerships: last week's night finished
    (the standings), tonight's `tables` tables mid-evening: a few finished, most playing, one
    voided."""
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
    players = list(members(league, *names(4 * tables)).values())
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
