"""The offline engine in a real Chromium: the worker runs the server's own Python and gives the
server's answers for every preset, and a phone fetches none of it before a game page has loaded.
"""

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games.scoring import status_for
from scorekeeper.games.selectors import game_view
from scorekeeper.offline import pack as offline
from scorekeeper.portable import phone, round_fields
from tests.helpers.offline_games import PRESETS, next_round_form, played_game, snapshot

RUNTIME = "/static/vendor/pyodide/"
ENGINE_ZIP = "/offline/engine-"

# Runs in the page: the engine module the pages use, its functions called in the worker.
CALL = """async ([fn, args]) => {
  const engine = await import("/static/js/engine.js");
  return await engine.call(fn, ...args);
}"""


# The same, for a call expected to fail: its error message.
CALL_FAILING = """async ([fn, args]) => {
  const engine = await import("/static/js/engine.js");
  return engine.call(fn, ...args).then(() => "answered", (error) => error.message);
}"""


def scoring_page(page: Page, journey, game) -> None:
    """This phone scores the game and has its page open, with the engine loaded."""
    page.goto(journey.url(f"/g/{game.public_id}/join/{game.scorer_token}/"))
    expect(page.get_by_text("This phone can now score the game.")).to_be_visible()
    page.evaluate('async () => (await import("/static/js/engine.js")).warm()')


@pytest.mark.django_db(transaction=True)
def test_the_worker_scores_every_preset_as_the_server_does(page: Page, journey):
    journey.watch(page)
    games = {preset: played_game(preset) for preset in PRESETS}
    scoring_page(page, journey, games[PRESETS[0]][0])
    for preset, (game, planned) in games.items():
        kept = snapshot(game)
        shown = page.evaluate(CALL, ["game_view", [kept, []]])
        assert shown == phone.game_view(kept, []), preset
        sides = list(game.sides.order_by("position"))
        status = status_for(game, sides, list(game.rounds.order_by("number")))
        server = game_view(game)
        assert [t["total"] for t in shown["totals"]] == [status.totals[s.name] for s in sides]
        assert shown["dealer"] == server.dealer.player, preset
        assert [m["points"] for m in shown["meld_requirement"]] == server.meld, preset

        form = next_round_form(game, planned[0])
        preview = page.evaluate(CALL, ["round_preview", [kept, [], form]])
        assert preview == phone.round_preview(kept, [], form), preset
        assert preview["ok"] is True, (preset, preview["errors"])
        stored = round_fields.parse(server.rules, len(sides), form, server.dealer.side_index)
        assert (preview["ended_by"], preview["entry"]) == stored[:2], preset


@pytest.mark.django_db(transaction=True)
def test_the_runtime_is_fetched_only_after_a_game_page_has_loaded(page: Page, journey):
    journey.watch(page)
    game, _ = played_game("baskets")
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    for path in ("/", "/games/new/", "/games/new/baskets/"):
        page.goto(journey.url(path), wait_until="networkidle")
    assert [url for url in fetched if RUNTIME in url or ENGINE_ZIP in url] == []

    # Events in the order the browser reported them: the worker's requests count as the page's.
    events: list[str] = []
    page.on("load", lambda: events.append("load"))
    page.on("request", lambda request: events.append(request.url))
    page.goto(journey.url(f"/g/{game.public_id}/join/{game.scorer_token}/"))
    page.evaluate('async () => await (await import("/static/js/engine.js")).ready')
    runtime = [i for i, url in enumerate(events) if RUNTIME in url or ENGINE_ZIP in url]
    assert sorted(events[i].rsplit("/", 1)[-1] for i in runtime) == [
        f"engine-{offline.engine_zip()[1]}.zip",
        "pyodide-lock.json",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "pyodide.mjs",
        "python_stdlib.zip",
    ]
    assert events.index("load") < min(runtime)


@pytest.mark.django_db(transaction=True)
def test_a_start_that_fails_offline_is_tried_again_once_online(new_context, live_server):
    game, _ = played_game("baskets")
    kept = snapshot(game)
    # No service worker to keep the scripts: the worker's own script cannot load offline.
    context = new_context(service_workers="block")
    page = context.new_page()
    # A viewer's page: nothing has started the engine; engine.js itself loaded while online.
    page.goto(f"{live_server.url}/g/{game.public_id}/")
    page.evaluate('async () => { await import("/static/js/engine.js"); }')
    context.set_offline(True)
    failed = page.evaluate(CALL_FAILING, ["game_view", [kept, []]])
    context.set_offline(False)
    assert failed == "The engine worker could not start."
    assert page.evaluate(CALL, ["game_view", [kept, []]]) == phone.game_view(kept, [])
