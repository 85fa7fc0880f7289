"""Load test: phones scoring games against gunicorn on PostgreSQL, in one of two modes.

Usage: .venv/bin/python bench/load.py [--mode club-night|saturation] [--workers 2*cores+1]
           [--seed 1] [--db-name NAME] [--keep] [--smoke]
       club night:  [--tables 50] [--spectators 30] [--round-every 180] [--minutes 5]
                    [--ramp 60]
       saturation:  [--steps 1,2,4,8,16,32] [--seconds 20] [--presets baskets,four-rounds,...]

--mode club-night (the default): a league's club night as the room lives it. Seeded through the
real services before the server starts (bench/seeding.py's `seed_night`: a league playing the
four-round game in teams of two with 4 * --tables members, a night today with everyone present,
its seating proposed and its games started, one table a game). Then, each a thread of its own
(bench/load_scenarios.py):
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
3. Each phone is a stdlib http.client connection with its own cookies (bench/http_timing.py's
   `Phone`). gunicorn's sync workers close the connection after each answer, so each request
   opens a new one (on loopback, a fraction of a millisecond); redirects are not followed: each
   request is timed on its own.
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
import os
import sys
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.environment import Deployment  # noqa: E402
from bench.http_timing import Tally, hello_capacity, percentile  # noqa: E402
from bench.load_scenarios import club_night, saturation  # noqa: E402
from tests.helpers.app_servers import NEVER_DROPPED  # noqa: E402

PRESETS = ("baskets", "four-rounds", "sevens", "ten-thousand", "cutthroat", "contract")
CLUB_NIGHT_P95_MS = 100  # issue 18's goal for a club night


def parse_args() -> argparse.Namespace:
    """The command line, checked; --smoke sets CI's size."""
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


# -- the report -----------------------------------------------------------------------------


def stored_rounds(ids: list[str]) -> dict[str, int]:
    """The rounds stored, by game public id."""
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
    """Serve the app on a fresh database, run the mode, report; exit 1 when unhealthy."""
    args = parse_args()
    deployment = Deployment.fresh(args.db_name, "load-bench-")
    deployment.migrate()
    deployment.django_setup()
    with deployment.served(args.workers) as base:
        port = urlsplit(base).port
        capacity = hello_capacity(port, 1 if args.smoke else 5)
        run = club_night if args.mode == "club-night" else saturation
        tally, elapsed, what = run(args, port)
    print(
        f"\nBefore the run the server answered {capacity:.0f} hello-world requests/s "
        "(8 clients without pause): the machine's capacity for the cheapest request now."
    )
    healthy = report(tally, elapsed, what, args.workers, deployment.where)
    logged = deployment.log_errors()
    if logged:
        healthy = False
        print("\ngunicorn's log has errors; the last of it:\n" + logged)
    deployment.close(keep=args.keep)
    if not healthy:
        sys.exit("FAIL: requests failed, rounds were refused, lost or doubled, or none was saved.")


if __name__ == "__main__":
    main()
