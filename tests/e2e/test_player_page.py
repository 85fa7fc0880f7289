"""A player's page in the demo league on a phone and a laptop: nothing wider than the screen,
the rating chart's dates apart from each other, and every rule set's figures in its own words.

With E2E_DOCS=1 the pictures the docs link (docs/league-player-360.png and -1280.png) are
redrawn; an ordinary run leaves the committed files alone.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page

from leagues import player_stats, selectors
from leagues.models import League, Membership, Player

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCREENS = {360: {"width": 360, "height": 740}, 1280: {"width": 1280, "height": 800}}
# What the picture shows: the rating, its chart and the rule sets, down to the results' start.
PICTURE_HEIGHT = {360: 1900, 1280: 1250}

WIDER_THAN_SCREEN = """() => [...document.querySelectorAll("main *")]
  .filter(e => !e.closest(".table-wrap") || e.matches(".table-wrap"))
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .map(e => e.tagName.toLowerCase() + "." + e.className)"""
DATE_LABELS = """() => [...document.querySelectorAll("svg.chart text.axis-label")]
  .filter(t => t.getAttribute("text-anchor") === "middle")
  .map(t => [t.textContent, ...["left", "right", "top"].map(k => t.getBoundingClientRect()[k])])"""


@pytest.fixture
def player(demo_leagues) -> tuple[League, int]:
    """The demo's Riverside player with the most games under both of its rule sets."""
    league = League.objects.get(slug="riverside")
    ids = Membership.objects.filter(league=league).values_list("player_id", flat=True)
    best = max(
        ids,
        key=lambda pk: (
            len(player_stats.by_ruleset(league, pk)),
            player_stats.player_game_count(league, pk),
            -pk,
        ),
    )
    return league, best


@pytest.mark.parametrize("width", [360, 1280])
def test_the_player_page_fits_the_screen_with_its_dates_apart(new_context, journey, player, width):
    league, player_id = player
    records = player_stats.by_ruleset(league, player_id)
    assert [record.name for record in records] == ["Four Rounds", "Ten Thousand"]
    page: Page = journey.watch(new_context().new_page())
    page.set_viewport_size(SCREENS[width])

    page.goto(journey.url(f"/leagues/{league.slug}/players/{player_id}/"))
    journey.check(page, f"player-{width}")

    assert page.evaluate("document.documentElement.scrollWidth") == width
    assert page.evaluate(WIDER_THAN_SCREEN) == []
    # Each wide table scrolls in its own box, if at all: none is wider than the screen.
    boxes = page.locator(".table-wrap").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().right)"
    )
    assert boxes and max(boxes) <= width
    labels = page.evaluate(DATE_LABELS)
    dates = [label for label in labels if not label[0].isdigit() or " " in label[0]]
    assert len(dates) >= 2
    rows = {}
    for text, left, right, top in labels:
        rows.setdefault(round(top), []).append((left, right, text))
    for row in rows.values():
        row.sort()
        for (_, right, text), (left, _, after) in zip(row, row[1:], strict=False):
            assert left - right >= 4, f"{text!r} and {after!r} overlap at {width} px"
    headings = page.locator(".ruleset-record h3").all_inner_texts()
    assert headings == ["Four Rounds", "Ten Thousand"]
    ten_thousand = page.locator(".ruleset-record").nth(1).inner_text()
    assert "Red canastas" in ten_thousand and "Natural canastas" not in ten_thousand
    four_rounds = page.locator(".ruleset-record").nth(0).inner_text()
    assert "Natural canastas" in four_rounds and "Red canastas" not in four_rounds

    if os.environ.get("E2E_DOCS") == "1":
        height = min(PICTURE_HEIGHT[width], page.evaluate("document.body.scrollHeight"))
        page.screenshot(
            path=DOCS / f"league-player-{width}.png",
            full_page=True,
            clip={"x": 0, "y": 0, "width": width, "height": height},
            caret="initial",
        )


def test_a_name_of_a_hundred_letters_wraps_instead_of_widening_the_page(
    new_context, journey, player
):
    league, player_id = player
    partner = selectors.partners(league, player_id)[0].other_id
    long = "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschafers"
    Player.objects.filter(pk__in=[player_id, partner]).update(name=long)
    page: Page = journey.watch(new_context().new_page())

    page.goto(journey.url(f"/leagues/{league.slug}/players/{player_id}/"))

    assert page.locator("h1").inner_text() == long
    assert page.evaluate("document.documentElement.scrollWidth") == SCREENS[360]["width"]
    assert page.evaluate(WIDER_THAN_SCREEN) == []
    assert page.locator(".player-table").first.evaluate("t => t.scrollWidth") <= 360
