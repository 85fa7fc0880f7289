"""Load test: phones scoring games against gunicorn on PostgreSQL, in one of two modes.

Usage: .venv/bin/python bench/load.py [--mode club-night|saturation] [--workers 2*cores+1]
           [--seed 1] [--db-name NAME] [--keep] [--smoke]
       club night:  [--tables 50] [--spectators 30] [--round-every 180] [--minutes 5]
                    [--ramp 60]
       saturation:  [--steps 1,2,4,8,16,32] [--seconds 20] [--presets baskets,four-rounds,...]

--mode club-night (the default): a league's club night as the room lives it. Seeded through the
real services before the server starts (bench/pdfs.py's `seed`: a league playing the four-round
game in teams of two with 4 * --tables members, a night today with everyone present, its seating
proposed and its games started, one table a game). Then, each a thread of its own:
- 4 phones a table (200 at 50 tables) open their table's game page and keep it live as
  static/js/app.js does: every 2 s GET /g/<id>/state with If-None-Match (a tick that comes
  while a check is under way is skipped, as app.js does); on a 200 the page's #live section
  fetches the game page again (htmx, "game-changed").
- One of them is the table's scorer: it opens the table's scorer link (the QR code of the
  night's pack) and about every --round-every seconds (uniformly 0.8 to 1.2 times it) enters a
  round with the real flow: GET the round form, two htmx previews (POST with HX-Request, the
  first with one side typed, the second with the whole round), POST the round, GET the game
  page it is sent to. A table whose game is over (four rounds) stops scoring and keeps watching.
- --spectators people off the tables: two in three keep the night page open (htmx polls it
  every 15 s, templates/leagues/night_detail.html), one in three reads the standings, the
  season's and the all-time in turn, reloading every 60 s (the page does not refresh itself:
  60 s is our guess at a person's reload); and the room's screen shows the projector view,
  which refreshes itself every 20 s (leagues/public/projector.py's REFRESH_SECONDS).
Everyone arrives at a random moment of the first --ramp seconds and every interval is drawn
afresh, so that no two phones poll in step: a room, not a thundering herd. The run lasts
--minutes; requests under way then finish and no new one starts.

--mode saturation: how many rounds a second the server saves while p95 stays under 250 ms.
Steps of --steps phones, each phone posting without pause for --seconds a step (the old
load test): it opens the start form of a rule set (--presets, drawn at random), posts it,
opens the game page, then loops: the round form, a round (a valid one from
`scorekeeper.games.demo_rounds.random_round`, written as the form's fields), the game page; a round
form that answers with a redirect means the game is over and the phone starts another. Steps
stop at the first whose p95 reaches 250 ms. The saturation figure is the rounds saved per second
of the highest step whose p95 stayed under 250 ms.

How (both modes):
1. A dedicated PostgreSQL database (--db-name; default scorekeeper_bench_load_<mode>) is
   dropped and created afresh on the server DATABASE_URL names (default
   postgres://postgres@127.0.0.1:5432; the database the URL names is never opened, and
   `scorekeeper` and `test_scorekeeper` are refused), migrated, and its static files collected.
2. gunicorn serves the app (`config.wsgi`, --workers sync workers, default 2 * cores + 1)
   on a free port of 127.0.0.1 as a deployment would: DEBUG off, a throwaway SECRET_KEY, plain
   HTTP (tests/helpers/app_servers.py). REDIS_URL, when set, is passed on.
3. Each phone is a stdlib http.client connection with its own cookies. gunicorn's sync workers
   close the connection after each answer, so each request opens a new one (on loopback, a
   fraction of a millisecond); redirects are not followed: each request is timed on its own.
   Beside the phones one more client asks a hello-world view (no database, the app's whole
   middleware) 5 times a second, and each kind of request's p50 is printed as a multiple of that
   hello-world p50 under the same load. Before the run, 8 clients ask it without pause for 5 s
   (1 s in --smoke): the hello-world requests per second printed say how much of the machine the
   server had at that moment, other work on the cores included.
4. gunicorn is stopped, then the rounds stored are compared, game by game, with the rounds the
   phone was told were saved (a 302 to the game page): a round is *lost* when the phone saw it
   saved and no row exists, *doubled* when more rows exist than saves. A game whose round post
   raised (the phone cannot know whether it was saved) is left out and reported as uncertain.

The client is Python threads on the same machine as gunicorn and PostgreSQL: it shares their
cores (2 here), and its own work is part of the latency measured; its CPU time is printed.
Reported: requests per second, p50/p95/p99 per kind of request and overall, errors (answers
other than 2xx/3xx, and exceptions such as timeouts), rounds refused (a 200 with errors where
a save was expected), games, rounds saved, lost and doubled. The exit status is 1 when a request
failed, a round was refused, lost or doubled, no round was saved, or gunicorn logged an error;
the latencies are printed, never judged. The database is dropped at the end unless --keep.
--smoke (CI's size, each mode within about a minute): club night of 2 tables and 3 spectators
for 15 s with a round every 5 s; saturation in steps of 1 and 3 phones of 4 s on 2 workers.
"""

