"""The standings kept up to date: one `Standing` row per player and season of a league, and one
for all time, recomputed from the player's counted participations whenever those change.

Every writer of counted participations calls `standings_refresh` for the players it touched,
inside its own transaction and last, after its own locks. The refresh then locks those players'
memberships of the league, in player order, before it reads their games: two refreshes of one
player (a game finishing while an old one is corrected) queue, and the second reads the first's
games once committed, instead of both deleting the rows and inserting them twice. The writers
that change ratings have locked those memberships already (their ratings are updated there), so
for them it waits on nothing new. The writers:
- `_results_write` (a game scored, a round corrected or deleted, a game reopened, voided or
  counted again), for the game's players;
- `player_merge`, for the kept player in every league the merged one played in;
- `league_import` (a backup restored), for the whole league;
- `manage.py standings_rebuild`, for every league (after a bulk load);
- `adjustment_add` and `adjustment_remove`, for the adjusted player.
A player with an adjustment has a row of its season and an all-time row even before a game
counts, so that the standings show the penalty or bonus; the adjustments themselves are summed
beside the rows as they are read (`selectors.standings`), not copied into them.
A player's rows cost one indexed read of their counted games (hundreds at most) and a delete and
an insert, whatever the size of the league.

The all-time row also keeps what the player's page shows of their whole history: their record
with and against each other player (`partners`, `opponents`, read from the same games joined with
their tables) and their rating chart (`rating_chart`, drawn from their rated games in the
ledger's order). A ratings replay rewrites the ratings of every later game, never which games
count: it redraws the charts alone (`rating_charts_refresh`), after locking the memberships.
"""

import datetime
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F

from leagues.charts import chart_to_json, rating_chart
from leagues.models import (
    League,
    Membership,
    Participation,
    PointsAdjustment,
    Standing,
    rating_of,
)

# What `standing_records` reads of each counted participation, in this order; the migration that
# fills the table reads the same through the historical models.
RECORD_FIELDS = (
    "pk",
    "player_id",
    "season_id",
    "outcome",
    "points_for",
    "points_against",
    "date",
    "league_game_id",
    "league_game__ledger",
    "mu_after",
    "league_game__game__preset",
    "rounds",
    "went_out",
    "red_threes",
    "hand_points",
    "canastas",
)

_FIGURES = ("rounds", "went_out", "red_threes", "hand_points")

# What `meeting_records` reads: each counted participation joined with each other seat of its
# game (`pairs_of`).
PAIR_FIELDS = (
    "player_id",
    "other_id",
    "side",
    "other_side",
    "outcome",
    "points_for",
    "points_against",
    "other_points",
)
# What `chart_records` reads of each rated participation, in the ledger's order (`rated_of`).
CHART_FIELDS = ("player_id", "date", "mu_after", "sigma_after")


def pairs_of(counted):
    """The counted participations joined with the other seats of their games, as PAIR_FIELDS
    tuples; works on the historical models too."""
    return (
        counted.annotate(
            other_id=F("league_game__participations__player_id"),
            other_side=F("league_game__participations__side"),
            other_points=F("league_game__participations__points_for"),
        )
        .exclude(other_id=F("player_id"))
        .order_by()
        .values_list(*PAIR_FIELDS)
    )


def rated_of(participations):
    """The rated participations in the ledger's order, as CHART_FIELDS tuples."""
    return (
        participations.filter(mu_after__isnull=False)
        .order_by("player_id", "league_game__ledger")
        .values_list(*CHART_FIELDS)
    )


def meeting_records(rows: Iterable[tuple]) -> dict[int, dict[str, list[list[int]]]]:
    """Each player's record with each partner and against each opponent, by player, from
    PAIR_FIELDS tuples: {"partners": [[other, games, wins, ties, losses, points for, points
    against], ...], "opponents": [...]}, most games first. A partner's result is the team's and
    the points its own and the best other side's; against an opponent a win is a higher total
    than theirs (as `selectors.partners` and `selectors.opponents` count them)."""
    found: dict[int, dict[str, dict[int, list[int]]]] = {}
    for player_id, other_id, side, other_side, outcome, points_for, against, other_points in rows:
        partner = side == other_side
        tables = found.setdefault(player_id, {"partners": {}, "opponents": {}})
        table = tables["partners" if partner else "opponents"]
        record = table.setdefault(other_id, [other_id, 0, 0, 0, 0, 0, 0])
        record[1] += 1
        if partner:
            result = outcome
            record[6] += against
        else:
            result = (
                "W" if points_for > other_points else "T" if points_for == other_points else "L"
            )
            record[6] += other_points
        record[{"W": 2, "T": 3, "L": 4}[result]] += 1
        record[5] += points_for
    return {
        player_id: {
            name: sorted(table.values(), key=lambda r: (-r[1], r[0]))
            for name, table in tables.items()
        }
        for player_id, tables in found.items()
    }


def chart_records(rows: Iterable[tuple]) -> dict[int, dict]:
    """Each player's rating chart as kept (`charts.chart_to_json`), by player, from CHART_FIELDS
    tuples in the ledger's order."""
    history: dict[int, list[tuple[datetime.date, float]]] = {}
    for player_id, date, mu, sigma in rows:
        history.setdefault(player_id, []).append((date, rating_of(mu, sigma)))
    return {player_id: chart_to_json(rating_chart(points)) for player_id, points in history.items()}


