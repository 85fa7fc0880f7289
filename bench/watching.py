"""The cost of phones watching a game: the 2-second state check each open page makes, the 304
it gets while nothing changed, and the refresh every phone makes after a round is saved.

Usage: .venv/bin/python bench/watching.py [--phones 200] [--cycles 30] [--save-every 10] [--smoke]
Runs against a throwaway SQLite database unless DATABASE_URL names another one (give it
PostgreSQL to measure what production pays). --phones phones watch one game, half of them
scoring phones (a session cookie, as after the scorer link) and half read-only viewers (no
cookie); each opens the game page once, then, for --cycles rounds of checks, every phone checks
in turn with its page's ETag (one 2-second poll of every phone per cycle). Every --save-every
cycles a scoring phone saves a round: at the next check every phone gets a 200 and fetches its
page's live section again, as static/js/app.js does. Each request is timed around Django's whole
request handling (the test Client, all the middleware) and printed beside a hello-world request;
bytes are what goes on the wire (status line, headers, body). From those it prints what the
phones cost the server each second (a check every 2 s each) and for each saved round, and what
polling the page itself every 2 s without an ETag would cost instead. The exit status is 1 when
a check answers anything but 304 while nothing changed, or misses a change.
--smoke: 10 phones, 4 cycles, a save every 2 (CI's size).
"""

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
tmp = tempfile.mkdtemp()
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
os.environ.setdefault("DEBUG", "1")
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.baseline import hello_world_ms, ratio  # noqa: E402
from scorekeeper.games import services  # noqa: E402
from scorekeeper.portable.start_fields import SideSpec  # noqa: E402
from scorekeeper.rounds.services import round_record  # noqa: E402

POLL_SECONDS = 2
ETAG = re.compile(r'data-etag="([^"]+)"')
SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


def wire_bytes(response) -> int:
    """Status line, headers and body as HTTP/1.1 sends them."""
    status = f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n".encode()
    return len(status) + len(response.serialize_headers()) + 4 + len(response.content)


class Timed:
    def __init__(self) -> None:
        self.ms: list[float] = []
        self.bytes: list[int] = []
        self.queries: list[int] = []

    def run(self, call):
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = call()
            self.ms.append((time.perf_counter() - start) * 1000)
        self.bytes.append(wire_bytes(response))
        self.queries.append(len(queries))
        return response

    def line(self, what: str, hello: float) -> str:
        if not self.ms:
            return f"{what}: none"
        ms = statistics.median(self.ms)
        p95 = statistics.quantiles(self.ms, n=20)[-1] if len(self.ms) > 1 else ms
        return (
            f"{what}: {len(self.ms)} requests, median {ms:.2f} ms, p95 {p95:.2f} ms "
            f"{ratio(ms, hello)}; {statistics.median(self.bytes):.0f} bytes; "
            f"{statistics.median(self.queries):.0f} queries"
        )


def main(phones: int, cycles: int, save_every: int) -> int:
    call_command("migrate", verbosity=0)
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    for number in range(1, 11):
        round_record(game=game, number=number, ended_by="stock_exhausted", entry=SMALL)
    page_url, state_url = f"/g/{game.public_id}/", f"/g/{game.public_id}/state"
    watchers = []
    for index in range(phones):
        client = Client(HTTP_HOST="localhost")
        if index % 2 == 0:
            client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
        etag = ETAG.search(client.get(page_url).content.decode()).group(1)
        watchers.append([client, etag.replace("&quot;", '"'), index % 2 == 0])
    unchanged_scorer, unchanged_viewer, changed, refresh = Timed(), Timed(), Timed(), Timed()
    whole_page = Timed()
    failures = 0
    saved = 10
    for cycle in range(1, cycles + 1):
        changing = cycle % save_every == 0
        if changing:
            saved += 1
            round_record(game=game, number=saved, ended_by="stock_exhausted", entry=SMALL)
        for watcher in watchers:
            client, etag, scoring = watcher
            timer = changed if changing else (unchanged_scorer if scoring else unchanged_viewer)
            answer = timer.run(
                lambda c=client, e=etag: c.get(state_url, headers={"If-None-Match": e})
            )
            if answer.status_code != (200 if changing else 304):
                failures += 1
                print(f"cycle {cycle}: a check answered {answer.status_code}", file=sys.stderr)
            if answer.status_code == 200:
                page = refresh.run(
                    lambda c=client: c.get(
                        page_url, headers={"HX-Request": "true", "HX-Target": "live"}
                    )
                )
                watcher[1] = ETAG.search(page.content.decode()).group(1).replace("&quot;", '"')
            if cycle == 1:
                whole_page.run(lambda c=client: c.get(page_url))

    hello = hello_world_ms()
    print(f"{phones} phones watching one game of {saved} rounds; {connection.vendor}")
    print(unchanged_viewer.line("check, unchanged, viewer without a cookie (304)", hello))
    print(unchanged_scorer.line("check, unchanged, scoring phone with a session (304)", hello))
    print(changed.line("check after a round was saved (200)", hello))
    print(refresh.line("refresh of the page's live section after a change (200)", hello))
    print(whole_page.line("the game page itself, no ETag (200)", hello))
    per_second = phones / POLL_SECONDS
    check_ms = statistics.median(unchanged_scorer.ms + unchanged_viewer.ms)
    check_bytes = statistics.median(unchanged_scorer.bytes + unchanged_viewer.bytes)
    page_ms, page_bytes = statistics.median(whole_page.ms), statistics.median(whole_page.bytes)
    per_save_ms = phones * (statistics.median(changed.ms) + statistics.median(refresh.ms))
    per_save_bytes = phones * (statistics.median(changed.bytes) + statistics.median(refresh.bytes))
    print(
        f"{phones} phones, a check every {POLL_SECONDS} s each: {per_second:.0f} checks a second, "
        f"{per_second * check_ms:.0f} ms of server time a second "
        f"({per_second * check_ms / 10:.1f}% of one core), "
        f"{per_second * check_bytes / 1024:.1f} KiB a second"
    )
    print(
        f"each saved round: {per_save_ms:.0f} ms of server time and "
        f"{per_save_bytes / 1024:.0f} KiB for all {phones} phones to show it"
    )
    print(
        f"polling the page itself every {POLL_SECONDS} s instead: "
        f"{per_second * page_ms:.0f} ms of server time a second "
        f"({per_second * page_ms / 10:.0f}% of one core), "
        f"{per_second * page_bytes / 1024:.0f} KiB a second "
        f"({page_ms / check_ms:.0f} x the checks' time, "
        f"{page_bytes / check_bytes:.0f} x their bytes)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--save-every", type=int, default=10)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.phones, args.cycles, args.save_every = 10, 4, 2
    sys.exit(main(args.phones, args.cycles, args.save_every))
