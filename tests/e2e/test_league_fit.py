"""Issue 30: every league page fits real names and real clubs.

- The standings of a league of 200 players, each with a 30-character name and a season of about
  400 games: at 1280×800 every header shows whole inside the table's box (nothing clipped, no
  column to scroll to); at 360×740 rank, player, league points and games show whole and the rest
  scroll inside the table's own box. Head to head at 1280 the same, for a player with a
  30-character name against opponents with such names.
- The organiser's seating page of a night of 24 members at 6 tables, on a phone: its actions
  (propose, start, a late arrival) come before the first table, each table folded to one
  summary naming its players, and the page's height is measured and bounded.

The league is written in bulk (as bench/seeding.py writes its own; a test may not import bench/):
500 games of four, ten a player; then the kept standings are multiplied by 40 (games, wins,
ties, losses, points), so that each row reads as after 400 games (3 digits of games, 7 of
points), the figures bench/standings.py's 20,000 games give, without writing 80,000 rows.

`pytest -s` prints the figures measured (table and box widths, heights).
"""

import datetime
import random
import re

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from leagues import services
from leagues.models import (
    ClubNight,
    League,
    LeagueGame,
    Membership,
    Participation,
    Player,
    Standing,
)
from scorekeeper.models import Game
from tests.helpers.browser import sign_in
from tests.helpers.journeys import assert_fits, small_targets
from tests.helpers.leagues import PASSWORD, UserFactory

SCREENS = {"phone": (360, 740), "laptop": (1280, 800)}
# Names of three parts, each combination exactly 30 characters long, as a club's register spells
# them (accents, hyphens, apostrophes and a particle or two).
FIRST = [
    "Bartholomew", "Anne-Charlotte", "Maximilian", "Oluwaseun", "Guðmundur", "Przemysław",
    "Alexandra", "Christopher", "Marguerite", "Konstantin", "Evangeline", "Sebastián",
    "Nkechinyere", "Wilhelmina", "Jean-Baptiste", "Siobhán", "Aleksandra", "Theodora",
    "Friedrich", "Dominique",
]  # fmt: skip
MIDDLE = [
    "Rose", "James", "Maria", "Louis", "Anne", "José", "Eliza", "Marie", "Paul", "Ines", "Kai",
    "Zoë", "Ugo", "Åsa", "Lee",
]  # fmt: skip
LAST = [
    "Featherstonehaugh", "Vanderbilt-Montgomery", "Sánchez de la Fuente", "Papadopoulou",
    "O'Callaghan-Fitz", "Wojciechowski", "Montgomery-Smythe", "Van der Westhuizen",
    "Abernathy-Clarke", "Hämäläinen", "Oyelaran-Adeyemi", "Castellanos", "Nakamura-Brown",
    "Szczepańska", "Łukasiewicz", "Fitzwilliam", "Thorsteinsdóttir", "MacGillivray",
    "Delacroix-Moreau", "Kowalczyk",
]  # fmt: skip
# A real surname of 30 letters with no space to wrap at: it must break inside the name's cell.
ONE_WORD = "Wolfeschlegelsteinhausenberger"
GAMES_EACH = 10
SCALE = 40  # 10 games a player, read as 400


def long_names(count: int, rng: random.Random) -> list[str]:
    """`count` different names of exactly 30 characters, the one-word surname first."""
    every = [f"{f} {m} {last}" for f in FIRST for m in MIDDLE for last in LAST]
    names = [ONE_WORD, *rng.sample([n for n in every if len(n) == 30], count - 1)]
    assert all(len(name) == 30 for name in names)
    return names


