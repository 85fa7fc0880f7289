"""The installable app: the manifest and its icons, the service worker's caches, the pages it
keeps for offline use, the offline shell, and an update that keeps what IndexedDB holds."""

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.offline import shell
from scorekeeper.portable.start_fields import SideSpec
from tests.helpers.leagues import UserFactory
from tests.helpers.offline_browser import go_offline, go_online, update_worker

SCRIPTS = Path(settings.BASE_DIR) / "static" / "js"
CACHE_KEYS = """async name => {
  const cache = await caches.open(name);
  return (await cache.keys()).map(request => new URL(request.url).pathname);
}"""
# Waits (up to 10 s) for a cache to hold exactly these paths: the worker keeps a page after
# answering its navigation, or while it activates. Answers what the cache holds.
KEPT = """async ([name, wanted]) => {
  const paths = async () => (await (await caches.open(name)).keys())
    .map(request => new URL(request.url).pathname).sort();
  for (let tries = 0; tries < 200; tries++) {
    if (JSON.stringify(await paths()) === JSON.stringify(wanted)) break;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return paths();
}"""
OLD_ENGINE = "/offline/engine-aaaaaaaaaaaa.zip"
PYODIDE_FILE = "/static/vendor/pyodide/kept-by-the-test.bin"
KEEP_IN_RUNTIME = """async paths => {
  const cache = await caches.open("runtime");
  for (const path of paths) await cache.put(path, new Response("test"));
}"""
IDB_WRITE = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("offline-test", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("waiting", {keyPath: "key"});
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const tx = open.result.transaction("waiting", "readwrite");
    tx.objectStore("waiting").put({key: "k1", number: 4, entry: [{melded_points: 50}]});
    tx.oncomplete = () => { open.result.close(); resolve(true); };
  };
})"""
IDB_READ = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("offline-test", 1);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const request = open.result.transaction("waiting").objectStore("waiting").getAll();
    request.onsuccess = () => { open.result.close(); resolve(request.result); };
  };
})"""


@pytest.fixture
def game(db) -> Game:
    return services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])


def controlled(page: Page) -> str:
    """Wait until the service worker controls the page; its version."""
    # register-sw.js, a module, defines offlineShell once it runs: a page just loaded may not
    # have run it yet although the worker already controls the page.
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null && window.offlineShell !== undefined"
    )
    return page.evaluate("offlineShell.version()")


def cache_keys(page: Page, name: str) -> list[str]:
    return sorted(page.evaluate(CACHE_KEYS, name))


def kept(page: Page, name: str, wanted: list[str]) -> list[str]:
    """The paths cache `name` holds once it holds `wanted`, or after 10 s."""
    return page.evaluate(KEPT, [name, sorted(wanted)])


def scoring_phone(context: BrowserContext, live_server, game: Game) -> Page:
    """A phone given the scorer link, on the game's page."""
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/g/{game.public_id}/join/{game.scorer_token}/")
    expect(page.get_by_text("This phone can now score the game.")).to_be_visible()
    return page


