"""Scoring with no connection (static/js/offline.js): rounds entered offline with the engine's
live breakdown, kept on the phone across a reload and a service-worker update, a game started
offline, everything sent exactly once when the connection returns, and the choice when another
phone saved the same round meanwhile.

The offline pages' screenshots are under e2e-screenshots/<test>/ at 360 px and 1280 px.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.engine.formatting import number
from scorekeeper.games import services
from scorekeeper.games.selectors import game_view
from scorekeeper.models import Game, Round
from scorekeeper.offline import shell
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record
from tests.helpers.journeys import AXE_URL, SCREENSHOTS, axe_violations
from tests.helpers.offline_browser import go_offline, go_online, update_worker
from tests.helpers.paths import REPO

# Pyodide's first start on this machine's Chromium takes seconds; a step waits this long for it.
ENGINE_MS = 60_000
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
WAITING = "saved on this phone, not sent yet"
AXE_FILE = REPO / "static" / "vendor" / "axe-core" / "axe.min.js"
# Reads one store of the phone's IndexedDB (static/js/offline-db.js) without creating it.
IDB_ALL = """store => new Promise((resolve, reject) => {
  const open = indexedDB.open("scorekeeper-offline");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const request = open.result.transaction(store).objectStore(store).getAll();
    request.onsuccess = () => { open.result.close(); resolve(request.result); };
  };
})"""


ROUND_1 = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


@pytest.fixture
def game(db) -> Game:
    """Ann and Bob's game of Baskets, round 1 played."""
    sides = [SideSpec(name) for name in ("Ann", "Bob")]
    started = services.game_start(preset="baskets", sides=sides)
    round_record(game=started, number=1, ended_by="stock_exhausted", entry=ROUND_1)
    return started


def shots_folder(request) -> Path:
    name = re.sub(r"[^a-z0-9]+", "-", request.node.name.removeprefix("test_").lower()).strip("-")
    folder = SCREENSHOTS / f"offline-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Phone:
    """One phone: a browser context with the scorer link, its page and its JavaScript errors."""

    def __init__(self, context: BrowserContext, base: str, game: Game, folder: Path, who: str):
        self.context, self.base, self.folder, self.who = context, base, folder, who
        self.errors: list[str] = []
        self.page = context.new_page()
        self.page.set_default_timeout(15_000)
        # Uncaught exceptions only: offline, every failed fetch is logged by Chromium as a
        # console error, which is the point of being offline.
        self.page.on("pageerror", lambda error: self.errors.append(f"{who}: {error}"))
        self.page.goto(f"{base}/g/{game.public_id}/join/{game.scorer_token}/")
        expect(self.page.get_by_text("This phone can now score the game.")).to_be_visible()
        self.ready(game.public_id)

    def ready(self, public_id: str) -> None:
        """The game, its round form and the engine kept on the phone for offline use."""
        self.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        expect(self.page.locator(f"[data-offline-kept='{public_id}']")).to_be_attached(
            timeout=ENGINE_MS
        )

    def shot(self, step: str, *, axe: bool = True) -> None:
        """Screenshots at the phone's width and a desktop's: nothing wider than the screen."""
        for size, label in ((PHONE, "360"), (WIDE, "1280")):
            self.page.set_viewport_size(size)
            overflow = self.page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{step} at {label} px scrolls sideways by {overflow} px"
            self.page.screenshot(
                path=self.folder / f"{self.who}-{step}-{label}.png", full_page=True, caret="initial"
            )
        self.page.set_viewport_size(PHONE)
        if axe:
            # axe-core is not one of the files the phone keeps: handed over even when offline.
            self.context.route(f"**{AXE_URL}", lambda route: route.fulfill(path=AXE_FILE))
            assert axe_violations(self.page) == []
        assert self.errors == []

    def status(self):
        return self.page.locator("#sync-status")

    def totals(self) -> list[str]:
        return self.page.locator("table.scoreboard tfoot td").all_inner_texts()

    def stored(self, store: str) -> list[dict]:
        return self.page.evaluate(IDB_ALL, store)


