"""A closed club night's results page, on a phone (360 px) and a laptop (1280 px): three tables
of 30-character names (a one-word surname among them) fit the screen, axe-core finds nothing,
every tap target is at least 44 px, a table's result and the night's best read exactly as the
night went, and the PDF link answers a PDF that says the same.

The night is built through the services (three tables seated at once, then each one's round),
so that its last table finishing closes it, as on a real night.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from leagues import services
from leagues.models import ClubNight
from tests.helpers.browser import sign_in
from tests.helpers.journeys import SCREENS, assert_fits, small_targets
from tests.helpers.leagues import PASSWORD, UserFactory, league_with, play, table_game
from tests.helpers.pdfs import pdf_words

# A real surname of 30 letters with no space to break at, and eleven names of three parts.
ONE_WORD = "Wolfeschlegelsteinhausenberger"
NAMES = [
    ONE_WORD,
    "Anne-Charlotte Zoë Featherston",
    "Bartholomew James Papadopoulou",
    "Guðmundur Åsa Thorsteinsdóttir",
    "Przemysław Marie Wojciechowski",
    "Jean-Baptiste Lee MacGillivray",
    "Siobhán Marie O'Callaghan-Fitz",
    "Oluwaseun Kai Oyelaran-Adeyemi",
    "Wilhelmina José Hämäläinen-Lee",
    "Christopher Rose Wojciechowski",
    "Sebastián James Nakamura-Brown",
    "Konstantin Rose Nakamura-Brown",
]
assert all(len(name) == 30 for name in NAMES), [n for n in NAMES if len(n) != 30]

# The sides of each table, as pairs of NAMES' indexes, and what each side scored.
TABLES = [
    ([(0, 1), (2, 3)], [1250, 300]),  # the night's highest total and widest win
    ([(4, 5), (6, 7)], [700, 850]),  # side 2 wins by 150
    ([(8, 9), (10, 11)], [600, 600]),  # a tie
]


def pair(a: int, b: int) -> str:
    return f"{NAMES[a]} & {NAMES[b]}"


@pytest.fixture
def night(transactional_db) -> ClubNight:
    """The closed night of 1 October 2026 at Thursday Club: the three TABLES, each one round;
    Anne-Charlotte has an account with an address, so the organiser may mail the results."""
    olive = UserFactory(username="olive", password=PASSWORD)
    league = league_with(olive)
    annec = UserFactory(username="annec", email="annec@example.org")
    players = [
        services.member_add(
            league=league, name=name, account=annec if i == 1 else None, user=olive
        ).player
        for i, name in enumerate(NAMES)
    ]
    games = [
        table_game(league, [[players[i] for i in side] for side in sides]) for sides, _ in TABLES
    ]
    for game, (_, totals) in zip(games, TABLES, strict=True):
        play(game, totals)
    night = games[0].night
    night.refresh_from_db()
    assert night.closed_at is not None  # the last table finishing closed it
    return night


@pytest.fixture
def screen(browser, browser_context_args, request):
    """A page of a window `request.param` px wide: a phone (touch) at 360, a laptop at 1280."""
    width, height = SCREENS[request.param]
    phone = width < 600
    context = browser.new_context(
        **{
            **browser_context_args,
            "viewport": {"width": width, "height": height},
            "is_mobile": phone,
            "has_touch": phone,
        }
    )
    yield context.new_page()
    context.close()


def side_rows(page: Page, table: int):
    return page.locator("article.night-table").nth(table - 1).locator(".table-sides li")


@pytest.mark.parametrize("screen", list(SCREENS), indirect=True)
def test_a_closed_nights_results_fit_the_screen_and_download_as_a_pdf(night, screen: Page, journey):
    page = journey.watch(screen, "organiser")
    width = page.viewport_size["width"]
    path = reverse("leagues:night_results", args=["thursday", night.pk])
    sign_in(page, journey, "olive", path)

    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Results: Club night, Thursday 1 October 2026"
    )
    # Closed: no "still open" note, and the organiser may mail the one member with an address.
    expect(page.get_by_text("the night is still open")).to_have_count(0)
    expect(page.locator(".results-mail button")).to_have_text("Send to 1 member by email")

    tables = page.locator("article.night-table")
    expect(tables.get_by_role("heading", level=3)).to_have_text(["Table 1", "Table 2", "Table 3"])
    # Each table's result: its sides and totals in order, and its note.
    expected = {
        1: ([pair(0, 1), pair(2, 3)], ["1,250", "300"], "After 1 round"),
        2: ([pair(4, 5), pair(6, 7)], ["700", "850"], "After 1 round"),
        3: ([pair(8, 9), pair(10, 11)], ["600", "600"], "A tie after 1 round"),
    }
    for number, (names, totals, note) in expected.items():
        rows = side_rows(page, number)
        expect(rows.locator(".side-players")).to_have_text(names)
        expect(rows.locator(".side-total")).to_have_text(totals)
        expect(tables.nth(number - 1).locator(".game-meta")).to_have_text(note)
    # The winners' lines (none at the tie), in bold, each with a star and ", winner" for a
    # screen reader.
    winners = page.locator(".table-sides li.winner")
    expect(winners.locator(".side-players")).to_have_text([pair(0, 1), pair(6, 7)])
    expect(winners.locator(".visually-hidden")).to_have_text([", winner", ", winner"])
    expect(page.locator(".table-sides li:not(.winner)")).to_have_count(4)

    best = page.locator("section").filter(
        has=page.get_by_role("heading", name="The night's best", exact=True)
    )
    expect(best.get_by_role("listitem")).to_have_text(
        [
            f"Highest total: {pair(0, 1)}, 1,250 at table 1.",
            f"Widest win: {pair(0, 1)}, by 950 at table 1.",
        ]
    )

    # The standings after the night: the winners of table 1 lead, all of them new this season.
    moves = page.locator("table.night-moves tbody tr")
    expect(moves).to_have_count(12)
    expect(moves.first.locator("td, th")).to_have_text(
        ["=1", "Anne-Charlotte Zoë Featherston", "–", "new", "+2"]
    )
    expect(moves.last.locator("td, th")).to_have_text(
        ["=11", "Guðmundur Åsa Thorsteinsdóttir", "–", "new", "0"]
    )

    assert_fits(page)
    assert small_targets(page, 44) == []
    journey.check(page, f"results-{width}")

    # The PDF link (the locale's own paper, A4, first) answers the same results as a PDF.
    link = page.locator(".pdf-links a.default")
    expect(link).to_have_text("A4")
    with page.expect_download() as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename == "thursday-club-night-2026-10-01-results.pdf"
    words = pdf_words(download.path().read_bytes())
    for said in (
        "Thursday Club Club night, Thursday 1 October 2026 Autumn 2026 Tables",
        f"Table 1 {pair(0, 1)} (won) 1,250 {pair(2, 3)} 300 after 1 round",
        f"Table 3 {pair(8, 9)} 600 {pair(10, 11)} 600 a tie after 1 round",
        f"Highest total: {pair(0, 1)}, 1,250 at table 1.",
        f"Widest win: {pair(0, 1)}, by 950 at table 1.",
        "=1 Anne-Charlotte Zoë Featherston new +2",
    ):
        assert said in words, (said, words)
