"""Which pages the service worker keeps, told by the server from its URL map, and what of a page
is never kept: its one-time messages."""

import re

from django.test import Client

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.offline import shell
from scorekeeper.rounds.services import round_record
from tests.helpers.games import round_form, side_specs
from tests.helpers.offline_sync import scoring_phone

KEPT = ["/", "/games/new/", "/games/new/baskets/", "/g/Ab_-9/", "/g/Ab_-9/rounds/new/"]
NOT_KEPT = [
    "/accounts/login/",
    "/leagues/",
    "/admin/",
    "/g/Ab_-9/rounds/1/",
    "/g/Ab_-9/history/",
    "/g/Ab_-9/offline.json",
    "/games/new/baskets/score-sheet.pdf",
    "/g/a/b/",
]


def kept(path: str) -> bool:
    return any(re.search(pattern, path) for pattern in shell.kept_page_patterns())


def test_the_worker_keeps_home_the_start_pages_a_game_and_its_round_form_and_nothing_else():
    assert [path for path in KEPT + NOT_KEPT if kept(path)] == KEPT


def test_the_patterns_are_made_from_the_url_map():
    assert shell.kept_page_patterns() == [
        "^/$",
        "^/games/new/$",
        r"^/games/new/[\w-]+/$",
        r"^/g/[\w-]+/$",
        r"^/g/[\w-]+/rounds/new/$",
    ]


def test_the_worker_reads_the_patterns_from_its_config_line(client):
    first = client.get("/sw.js").content.decode().split("\n", 1)[0]
    assert '"pages": ["^/$", "^/games/new/$"' in first


def test_a_pages_one_time_messages_are_marked_so_that_no_kept_copy_has_them(db):
    game = shell_game()
    phone = Client()
    phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    phone.get(f"/g/{game.public_id}/")  # the join's message, once
    phone.post(f"/g/{game.public_id}/rounds/new/", round_form(engine.RULESETS["baskets"]))
    page = phone.get(f"/g/{game.public_id}/").content.decode()
    once = re.search(r"<!--once-->(.*?)<!--/once-->", page, re.S)
    assert once is not None
    assert "Round 1 saved." in once.group(1)
    assert "Round 1 saved." not in page.replace(once.group(0), "")


def shell_game():
    return services.game_start(preset="baskets", sides=side_specs("baskets"))


def test_a_page_without_messages_has_no_once_marks(db):
    game = shell_game()
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=[{}, {}])
    phone = scoring_phone(game)
    phone.get(f"/g/{game.public_id}/")  # the join's message, once
    page = phone.get(f"/g/{game.public_id}/").content.decode()
    assert "<!--once-->" not in page