def breakdown(page: Page) -> str:
    return page.locator("#preview .new-totals").inner_text(timeout=ENGINE_MS)


def enter_offline_round(phone: Phone, number_: int, melded: tuple[int, int]) -> None:
    """Round `number_` on the offline round form: the breakdown follows each change."""
    page = phone.page
    page.get_by_role("link", name=f"Enter round {number_}").click()
    expect(page.get_by_role("heading", name=f"Round {number_}", level=1)).to_be_visible()
    page.get_by_label("The stock ran out").check(timeout=ENGINE_MS)
    page.locator("input[name='s0-melded_points']").fill(str(melded[0]))
    expect(page.locator("#preview .new-totals")).to_contain_text(
        f"Totals after round {number_}", timeout=ENGINE_MS
    )
    first = breakdown(page)
    page.locator("input[name='s1-melded_points']").fill(str(melded[1]))
    expect(page.locator("#preview .new-totals")).not_to_have_text(first)
    page.get_by_role("button", name=f"Save round {number_}").click()
    expect(page.locator(".message.success")).to_have_text(
        f"Round {number_} saved on this phone, not sent yet."
    )


def phone_totals(game: Game) -> list[str]:
    """The server's totals for the game, as the scoreboard writes them."""
    return [number(total) for total in game_view(Game.objects.get(pk=game.pk)).totals]


def test_offline_rounds_and_a_game_started_offline_are_sent_once_when_the_connection_returns(
    context: BrowserContext, live_server, game: Game, request
):
    folder = shots_folder(request)
    phone = Phone(context, live_server.url, game, folder, "phone")
    page = phone.page
    expect(phone.status()).to_contain_text("Online")

    go_offline(context)
    expect(phone.status()).to_have_text(re.compile(r"^Offline · Last synced \d{1,2}:\d\d$"))
    for number_, melded in ((2, (100, 40)), (3, (75, 120)), (4, (30, 60))):
        enter_offline_round(phone, number_, melded)
    waiting_rows = page.locator("table.scoreboard tbody tr.waiting")
    expect(waiting_rows).to_have_count(3, timeout=ENGINE_MS)
    expect(phone.status()).to_have_text("Offline · 3 rounds waiting to send")
    offline_totals = phone.totals()

    # A reload with no connection: the game page from the phone's cache, the rounds from
    # IndexedDB, still marked as waiting.
    page.reload()
    expect(waiting_rows).to_have_count(3, timeout=ENGINE_MS)
    expect(waiting_rows.first.locator("th")).to_have_text(f"2 {WAITING}")
    assert phone.totals() == offline_totals
    expect(page.get_by_role("link", name="Enter round 5")).to_be_visible()
    # Corrections are the server's: offline they are not offered.
    expect(page.get_by_role("link", name="End the game now")).to_be_hidden()
    phone.shot("game-offline")

    # A new game, started and scored with no connection.
    page.goto(f"{live_server.url}/games/new/baskets/")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]{22}/$"), timeout=ENGINE_MS)
    new_id = page.url.rstrip("/").rsplit("/", 1)[1]
    expect(page.locator(".message.success")).to_contain_text("Game started on this phone")
    enter_offline_round(phone, 1, (90, 10))
    expect(page.locator("table.scoreboard tbody tr.waiting")).to_have_count(1, timeout=ENGINE_MS)
    new_totals = phone.totals()
    phone.shot("new-game-offline")
    assert not Game.objects.filter(public_id=new_id).exists()
    assert Round.objects.filter(game=game).count() == 1

    go_online(context)
    expect(phone.status()).to_have_text(re.compile(r"^Online · Last synced \d{1,2}:\d\d$"))
    expect(page.locator("table.scoreboard tbody tr.waiting")).to_have_count(0)
    assert phone.stored("waiting") == []
    started = Game.objects.get(public_id=new_id)
    assert list(started.rounds.values_list("number", flat=True)) == [1]
    assert phone_totals(started) == new_totals
    assert list(game.rounds.order_by("number").values_list("number", flat=True)) == [1, 2, 3, 4]
    keys = list(game.rounds.exclude(client_key=None).values_list("client_key", flat=True))
    assert len(set(keys)) == 3
    assert phone_totals(game) == offline_totals
    # The game page online, from the server, agrees with what the phone worked out offline.
    page.goto(f"{live_server.url}/g/{game.public_id}/")
    assert phone.totals() == offline_totals
    expect(page.get_by_role("link", name="End the game now")).to_be_visible()
    phone.shot("game-synced")


