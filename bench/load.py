"""Load test: N simulated phones scoring games against gunicorn on PostgreSQL, for a fixed time.

Usage: .venv/bin/python bench/load.py [--phones 50] [--seconds 60] [--workers 2*cores+1]
                                      [--presets baskets,four-rounds,...] [--seed 1]
                                      [--db-name scorekeeper_bench_load] [--keep] [--smoke]

What it does:
1. Creates a dedicated PostgreSQL database, `scorekeeper_bench_load` (--db-name), dropped and
   created afresh on the server DATABASE_URL names (default postgres://postgres@127.0.0.1:5432;
   the database the URL names is never opened), and migrates it with manage.py.
2. Serves the app with gunicorn (`scorekeeper.wsgi`, --workers sync workers, default 2 * cores
   + 1) on a free port of 127.0.0.1, as a deployment would: DEBUG off, a throwaway SECRET_KEY,
   ALLOWED_HOSTS=127.0.0.1 and plain HTTP (SECURE_SSL_REDIRECT, SESSION_COOKIE_SECURE,
   CSRF_COOKIE_SECURE and HSTS off), static files collected by `collectstatic` into a temporary
   directory (a settings module written there imports the real settings and moves STATIC_ROOT
   only, so nothing in the project is written).
3. Runs --phones threads for --seconds. Each phone is a browser with its own cookie jar (stdlib
   urllib and http.cookiejar): it opens the start form of a rule set (--presets, drawn at
   random), posts it with the form's CSRF token, opens the game page, then loops: open the round
   form, post a round (a valid one from `scorekeeper.demo_rounds.random_round`, written as the
   form's fields by `scorekeeper.round_entry.values_from_entry`, with the form's round_number),
   open the game page. When the round form answers with a redirect the game is over and the
   phone starts a new one. Redirects are not followed: each request is timed on its own.
   When the time is up, requests under way finish; no new one starts.
4. Stops gunicorn, then compares, game by game, the rounds stored with the rounds the phone was
   told were saved (a 302 to the game page): a round is *lost* when the phone saw it saved and
   no row exists, *doubled* when more rows exist than saves. A game whose round post failed
   (an exception: the phone cannot know whether it was saved) is left out of that count and
   reported as uncertain.

Reported: requests and requests per second, the p50, p95 and p99 latency (overall and per kind
of request), errors (answers other than 2xx/3xx, and exceptions such as timeouts), rounds refused
(a 200 with errors where a save was expected: a bug in the phone's round, or in the app), games
started and rounds saved, and rounds lost or doubled. The client is Python threads on the same
machine as the server and the database: with many phones on few cores the client's own work is
part of the latency measured. Beside them one more client asks a hello-world view (no database,
the app's whole middleware) over and over, and each kind of request's p50 is printed as a
multiple of that hello-world p50 under the same load. The database is dropped at the end unless
--keep. The exit status is 1 when a request failed, a round was refused, lost or doubled, or
gunicorn logged an error. --smoke: 5 phones for 3 seconds on 2 workers (CI's size).
"""

import argparse
import http.cookiejar
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import server as app_server  # noqa: E402  (shared by the HTTP benches)
from bench.standings import postgres_database  # noqa: E402

PRESETS = ("baskets", "four-rounds", "sevens", "ten-thousand", "cutthroat", "contract")
TIMEOUT = 30
KINDS = ("GET start form", "POST start form", "GET game page", "GET round form", "POST round")
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ROUND_NUMBER = re.compile(r'name="round_number" value="([0-9]+)"')


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db-name", default="scorekeeper_bench_load")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--smoke", action="store_true", help="5 phones, 3 s, 2 workers: for CI")
    args = parser.parse_args()
    if args.smoke:
        args.phones, args.seconds, args.workers = 5, 3, 2
    if args.phones < 1 or args.seconds <= 0 or args.workers < 1:
        parser.error("Needs at least 1 phone, 1 worker and a positive time.")
    args.presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    unknown = set(args.presets) - set(PRESETS)
    if unknown or not args.presets:
        parser.error(f"--presets: choose among {', '.join(PRESETS)}")
    return args


# -- the phones -----------------------------------------------------------------------------


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # a redirect comes back as the answer, to be timed on its own


@dataclass
class Sample:
    kind: str
    seconds: float
    status: int  # 0: an exception


