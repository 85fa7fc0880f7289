"""Issue 17: every league page fits a phone held upright (360×740) and a laptop (1280×800) with
nothing to scroll sideways, and the standings show their ranking column without scrolling.

The pages are found by walking the URL patterns of leagues/urls.py (and the organiser's, which it
includes), so a page added later is measured too; a pattern whose parameters this test does not
know how to fill from the demo league fails it, rather than going unmeasured.

`E2E_DOCS=1` also saves the standings screenshots of docs/leagues.md into docs/.
"""

import os
from dataclasses import dataclass

import pytest
from django.urls import URLPattern, URLResolver, reverse
from playwright.sync_api import Page, expect

from leagues import demo, urls
from leagues.models import League, LeagueGame
from tests.helpers.journeys import assert_fits
from tests.helpers.paths import DOCS

SCREENS = {"phone": (360, 740), "laptop": (1280, 800)}
# Files, not pages: nothing to lay out in a window.
DOWNLOADS = (".pdf", ".csv")
# The pages that show the standings, and so must show the ranking column without scrolling.
RANKED = {"detail", "standings", "season_standings"}


@dataclass(frozen=True)
class Route:
    name: str
    route: str
    params: tuple[str, ...]


def league_routes(patterns=urls.urlpatterns, prefix: str = "") -> list[Route]:
    """Every named pattern under /leagues/, the organiser's included, with its parameters."""
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += league_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            route = prefix + str(pattern.pattern)
            found.append(Route(pattern.name, route, tuple(pattern.pattern.converters)))
    return found


def parameters(league: League) -> dict[str, dict[str, object]]:
    """What fills each parameter, from the demo league: its latest open club night and that
    night's season, a member who has played, a counted game (and the voided one, for the page
    that lifts a void)."""
    nights = league.nights.order_by("-date")
    # An open night: the organiser's pages of a closed one may send the organiser elsewhere.
    night = nights.filter(closed_at__isnull=True).first() or nights.first()
    counted = LeagueGame.objects.filter(league=league, voided=False).order_by("-pk").first()
    voided = LeagueGame.objects.filter(league=league, voided=True).first()
    player = league.participations.filter(counted=True).order_by("player__name").first().player
    common = {
        "slug": league.slug,
        "season_id": night.season_id,
        "night_id": night.pk,
        "player_id": player.pk,
        "league_game_id": counted.pk,
    }
    return {
        "*": common,
        "game_unvoid": {**common, "league_game_id": voided.pk},
        # Post only (its Remove button is on the adjustments page): the demo has none to remove,
        # and a GET answers 405 whatever the number.
        "adjustment_remove": {**common, "adjustment_id": 1},
    }


def league_pages(league: League) -> list[tuple[str, str]]:
    """(pattern name, path) of every league page; fails naming any pattern it cannot fill."""
    values = parameters(league)
    pages, unknown = [], []
    for route in league_routes():
        if route.route.endswith(DOWNLOADS):
            continue
        filled = values.get(route.name, values["*"])
        missing = [name for name in route.params if name not in filled]
        if missing:
            unknown.append(f"{route.route} ({route.name}): {', '.join(missing)}")
            continue
        kwargs = {name: filled[name] for name in route.params}
        pages.append((route.name, reverse(f"leagues:{route.name}", kwargs=kwargs)))
    if unknown:
        pytest.fail(
            "tests/e2e/test_league_layout.py does not know how to fill these league URL "
            "parameters from the demo data, so their pages go unmeasured; add them to "
            "parameters(): " + "; ".join(unknown)
        )
    # The standings sorted on another column (the # stays the rank), as a visitor's link leaves it.
    standings = next(path for name, path in pages if name == "season_standings")
    pages.append(("season_standings", f"{standings}?sort=name&order=asc"))
    closed = league.nights.filter(closed_at__isnull=False).order_by("-date").first()
    if closed is not None:
        pages.append(("night", reverse("leagues:night", args=[league.slug, closed.pk])))
    return pages