CHOICES = {
    "mine": "Keep this phone's round",
    "theirs": "Keep the other phone's round",
    "both": "Keep both",
}


@pytest.mark.parametrize("choice", list(CHOICES))
def test_a_round_saved_on_two_phones_ends_as_the_player_chose_on_both(
    new_context, live_server, game: Game, request, choice: str
):
    folder = shots_folder(request)
    ann = Phone(new_context(), live_server.url, game, folder, "ann")
    bob = Phone(new_context(), live_server.url, game, folder, "bob")

    go_offline(ann.context)
    enter_offline_round(ann, 2, (100, 40))
    # Meanwhile Bob, online, saves his round 2.
    bob.page.get_by_role("link", name="Enter round 2").click()
    bob.page.get_by_label("The stock ran out").check()
    bob.page.locator("input[name='s0-melded_points']").fill("10")
    bob.page.locator("input[name='s1-melded_points']").fill("20")
    bob.page.get_by_role("button", name="Save round 2").click()
    expect(bob.page.locator(".message.success")).to_contain_text("Round 2 saved.")

    go_online(ann.context)
    conflict = ann.page.locator(".offline-problem.conflict")
    expect(conflict.get_by_role("heading", level=2)).to_have_text(
        "Round 2 was saved on two phones", timeout=ENGINE_MS
    )
    expect(conflict.locator(".version").nth(0)).to_contain_text("This phone's round 2")
    expect(conflict.locator(".version").nth(0)).to_contain_text("+100")
    expect(conflict.locator(".version").nth(1)).to_contain_text("The other phone's round 2")
    expect(conflict.locator(".version").nth(1)).to_contain_text("+10")
    expect(ann.status()).to_contain_text("1 round waiting to send · 1 round needs your choice")
    assert len(ann.stored("waiting")) == 1
    ann.shot("conflict")

    conflict.get_by_role("button", name=CHOICES[choice]).click()
    if choice == "theirs":
        # Dropping a round is asked once more.
        expect(conflict.get_by_role("alert")).to_contain_text("Remove this phone's round 2?")
        assert len(ann.stored("waiting")) == 1
        ann.shot("conflict-drop-asked")
        conflict.get_by_role("button", name="Yes, remove this phone's round 2").click()
    expect(ann.page.locator(".offline-problem")).to_have_count(0)
    expect(ann.status()).to_have_text(re.compile(r"^Online · Last synced \d{1,2}:\d\d$"))
    assert ann.stored("waiting") == []

    rounds = {r.number: r.entry for r in game.rounds.all()}
    melded = {n: [side.get("melded_points") for side in entry] for n, entry in rounds.items()}
    expected = {
        "mine": {1: [50, 40], 2: [100, 40]},
        "theirs": {1: [50, 40], 2: [10, 20]},
        "both": {1: [50, 40], 2: [10, 20], 3: [100, 40]},
    }[choice]
    assert melded == expected
    server = phone_totals(game)
    expect(ann.page.locator("table.scoreboard tfoot td")).to_have_text(server)
    # Bob's page follows by itself (scorekeeper.games.live).
    expect(bob.page.locator("table.scoreboard tfoot td")).to_have_text(server)
    ann.shot(f"chose-{choice}")