def _no_games() -> dict[str, Any]:
    """The values of a standing row before any game counts."""
    return {
        "games": 0,
        "wins": 0,
        "ties": 0,
        "losses": 0,
        "points_for": 0,
        "points_against": 0,
        "by_ruleset": {},
    }


def standing_records(rows: Iterable[tuple]) -> dict[tuple[int, int | None], dict[str, Any]]:
    """The standing rows' values by (player, season; None for all time) from counted
    participations given as RECORD_FIELDS tuples: plain Python, shared with the migration."""
    records: dict[tuple[int, int | None], dict[str, Any]] = {}
    recent: dict[tuple[int, int | None], list[tuple[datetime.date, int, str]]] = {}
    rated: dict[tuple[int, int | None], tuple[int, int]] = {}
    for (
        pk,
        player_id,
        season_id,
        outcome,
        points_for,
        points_against,
        date,
        league_game_id,
        ledger,
        mu_after,
        preset,
        *figures,
        canastas,
    ) in rows:
        for key in ((player_id, season_id), (player_id, None)):
            record = records.setdefault(key, _no_games())
            record["games"] += 1
            record[{"W": "wins", "T": "ties", "L": "losses"}[outcome]] += 1
            record["points_for"] += points_for
            record["points_against"] += points_against
            recent.setdefault(key, []).append((date, league_game_id, outcome))
            # The rating shown is the one after the last game of the ledger that was rated.
            if mu_after is not None and ledger is not None and ledger >= rated.get(key, (-1,))[0]:
                rated[key] = (ledger, pk)
            tally = record["by_ruleset"].setdefault(
                preset,
                {"games": 0, "wins": 0, "ties": 0, "points_for": 0}
                | dict.fromkeys(_FIGURES, 0)
                | {"canastas": {}},
            )
            tally["games"] += 1
            tally["wins"] += outcome == "W"
            tally["ties"] += outcome == "T"
            tally["points_for"] += points_for
            for name, value in zip(_FIGURES, figures, strict=True):
                tally[name] += value
            for kind, count in (canastas or {}).items():
                tally["canastas"][kind] = tally["canastas"].get(kind, 0) + count
    for key, record in records.items():
        newest = sorted(recent[key], key=lambda r: (r[0], r[1]), reverse=True)[:5]
        record["last_five"] = "".join(outcome for _, _, outcome in newest)
        record["last_rated_id"] = rated[key][1] if key in rated else None
    return records


def adjusted_records(
    records: dict[tuple[int, int | None], dict[str, Any]], adjusted: Iterable[tuple[int, int]]
) -> None:
    """Rows without a game for the players adjusted in a season, given as (player, season)
    pairs: of that season and of all time, where their games have made none."""
    for player_id, season_id in adjusted:
        for key in ((player_id, season_id), (player_id, None)):
            if key not in records:
                records[key] = _no_games() | {"last_five": "", "last_rated_id": None}


@transaction.atomic
def standings_refresh(*, league: League | int, player_ids: Iterable[int] | None = None) -> int:
    """Recompute the standing rows of these players of the league (all its players when None)
    from their counted participations; returns how many rows the league now has for them."""
    league_id = league.pk if isinstance(league, League) else league
    counted = Participation.objects.filter(league_id=league_id, counted=True)
    existing = Standing.objects.filter(league_id=league_id)
    members = Membership.objects.filter(league_id=league_id)
    adjusted = PointsAdjustment.objects.filter(league_id=league_id)
    if player_ids is not None:
        player_ids = sorted(set(player_ids))
        counted = counted.filter(player_id__in=player_ids)
        existing = existing.filter(player_id__in=player_ids)
        members = members.filter(player_id__in=player_ids)
        adjusted = adjusted.filter(player_id__in=player_ids)
    # Read after the lock: a refresh that waited sees the games the one before it committed.
    list(members.select_for_update().order_by("player_id").values_list("pk", flat=True))
    records = standing_records(counted.order_by().values_list(*RECORD_FIELDS))
    adjusted_records(records, adjusted.order_by().values_list("player_id", "season_id").distinct())
    meetings = meeting_records(pairs_of(counted))
    charts = chart_records(rated_of(counted))
    for (player_id, season_id), record in records.items():
        if season_id is None:
            record.update(meetings.get(player_id, {}))
            record["rating_chart"] = charts.get(player_id, {})
    existing.delete()
    Standing.objects.bulk_create(
        [
            Standing(league_id=league_id, player_id=player_id, season_id=season_id, **record)
            for (player_id, season_id), record in records.items()
        ],
        batch_size=1000,
    )
    return len(records)


def rating_charts_refresh(*, league: League | int, player_ids: Iterable[int] | None = None) -> int:
    """Redraw the rating charts of these players of the league (all when None) on their
    all-time standing rows, after their ratings were replayed; the caller has locked their
    memberships (`ratings_replay` updates them). Returns how many rows were redrawn."""
    league_id = league.pk if isinstance(league, League) else league
    rows = Standing.objects.filter(league_id=league_id, season__isnull=True)
    rated = Participation.objects.filter(league_id=league_id, counted=True)
    if player_ids is not None:
        player_ids = sorted(set(player_ids))
        rows = rows.filter(player_id__in=player_ids)
        rated = rated.filter(player_id__in=player_ids)
    charts = chart_records(rated_of(rated))
    kept = list(rows.only("pk", "player_id", "rating_chart"))
    for row in kept:
        row.rating_chart = charts.get(row.player_id, {})
    Standing.objects.bulk_update(kept, ["rating_chart"], batch_size=1000)
    return len(kept)