@pytest.fixture
def riverside(demo_leagues) -> League:
    return League.objects.get(slug=demo.RIVERSIDE)


@pytest.fixture
def window(browser, browser_context_args):
    """A browser window of one of the SCREENS: a phone (touch, mobile) or a laptop."""
    opened = []

    def open_window(screen: str):
        width, height = SCREENS[screen]
        phone = screen == "phone"
        args = {**browser_context_args, "viewport": {"width": width, "height": height}}
        context = browser.new_context(**{**args, "is_mobile": phone, "has_touch": phone})
        opened.append(context)
        return context

    yield open_window
    for context in opened:
        context.close()


def sign_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill(demo.ORGANISER)
    page.get_by_label("Password").fill(demo.ORGANISER_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


# Whether the element shows whole in the window and in its table's scrolling box, on top (not
# under the sticky rank and player), once the window is scrolled down to it but never sideways.
SHOWN_WITHOUT_SCROLLING = """(element) => {
    window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 200);
    const box = element.getBoundingClientRect();
    const wrap = element.closest(".table-wrap");
    const frame = wrap ? wrap.getBoundingClientRect() : {left: 0, right: window.innerWidth};
    const hit = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
    return {
        inWindow: box.left >= 0 && box.right <= document.documentElement.clientWidth,
        inBox: box.left >= frame.left && box.right <= frame.right + 0.5,
        onTop: hit !== null && element.contains(hit),
        scrolledSideways: wrap ? wrap.scrollLeft : 0,
        text: element.innerText.trim(),
    };
}"""


def assert_ranking_column_shown(page: Page) -> None:
    """The League points header and the first rows' league points show without scrolling."""
    header = page.locator("#standings-table thead th", has_text="League points")
    cells = page.locator("#standings-table tbody td.total")
    expect(header).to_have_count(1)
    assert cells.count() >= 3, page.url
    for element in [header, *(cells.nth(n) for n in range(3))]:
        shown = element.evaluate(SHOWN_WITHOUT_SCROLLING)
        assert shown == {
            "inWindow": True,
            "inBox": True,
            "onTop": True,
            "scrolledSideways": 0,
            "text": shown["text"],
        }, f"{page.url}: {shown}"


# Where the text of the Player header starts and its first name starts; where the text of the
# League points header ends and its first figure ends (the ▼ of a sorted column counts as text).
TEXT_EDGES = """() => {
    const text = (element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return range.getBoundingClientRect();
    };
    const table = document.querySelector("#standings-table");
    const points = [...table.querySelectorAll("thead th")]
        .find((th) => th.textContent.includes("League points"));
    return {
        player: [text(table.querySelector("thead th.player")).left,
                 text(table.querySelector("tbody th.player a")).left],
        points: [text(points).right, text(table.querySelector("tbody td.total")).right],
    };
}"""


def assert_headers_line_up(page: Page) -> None:
    """The Player header starts where the names do; League points ends where its figures do."""
    edges = page.evaluate(TEXT_EDGES)
    for column, (header, cell) in edges.items():
        assert abs(header - cell) < 1, f"{page.url}: {column} header at {header}, cells at {cell}"


def names(rows) -> list[str]:
    return rows.locator("th.player").all_inner_texts()


def docs_picture(page: Page, name: str) -> None:
    # Only on request, so that an ordinary run never rewrites the committed pictures.
    if os.environ.get("E2E_DOCS") != "1":
        return
    # From the season switcher down: the table as a reader scrolls to it.
    top = page.get_by_role("navigation", name="Seasons").bounding_box()["y"]
    page.evaluate("(y) => window.scrollTo(0, y)", top - 16)
    page.screenshot(path=DOCS / f"{name}.png", caret="initial")


def every_league_page_fits(screen: str, riverside, live_server, window, journey) -> None:
    """Every league page, signed in as the organiser, fits the screen; the standings show their
    ranking column without scrolling, headers over their cells."""
    width, _ = SCREENS[screen]
    page = journey.watch(window(screen).new_page(), screen)
    pages = league_pages(riverside)
    sign_in(page, live_server.url)
    # The Baskets ladder scores on total points: the widest figures of the demo.
    ladder = League.objects.get(slug=demo.LADDER)
    pages += [
        ("standings", reverse("leagues:standings", args=[ladder.slug])),
        ("detail", reverse("leagues:detail", args=[ladder.slug])),
    ]

    too_wide, measured = [], 0
    for number, (name, path) in enumerate(pages, start=1):
        # An action that only takes a POST is not a page; asked first, not opened, because
        # Chromium shows its empty 405 answer as an error page and logs the refusal.
        if page.request.get(live_server.url + path).status == 405:
            continue
        response = page.goto(live_server.url + path)
        assert response is not None, path
        assert response.status == 200, (path, response.status)
        measured += 1
        page.wait_for_load_state("load")
        page.screenshot(path=journey.folder / f"{number:02d}-{name}.png", full_page=True)
        try:
            assert_fits(page)
        except AssertionError as error:
            too_wide.append(str(error))
        if name in RANKED:
            assert_ranking_column_shown(page)
            assert_headers_line_up(page)
    assert not too_wide, "\n".join(too_wide)
    assert measured >= 24, f"only {measured} league pages measured"

    page.goto(live_server.url + reverse("leagues:standings", args=[riverside.slug]))
    docs_picture(page, f"league-standings-{width}")


# A test each, not one parametrised: each has its journey folder of screenshots to look at.
def test_every_league_page_fits_a_phone(riverside, live_server, window, journey):
    every_league_page_fits("phone", riverside, live_server, window, journey)


def test_every_league_page_fits_a_laptop(riverside, live_server, window, journey):
    every_league_page_fits("laptop", riverside, live_server, window, journey)


@pytest.mark.parametrize("screen", SCREENS)
def test_sorting_the_standings_keeps_the_ranking_column_in_view(
    screen, riverside, live_server, window, journey
):
    width, _ = SCREENS[screen]
    page = journey.watch(window(screen).new_page(), screen)
    url = live_server.url + reverse("leagues:standings", args=[riverside.slug])
    page.goto(url)
    rows = page.locator("#standings-table tbody tr")
    ranks_before = dict(zip(names(rows), rows.locator("td.rank").all_inner_texts(), strict=True))

    # Through htmx: the table alone is swapped, the address follows.
    page.locator("#standings-table thead").get_by_role("link", name="Player").click()
    expect(page).to_have_url(f"{url}?sort=name&order=asc")
    expect(page.locator("#standings-table th[aria-sort='ascending']")).to_contain_text("Player")

    assert_fits(page)
    assert_ranking_column_shown(page)
    # A to Z now, each player keeping the rank the standings give them.
    assert names(rows) == sorted(ranks_before, key=str.casefold)
    assert dict(zip(names(rows), rows.locator("td.rank").all_inner_texts(), strict=True)) == (
        ranks_before
    )
    journey.check(page, f"sorted-by-name-{width}")

    # The league page's top ten: the same table, not sortable; axe-core checks it too.
    page.goto(live_server.url + reverse("leagues:detail", args=[riverside.slug]))
    assert_ranking_column_shown(page)
    journey.check(page, f"league-{width}")


def test_assert_fits_names_what_makes_a_page_too_wide(window):
    page = window("phone").new_page()
    page.set_content(
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<body style="margin:0"><p>fits</p><div id="wide" style="width:505px">1100.0</div></body>'
    )

    with pytest.raises(AssertionError) as refused:
        assert_fits(page)

    assert str(refused.value).endswith(
        "is 505 px wide in a 360 px window; sticking out: div#wide to 505 px"
    )