def test_a_service_worker_update_keeps_the_rounds_waiting_to_send(
    context: BrowserContext, live_server, game: Game, request, monkeypatch
):
    folder = shots_folder(request)
    phone = Phone(context, live_server.url, game, folder, "phone")
    page = phone.page
    go_offline(context)
    enter_offline_round(phone, 2, (100, 40))

    # Back online, but the server cannot take rounds: the send fails, is said, and waits.
    context.route("**/offline/rounds/", lambda route: route.fulfill(status=503, body="busy"))
    go_online(context)
    expect(phone.status()).to_have_text(
        re.compile(
            r"^Send failed: the server is busy\. Trying again in \d+ s\. · 1 round waiting to send$"
        )
    )
    expect(page.locator("table.scoreboard tbody tr.waiting")).to_have_count(1, timeout=ENGINE_MS)
    phone.shot("send-failed")

    # A new version of the app is deployed and takes over while the round waits.
    old = page.evaluate("offlineShell.version()")
    monkeypatch.setattr(shell, "engine_hash", lambda: "0123456789ab")
    new = shell.shell_version()
    assert new != old
    assert update_worker(page) == new
    assert [r["number"] for r in phone.stored("waiting")] == [2]
    assert Round.objects.filter(game=game).count() == 1

    # The server takes rounds again: the next try sends it, once.
    context.unroute("**/offline/rounds/")
    page.reload()
    expect(phone.status()).to_have_text(re.compile(r"^Online · Last synced \d{1,2}:\d\d$"))
    assert list(game.rounds.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert phone.stored("waiting") == []


def test_a_round_the_server_refuses_stays_on_the_phone_with_its_reason_until_discarded(
    context: BrowserContext, live_server, game: Game, request
):
    folder = shots_folder(request)
    phone = Phone(context, live_server.url, game, folder, "phone")
    page = phone.page
    go_offline(context)
    enter_offline_round(phone, 2, (100, 40))

    # The server refuses the round (the game was ended on another phone, say).
    refusal = '{"errors": [{"key": "__all__", "message": "The game is over: nothing was added."}]}'
    context.route(
        "**/offline/rounds/",
        lambda route: route.fulfill(status=400, body=refusal, content_type="application/json"),
    )
    go_online(context)
    problem = page.locator(".offline-problem")
    expect(problem.get_by_role("heading", level=2)).to_have_text(
        "Round 2 was not stored", timeout=ENGINE_MS
    )
    expect(problem.get_by_role("alert")).to_have_text("The game is over: nothing was added.")
    expect(phone.status()).to_have_text(
        "Online · 1 round waiting to send · 1 round needs your choice"
    )
    phone.shot("refused")

    # Edit opens the round as it was typed; saved again, it is sent again (and refused again).
    problem.get_by_role("link", name="Edit round 2").click()
    expect(page.locator("input[name='s0-melded_points']")).to_have_value("100")
    expect(page.get_by_label("The stock ran out")).to_be_checked()
    page.locator("input[name='s0-melded_points']").fill("110")
    expect(page.locator("#preview .new-totals")).to_contain_text("160", timeout=ENGINE_MS)
    page.get_by_role("button", name="Save round 2").click()
    expect(problem.get_by_role("alert")).to_have_text(
        "The game is over: nothing was added.", timeout=ENGINE_MS
    )
    [kept] = phone.stored("waiting")
    assert (kept["number"], kept["entry"][0]["melded_points"]) == (2, 110)

    problem.get_by_role("button", name="Discard round 2").click()
    expect(problem.get_by_role("alert")).to_have_text(
        [
            "The game is over: nothing was added.",
            "Remove this phone's round 2? It cannot be brought back.",
        ]
    )
    assert len(phone.stored("waiting")) == 1
    problem.get_by_role("button", name="Yes, remove this phone's round 2").click()
    expect(page.locator(".offline-problem")).to_have_count(0)
    assert phone.stored("waiting") == []
    assert Round.objects.filter(game=game).count() == 1
