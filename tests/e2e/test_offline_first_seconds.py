"""Offline at the moments a real table loses its connection: the round that ends the game, and the
first seconds of a game, before the phone's scorer (Pyodide) has loaded. At 360 px, with the
screenshots under e2e-screenshots/offline-<test>/."""

import re

import pytest
from playwright.sync_api import BrowserContext, expect

from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record
from tests.helpers.journeys import SCREENSHOTS
from tests.helpers.offline_browser import go_offline, go_online

ENGINE_MS = 60_000
PHONE = {"width": 360, "height": 740}
# Ann goes out with three natural canastas and 300 melded: 2,050 a round, past 5,000 in three.
ANN_OUT = [{"went_out": True, "canastas": {"natural": 3}, "melded_points": 300}, {}]
NOT_LOADED = (
    "This phone's scorer has not loaded yet (it needs the connection once): Save keeps the round "
    "as typed, and its breakdown shows once the scorer has loaded."
)


def game_of(*rounds) -> Game:
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    for number, entry in enumerate(rounds, start=1):
        round_record(game=game, number=number, ended_by="going_out", entry=entry)
    return game


def scoring_page(context: BrowserContext, live_server, game: Game):
    page = context.new_page()
    page.set_viewport_size(PHONE)
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/g/{game.public_id}/join/{game.scorer_token}/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return page, errors


def shot(page, request, step: str) -> None:
    name = re.sub(r"[^a-z0-9]+", "-", request.node.name.removeprefix("test_").lower()).strip("-")
    folder = SCREENSHOTS / f"offline-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{step} scrolls sideways by {overflow} px"
    page.screenshot(path=folder / f"{step}-360.png", full_page=True)


@pytest.mark.django_db(transaction=True)
def test_the_round_that_ends_the_game_entered_offline_shows_the_winner(
    context: BrowserContext, live_server, request
):
    game = game_of(ANN_OUT, ANN_OUT)
    page, errors = scoring_page(context, live_server, game)
    expect(page.locator("#offline-ready")).to_have_text("Ready to score offline", timeout=ENGINE_MS)

    go_offline(context)
    page.get_by_role("link", name="Enter round 3").click()
    page.locator("input[name='went_out'][value='s0']").check()
    page.locator("input[name='s0-canastas-natural']").fill("3")
    page.locator("input[name='s0-melded_points']").fill("300")
    expect(page.locator("#preview .new-totals")).to_have_text(
        "Totals after round 3: Ann 6,150, Bob 0", timeout=ENGINE_MS
    )
    page.get_by_role("button", name="Save round 3").click()
    expect(page.locator(".message.success")).to_have_text(
        "Round 3 saved on this phone, not sent yet."
    )
    # The server's own words for the result (scorekeeper/portable/fragments.py), drawn offline.
    expect(page.get_by_role("heading", name="Ann wins!")).to_be_visible(timeout=ENGINE_MS)
    expect(page.get_by_text("Final score: Ann 6,150, Bob 0.")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^Enter round"))).to_have_count(0)
    expect(page.locator("#sync-status")).to_have_text("Offline · 1 round waiting to send")
    shot(page, request, "winner-offline")
    # The phone refuses a round after the end, as the server does.
    page.goto(f"{live_server.url}/g/{game.public_id}/rounds/new/")
    expect(page.locator("#preview")).to_contain_text(
        "The game is over with the rounds kept on this phone", timeout=ENGINE_MS
    )

    go_online(context)
    page.goto(f"{live_server.url}/g/{game.public_id}/")
    expect(page.locator("#sync-status")).to_have_text(
        re.compile(r"^Online · Last synced \d{1,2}:\d\d$"), timeout=ENGINE_MS
    )
    stored = Game.objects.get(pk=game.pk)
    assert (stored.finished, stored.winner.name, stored.rounds.count()) == (True, "Ann", 3)
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_offline_before_the_scorer_has_loaded_a_round_is_kept_as_typed_and_scored_later(
    context: BrowserContext, live_server, request
):
    game = game_of()
    # The phone's scorer never arrives (a connection too slow or cut while it downloads).
    context.route("**/static/vendor/pyodide/**", lambda route: route.abort("failed"))
    page, errors = scoring_page(context, live_server, game)
    # The pages and the game are kept at once; the scorer is not, and the page says so.
    expect(page.locator("body")).to_have_attribute("data-offline-pages", game.public_id)
    expect(page.locator("#offline-ready")).to_contain_text(
        "Not ready to score offline:", timeout=ENGINE_MS
    )

    go_offline(context)
    page.get_by_role("link", name="Enter round 1").click()
    page.locator("input[name='went_out'][value='stock']").check()
    page.locator("input[name='s0-melded_points']").fill("50")
    expect(page.locator("#preview")).to_contain_text(NOT_LOADED, timeout=ENGINE_MS)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator(".message.success")).to_have_text(
        "Round 1 saved on this phone as typed, not sent yet: it is added to the scores once "
        "this phone's scorer has loaded."
    )
    expect(page.locator("[data-offline-part='problems']")).to_contain_text(
        "Round 1 is kept on this phone and sent when the connection returns, but not added to "
        "the scores below yet",
        timeout=ENGINE_MS,
    )
    expect(page.locator("#sync-status")).to_have_text("Offline · 1 round waiting to send")
    # The next round is round 2, with the round kept as typed counted.
    expect(page.get_by_role("link", name="Enter round 2")).to_be_visible()
    shot(page, request, "kept-as-typed")
    assert game.rounds.count() == 0

    # The connection returns: the scorer loads from the server, scores the round, and it is sent.
    context.unroute("**/static/vendor/pyodide/**")
    go_online(context)
    expect(page.locator("#sync-status")).to_have_text(
        re.compile(r"^Online · Last synced \d{1,2}:\d\d$"), timeout=ENGINE_MS
    )
    stored = game.rounds.get()
    assert (stored.number, stored.ended_by, stored.entry) == (
        1,
        "stock_exhausted",
        [{"melded_points": 50}, {}],
    )
    assert errors == []