@dataclass
class Phone:
    """One browser: its cookie jar, what it measured and what it was told it saved."""

    base: str
    presets: list[str]
    rng: random.Random
    deadline: float
    samples: list[Sample] = field(default_factory=list)
    saved: dict[str, int] = field(default_factory=dict)  # public id -> rounds told saved
    uncertain: set[str] = field(default_factory=set)
    refused: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __post_init__(self):
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def request(self, kind: str, path: str, data: dict | None = None) -> tuple[int, str, str]:
        """(status, body, Location) of one request; status 0 when it raised."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        started = time.perf_counter()
        try:
            with self.opener.open(self.base + path, body, timeout=TIMEOUT) as answer:
                status, text, location = answer.status, answer.read().decode(), ""
        except urllib.error.HTTPError as answer:
            status, location = answer.code, answer.headers.get("Location", "")
            text = answer.read().decode(errors="replace")
        except OSError as error:
            self.samples.append(Sample(kind, time.perf_counter() - started, 0))
            self.errors.append(f"{kind} {path}: {error!r}")
            return 0, "", ""
        self.samples.append(Sample(kind, time.perf_counter() - started, status))
        if status >= 400:
            self.errors.append(f"{kind} {path}: {status} {text[:200]!r}")
        return status, text, location

    def run(self) -> None:
        while time.monotonic() < self.deadline:
            self.play_a_game()

    def say_hello(self) -> None:
        """The yardstick: a hello-world view asked again and again under the same load."""
        while time.monotonic() < self.deadline:
            self.request("GET hello world", "/bench/hello/")

    def play_a_game(self) -> None:
        from scorekeeper import engine

        preset = self.rng.choice(self.presets)
        rules = engine.RULESETS[preset]
        status, html, _ = self.request("GET start form", f"/games/new/{preset}/")
        token = TOKEN.search(html)
        if status != 200 or token is None:
            return
        names, form = start_fields(rules)
        form["csrfmiddlewaretoken"] = token.group(1)
        status, html, location = self.request("POST start form", f"/games/new/{preset}/", form)
        if status != 302 or time.monotonic() >= self.deadline:
            return
        public_id = location.strip("/").split("/")[-1]
        self.saved[public_id] = 0
        self.request("GET game page", location)
        inputs: list[dict] = []
        while time.monotonic() < self.deadline:
            status, html, _ = self.request("GET round form", f"/g/{public_id}/rounds/new/")
            if status == 302:
                return  # the game is over
            token, number = TOKEN.search(html), ROUND_NUMBER.search(html)
            if status != 200 or token is None:
                return
            number = int(number.group(1)) if number else len(inputs) + 1
            played = random_round(rules, names, number, inputs, self.rng)
            form = round_fields(rules, played)
            form.update({"csrfmiddlewaretoken": token.group(1), "round_number": str(number)})
            if time.monotonic() >= self.deadline:
                return
            status, html, location = self.request("POST round", f"/g/{public_id}/rounds/new/", form)
            if status == 0:
                self.uncertain.add(public_id)  # saved or not, the phone cannot tell
                return
            if status == 302 and location == f"/g/{public_id}/":
                self.saved[public_id] += 1
                inputs.append(played)
            elif status == 200:
                self.refused.append(f"{preset} round {number}: {errors_in(html)}")
                return
            else:
                return
            self.request("GET game page", location)


def start_fields(rules) -> tuple[list[str], dict[str, str]]:
    """Two sides (teams of two where the rule set plays teams), the first player deals."""
    from scorekeeper.game_entry import team_size

    if team_size(rules) == 1:
        form = {"side0-player0": "Ann", "side1-player0": "Bob"}
        names = ["Ann", "Bob"]
    else:
        form = {
            "side0-player0": "Ann",
            "side0-player1": "Cy",
            "side1-player0": "Bob",
            "side1-player1": "Di",
        }
        names = ["Ann & Cy", "Bob & Di"]
    form["first_dealer"] = "0-0"
    return names, form


def random_round(rules, names: list[str], number: int, inputs: list[dict], rng) -> dict:
    """A valid round, likelier to go out for the side whose total asks the smaller meld."""
    from scorekeeper import engine
    from scorekeeper.demo_rounds import random_round as demo_round

    totals = engine.game_status(rules, names, inputs).totals if inputs else None
    # With two sides the deal alternates between them, starting with the first side.
    return demo_round(
        rules, names, number=number, rng=rng, dealer_side=(number - 1) % 2, totals=totals
    )


def round_fields(rules, played: dict) -> dict[str, str]:
    from scorekeeper.round_entry import values_from_entry

    return values_from_entry(rules, played["ended_by"], played["sides"])


def errors_in(html: str) -> str:
    found = re.findall(r'class="field-error"[^>]*>([^<]+)<', html)
    return "; ".join(found[:3]) or html[:200]


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


def report(
    args, phones: list[Phone], greeter: Phone, elapsed: float, workers: int, where: str
) -> bool:
    """Print the figures; True when nothing failed, was refused, lost or doubled."""
    samples = [s for phone in phones for s in phone.samples]
    ms = [s.seconds * 1000 for s in samples]
    errors = [s for s in samples + greeter.samples if s.status == 0 or s.status >= 400]
    told = {gid: n for phone in phones for gid, n in phone.saved.items()}
    uncertain = {gid for phone in phones for gid in phone.uncertain}
    stored = stored_rounds(list(told))
    lost = doubled = 0
    for gid, n in told.items():
        if gid in uncertain:
            continue
        have = stored.get(gid, 0)
        lost += max(0, n - have)
        doubled += max(0, have - n)
    refused = [line for phone in phones for line in phone.refused]

    print(
        f"Load: {args.phones} phones for {args.seconds:g} s, gunicorn with {workers} sync workers"
    )
    print(f"on {where}.")
    print(f"{os.cpu_count()} CPU cores shared by the phones, the server and the database.")
    print()
    print(f"Requests          {len(samples):>8}  in {elapsed:.1f} s")
    print(f"Requests/second   {len(samples) / elapsed:>8.1f}")
    print(
        f"Latency (ms)      p50 {percentile(ms, 0.5):.0f}   p95 {percentile(ms, 0.95):.0f}   "
        f"p99 {percentile(ms, 0.99):.0f}   max {max(ms, default=float('nan')):.0f}"
    )
    by_kind: dict[str, list[float]] = defaultdict(list)
    for s in samples + greeter.samples:
        by_kind[s.kind].append(s.seconds * 1000)
    for kind in KINDS:
        if kind in by_kind:
            values = by_kind[kind]
            print(
                f"  {kind:<16}{len(values):>7}  p50 {percentile(values, 0.5):>5.0f}   "
                f"p95 {percentile(values, 0.95):>5.0f}   p99 {percentile(values, 0.99):>5.0f}"
            )
    hello = by_kind.get("GET hello world", [])
    if hello:
        base = percentile(hello, 0.5)
        print(f"Hello world       {len(hello):>8}  p50 {base:.1f} ms under the same load; p50 is")
        for kind in KINDS:
            if kind in by_kind:
                print(f"  {kind:<16}{percentile(by_kind[kind], 0.5) / base:>7.1f} x hello world")
    print(f"Errors            {len(errors):>8}  (answers 4xx/5xx and exceptions)")
    print(f"Rounds refused    {len(refused):>8}  (a 200 with errors where a save was expected)")
    print(f"Games started     {len(told):>8}")
    print(f"Rounds saved      {sum(told.values()):>8}  (302 answers to a round post)")
    print(f"Rounds stored     {sum(stored.values()):>8}")
    print(f"Rounds lost       {lost:>8}")
    print(f"Rounds doubled    {doubled:>8}")
    if uncertain:
        print(f"Games left out    {len(uncertain):>8}  (a round post raised: saved or not unknown)")
    shown = [line for phone in [*phones, greeter] for line in phone.errors][:5] + refused[:5]
    for line in shown:
        print("  ", line)
    return bool(told) and not errors and not refused and lost == 0 and doubled == 0


def main() -> None:
    args = parse_args()
    database_url, where = postgres_database(app_server.server_url(), args.db_name)
    scratch = Path(tempfile.mkdtemp(prefix="load-bench-"))
    env = app_server.server_env(database_url, scratch)
    print(f"Migrating {where} ...", flush=True)
    app_server.prepare(env)
    os.environ.update({"DATABASE_URL": database_url, "DEBUG": "1"})
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    import django

    django.setup()
    port = app_server.free_port()
    server = app_server.start_gunicorn(env, port, args.workers, scratch / "gunicorn.log")
    try:
        started = time.monotonic()
        deadline = started + args.seconds
        phones = [
            Phone(
                f"http://127.0.0.1:{port}",
                args.presets,
                random.Random(args.seed * 100_003 + n),
                deadline,
            )
            for n in range(args.phones)
        ]
        greeter = Phone(f"http://127.0.0.1:{port}", args.presets, random.Random(0), deadline)
        threads = [threading.Thread(target=phone.run, daemon=True) for phone in phones]
        threads.append(threading.Thread(target=greeter.say_hello, daemon=True))
        print(f"{args.phones} phones scoring for {args.seconds:g} s ...", flush=True)
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
    finally:
        app_server.stop(server)
    log = scratch / "gunicorn.log"
    print()
    healthy = report(args, phones, greeter, elapsed, args.workers, where)
    if app_server.log_has_errors(log):
        healthy = False
        print("\ngunicorn's log has errors; the last of it:\n" + log.read_text()[-3000:])
    from django.db import connections

    connections.close_all()
    if not args.keep:
        app_server.drop(app_server.server_url(), args.db_name)
    shutil.rmtree(scratch, ignore_errors=True)
    if not healthy:
        sys.exit("FAIL: requests failed, rounds were refused, lost or doubled, or none was saved.")


if __name__ == "__main__":
    main()
