"""What bench/pages.py serves and asks: the data it seeds (two leagues, a kitchen-table game of
20 rounds with round 21 to preview, a club night) and each page it times, with the check that
the answer is that page."""

import argparse
import io
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace

from bench.seeding import game_played, players_who_played, seed_league, seed_night

ROUNDS = 20
TEAMS = (("Ann & Cy", ("Ann", "Cy")), ("Bob & Di", ("Bob", "Di")))


# -- seeding --------------------------------------------------------------------------------


def seed(args: argparse.Namespace) -> dict:
    """The two leagues, the 20-round game and the club night; what the pages need of them."""
    from django.db.models import Count

    from leagues.models import Participation
    from scorekeeper.games import demo_rounds

    leagues = {}
    for games_count in (args.small, args.big):
        start = time.perf_counter()
        seeded = seed_league(
            SimpleNamespace(
                players=args.players,
                games=games_count,
                nights=args.nights,
                pool=args.pool,
                seed=args.seed,
            ),
            slug=f"bench-{games_count}",
            name=f"Bench League of {games_count:,} games",
        )
        league = seeded["league"]
        # The player page of a typical player: the middle one, ordered by their games.
        counts = sorted(
            (row["n"], row["player"])
            for row in Participation.objects.filter(league=league, counted=True)
            .values("player")
            .annotate(n=Count("id"))
            .order_by()
        )
        games_of, player_id = counts[len(counts) // 2]
        leagues[games_count] = {
            "league": league,
            "season": seeded["seasons"][-1],
            "player": player_id,
            "player_games": games_of,
            "seconds": time.perf_counter() - start,
        }
        print(
            f"  league of {games_count:,} games, {args.players} players: "
            f"{leagues[games_count]['seconds']:.1f} s; the player page is player "
            f"#{player_id}'s, {games_of:,} games",
            flush=True,
        )

    start = time.perf_counter()
    game, rules, played = game_played(
        "ten-thousand",
        TEAMS,
        {"target_score": 100_000},
        random.Random(args.seed),
        max_rounds=ROUNDS,
    )
    names = [name for name, _ in TEAMS]
    if len(played) != ROUNDS or game.finished:
        sys.exit(f"FAIL: the kitchen game ended after {len(played)} rounds, not {ROUNDS}.")
    # Round 21 as the next phone would type it, to preview.
    totals = {side.name: side.total for side in game.sides.all()}
    preview = demo_rounds.random_round(
        rules,
        names,
        number=ROUNDS + 1,
        rng=random.Random(args.seed + 1),
        dealer_side=ROUNDS % len(names),
        totals=totals,
    )
    night = seed_night(args.tables, slug="bench-night")
    print(
        f"  the {ROUNDS}-round game and a {night['tables']}-table night: "
        f"{time.perf_counter() - start:.1f} s",
        flush=True,
    )
    return {"leagues": leagues, "game": game, "rules": rules, "preview": preview, **night}


# -- the pages ----------------------------------------------------------------------------


@dataclass
class Page:
    """A page to time, who asks it, and what it is checked for."""

    label: str
    path: str
    visitor: str  # "visitor", "phone" (joined with the scorer link) or "organiser"
    check: Callable[[bytes], str]  # a complaint, or "" when the page is the right one
    form: dict[str, str] | None = None  # a POST of the form, with the visitor's CSRF token
    headers: dict[str, str] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)
    queries: int | None = None


def links_all(urls: list[str]):
    """A check that the page links every one of `urls`."""

    def check(body: bytes) -> str:
        missing = [url for url in urls if f'href="{url}"'.encode() not in body]
        return f"{len(missing)} of {len(urls)} links missing, e.g. {missing[:2]}" if missing else ""

    return check


def contains(*texts: str, absent: tuple[str, ...] = ()):
    """A check that the page holds every one of `texts` and none of `absent`."""

    def check(body: bytes) -> str:
        html = body.decode(errors="replace")
        missing = [text for text in texts if text not in html]
        there = [text for text in absent if text in html]
        return (f"missing {missing}; " if missing else "") + (f"has {there}" if there else "")

    return check


def a_pdf(least_pages: int, *texts: str):
    """A check that the answer is a PDF of `least_pages` or more, its first page with `texts`."""

    def check(body: bytes) -> str:
        from pypdf import PdfReader

        if not body.startswith(b"%PDF"):
            return f"not a PDF: {body[:60]!r}"
        reader = PdfReader(io.BytesIO(body))
        text = reader.pages[0].extract_text()
        missing = [t for t in texts if t not in text]
        if len(reader.pages) < least_pages or missing:
            return f"{len(reader.pages)} pages (at least {least_pages}), missing {missing}"
        return ""

    return check


def page_list(args: argparse.Namespace, seeded: dict) -> list[Page]:
    """Every page timed, the hello-world first, the score card and the pack last."""
    from leagues.models import Player
    from scorekeeper.portable.round_fields import values_from_entry

    game, preview = seeded["game"], seeded["preview"]
    gid = game.public_id
    form = values_from_entry(seeded["rules"], preview["ended_by"], preview["sides"])
    form["round_number"] = str(ROUNDS + 1)
    found = [
        Page("hello-world", "/bench/hello/", "visitor", contains("Hello, world")),
        Page(
            f"game page, {ROUNDS} rounds",
            f"/g/{gid}/",
            "phone",
            contains(
                *(f'href="/g/{gid}/rounds/{n}/"' for n in range(1, ROUNDS + 1)),
                absent=(f'href="/g/{gid}/rounds/{ROUNDS + 1}/"',),
            ),
        ),
        Page(
            "round preview (htmx POST)",
            f"/g/{gid}/rounds/new/",
            "phone",
            contains(f"Totals after round {ROUNDS + 1}"),
            form=form,
            headers={"HX-Request": "true"},
        ),
    ]

    def player_urls(league, season) -> list[str]:
        ids = players_who_played(league, season)
        return [f"/leagues/{league.slug}/players/{pk}/" for pk in ids]

    for size, seeded_league in seeded["leagues"].items():
        league, season = seeded_league["league"], seeded_league["season"]
        scale = f"{size:,} games, {args.players} players"
        player = Player.objects.get(pk=seeded_league["player"])
        found += [
            Page(
                f"season standings, {scale}",
                f"/leagues/{league.slug}/seasons/{season.pk}/standings/",
                "visitor",
                links_all(player_urls(league, season)),
            ),
            Page(
                f"all-time standings, {scale}",
                f"/leagues/{league.slug}/standings/",
                "visitor",
                links_all(player_urls(league, None)),
            ),
            Page(
                f"player page, {scale}",
                f"/leagues/{league.slug}/players/{player.pk}/",
                "visitor",
                contains(f">{player.name}</h1>"),
            ),
        ]
    names = [name for name, _ in TEAMS]
    found += [
        Page(
            f"score card PDF, {ROUNDS} rounds",
            f"/g/{gid}/score-card.pdf",
            "phone",
            a_pdf(1, *names),
        ),
        Page(
            f"club-night pack PDF, {seeded['tables']} tables",
            f"/leagues/bench-night/nights/{seeded['night'].pk}/pack.pdf",
            "organiser",
            a_pdf(seeded["tables"] + 1),
        ),
    ]
    return found