import argparse
import http.client
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers.app_servers import (  # noqa: E402  (the bench scripts and the tests share it)
    NEVER_DROPPED,
    app_server,
    deployment_env,
    drop_database,
    fresh_database,
    log_has_errors,
    postgres_server,
    prepare,
)

PRESETS = ("baskets", "four-rounds", "sevens", "ten-thousand", "cutthroat", "contract")
TIMEOUT = 30
P95_LIMIT_MS = 250
CLUB_NIGHT_P95_MS = 100  # issue 18's goal for a club night
STATE_EVERY = 2.0  # static/js/app.js
NIGHT_EVERY = 15.0  # templates/leagues/night_detail.html
PROJECTOR_EVERY = 20.0  # leagues/public/projector.py REFRESH_SECONDS
STANDINGS_EVERY = 60.0  # no refresh on the page: a person reloading it
HELLO_EVERY = 0.2
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ROUND_NUMBER = re.compile(r'name="round_number" value="([0-9]+)"')
ETAG = re.compile(r'data-etag="([^"]+)"')


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("club-night", "saturation"), default="club-night")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", help="default scorekeeper_bench_load_<mode>")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--smoke", action="store_true", help="CI's size, about a minute")
    night = parser.add_argument_group("club night")
    night.add_argument("--tables", type=int, default=50, help="4 phones a table")
    night.add_argument("--spectators", type=int, default=30)
    night.add_argument("--round-every", type=float, default=180, help="seconds, per table")
    night.add_argument("--minutes", type=float, default=5)
    night.add_argument("--ramp", type=float, default=60, help="seconds over which all arrive")
    saturation = parser.add_argument_group("saturation")
    saturation.add_argument("--steps", default="1,2,4,8,16,32", help="phones per step")
    saturation.add_argument("--seconds", type=float, default=20, help="per step")
    saturation.add_argument("--presets", default=",".join(PRESETS), help="comma-separated")
    args = parser.parse_args()
    if args.smoke:
        args.workers = 2
        args.tables, args.spectators, args.round_every, args.minutes, args.ramp = 2, 3, 5, 0.25, 2
        args.steps, args.seconds = "1,3", 4
    args.db_name = args.db_name or f"scorekeeper_bench_load_{args.mode.replace('-', '_')}"
    if args.db_name in NEVER_DROPPED:
        parser.error(f"--db-name: {args.db_name} is not a bench's to drop.")
    try:
        args.steps = [int(n) for n in args.steps.split(",")]
    except ValueError:
        parser.error("--steps: whole numbers separated by commas")
    if args.workers < 1 or args.tables < 1 or args.spectators < 0 or min(args.steps) < 1:
        parser.error("Needs at least 1 worker, 1 table and 1 phone a step.")
    if args.round_every <= 0 or args.minutes <= 0 or args.seconds <= 0 or args.ramp < 0:
        parser.error("Times must be positive.")
    args.presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    unknown = set(args.presets) - set(PRESETS)
    if unknown or not args.presets:
        parser.error(f"--presets: choose among {', '.join(PRESETS)}")
    return args


