"""Two app servers on one database: a round saved through one is on the other's pages at once.

A multi-process test: it migrates a database of its own (an SQLite file, or a new PostgreSQL
database on the server the suite's DATABASE_URL names), starts two gunicorn processes on it as a
deployment would (DEBUG off, a throwaway SECRET_KEY, static files collected), and talks to them
over HTTP as two phones do, each with its own cookies. Nothing is shared between the processes
but the database (and Redis when REDIS_URL is set): no request is served by the test's own
process.
"""

import html
import http.cookiejar
import json
import os
import re
import secrets
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from scorekeeper import engine
from scorekeeper.engine.formatting import number, signed
from tests.helpers.app_servers import (
    app_server,
    deployment_env,
    drop_database,
    fresh_database,
    prepare,
)
from tests.helpers.games import expected_scores, round_form, start_form

pytestmark = pytest.mark.multiprocess

TIMEOUT = 20
BASKETS = engine.RULESETS["baskets"]
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@contextmanager
def own_database(tmp_path: Path):
    """The URL of an empty database for this test alone, dropped afterwards."""
    suite_url = os.environ.get("DATABASE_URL", "")
    if not urlsplit(suite_url).scheme.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'club.sqlite3'}"
        return
    name = f"scorekeeper_scale_out_{secrets.token_hex(4)}"
    url, _ = fresh_database(suite_url, name)
    try:
        yield url
    finally:
        drop_database(suite_url, name)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # the redirect is the answer: its Location says where the game is


class Phone:
    """A browser: its own cookies, asking one app server."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def ask(self, path: str, data: dict | None = None, headers: dict | None = None):
        """(status, headers, body) of one request."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, body, headers or {})
        try:
            with self.opener.open(request, timeout=TIMEOUT) as answer:
                return answer.status, answer.headers, answer.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers, answer.read().decode(errors="replace")

    def post_form(self, path: str, fields: dict[str, str]):
        """Open the form at `path`, then post `fields` with its CSRF token, as a browser does."""
        status, _, page = self.ask(path)
        assert status == 200, page[:2000]
        token = TOKEN.search(page)
        assert token is not None, page[:2000]
        return self.ask(path, {**fields, "csrfmiddlewaretoken": token.group(1)})


def visible_text(page: str) -> str:
    """The page's words, tags dropped and spaces collapsed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_a_round_saved_through_one_app_server_is_on_the_other_ones_game_page(tmp_path):
    with ExitStack() as stack:
        env = deployment_env(stack.enter_context(own_database(tmp_path)), tmp_path)
        prepare(env)
        scorer = Phone(stack.enter_context(app_server(env, tmp_path / "a.log")))
        watcher = Phone(stack.enter_context(app_server(env, tmp_path / "b.log")))

        status, headers, page = scorer.post_form("/games/new/baskets/", start_form("baskets"))
        assert status == 302, page[:2000]
        game = headers["Location"]
        assert re.fullmatch(r"/g/[\w-]+/", game)

        status, _, page = watcher.ask(game)
        assert status == 200
        before = visible_text(page)
        assert "No rounds yet." in before
        assert "Round 1," not in before
        status, headers, state = watcher.ask(f"{game}state")
        assert (status, json.loads(state)) == (200, {"rounds": 0, "finished": False})
        etag_before = headers["ETag"]
        status, _, _ = watcher.ask(f"{game}state", headers={"If-None-Match": etag_before})
        assert status == 304

        status, headers, page = scorer.post_form(f"{game}rounds/new/", round_form(BASKETS))
        assert (status, headers["Location"]) == (302, game), page[:2000]

        status, _, page = watcher.ask(game)
        assert status == 200
        after = visible_text(page)
        ann, bob = expected_scores(BASKETS)
        assert f"Round 1, Ann: {signed(ann)} , total {number(ann)}" in after
        assert f"Round 1, Bob: {signed(bob)} , total {number(bob)}" in after
        assert "No rounds yet." not in after

        # The other server's live check says the game moved: a new ETag, one round.
        status, headers, state = watcher.ask(f"{game}state", headers={"If-None-Match": etag_before})
        assert (status, json.loads(state)) == (200, {"rounds": 1, "finished": False})
        assert headers["ETag"] != etag_before
        status, _, _ = watcher.ask(f"{game}state", headers={"If-None-Match": headers["ETag"]})
        assert status == 304

    for log in ("a.log", "b.log"):
        written = (tmp_path / log).read_text(errors="replace")
        assert "Traceback" not in written, written[-3000:]