def test_the_manifest_names_the_app_and_its_icons_load(page: Page, live_server):
    page.goto(live_server.url + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href == "/manifest.webmanifest"
    answer = page.request.get(live_server.url + href)
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    icons = [(icon["src"], icon["sizes"], icon["purpose"]) for icon in manifest.pop("icons")]
    assert manifest == {
        "id": "/",
        "name": "Hand and Foot scorekeeper",
        "short_name": "Hand & Foot",
        "description": "Scores for Hand and Foot, Baskets and their Canasta relatives.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": "#0b5d3b",
        "background_color": "#fdfdfb",
    }
    assert icons == [
        ("/static/icons/icon-192.png", "192x192", "any"),
        ("/static/icons/icon-512.png", "512x512", "any"),
        ("/static/icons/maskable-512.png", "512x512", "maskable"),
    ]
    assert {icon["type"] for icon in answer.json()["icons"]} == {"image/png"}
    apple = page.locator("link[rel=apple-touch-icon]").get_attribute("href")
    sizes = page.evaluate(
        """async urls => Promise.all(urls.map(url => new Promise((resolve, reject) => {
          const image = new Image();
          image.onload = () => resolve(`${image.naturalWidth}x${image.naturalHeight}`);
          image.onerror = () => reject(new Error(`${url} did not load`));
          image.src = url;
        })))""",
        [src for src, _, _ in icons] + [apple],
    )
    assert sizes == ["192x192", "512x512", "512x512", "180x180"]
    assert page.locator("meta[name=theme-color]").first.get_attribute("content") == "#0b5d3b"


def test_the_worker_precaches_the_shell_and_keeps_only_the_pages_for_scoring(
    context: BrowserContext, live_server, game: Game
):
    page = scoring_phone(context, live_server, game)
    version = controlled(page)
    assert version == shell.shell_version()
    # The page that installed the worker is kept at once, and the game page keeps what scoring
    # offline needs at once too: its round form and its rule set's start page.
    game_page = f"/g/{game.public_id}/"
    for_scoring = sorted([game_page, f"{game_page}rounds/new/", "/games/new/baskets/"])
    assert kept(page, "pages", for_scoring) == for_scoring
    assert sorted(page.evaluate("caches.keys()")) == [
        "owner",
        "pages",
        "runtime",
        f"shell-{version}",
    ]
    assert cache_keys(page, f"shell-{version}") == sorted(
        [
            "/offline/",
            "/manifest.webmanifest",
            "/static/css/app.css",
            "/static/vendor/htmx/htmx.min.js",
            "/static/favicon.svg",
            "/static/icons/icon-192.png",
            "/static/icons/icon-512.png",
            "/static/icons/maskable-512.png",
            "/static/icons/apple-touch-icon.png",
        ]
        # Every script of static/js/ but the worker: app.js, register-sw.js, and the offline
        # runtime's as they come.
        + [
            f"/static/js/{path.relative_to(SCRIPTS).as_posix()}"
            for path in SCRIPTS.rglob("*.js")
            if path.name != "sw.js"
        ]
    )

    page.goto(f"{live_server.url}/g/{game.public_id}/rounds/new/")
    page.goto(f"{live_server.url}/accounts/login/")
    page.goto(f"{live_server.url}/healthz")
    page.goto(f"{live_server.url}/games/new/")
    page.goto(f"{live_server.url}/leagues/")
    assert page.goto(f"{live_server.url}/g/AAAAAAAAAAAAAAAAAAAAAA/").status == 404
    scoring = [*for_scoring, "/games/new/"]
    assert kept(page, "pages", scoring) == sorted(scoring)


def test_signing_out_forgets_the_pages_kept_for_that_account(
    context: BrowserContext, live_server, game: Game
):
    UserFactory(username="olive", password="a-long-enough-password")
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/g/{game.public_id}/")
    # The worker installs before signing in: a sign-in tapped while the first install is under
    # way may leave it to the next page's visit, which is not what this test is about.
    controlled(page)
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill("a-long-enough-password")
    page.get_by_role("button", name="Sign in").click()
    controlled(page)
    page.goto(f"{live_server.url}/games/new/")
    signed_in = [f"/g/{game.public_id}/", "/games/new/"]
    assert kept(page, "pages", signed_in) == signed_in

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()

    # Only the signed-out home page the sign-out led to is kept.
    assert kept(page, "pages", ["/"]) == ["/"]


def test_offline_a_game_opened_online_reloads_from_the_phone_and_nothing_reaches_the_server(
    context: BrowserContext, live_server, game: Game, server_requests
):
    page = scoring_phone(context, live_server, game)
    controlled(page)
    for_scoring = sorted(
        [f"/g/{game.public_id}/", f"/g/{game.public_id}/rounds/new/", "/games/new/baskets/"]
    )
    assert kept(page, "pages", for_scoring) == for_scoring
    before = server_requests.mark()
    page.reload()
    # Online, the worker asks the server first (the browser may also check /sw.js for updates;
    # static/js/offline.js then refreshes the phone's copy of the game, offline.json).
    assert [line for line in server_requests.since(before) if line != "GET /sw.js"][0] == (
        f"GET /g/{game.public_id}/"
    )

    go_offline(context)
    offline = server_requests.mark()
    assert page.evaluate("navigator.onLine") is False
    page.reload()
    expect(page.locator("h1")).to_have_text("Ann vs Bob")
    expect(page).to_have_title(f"{game} · Hand and Foot scorekeeper")
    # A game this phone never opened: the offline shell, at the address asked for.
    page.goto(f"{live_server.url}/g/AAAAAAAAAAAAAAAAAAAAAA/")
    expect(page).to_have_title("Offline")
    expect(page.locator("main#offline-app h1")).to_have_text("Offline")
    assert page.url == f"{live_server.url}/g/AAAAAAAAAAAAAAAAAAAAAA/"
    # The page's own fetch and the worker's fetch both fail as on a phone with no signal.
    assert page.evaluate("fetch('/healthz').then(() => 'reached', () => 'failed')") == "failed"
    answer = page.evaluate(f"offlineShell.cachePages(['/g/{game.public_id}/rounds/new/'])")
    assert answer == {
        "type": "pages-cached",
        "cached": [],
        "refused": [f"/g/{game.public_id}/rounds/new/"],
    }
    # Chromium's own check of /sw.js for a new worker, which it may start after the online
    # reload, comes from the browser, not the page or the worker, and the network emulation
    # does not stop it (seen under load); on a phone with no signal it fails like the rest.
    assert [line for line in server_requests.since(offline) if line != "GET /sw.js"] == []

    go_online(context)
    online = server_requests.mark()
    answer = page.evaluate(f"offlineShell.cachePages(['/g/{game.public_id}/rounds/new/'])")
    assert answer["cached"] == [f"/g/{game.public_id}/rounds/new/"]
    # The engine's runtime, which failed to load offline, may be fetched again now: not a page.
    runtime = ("/static/vendor/pyodide/", "/offline/engine-")
    asked = [line for line in server_requests.since(online) if not any(r in line for r in runtime)]
    assert asked == [f"GET /g/{game.public_id}/rounds/new/"]


def test_the_page_can_have_the_runtime_kept_and_it_then_loads_offline(
    context: BrowserContext, live_server, game: Game, settings, tmp_path
):
    pyodide = tmp_path / "vendor" / "pyodide"
    pyodide.mkdir(parents=True)
    (pyodide / "test-runtime.bin").write_bytes(b"not really Pyodide")
    (pyodide / "LICENSE").write_text("never fetched")
    # In front of static/, so that this folder stands for the vendored Pyodide.
    settings.STATICFILES_DIRS = [tmp_path, *settings.STATICFILES_DIRS]
    fake = "/static/vendor/pyodide/test-runtime.bin"
    page = scoring_phone(context, live_server, game)
    controlled(page)
    assert fake in shell.runtime_files()
    assert "/static/vendor/pyodide/LICENSE" not in shell.runtime_files()

    go_offline(context)
    answer = page.evaluate("offlineShell.cacheRuntime()")
    assert answer == {"type": "runtime-cached", "cached": [], "refused": shell.runtime_files()}

    go_online(context)
    answer = page.evaluate("offlineShell.cacheRuntime()")
    assert answer == {"type": "runtime-cached", "cached": shell.runtime_files(), "refused": []}

    go_offline(context)
    body = page.evaluate(f"fetch('{fake}').then(response => response.text())")
    assert body == "not really Pyodide"


def test_a_worker_script_kept_in_the_shell_keeps_its_query_string_online_and_offline(
    context: BrowserContext, live_server, game: Game, settings, tmp_path
):
    # As engine.js starts engine-worker.js: its addresses in the script's query string.
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "test-location.js").write_text("self.postMessage(self.location.search);")
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, tmp_path]
    page = scoring_phone(context, live_server, game)
    version = controlled(page)
    assert "/static/js/test-location.js" in cache_keys(page, f"shell-{version}")
    started = """() => new Promise(resolve => {
      const worker = new Worker("/static/js/test-location.js?engine=/offline/engine-x.zip");
      worker.onmessage = event => resolve(event.data);
    })"""

    assert page.evaluate(started) == "?engine=/offline/engine-x.zip"
    go_offline(context)
    assert page.evaluate(started) == "?engine=/offline/engine-x.zip"