def seed_big_league(slug: str = "grand", *, scoring: str = League.Scoring.TOTAL) -> League:
    """A league of 200 members with 30-character names, one season, 500 counted games of two
    pairs, and its kept standings scaled to 400 games a player (see the module's docstring).
    Total-points scoring: its league points are the widest figures (the points for)."""
    rng = random.Random(30)
    organiser = UserFactory(username=f"{slug}-organiser", password=PASSWORD)
    league = services.league_create(
        name="Grand Union Hand and Foot Club",
        slug=slug,
        preset="ten-thousand",
        play=League.Play.TEAMS,
        scoring=scoring,
        user=organiser,
    )
    season = services.season_create(
        league=league,
        name="Season 2026",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        user=organiser,
    )
    players = Player.objects.bulk_create([Player(name=name) for name in long_names(200, rng)])
    # Rated: the all-time table shows the current rating, from −9.6 to 38.5.
    Membership.objects.bulk_create(
        Membership(
            league=league,
            player=p,
            mu=rng.uniform(14, 40),
            sigma=rng.uniform(0.5, 8),
            rated_games=GAMES_EACH,
        )
        for p in players
    )
    games = Game.objects.bulk_create(
        Game(preset="ten-thousand", rules=season.rules, finished=True)
        for _ in range(len(players) * GAMES_EACH // 4)
    )
    dates = [datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * week) for week in range(50)]
    league_games, seats = [], []
    order: list[Player] = []
    for ledger, game in enumerate(games, start=1):
        if not order:
            order = rng.sample(players, len(players))
        four, order = order[:4], order[4:]
        date = dates[(ledger - 1) * len(dates) // len(games)]
        league_games.append(
            LeagueGame(game=game, league=league, season=season, date=date, ledger=ledger)
        )
        seats.append(four)
    league_games = LeagueGame.objects.bulk_create(league_games)
    parts = []
    for league_game, four in zip(league_games, seats, strict=True):
        totals = [rng.randrange(-800, 14_000, 5), rng.randrange(-800, 14_000, 5)]
        for side in (0, 1):
            own, other = totals[side], totals[1 - side]
            for place, player in enumerate(four[2 * side : 2 * side + 2]):
                parts.append(
                    Participation(
                        league_game=league_game,
                        player=player,
                        side=side,
                        place=place,
                        league=league,
                        season=season,
                        date=league_game.date,
                        counted=True,
                        outcome="W" if own > other else "T" if own == other else "L",
                        points_for=own,
                        points_against=other,
                        mu_after=rng.uniform(14, 40),
                        sigma_after=rng.uniform(1, 8.3),
                    )
                )
    Participation.objects.bulk_create(parts, batch_size=1000)
    services.standings_refresh(league=league)
    Standing.objects.filter(league=league).update(
        **{
            field: F(field) * SCALE
            for field in ("games", "wins", "ties", "losses", "points_for", "points_against")
        }
    )
    return league


def seed_night_to_seat(slug: str = "hall", *, members: int = 25) -> ClubNight:
    """A Four Rounds league in partnerships with `members` members of 30-character names, a
    night today with all but the last present and a proposed seating (six tables of two pairs
    for 24), and the last member come late, waiting for a seat."""
    organiser = UserFactory(username=f"{slug}-organiser", password=PASSWORD)
    league = services.league_create(
        name="Town Hall Card Club",
        slug=slug,
        preset="four-rounds",
        play=League.Play.TEAMS,
        user=organiser,
    )
    today = timezone.localdate()
    services.season_create(
        league=league,
        name="This season",
        starts_on=today - datetime.timedelta(days=30),
        ends_on=today + datetime.timedelta(days=60),
        user=organiser,
    )
    names = long_names(members, random.Random(24))
    people = [services.member_add(league=league, name=n, user=organiser).player for n in names]
    night = services.night_create(
        league=league, date=today, player_ids=[p.pk for p in people[:-1]], user=organiser
    )
    services.night_seating_propose(night=night, user=organiser)
    services.night_arrival(night=night, player=people[-1], user=organiser)
    return night


@pytest.fixture
def window(browser, browser_context_args, live_server):
    """A browser window of one of the SCREENS (a phone: touch, mobile), in large text if asked
    (the Display page's cookie)."""
    opened = []

    def open_window(screen: str, *, large: bool = False, javascript: bool = True):
        width, height = SCREENS[screen]
        phone = screen == "phone"
        args = {**browser_context_args, "viewport": {"width": width, "height": height}}
        context = browser.new_context(
            **{**args, "is_mobile": phone, "has_touch": phone, "java_script_enabled": javascript}
        )
        if large:
            context.add_cookies(
                [{"name": "display", "value": "text=large", "url": live_server.url}]
            )
        opened.append(context)
        return context

    yield open_window
    for context in opened:
        context.close()


# The header cells of the table `selector` finds, each with whether it shows whole inside the
# box that scrolls it (as the page is, never scrolled sideways here) and inside the window;
# the table's width and the box's. With `rows`, the first `rows` rows' cells too.
CELLS = """([selector, rows]) => {
    const table = document.querySelector(selector);
    const box = table.closest(".table-wrap");
    const frame = box.getBoundingClientRect();
    const page = document.documentElement.clientWidth;
    const whole = (cell) => {
        const r = cell.getBoundingClientRect();
        return r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5
            && r.left >= -0.5 && r.right <= page + 0.5;
    };
    const text = (cell) => cell.innerText.replace(/\\s+/g, " ").trim();
    return {
        table: Math.round(table.getBoundingClientRect().width),
        box: box.clientWidth,
        scroll: box.scrollWidth,
        headers: [...table.querySelectorAll("thead th")].map(
            (th) => ({text: text(th), width: Math.round(th.getBoundingClientRect().width),
                      whole: whole(th)})),
        rows: [...table.querySelectorAll("tbody tr")].slice(0, rows).map(
            (tr) => [...tr.children].map((cell) => ({text: text(cell), whole: whole(cell)}))),
    };
}"""


def measure(page: Page, selector: str, rows: int = 0) -> dict:
    """The table's cells as CELLS finds them; prints the figures the report quotes."""
    found = page.evaluate(CELLS, [selector, rows])
    clipped = [cell["text"] for cell in found["headers"] if not cell["whole"]]
    print(
        f"\n{page.url} at {page.viewport_size['width']} px: {selector} is {found['table']} px in "
        f"a {found['box']} px box; headers not whole in view: {clipped or 'none'}; widths "
        + ", ".join(f"{cell['text']} {cell['width']}" for cell in found["headers"])
    )
    return found


# Where the text "=199" (a tie deep in a table of 200) would end in the first rank cell, and where
# the sticky name column begins: the rank must not run under the name.
RANK_ROOM = """() => {
    const rank = document.querySelector("#standings-table tbody td.rank");
    const kept = rank.textContent;
    rank.textContent = "=199";
    const range = document.createRange();
    range.selectNodeContents(rank);
    const found = [range.getBoundingClientRect().right,
        document.querySelector("#standings-table tbody th.player").getBoundingClientRect().left];
    rank.textContent = kept;
    return found;
}"""


def standings_paths(league: League) -> list[str]:
    season = league.seasons.get()
    return [
        reverse("leagues:standings", args=[league.slug]),
        reverse("leagues:season_standings", args=[league.slug, season.pk]),
    ]


@pytest.mark.parametrize("scoring", [League.Scoring.TOTAL, League.Scoring.MATCH])
def test_the_standings_of_200_players_fit_a_laptop_and_a_phone(
    scoring, transactional_db, live_server, window, journey
):
    league = seed_big_league(scoring=scoring)

    # A laptop: every column shows whole, nothing to scroll in the box, so no hint either.
    laptop = journey.watch(window("laptop").new_page(), "laptop")
    for path in standings_paths(league):
        laptop.goto(live_server.url + path)
        found = measure(laptop, "#standings-table table")
        assert [cell["text"] for cell in found["headers"] if not cell["whole"]] == [], path
        assert found["scroll"] <= found["box"], (path, found["scroll"], found["box"])
        expect(laptop.locator(".scroll-hint")).to_be_hidden()
        rank_end, name_start = laptop.evaluate(RANK_ROOM)
        assert rank_end <= name_start, (rank_end, name_start)
        assert_fits(laptop)
    journey.check(laptop, f"standings-{scoring}-1280")

    # A phone: rank, player, league points and games whole, headers and figures; the rest
    # scrolls in the box, and the hint says so.
    phone = journey.watch(window("phone").new_page(), "phone")
    for path in standings_paths(league):
        phone.goto(live_server.url + path)
        found = measure(phone, "#standings-table table", rows=5)
        assert [cell["text"] for cell in found["headers"][:4]] == [
            "#",
            "Player",
            "League points ▼",
            "Games",
        ]
        assert all(cell["whole"] for cell in found["headers"][:4]), found["headers"][:4]
        for row in found["rows"]:
            assert all(cell["whole"] for cell in row[:4]), row[:4]
        assert found["scroll"] > found["box"]
        expect(phone.locator(".scroll-hint")).to_be_visible()
        rank_end, name_start = phone.evaluate(RANK_ROOM)
        assert rank_end <= name_start, (rank_end, name_start)
        assert_fits(phone)
        assert small_targets(phone, 44) == []
    journey.check(phone, f"standings-{scoring}-360")


def test_head_to_head_of_30_character_names_shows_every_column_on_a_laptop(
    transactional_db, live_server, window, journey
):
    league = seed_big_league()
    season = league.seasons.get()
    # The one-word name: the longest line of the page's headings and links.
    chosen = Player.objects.get(name=ONE_WORD)
    path = reverse("leagues:head_to_head", args=[league.slug, season.pk]) + f"?player={chosen.pk}"

    laptop = journey.watch(window("laptop").new_page(), "laptop")
    laptop.goto(live_server.url + path)
    for table in ("#h2h-record table", ".h2h-section + .h2h-section table"):
        found = measure(laptop, table, rows=3)
        assert [cell["text"] for cell in found["headers"] if not cell["whole"]] == [], table
        assert found["scroll"] <= found["box"], (table, found["scroll"], found["box"])
        for row in found["rows"]:
            assert all(cell["whole"] for cell in row), row
    assert_fits(laptop)
    journey.check(laptop, "head-to-head-1280")

    # A phone: the record scrolls in its box, the page never (the name's heading breaks).
    phone = journey.watch(window("phone").new_page(), "phone")
    phone.goto(live_server.url + path)
    found = measure(phone, "#h2h-record table", rows=3)
    assert all(cell["whole"] for cell in found["headers"][:2]), found["headers"][:2]
    assert_fits(phone)
    assert small_targets(phone, 44) == []
    journey.check(phone, "head-to-head-360")


def test_large_text_keeps_the_league_tables_inside_the_page(
    transactional_db, live_server, window, journey
):
    """Large text: the tables scroll in their boxes (not every column fits 22 px text), the
    pages never scroll sideways and every tap target is at least 48 px."""
    league = seed_big_league()
    season = league.seasons.get()
    chosen = Player.objects.get(name=ONE_WORD)
    h2h = reverse("leagues:head_to_head", args=[league.slug, season.pk]) + f"?player={chosen.pk}"
    for screen in SCREENS:
        page = journey.watch(window(screen, large=True).new_page(), screen)
        for path in [*standings_paths(league), h2h]:
            page.goto(live_server.url + path)
            expect(page.locator("html")).to_have_class(re.compile(r"\blarge-text\b"))
            assert_fits(page)
            assert small_targets(page, 48) == []
        journey.check(page, f"large-head-to-head-{SCREENS[screen][0]}")


# The seating page ------------------------------------------------------------------------------

# The bound on the seating page's height at 360 px with every table folded. Measured: 2,675 px
# (it was 6,238 px with every table's fields shown): above the first table, the header, the
# organiser's links, the actions and the late arrival's fields take about 1,250 px; each of the
# six folded tables about 190 (five lines of four 30-character names); the save button and the
# footer the rest. 3,000 px leaves room for fonts a little wider than this machine's, and fails
# as soon as one table shows its fields (four players' rows: about 600 px).
FOLDED_HEIGHT = 3_000
# A folded table is its summary: at most five lines of names and its padding.
FOLDED_TABLE = 200


def tap_targets_under(page: Page, least: int) -> list[str]:
    """The page's tap targets under `least` px, but the form's hidden default button (1×1,
    out of the tab order and hidden from screen readers: what Enter in a table box presses)."""
    return [target for target in small_targets(page, least) if not target.endswith(" 1x1")]


def top(page: Page, locator) -> float:
    return locator.evaluate("(e) => e.getBoundingClientRect().top + window.scrollY")


def page_height(page: Page) -> int:
    return page.evaluate("() => document.documentElement.scrollHeight")


def assert_actions_first(page: Page, late: str | None) -> None:
    """Propose, start and the late arrival's table field (while they wait) come before the
    first table."""
    first_table = top(page, page.locator("fieldset.seat-table[id^='table-']").first)
    controls = [
        page.get_by_role("button", name="Propose a seating"),
        page.get_by_role("button", name="Start the games"),
    ]
    if late is not None:
        controls.append(page.get_by_label(f"Table for {late}"))
    for control in controls:
        assert top(page, control) < first_table, control


def folded(page: Page) -> list[str]:
    """The tables whose fields are folded away, by their legend."""
    return page.locator(
        "fieldset.seat-table:has(details.seat-fold:not([open])) legend"
    ).all_inner_texts()


def test_the_seating_page_puts_its_actions_first_and_folds_its_tables_on_a_phone(
    transactional_db, live_server, window, journey
):
    night = seed_night_to_seat()
    late = night.attendances.get(arrived_late=True).player.name
    path = reverse("leagues:night_seating", args=[night.league.slug, night.pk])
    page = journey.watch(window("phone").new_page(), "organiser")
    sign_in(page, journey, "hall-organiser", path)

    tables = [f"Table {n}" for n in range(1, 7)]
    assert folded(page) == tables
    assert_actions_first(page, late)
    # Each folded table is its summary: the table and its players, side by side.
    for table in page.locator("fieldset.seat-table:has(details.seat-fold)").all():
        assert table.bounding_box()["height"] <= FOLDED_TABLE
        assert re.fullmatch(
            r"Table \d Side 1: .+ & .+ · Side 2: .+ & .+",
            " ".join(table.locator("summary").inner_text().split()),
        )
    height = page_height(page)
    print(f"\nThe seating page at 360 px, every table folded: {height:,} px")
    assert height <= FOLDED_HEIGHT
    assert_fits(page)
    assert tap_targets_under(page, 44) == []
    journey.check(page, "seating-folded")

    # Two players of tables 2 and 3 change places: those two tables come back open.
    seats = {a.player.name: (a.table, a.side) for a in night.attendances.select_related("player")}
    two = next(name for name, seat in seats.items() if seat == (2, 0))
    three = next(name for name, seat in seats.items() if seat == (3, 0))
    for table in ("Table 2", "Table 3"):
        page.locator("summary", has_text=re.compile(f"^{table}")).click()
    page.get_by_label(f"Table for {two}").fill("3")
    page.get_by_label(f"Table for {three}").fill("2")
    journey.check(page, "seating-two-tables-open")
    page.get_by_role("button", name="Save the seating", exact=True).last.click()
    expect(page.get_by_text("Seating saved.")).to_be_visible()
    assert page.url.endswith(f"{path}?changed=2,3")
    assert folded(page) == ["Table 1", "Table 4", "Table 5", "Table 6"]
    expect(page.get_by_role("group", name="Table 2")).to_contain_text(three)
    expect(page.get_by_role("group", name="Table 3")).to_contain_text(two)
    assert_actions_first(page, late)
    journey.check(page, "seating-saved")

    # A table left with one side is refused beside it, and shows open; the others stay folded.
    page.goto(live_server.url + path)
    page.locator("summary", has_text=re.compile("^Table 1")).click()
    for row in page.locator("#table-1 .seat-row").all():
        row.get_by_label(re.compile("^Side for")).select_option("Side 1")
    page.get_by_role("button", name="Save the seating", exact=True).last.click()
    expect(page.locator("#table-1 .field-error")).to_contain_text("Table 1 has 1 side")
    expect(page.locator("#table-1 .field-error")).to_be_visible()
    assert folded(page) == tables[1:]
    assert_fits(page)

    # A proposal changes every table (and seats the late arrival): all of them open, the
    # actions still first.
    page.goto(live_server.url + path)
    page.get_by_role("button", name="Propose a seating").click()
    expect(page.get_by_text("Seating proposed: 6 tables.")).to_be_visible()
    assert folded(page) == []
    expect(page.locator("#sitting-out")).to_have_count(0)
    assert_actions_first(page, None)
    print(f"The seating page at 360 px, just proposed (every table open): {page_height(page):,} px")
    assert_fits(page)
    journey.check(page, "seating-proposed")

    # Start the games from the top; back on the seating page, the tables playing come last.
    page.get_by_role("button", name="Start the games").click()
    expect(page.get_by_text("Games started at tables")).to_be_visible()
    page.goto(live_server.url + path)
    expect(page.get_by_text("Everyone here is playing.")).to_be_visible()
    expect(page.locator("#playing article")).to_have_count(6)
    print(f"The seating page at 360 px, six tables playing: {page_height(page):,} px")
    assert_fits(page)
    assert tap_targets_under(page, 44) == []
    journey.check(page, "seating-playing")


def test_the_seating_page_folds_without_javascript_and_in_large_text(
    transactional_db, live_server, window, journey
):
    night = seed_night_to_seat()
    late = night.attendances.get(arrived_late=True).player.name
    path = reverse("leagues:night_seating", args=[night.league.slug, night.pk])

    # Without JavaScript a table opens (a details element) and its seats are saved.
    page = journey.watch(window("phone", javascript=False).new_page(), "no-js")
    sign_in(page, journey, "hall-organiser", path)
    assert_actions_first(page, late)
    page.locator("summary", has_text=re.compile("^Table 4")).click()
    page.get_by_label(f"Table for {late}").fill("4")
    page.get_by_role("button", name="Save the seating", exact=True).last.click()
    expect(page.get_by_text("Seating saved.")).to_be_visible()
    assert page.url.endswith(f"{path}?changed=4")
    expect(page.get_by_role("group", name="Table 4")).to_contain_text(late)
    journey.check(page, "no-js-saved", axe=False)

    # Large text on a phone: one column, no page to scroll sideways, 48 px targets.
    page = journey.watch(window("phone", large=True).new_page(), "large")
    sign_in(page, journey, "hall-organiser", path)
    expect(page.locator("html")).to_have_class(re.compile(r"\blarge-text\b"))
    assert_fits(page)
    assert tap_targets_under(page, 48) == []
    print(f"\nThe seating page at 360 px in large text, folded: {page_height(page):,} px")
    journey.check(page, "large-seating")
