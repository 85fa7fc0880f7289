"""What the service worker keeps of a phone's pages, and for whom: never a value a link put in the
address, never a one-time message, never another account's or an expired session's pages; and
a page that hangs is shown from what the phone kept instead of a blank wait."""

import time

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.portable.start_fields import SideSpec
from tests.helpers.leagues import UserFactory
from tests.helpers.offline_browser import go_offline

# Waits (up to 10 s) for a cache to hold exactly these addresses (path and query string).
KEPT = """async ([name, wanted]) => {
  const keys = async () => (await (await caches.open(name)).keys())
    .map(request => { const url = new URL(request.url); return url.pathname + url.search; }).sort();
  for (let tries = 0; tries < 200; tries++) {
    if (JSON.stringify(await keys()) === JSON.stringify(wanted)) break;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return keys();
}"""
# Waits (up to 10 s) for a cache to hold this address, whatever else it holds.
KEPT_ONE = """async ([name, path]) => {
  for (let tries = 0; tries < 200; tries++) {
    if (await (await caches.open(name)).match(path)) return true;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return false;
}"""
KEPT_TEXT = """async path => {
  const kept = await (await caches.open("pages")).match(path);
  return kept ? kept.text() : null;
}"""


@pytest.fixture
def game(db) -> Game:
    return services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])


def controlled(page: Page) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def kept(page: Page, wanted: list[str]) -> list[str]:
    return page.evaluate(KEPT, ["pages", sorted(wanted)])


def scoring_phone(context: BrowserContext, live_server, game: Game) -> Page:
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/g/{game.public_id}/join/{game.scorer_token}/")
    expect(page.get_by_text("This phone can now score the game.")).to_be_visible()
    controlled(page)
    return page


def test_a_link_with_values_in_its_address_never_changes_the_kept_start_page(
    context: BrowserContext, live_server, game: Game
):
    page = scoring_phone(context, live_server, game)
    start = "/games/new/baskets/"
    bonus = page.locator("input[name='rule-going_out_bonus']")
    page.goto(live_server.url + start)
    expect(bonus).to_have_value("250")
    page.goto(f"{live_server.url}{start}?rule-going_out_bonus=9999")
    expect(bonus).to_have_value("9999")
    # The page with the crafted value is not kept, under its address or under the plain one.
    for_scoring = sorted([f"/g/{game.public_id}/", f"/g/{game.public_id}/rounds/new/", start])
    assert kept(page, for_scoring) == for_scoring
    assert "9999" not in page.evaluate(KEPT_TEXT, start)

    go_offline(context)
    page.goto(live_server.url + start)
    expect(bonus).to_have_value(str(engine.RULESETS["baskets"].going_out_bonus))
    # Offline, the crafted link opens the kept page, with none of its values.
    page.goto(f"{live_server.url}{start}?rule-going_out_bonus=9999")
    expect(bonus).to_have_value("250")


def test_a_kept_page_never_says_a_one_time_message_again(
    context: BrowserContext, live_server, game: Game
):
    page = scoring_phone(context, live_server, game)
    page.goto(f"{live_server.url}/g/{game.public_id}/rounds/new/")
    page.get_by_text("The stock ran out").click()
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    game_page = f"/g/{game.public_id}/"
    kept(page, [game_page, f"{game_page}rounds/new/"])
    copy = page.evaluate(KEPT_TEXT, game_page)
    assert "Round 1 saved." not in copy
    assert "Enter round 2" in copy

    go_offline(context)
    page.reload()
    expect(page.get_by_role("link", name="Enter round 2")).to_be_visible()
    expect(page.get_by_text("Round 1 saved.")).to_have_count(0)


