"""What the phones of bench/load.py do: enter rounds through the round form as a scorer does,
keep a game page live as static/js/app.js does, follow a page as a spectator does; and the two
modes that set them going, a club night and the saturation steps."""

import random
import re
import time
from dataclasses import dataclass

from bench.http_timing import (
    TOKEN,
    Phone,
    Tally,
    percentile,
    run_threads,
    say_hello,
    sleep_until,
)
from bench.seeding import seed_night

P95_LIMIT_MS = 250
STATE_EVERY = 2.0  # static/js/app.js
NIGHT_EVERY = 15.0  # templates/leagues/night_detail.html
PROJECTOR_EVERY = 20.0  # leagues/public/projector.py REFRESH_SECONDS
STANDINGS_EVERY = 60.0  # no refresh on the page: a person reloading it
ROUND_NUMBER = re.compile(r'name="round_number" value="([0-9]+)"')
ETAG = re.compile(r'data-etag="([^"]+)"')


# -- a round, through the round form ----------------------------------------------------------


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
    """The round form's fields for a round as demo_rounds plays it."""
    from scorekeeper.portable.round_fields import values_from_entry

    return values_from_entry(rules, played["ended_by"], played["sides"])


def errors_in(html: str) -> str:
    """The first errors a refused round form shows, else the start of the page."""
    found = re.findall(r'class="field-error"[^>]*>([^<]+)<', html)
    return "; ".join(found[:3]) or html[:200]


def open_game(phone: Phone, game: str) -> None:
    """GET the game page; the phone then watches the version it shows."""
    _, html, _ = phone.request("GET game page", game)
    found = ETAG.search(html)
    phone.etag = found.group(1).replace("&quot;", '"') if found else ""


def enter_round(
    phone: Phone, game: str, rules, names: list[str], inputs: list[dict], rng, previews: int
) -> str:
    """One round through the round form: 'saved', 'over' (the form redirects), 'refused' or
    'failed'. `previews` htmx previews go first, as when the round is typed."""
    status, html, _ = phone.request("GET round form", f"{game}rounds/new/")
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
        phone.request("POST preview", f"{game}rounds/new/", part, {"HX-Request": "true"})
    public_id = game.strip("/").split("/")[-1]
    status, html, headers = phone.request("POST round", f"{game}rounds/new/", form)
    if status == 0:
        phone.tally.uncertain.add(public_id)  # saved or not, the phone cannot tell
        return "failed"
    if status == 302 and headers["Location"] == game:
        phone.tally.saved[public_id] = phone.tally.saved.get(public_id, 0) + 1
        inputs.append(played)
        open_game(phone, game)
        return "saved"
    if status == 200:
        phone.tally.refused.append(f"{game} round {number}: {errors_in(html)}")
        return "refused"
    return "failed"


# -- club night -----------------------------------------------------------------------------


@dataclass
class Table:
    """One table of the night, as its phones know it."""

    game: str  # /g/<public id>/
    join: str  # the scorer link
    names: list[str]
    rules: object


def night_tables(args) -> tuple[list[Table], dict[str, str]]:
    """The night's tables, seeded, and the spectators' pages."""
    from django.urls import reverse

    from scorekeeper.games.scoring import game_ruleset

    seeded = seed_night(args.tables)
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
    phone = Phone(port, tally)
    if not sleep_until(start + rng.uniform(0, args.ramp), end):
        return
    if scorer:
        phone.request("GET scorer link", table.join)
    open_game(phone, table.game)
    now = time.monotonic()
    next_check = now + rng.uniform(0, STATE_EVERY)
    next_round = now + rng.uniform(0, args.round_every) if scorer else float("inf")
    inputs: list[dict] = []
    while sleep_until(min(next_check, next_round), end):
        if time.monotonic() >= next_round:
            outcome = enter_round(phone, table.game, table.rules, table.names, inputs, rng, 2)
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
        status, _, headers = phone.request(
            "GET state", f"{table.game}state", headers={"If-None-Match": phone.etag}
        )
        if status == 200:
            phone.etag = headers.get("ETag", "")
            # htmx fetches the page again for its #live section.
            phone.request("GET game page (live)", table.game, headers={"HX-Request": "true"})


def spectate(
    port: int, tally: Tally, page: str, url: str, every: float, rng, args, start: float, end: float
) -> None:
    """Someone following a page: opened once, then refreshed every `every` seconds (htmx's
    poll of the night page and the projector, a person's reload of the standings)."""
    phone = Phone(port, tally)
    if not sleep_until(start + rng.uniform(0, args.ramp), end):
        return
    phone.request(f"GET {page}", url)
    polled = page in ("night", "projector")
    while sleep_until(time.monotonic() + every * rng.uniform(0.9, 1.1), end):
        if polled:
            phone.request(f"GET {page} (poll)", url, headers={"HX-Request": "true"})
        else:
            phone.request(f"GET {page}", url)


def club_night(args, port: int) -> tuple[Tally, float, str]:
    """The club night against the server on `port`: the tally, its seconds, what ran."""
    tables, pages = night_tables(args)
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


# -- saturation -----------------------------------------------------------------------------


def start_fields(rules) -> tuple[list[str], dict[str, str]]:
    """Two sides (teams of two where the rule set plays teams), the first player deals."""
    from scorekeeper.portable.start_fields import team_size

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

    phone = Phone(port, tally)
    while time.monotonic() < end:
        preset = rng.choice(presets)
        rules = engine.RULESETS[preset]
        status, html, _ = phone.request("GET start form", f"/games/new/{preset}/")
        token = TOKEN.search(html)
        if status != 200 or token is None or time.monotonic() >= end:
            continue
        names, form = start_fields(rules)
        form["csrfmiddlewaretoken"] = token.group(1)
        status, _, headers = phone.request("POST start form", f"/games/new/{preset}/", form)
        if status != 302:
            continue
        game = headers["Location"]
        tally.saved[game.strip("/").split("/")[-1]] = 0
        open_game(phone, game)
        inputs: list[dict] = []
        while time.monotonic() < end:
            if enter_round(phone, game, rules, names, inputs, rng, 0) != "saved":
                break


def saturation(args, port: int) -> tuple[Tally, float, str]:
    """The saturation steps against the server on `port`: the tally, their seconds, what ran."""
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