def test_an_update_replaces_the_old_shell_and_leaves_indexeddb_alone(
    context: BrowserContext, live_server, game: Game, monkeypatch
):
    page = scoring_phone(context, live_server, game)
    old = controlled(page)
    # The page keeps the game, its pages and the engine through the worker (offline.js's
    # keepForOffline, at an idle moment). An update found while the old worker still fetches for
    # it waits for those fetches (Chromium hands over once the old worker has no event in
    # flight, or after 5 minutes): wait for them, so the update is all this test times.
    expect(page.locator("body")).to_have_attribute(
        "data-offline-kept", game.public_id, timeout=60_000
    )
    assert page.evaluate(IDB_WRITE) is True
    assert f"shell-{old}" in page.evaluate("caches.keys()")
    page.evaluate(KEEP_IN_RUNTIME, [OLD_ENGINE, PYODIDE_FILE])
    assert {OLD_ENGINE, PYODIDE_FILE} <= set(cache_keys(page, "runtime"))

    # A new engine is deployed: the live server (this process) now packs other bytes.
    monkeypatch.setattr(shell, "engine_hash", lambda: "0123456789ab")
    monkeypatch.setattr(shell, "engine_url", lambda: "/offline/engine-0123456789ab.zip")
    new = shell.shell_version()
    assert new != old
    assert update_worker(page) == new

    assert sorted(page.evaluate("caches.keys()")) == ["owner", "pages", "runtime", f"shell-{new}"]
    assert page.evaluate("offlineShell.version()") == new
    assert page.evaluate(IDB_READ) == [{"key": "k1", "number": 4, "entry": [{"melded_points": 50}]}]
    # The old engine goes; Pyodide, unchanged, stays.
    runtime = cache_keys(page, "runtime")
    assert OLD_ENGINE not in runtime
    assert PYODIDE_FILE in runtime
    # Offline, a page kept before the update that asks for the old engine gets the new one.
    page.evaluate(KEEP_IN_RUNTIME, ["/offline/engine-0123456789ab.zip"])
    go_offline(context)
    assert page.evaluate(f"fetch('{OLD_ENGINE}').then(response => response.text())") == "test"


def test_the_offline_shell_fits_a_phone_and_a_desktop(context: BrowserContext, journey):
    page = journey.watch(context.new_page())
    for width, height in ((360, 740), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(journey.url("/offline/"))
        expect(page.locator("main#offline-app h1")).to_have_text("Offline")
        journey.check(page, f"offline-shell-{width}")
        assert page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