def test_a_page_that_hangs_is_shown_from_the_phone_after_four_seconds(
    context: BrowserContext, live_server, game: Game
):
    page = scoring_phone(context, live_server, game)
    game_page = f"/g/{game.public_id}/"
    # The game page is kept (the round form and the start page may be kept by then too).
    assert page.evaluate(KEPT_ONE, ["pages", game_page])
    # The server never answers the game page: a Wi-Fi that holds the request without failing.
    held = []
    context.route(f"**{game_page}", lambda route: held.append(route))
    try:
        started = time.monotonic()
        page.reload(wait_until="commit", timeout=15_000)
        expect(page.locator("h1")).to_have_text("Ann vs Bob", timeout=15_000)
        waited = time.monotonic() - started
        assert held, "the test's route never held the page"
        assert 3.5 <= waited < 9, waited
    finally:
        # Removing the route lets the held request go on to the server.
        context.unroute(f"**{game_page}")


# The games this phone keeps for offline play (static/js/offline/store.js), once the page has
# opened the database; [] when there is none.
IDB_GAMES = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("scorekeeper-offline");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("games")) { db.close(); resolve([]); return; }
    const request = db.transaction("games").objectStore("games").getAll();
    request.onsuccess = () => { db.close(); resolve(request.result.map(game => game.id)); };
  };
})"""


def kept_for_offline(page: Page, game: Game) -> None:
    """Wait until the phone keeps the game for offline play (offline.js, once the page is idle)."""
    expect(page.locator("body")).to_have_attribute(
        "data-offline-kept", game.public_id, timeout=60_000
    )
    assert page.evaluate(IDB_GAMES) == [game.public_id]


def opened_home(page: Page, live_server) -> None:
    page.goto(live_server.url + "/")
    # The status line is drawn once offline.js has opened the phone's database.
    expect(page.locator("#sync-status")).to_be_visible()


def test_an_expired_session_leaves_nothing_of_the_phone_it_was(
    context: BrowserContext, live_server, game: Game
):
    page = scoring_phone(context, live_server, game)
    kept_for_offline(page, game)
    for_scoring = [
        f"/g/{game.public_id}/",
        f"/g/{game.public_id}/rounds/new/",
        "/games/new/baskets/",
    ]
    assert kept(page, for_scoring) == sorted(for_scoring)

    # The session ends on the server's side (expired, or its cookie lost): a new anonymous phone.
    context.clear_cookies(name="sessionid")
    opened_home(page, live_server)
    assert kept(page, ["/"]) == ["/"]
    assert page.evaluate(IDB_GAMES) == []


def test_a_sign_out_the_worker_never_saw_leaves_nothing_of_that_account(
    context: BrowserContext, live_server, game: Game
):
    UserFactory(username="olive", password="a-long-enough-password")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/accounts/login/")
    controlled(page)
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill("a-long-enough-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    page.goto(f"{live_server.url}/g/{game.public_id}/join/{game.scorer_token}/")
    kept_for_offline(page, game)

    # Signed out by a request the worker never handles (another browser tab not yet controlled,
    # or the account's session ended on the server).
    csrf = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    answer = context.request.post(
        f"{live_server.url}/accounts/logout/",
        headers={"X-CSRFToken": csrf, "Referer": live_server.url + "/"},
        max_redirects=0,
    )
    assert answer.status == 302
    opened_home(page, live_server)
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    assert kept(page, ["/"]) == ["/"]
    assert page.evaluate(IDB_GAMES) == []


def test_signing_in_keeps_what_the_phone_kept_while_anonymous(
    context: BrowserContext, live_server, game: Game
):
    UserFactory(username="olive", password="a-long-enough-password")
    page = scoring_phone(context, live_server, game)
    kept_for_offline(page, game)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill("a-long-enough-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    opened_home(page, live_server)
    everything = [
        "/",
        f"/g/{game.public_id}/",
        f"/g/{game.public_id}/rounds/new/",
        "/games/new/baskets/",
    ]
    assert kept(page, everything) == sorted(everything)
    assert page.evaluate(IDB_GAMES) == [game.public_id]