# -- a browser ------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the phones measured and were told, gathered across threads (appends are atomic)."""

    samples: list[tuple[str, float, int]] = field(default_factory=list)  # kind, ms, status
    saved: dict[str, int] = field(default_factory=dict)  # public id -> rounds told saved
    uncertain: set[str] = field(default_factory=set)
    refused: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cpu: float = 0.0  # seconds of this process's CPU while the phones ran


class Browser:
    """One phone's connection and cookies: just what the pages need, cheap on the client."""

    def __init__(self, port: int, tally: Tally):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        self.cookies: dict[str, str] = {}
        self.tally = tally
        self.etag = ""  # the version of the game page last shown, as its live check sends it

    def request(
        self, kind: str, path: str, form: dict | None = None, headers: dict | None = None
    ) -> tuple[int, str, http.client.HTTPMessage | None]:
        """(status, body, headers) of one request; status 0 when it raised."""
        sent = {"Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        try:
            self.connection.request("POST" if form is not None else "GET", path, body, sent)
            answer = self.connection.getresponse()
            text = answer.read().decode(errors="replace")
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()
            self.tally.samples.append((kind, (time.perf_counter() - started) * 1000, 0))
            self.tally.errors.append(f"{kind} {path}: {error!r}")
            return 0, "", None
        self.tally.samples.append((kind, (time.perf_counter() - started) * 1000, answer.status))
        for cookie in answer.headers.get_all("Set-Cookie") or ():
            name, _, value = cookie.split(";", 1)[0].partition("=")
            if value and "max-age=0" not in cookie.lower():
                self.cookies[name.strip()] = value.strip()
            else:
                self.cookies.pop(name.strip(), None)
        if answer.status >= 400:
            self.tally.errors.append(f"{kind} {path}: {answer.status} {text[:200]!r}")
        return answer.status, text, answer.headers


def sleep_until(moment: float, deadline: float) -> bool:
    """Sleep until `moment`; False (at once) when the run ends first."""
    if moment >= deadline:
        return False
    time.sleep(max(0.0, moment - time.monotonic()))
    return time.monotonic() < deadline


def say_hello(port: int, tally: Tally, deadline: float) -> None:
    """The yardstick: a hello-world view asked 5 times a second under the same load."""
    browser = Browser(port, tally)
    while sleep_until(time.monotonic() + HELLO_EVERY, deadline):
        browser.request("GET hello world", "/bench/hello/")


def hello_capacity(port: int, seconds: float) -> float:
    """Hello-world requests per second the stack answers to 8 clients asking without pause:
    what this machine gives the server now, other work included."""
    tally = Tally()
    end = time.monotonic() + seconds

    def ask() -> None:
        browser = Browser(port, tally)
        while time.monotonic() < end:
            browser.request("GET hello world", "/bench/hello/")

    run_threads([(ask, ()) for _ in range(8)], tally)
    return len(tally.samples) / seconds


def random_round(rules, names: list[str], number: int, inputs: list[dict], rng) -> dict:
    """A valid round, likelier to go out for the side whose total asks the smaller meld."""
    from scorekeeper import engine
    from scorekeeper.games.demo_rounds import random_round as demo_round

    totals = engine.game_status(rules, names, inputs).totals if inputs else None
    # With two sides the deal alternates between them, starting with the first side.
    return demo_round(
        rules, names, number=number, rng=rng, dealer_side=(number - 1) % 2, totals=totals
    )


def round_fields(rules, played: dict) -> dict[str, str]:
    from scorekeeper.portable.round_fields import values_from_entry

    return values_from_entry(rules, played["ended_by"], played["sides"])


def errors_in(html: str) -> str:
    found = re.findall(r'class="field-error"[^>]*>([^<]+)<', html)
    return "; ".join(found[:3]) or html[:200]


def open_game(browser: Browser, game: str) -> None:
    """GET the game page; the phone then watches the version it shows."""
    _, html, _ = browser.request("GET game page", game)
    found = ETAG.search(html)
    browser.etag = found.group(1).replace("&quot;", '"') if found else ""


def enter_round(
    browser: Browser, game: str, rules, names: list[str], inputs: list[dict], rng, previews: int
) -> str:
    """One round through the round form: 'saved', 'over' (the form redirects), 'refused' or
    'failed'. `previews` htmx previews go first, as when the round is typed."""
    status, html, _ = browser.request("GET round form", f"{game}rounds/new/")
    if status == 302:
        return "over"
    token, number = TOKEN.search(html), ROUND_NUMBER.search(html)
    if status != 200 or token is None:
        return "failed"
    number = int(number.group(1)) if number else len(inputs) + 1
    played = random_round(rules, names, number, inputs, rng)
    form = round_fields(rules, played)
    form.update({"csrfmiddlewaretoken": token.group(1), "round_number": str(number)})
    typed = list(form.items())
    for step in range(previews):
        # The first side typed, then the whole round: what the form holds as fingers move.
        part = dict(typed[: len(typed) * (step + 1) // previews])
        part.update({"csrfmiddlewaretoken": token.group(1), "round_number": str(number)})
        browser.request("POST preview", f"{game}rounds/new/", part, {"HX-Request": "true"})
    public_id = game.strip("/").split("/")[-1]
    status, html, headers = browser.request("POST round", f"{game}rounds/new/", form)
    if status == 0:
        browser.tally.uncertain.add(public_id)  # saved or not, the phone cannot tell
        return "failed"
    if status == 302 and headers["Location"] == game:
        browser.tally.saved[public_id] = browser.tally.saved.get(public_id, 0) + 1
        inputs.append(played)
        open_game(browser, game)
        return "saved"
    if status == 200:
        browser.tally.refused.append(f"{game} round {number}: {errors_in(html)}")
        return "refused"
    return "failed"


# -- club night -----------------------------------------------------------------------------


@dataclass
class Table:
    game: str  # /g/<public id>/
    join: str  # the scorer link
    names: list[str]
    rules: object


def seed_night(args) -> tuple[list[Table], dict[str, str]]:
    """The night's tables, and the spectators' pages (bench/pdfs.py seeds the night)."""
    from django.urls import reverse

    from bench.pdfs import seed
    from scorekeeper.games.scoring import game_ruleset

    seeded = seed(argparse.Namespace(tables=args.tables, seed=args.seed))
    league, night = seeded["league"], seeded["night"]
    tables = []
    for league_game in night.games.select_related("game").order_by("table"):
        game = league_game.game
        tables.append(
            Table(
                game=reverse("game_detail", args=[game.public_id]),
                join=reverse("game_join", args=[game.public_id, game.scorer_token]),
                names=[side.name for side in game.sides.all()],
                rules=game_ruleset(game),
            )
        )
    season = league.seasons.get()
    pages = {
        "night": reverse("leagues:night", args=[league.slug, night.pk]),
        "projector": reverse("leagues:night_projector", args=[league.slug, night.pk]),
        "season standings": reverse("leagues:season_standings", args=[league.slug, season.pk]),
        "all-time standings": reverse("leagues:standings", args=[league.slug]),
    }
    return tables, pages


def watch_game(
    port: int, tally: Tally, table: Table, scorer: bool, args, rng, start: float, end: float
) -> None:
    """A phone at a table: its game page kept live, and for the scorer a round now and then."""
    browser = Browser(port, tally)
    if not sleep_until(start + rng.uniform(0, args.ramp), end):
        return
    if scorer:
        browser.request("GET scorer link", table.join)
    open_game(browser, table.game)
    now = time.monotonic()
    next_check = now + rng.uniform(0, STATE_EVERY)
    next_round = now + rng.uniform(0, args.round_every) if scorer else float("inf")
    inputs: list[dict] = []
    while sleep_until(min(next_check, next_round), end):
        if time.monotonic() >= next_round:
            outcome = enter_round(browser, table.game, table.rules, table.names, inputs, rng, 2)
            next_round = (
                time.monotonic() + args.round_every * rng.uniform(0.8, 1.2)
                if outcome == "saved"
                else float("inf")
            )
            continue
        # setInterval's ticks: one that comes while a check is under way is skipped
        # (app.js's `checking`), so a slow server is asked less, never more.
        now = time.monotonic()
        while next_check <= now:
            next_check += STATE_EVERY
        status, _, headers = browser.request(
            "GET state", f"{table.game}state", headers={"If-None-Match": browser.etag}
        )
        if status == 200:
            browser.etag = headers.get("ETag", "")
            # htmx fetches the page again for its #live section.
            browser.request("GET game page (live)", table.game, headers={"HX-Request": "true"})


def spectate(
    port: int, tally: Tally, page: str, url: str, every: float, rng, args, start: float, end: float
) -> None:
    """Someone following a page: opened once, then refreshed every `every` seconds (htmx's
    poll of the night page and the projector, a person's reload of the standings)."""
    browser = Browser(port, tally)
    if not sleep_until(start + rng.uniform(0, args.ramp), end):
        return
    browser.request(f"GET {page}", url)
    polled = page in ("night", "projector")
    while sleep_until(time.monotonic() + every * rng.uniform(0.9, 1.1), end):
        if polled:
            browser.request(f"GET {page} (poll)", url, headers={"HX-Request": "true"})
        else:
            browser.request(f"GET {page}", url)


def club_night(args, port: int) -> tuple[Tally, float, str]:
    tables, pages = seed_night(args)
    from django.db import connections

    connections.close_all()
    tally = Tally()
    start = time.monotonic()
    end = start + args.minutes * 60
    threads = []
    for n, table in enumerate(tables):
        for seat in range(4):
            rng = random.Random(args.seed * 100_003 + n * 4 + seat)
            threads.append(
                (watch_game, (port, tally, table, seat == 0, args, rng, start, end)),
            )
    for n in range(args.spectators):
        rng = random.Random(args.seed * 7_919 + n)
        if n % 3 == 2:
            page = "season standings" if n % 2 else "all-time standings"
            every = STANDINGS_EVERY
        else:
            page, every = "night", NIGHT_EVERY
        threads.append((spectate, (port, tally, page, pages[page], every, rng, args, start, end)))
    screen = random.Random(args.seed)
    threads.append(
        (
            spectate,
            (
                port,
                tally,
                "projector",
                pages["projector"],
                PROJECTOR_EVERY,
                screen,
                args,
                start,
                end,
            ),
        )
    )
    threads.append((say_hello, (port, tally, end)))
    print(
        f"Club night: {len(tables)} tables ({4 * len(tables)} phones, a round about every "
        f"{args.round_every:g} s a table), {args.spectators} spectators and the room's screen, "
        f"for {args.minutes:g} min ...",
        flush=True,
    )
    run_threads(threads, tally)
    return (
        tally,
        time.monotonic() - start,
        f"club night of {len(tables)} tables, {args.spectators} spectators",
    )


def run_threads(targets: list, tally: Tally) -> None:
    """Run each (function, arguments) in a thread until all end; the client's CPU time is added
    to the tally."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    threads = [threading.Thread(target=t, args=a, daemon=True) for t, a in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = resource.getrusage(resource.RUSAGE_SELF)
    tally.cpu += after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


# -- saturation -----------------------------------------------------------------------------


def start_fields(rules) -> tuple[list[str], dict[str, str]]:
    """Two sides (teams of two where the rule set plays teams), the first player deals."""
    from scorekeeper.games.entry import team_size

    if team_size(rules) == 1:
        return ["Ann", "Bob"], {
            "side0-player0": "Ann",
            "side1-player0": "Bob",
            "first_dealer": "0-0",
        }
    form = {
        "side0-player0": "Ann",
        "side0-player1": "Cy",
        "side1-player0": "Bob",
        "side1-player1": "Di",
        "first_dealer": "0-0",
    }
    return ["Ann & Cy", "Bob & Di"], form


def score_games(port: int, tally: Tally, presets: list[str], rng, end: float) -> None:
    """A phone scoring game after game without pause until `end`."""
    from scorekeeper import engine

    browser = Browser(port, tally)
    while time.monotonic() < end:
        preset = rng.choice(presets)
        rules = engine.RULESETS[preset]
        status, html, _ = browser.request("GET start form", f"/games/new/{preset}/")
        token = TOKEN.search(html)
        if status != 200 or token is None or time.monotonic() >= end:
            continue
        names, form = start_fields(rules)
        form["csrfmiddlewaretoken"] = token.group(1)
        status, _, headers = browser.request("POST start form", f"/games/new/{preset}/", form)
        if status != 302:
            continue
        game = headers["Location"]
        tally.saved[game.strip("/").split("/")[-1]] = 0
        open_game(browser, game)
        inputs: list[dict] = []
        while time.monotonic() < end:
            if enter_round(browser, game, rules, names, inputs, rng, 0) != "saved":
                break


def saturation(args, port: int) -> tuple[Tally, float, str]:
    total = Tally()
    steps = []
    # Each worker's first pages compile their templates: a few seconds of one phone, uncounted.
    warm_up = time.monotonic() + min(3.0, args.seconds)
    idle = Tally()
    run_threads([(score_games, (port, idle, args.presets, random.Random(0), warm_up))], idle)
    print(f"Saturation: steps of {args.steps} phones, {args.seconds:g} s each ...", flush=True)
    for phones in args.steps:
        tally = Tally()
        start = time.monotonic()
        end = start + args.seconds
        targets = [
            (score_games, (port, tally, args.presets, random.Random(args.seed * 100_003 + n), end))
            for n in range(phones)
        ]
        run_threads([*targets, (say_hello, (port, tally, end))], tally)
        elapsed = time.monotonic() - start
        ms = [ms for kind, ms, _ in tally.samples if kind != "GET hello world"]
        rounds = sum(
            1 for kind, _, status in tally.samples if kind == "POST round" and status == 302
        )
        p95 = percentile(ms, 0.95)
        steps.append((phones, rounds / elapsed, p95))
        print(
            f"  {phones:>3} phones: {rounds / elapsed:6.1f} rounds/s, {len(ms) / elapsed:6.1f} "
            f"requests/s, p50 {percentile(ms, 0.5):5.0f} ms, p95 {p95:5.0f} ms",
            flush=True,
        )
        for name in ("samples", "refused", "errors"):
            getattr(total, name).extend(getattr(tally, name))
        total.saved.update(tally.saved)
        total.cpu += tally.cpu
        total.uncertain.update(tally.uncertain)
        if p95 >= P95_LIMIT_MS:
            break
    under = [step for step in steps if step[2] < P95_LIMIT_MS]
    if under:
        phones, rate, p95 = max(under, key=lambda step: step[1])
        figure = f"{rate:.1f} rounds/s at {phones} phones (p95 {p95:.0f} ms)"
    else:
        figure = f"none: p95 reached {P95_LIMIT_MS} ms at the first step"
    print(f"Saturation figure (rounds saved per second while p95 < {P95_LIMIT_MS} ms): {figure}")
    elapsed = sum(args.seconds for _ in steps)
    return total, elapsed, f"saturation steps of {', '.join(str(s[0]) for s in steps)} phones"


# -- the report -----------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def stored_rounds(ids: list[str]) -> dict[str, int]:
    from django.db.models import Count

    from scorekeeper.models import Game

    rows = Game.objects.filter(public_id__in=ids).annotate(n=Count("rounds"))
    return {row.public_id: row.n for row in rows}


def report(tally: Tally, elapsed: float, what: str, workers: int, where: str) -> bool:
    """Print the figures; True when nothing failed, was refused, lost or doubled."""
    samples = [s for s in tally.samples if s[0] != "GET hello world"]
    ms = [s[1] for s in samples]
    errors = [s for s in tally.samples if s[2] == 0 or s[2] >= 400]
    stored = stored_rounds(list(tally.saved))
    lost = doubled = 0
    for gid, n in tally.saved.items():
        if gid in tally.uncertain:
            continue
        have = stored.get(gid, 0)
        lost += max(0, n - have)
        doubled += max(0, have - n)

    print()
    print(f"Load: {what}, gunicorn with {workers} sync workers on {where}.")
    print(
        f"{os.cpu_count()} CPU cores shared by the phones, the server and the database; the "
        f"phones' own CPU time: {tally.cpu:.1f} s in {elapsed:.0f} s "
        f"({100 * tally.cpu / elapsed:.0f}% of a core)."
    )
    print(
        "Load average of the machine (1, 5, 15 min) at the end: "
        + ", ".join(f"{n:.1f}" for n in os.getloadavg())
        + " (above 2, other work shared the cores)"
    )
    print()
    print(
        f"Requests          {len(samples):>8}  in {elapsed:.1f} s, {len(samples) / elapsed:.1f}/s"
    )
    by_kind: dict[str, list[float]] = defaultdict(list)
    for kind, value, _ in tally.samples:
        by_kind[kind].append(value)
    hello = percentile(by_kind.get("GET hello world", []), 0.5)
    print(f"{'Latency (ms)':<26}{'count':>7}{'p50':>7}{'p95':>7}{'p99':>7}   p50 / hello world")
    rows = [("all but hello world", ms)] + sorted(by_kind.items())
    for kind, values in rows:
        print(
            f"  {kind:<24}{len(values):>7}{percentile(values, 0.5):>7.0f}"
            f"{percentile(values, 0.95):>7.0f}{percentile(values, 0.99):>7.0f}"
            f"{percentile(values, 0.5) / hello:>10.1f} x"
        )
    print(f"Hello world p50   {hello:>8.1f} ms under the same load")
    print(f"Errors            {len(errors):>8}  (answers 4xx/5xx and exceptions)")
    print(
        f"Rounds refused    {len(tally.refused):>8}  (a 200 with errors where a save was expected)"
    )
    print(f"Games             {len(tally.saved):>8}")
    print(f"Rounds saved      {sum(tally.saved.values()):>8}  (302 answers to a round post)")
    print(f"Rounds stored     {sum(stored.values()):>8}")
    print(f"Rounds lost       {lost:>8}")
    print(f"Rounds doubled    {doubled:>8}")
    if tally.uncertain:
        print(
            f"Games left out    {len(tally.uncertain):>8}  "
            "(a round post raised: saved or not unknown)"
        )
    for line in tally.errors[:5] + tally.refused[:5]:
        print("  ", line)
    saved = sum(tally.saved.values())
    healthy = saved > 0 and not errors and not tally.refused and lost == 0 and doubled == 0
    if what.startswith("club night"):
        p95 = percentile(ms, 0.95)
        met = healthy and p95 < CLUB_NIGHT_P95_MS
        print(
            f"Club-night goal (p95 < {CLUB_NIGHT_P95_MS} ms, 0 errors, 0 rounds lost or doubled): "
            f"{'met' if met else 'not met'} (p95 {p95:.0f} ms)"
        )
    return healthy


def main() -> None:
    args = parse_args()
    database_url, where = fresh_database(postgres_server(), args.db_name)
    scratch = Path(tempfile.mkdtemp(prefix="load-bench-"))
    env = deployment_env(database_url, scratch, hello_world=True)
    print(f"Migrating {where} ...", flush=True)
    prepare(env)
    os.environ.update({"DATABASE_URL": database_url, "DEBUG": "1"})
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    log = scratch / "gunicorn.log"
    with ExitStack() as stack:
        base = stack.enter_context(app_server(env, log, workers=args.workers))
        port = urlsplit(base).port
        capacity = hello_capacity(port, 1 if args.smoke else 5)
        run = club_night if args.mode == "club-night" else saturation
        tally, elapsed, what = run(args, port)
    print(
        f"\nBefore the run the server answered {capacity:.0f} hello-world requests/s "
        "(8 clients without pause): the machine's capacity for the cheapest request now."
    )
    healthy = report(tally, elapsed, what, args.workers, where)
    if log_has_errors(log):
        healthy = False
        written = log.read_text(errors="replace")
        print("\ngunicorn's log has errors; the last of it:\n" + written[-3000:])
    from django.db import connections

    connections.close_all()
    if not args.keep:
        drop_database(postgres_server(), args.db_name)
    shutil.rmtree(scratch, ignore_errors=True)
    if not healthy:
        sys.exit("FAIL: requests failed, rounds were refused, lost or doubled, or none was saved.")


if __name__ == "__main__":
    main()
