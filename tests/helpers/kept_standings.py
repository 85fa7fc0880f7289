"""The standings kept in `Standing` rows checked against a reference: the aggregate of every
counted game at each view, as `selectors.standings` computed it before the rows were kept."""

from django.db.models import Count, F, Q, Sum, Window
from django.db.models.functions import RowNumber

from leagues import player_stats, selectors
from leagues.charts import rating_chart
from leagues.models import League, Membership, Participation, Standing, rating_of

# The reference: the standings as `selectors.standings` computed them before issue 18, from every
# counted participation at each view.


def reference_standings(league: League, season) -> list[selectors.StandingRow]:
    rows = Participation.objects.filter(league=league, counted=True)
    if season is not None:
        rows = rows.filter(season=season)
    totals = (
        rows.values("player_id", "player__name")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(outcome="W")),
            ties=Count("id", filter=Q(outcome="T")),
            losses=Count("id", filter=Q(outcome="L")),
            points_for_sum=Sum("points_for"),
            points_against_sum=Sum("points_against"),
        )
        .order_by()
    )
    recent = (
        rows.annotate(
            recent=Window(
                RowNumber(),
                partition_by=[F("player_id")],
                order_by=[F("date").desc(), F("league_game_id").desc()],
            )
        )
        .filter(recent__lte=5)
        .values_list("player_id", "outcome", "recent")
    )
    marks: dict[int, list] = {}
    for player_id, outcome, place in recent:
        marks.setdefault(player_id, []).append((place, outcome))
    last = {p: "".join(o for _, o in sorted(found)) for p, found in marks.items()}
    if season is None:
        skills = {
            player_id: rating_of(mu, sigma)
            for player_id, mu, sigma in Membership.objects.filter(
                league=league, rated_games__gt=0
            ).values_list("player_id", "mu", "sigma")
        }
    else:
        latest = (
            rows.filter(mu_after__isnull=False)
            .annotate(
                latest=Window(
                    RowNumber(),
                    partition_by=[F("player_id")],
                    order_by=[F("league_game__ledger").desc()],
                )
            )
            .filter(latest=1)
            .values_list("player_id", "mu_after", "sigma_after")
        )
        skills = {player_id: rating_of(mu, sigma) for player_id, mu, sigma in latest}
    table = [
        selectors.StandingRow(
            player_id=row["player_id"],
            name=row["player__name"],
            games=row["games"],
            wins=row["wins"],
            ties=row["ties"],
            losses=row["losses"],
            points_for=row["points_for_sum"] or 0,
            points_against=row["points_against_sum"] or 0,
            league_points=selectors.league_points(
                league, row["wins"], row["ties"], row["losses"], row["points_for_sum"] or 0
            ),
            rating=skills.get(row["player_id"]),
            last_five=last.get(row["player_id"], ""),
        )
        for row in totals
    ]
    return selectors.sort_standings(selectors.ranked(table), "league_points", True)


def reference_by_ruleset(league: League, player_id: int) -> dict:
    """Per rule set: games, wins, ties, points for, rounds, went out, red threes, hand points
    and canastas by kind, added up from the player's counted games."""
    found: dict[str, dict] = {}
    for preset, outcome, points, *figures, canastas in Participation.objects.filter(
        league=league, player_id=player_id, counted=True
    ).values_list(
        "league_game__game__preset",
        "outcome",
        "points_for",
        "rounds",
        "went_out",
        "red_threes",
        "hand_points",
        "canastas",
    ):
        tally = found.setdefault(preset, {"figures": [0] * 8, "canastas": {}})
        for index, value in enumerate(
            [1, outcome == "W", outcome == "T", points, *figures], start=0
        ):
            tally["figures"][index] += value
        for kind, count in canastas.items():
            tally["canastas"][kind] = tally["canastas"].get(kind, 0) + count
    return found


def shown_by_ruleset(league: League, player_id: int) -> dict:
    return {
        record.preset: {
            "figures": [
                record.games,
                record.wins,
                record.ties,
                record.points_for,
                record.rounds,
                record.went_out,
                record.red_threes,
                record.hand_points,
            ],
            "canastas": {rate.kind: rate.count for rate in record.canastas},
        }
        for record in player_stats.by_ruleset(league, player_id)
    }


def assert_kept(league: League) -> None:
    """Every season's standings, the all-time standings and every player's figures by rule set
    are what the reference computes from the games; nobody without a counted game has a row."""
    league.refresh_from_db()
    for season in [*league.seasons.all(), None]:
        assert selectors.standings(league, season) == reference_standings(league, season), season
    for player_id in Membership.objects.filter(league=league).values_list("player_id", flat=True):
        expected = reference_by_ruleset(league, player_id)
        for figures in expected.values():
            figures["figures"] = [int(v) for v in figures["figures"]]
        assert shown_by_ruleset(league, player_id) == expected, player_id
        # The player page's partners, opponents and rating chart, kept on the all-time row, are
        # what the live aggregation and the live chart give.
        record = player_stats.player_record(league, player_id, shown=None)
        assert record.partners == selectors.partners(league, player_id), player_id
        assert record.opponents == selectors.opponents(league, player_id), player_id
        live_chart = rating_chart(player_stats.rating_history(league, player_id))
        assert record.chart == live_chart, player_id
    played = set(
        Participation.objects.filter(league=league, counted=True).values_list("player", flat=True)
    )
    assert set(Standing.objects.filter(league=league).values_list("player", flat=True)) == played
