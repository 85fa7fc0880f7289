"""Reads for leagues: standings, head to head, a player's record, a club night's tables.

The standings read the kept `Standing` rows (one per player and season, refreshed whenever a
player's counted games change); the records between players are aggregated by the database from
`Participation` rows (one per player per league game). A page costs the same few queries
whatever the number of games, rounds or players.
"""

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import (
    Count,
    Exists,
    F,
    FilteredRelation,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce

from leagues.models import (
    League,
    LeagueEvent,
    Membership,
    Participation,
    PointsAdjustment,
    Season,
    Standing,
    rating_of,
)
from scorekeeper.engine.formatting import number

# The documented order that breaks ties in the standings, after the column sorted on. Players
# level on all five share a rank; their names only order them on the page.
TIE_BREAK = ("league_points", "wins", "win_pct", "avg_margin", "points_for")

# The columns in the order the page, the PDF and the CSV show them: what a standing is ranked
# on (league points) and how many games it rests on first, so that a phone shows them without
# scrolling; the rest of the record after.
SORTS = {
    "name": "Player",
    "league_points": "League points",
    "games": "Games",
    "wins": "Wins",
    "ties": "Ties",
    "losses": "Losses",
    "win_pct": "Win %",
    "points_for": "Points for",
    "points_against": "Points against",
    "avg_score": "Average score",
    "avg_margin": "Average margin",
    "rating": "Rating",
}


def win_percentage(wins: int, ties: int, games: int) -> float:
    """Win %, a tie counting as half a win; 0 before any game."""
    return 100 * (wins + ties / 2) / games if games else 0.0


@dataclass(frozen=True)
class StandingRow:
    player_id: int
    name: str
    games: int
    wins: int
    ties: int
    losses: int
    points_for: int
    points_against: int
    league_points: int
    rating: float | None
    last_five: str
    # The organiser's penalties and bonuses of the scope together (`PointsAdjustment`), already
    # in `league_points`.
    adjustment: int = 0
    # The standing rank (1 is top) whatever the table is sorted on; `shared` when the
    # tie-breaks cannot separate this player from another.
    place: int = 0
    shared: bool = False

    @property
    def rank(self) -> str:
        """`3`, or `=1` for a rank shared with another player."""
        return ("=" if self.shared else "") + number(self.place)

    @property
    def win_pct(self) -> float:
        return win_percentage(self.wins, self.ties, self.games)

    @property
    def avg_score(self) -> float:
        return self.points_for / self.games if self.games else 0.0

    @property
    def avg_margin(self) -> float:
        return (self.points_for - self.points_against) / self.games if self.games else 0.0


def counted_participations(league: League, season: Season | None = None) -> QuerySet:
    """The league's participations that count: finished games, not voided."""
    rows = Participation.objects.filter(league=league, counted=True)
    return rows.filter(season=season) if season is not None else rows


def league_points(
    league: League, wins: int, ties: int, losses: int, points_for: int, adjustment: int = 0
) -> int:
    """A record's league points under the league's scoring, with the organiser's adjustments
    of its scope (a penalty below 0) added: the one place league points are worked out."""
    if league.scoring == League.Scoring.TOTAL:
        return points_for + adjustment
    earned = wins * league.win_points + ties * league.tie_points + losses * league.loss_points
    return earned + adjustment


def adjusted_points(season: Season | None = None) -> Coalesce:
    """Beside a `Standing` row: the sum of its player's adjustments in its league, of its
    season (of every season for all time), 0 without any; an indexed subquery a row."""
    found = PointsAdjustment.objects.filter(league=OuterRef("league"), player=OuterRef("player"))
    if season is not None:
        found = found.filter(season=OuterRef("season"))
    total = found.order_by().values("player").annotate(total=Sum("points")).values("total")
    return Coalesce(Subquery(total), 0)


def adjustment_get(league: League, season: Season, adjustment_id: int) -> PointsAdjustment | None:
    """The season's adjustment of this id, or None (removed already, or another's)."""
    found = PointsAdjustment.objects.filter(pk=adjustment_id, league=league, season=season)
    return found.select_related("player").first()


def adjustments(league: League, season: Season | None = None) -> list[PointsAdjustment]:
    """The league's adjustments of a season (every season for all time), oldest first, with
    their player and season: one query."""
    found = PointsAdjustment.objects.filter(league=league).select_related("player", "season")
    if season is not None:
        found = found.filter(season=season)
    return list(found.order_by("created_at", "id"))


def standings(
    league: League,
    season: Season | None = None,
    *,
    sort: str = "league_points",
    descending: bool = True,
    brief: bool = False,
) -> list[StandingRow]:
    """The standings of a season (or all time when `season` is None), sorted on a column and
    then by the tie-break order, from the kept rows (`Standing`, one a player) with each
    player's adjustments summed beside them: one query whatever the number of games. The
    rating is the current one all time, and the one after the player's last rated game of a
    season. `brief` leaves the ratings and the last five out (None and ""), in one query: the
    tie-breaks need neither, so the order is the same."""
    kept = Standing.objects.filter(league=league).order_by()
    if season is not None:
        # The rating after the season's last rated game, through the row's link to it.
        kept = kept.filter(season=season).annotate(
            mu=F("last_rated__mu_after"), sigma=F("last_rated__sigma_after")
        )
    else:
        # The current rating, of members with a rated game: joined, not a subquery a row (at
        # 200 rows on PostgreSQL those were two thirds of the page's query time).
        member = FilteredRelation(
            "player__memberships",
            condition=Q(player__memberships__league=league, player__memberships__rated_games__gt=0),
        )
        kept = (
            kept.filter(season__isnull=True)
            .annotate(member=member)
            .annotate(mu=F("member__mu"), sigma=F("member__sigma"))
        )
    kept = kept.annotate(adjusted=adjusted_points(season))
    found = kept.values_list(
        "player_id",
        "player__name",
        "games",
        "wins",
        "ties",
        "losses",
        "points_for",
        "points_against",
        "last_five",
        "mu",
        "sigma",
        "adjusted",
    )
    table = []
    for player_id, name, games, wins, ties, losses, points_for, points_against, *rest in found:
        last_five, mu, sigma, adjusted = rest
        rating = rating_of(mu, sigma) if mu is not None and sigma is not None else None
        if brief:
            rating, last_five = None, ""
        table.append(
            StandingRow(
                player_id=player_id,
                name=name,
                games=games,
                wins=wins,
                ties=ties,
                losses=losses,
                points_for=points_for,
                points_against=points_against,
                league_points=league_points(league, wins, ties, losses, points_for, adjusted),
                rating=rating,
                last_five=last_five,
                adjustment=adjusted,
            )
        )
    return sort_standings(ranked(table), sort, descending)


def tie_break_keys(rows: Sequence[StandingRow]) -> list[tuple[int, ...]]:
    """Each row's record as the tie-breaks compare it, in the order of TIE_BREAK, bigger is
    better. The ratios (win %, average margin) are exact: both scaled to one common denominator
    of the table, integers that compare as the fractions do, where floats from different
    divisions (2/4 and 1/2 of a larger sum) need not be equal, and Fractions cost more at 200
    rows than the standings' query."""
    common = math.lcm(*{2 * (row.games or 1) for row in rows}) if rows else 1
    return [
        (
            row.league_points,
            row.wins,
            # (wins + ties / 2) / games
            (2 * row.wins + row.ties) * (common // (2 * (row.games or 1))),
            (row.points_for - row.points_against) * (common // (row.games or 1)),
            row.points_for,
        )
        for row in rows
    ]


def ranked(rows: Sequence[StandingRow]) -> list[StandingRow]:
    """The rows with their standing rank: one more than the number of players with a better
    record under the tie-breaks, shared by players whose records are equal ("=1", "=1", "3")."""
    keys = tie_break_keys(rows)
    best_first = sorted(range(len(rows)), key=keys.__getitem__, reverse=True)
    # Walked in order, comparing neighbours: equal records sit together.
    places = [0] * len(rows)
    shared = [False] * len(rows)
    for position, index in enumerate(best_first):
        previous = best_first[position - 1] if position else None
        if previous is not None and keys[previous] == keys[index]:
            places[index] = places[previous]
            shared[index] = shared[previous] = True
        else:
            places[index] = position + 1
    # The constructor with the values in order, not dataclasses.replace: at 200 rows that
    # looked up the fields by name for every row, a few per cent of a standings page.
    return [
        StandingRow(*[getattr(row, name) for name in _RECORD], places[index], shared[index])
        for index, row in enumerate(rows)
    ]


# A standing row's fields before its rank (`place` and `shared`, its last two).
_RECORD = [field.name for field in dataclasses.fields(StandingRow)][:-2]


def sort_standings(rows: Sequence[StandingRow], sort: str, descending: bool) -> list[StandingRow]:
    """Sort on one column, then by the tie-break order (each best first), then by name."""
    if sort not in SORTS:
        sort = "league_points"
    keys = tie_break_keys(rows)
    order = sorted(range(len(rows)), key=lambda index: rows[index].name.casefold())
    # The same comparison as the ranks, so that players sharing a rank sit together.
    order.sort(key=keys.__getitem__, reverse=True)
    ordered = [rows[index] for index in order]
    if sort == "name":
        ordered.sort(key=lambda r: r.name.casefold(), reverse=descending)
    elif sort == "rating":
        # Unrated players go last whichever way the column is sorted.
        rated = [r for r in ordered if r.rating is not None]
        rated.sort(key=lambda r: r.rating, reverse=descending)
        ordered = rated + [r for r in ordered if r.rating is None]
    else:
        ordered.sort(key=lambda r: getattr(r, sort), reverse=descending)
    return ordered


@dataclass(frozen=True)
class Meeting:
    """A player's record against (or with) another: games, wins, ties, losses, and the points
    of the games they shared: their own side's and the other's (a partner's: the best other
    side's, as in the standings)."""

    other_id: int
    other: str
    games: int
    wins: int
    ties: int
    losses: int
    points_for: int = 0
    points_against: int = 0

    @property
    def win_pct(self) -> float:
        return win_percentage(self.wins, self.ties, self.games)


def _pairs(rows: QuerySet, *, same_side: bool) -> QuerySet:
    # Each participation joined with the other players of its game: opponents are on another
    # side (a win means a higher total than theirs), partners on the same side.
    paired = rows.annotate(
        other_id=F("league_game__participations__player_id"),
        other_name=F("league_game__participations__player__name"),
        other_side=F("league_game__participations__side"),
        other_points=F("league_game__participations__points_for"),
    )
    if same_side:
        paired = paired.filter(other_side=F("side")).exclude(other_id=F("player_id"))
        won, tied, lost = Q(outcome="W"), Q(outcome="T"), Q(outcome="L")
    else:
        paired = paired.exclude(other_side=F("side"))
        won = Q(points_for__gt=F("other_points"))
        tied = Q(points_for=F("other_points"))
        lost = Q(points_for__lt=F("other_points"))
    return (
        paired.values("player_id", "other_id", "other_name")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=won),
            ties=Count("id", filter=tied),
            losses=Count("id", filter=lost),
            points_for_sum=Sum("points_for"),
            points_against_sum=Sum("points_against" if same_side else "other_points"),
        )
        .order_by()
    )


def _meetings(pairs: QuerySet) -> list[Meeting]:
    return [
        Meeting(
            row["other_id"],
            row["other_name"],
            row["games"],
            row["wins"],
            row["ties"],
            row["losses"],
            row["points_for_sum"] or 0,
            row["points_against_sum"] or 0,
        )
        for row in pairs
    ]


def partners(league: League, player_id: int, season: Season | None = None) -> list[Meeting]:
    """Who the player has partnered in the league (or a season): games together and results,
    most first."""
    rows = counted_participations(league, season).filter(player_id=player_id)
    found = _meetings(_pairs(rows, same_side=True))
    return sorted(found, key=lambda m: (-m.games, m.other.casefold()))


def opponents(league: League, player_id: int, season: Season | None = None) -> list[Meeting]:
    """The player's head-to-head record against each opponent in the league (or a season),
    most games first; one query."""
    rows = counted_participations(league, season).filter(player_id=player_id)
    found = _meetings(_pairs(rows, same_side=False))
    return sorted(found, key=lambda m: (-m.games, m.other.casefold()))


# The columns of one player's record against the others, sortable like the standings.
MEETING_SORTS = {
    "name": "Opponent",
    "games": "Games",
    "wins": "Wins",
    "ties": "Ties",
    "losses": "Losses",
    "win_pct": "Win %",
    "points_for": "Points for",
    "points_against": "Points against",
}


def sort_meetings(meetings: Sequence[Meeting], sort: str, descending: bool) -> list[Meeting]:
    """Sort on one column; within equal values the most games first, then by name (A to Z)."""
    ordered = sorted(meetings, key=lambda m: (-m.games, m.other.casefold(), m.other_id))
    if sort == "name":
        ordered.sort(key=lambda m: m.other.casefold(), reverse=descending)
    elif sort in MEETING_SORTS:
        # Python's sort is stable, reversed or not: equal values keep the order above.
        ordered.sort(key=lambda m: getattr(m, sort), reverse=descending)
    return ordered


@dataclass(frozen=True)
class Rivals:
    """What a player asks of their record: whom they met most, who beats them (the nemesis:
    the most losses net of wins) and whom they beat (the most wins net of losses)."""

    most_met: Meeting | None
    nemesis: Meeting | None
    best_against: Meeting | None


def rivals(meetings: Sequence[Meeting]) -> Rivals:
    """The most met opponent, the nemesis and the best record against; None where no opponent
    qualifies (most met: more games than any other; nemesis: has beaten the player more often
    than not). Equal margins go to the opponent met more often, then by name."""
    by_games = sorted(meetings, key=lambda m: (-m.games, m.other.casefold(), m.other_id))
    nemesis = min(
        (m for m in by_games if m.losses > m.wins),
        key=lambda m: m.wins - m.losses,
        default=None,
    )
    best = min(
        (m for m in by_games if m.wins > m.losses),
        key=lambda m: m.losses - m.wins,
        default=None,
    )
    # Most met only when one opponent stands out: a tie at the top, broken by name, says nothing.
    alone = len(by_games) == 1 or (len(by_games) > 1 and by_games[0].games > by_games[1].games)
    return Rivals(by_games[0] if alone else None, nemesis, best)


def season_players(league: League, season: Season) -> list[tuple[int, str]]:
    """The players with a counted game in the season, by name: those head to head can show."""
    # One index probe per member rather than a DISTINCT over every participation of the
    # season: 200 probes against 40,000 rows at 20,000 games.
    played = Participation.objects.filter(
        season=season, counted=True, player_id=OuterRef("player_id")
    )
    found = (
        Membership.objects.filter(league=league)
        .filter(Exists(played))
        .values_list("player_id", "player__name")
    )
    return sorted(found, key=lambda row: (row[1].casefold(), row[0]))


@dataclass(frozen=True)
class HeadToHead:
    """A season's matrix: players in standings order and each pair's record, row vs column."""

    players: list[tuple[int, str]]
    cells: dict[tuple[int, int], Meeting]

    def row(self, player_id: int) -> list[Meeting | None]:
        return [self.cells.get((player_id, other)) for other, _ in self.players]


def head_to_head(league: League, season: Season) -> HeadToHead:
    """Every pair of opponents' record in the season, players in standings order, in two
    queries (the pairs and the standings); for a small league's matrix: the pairs grow with the
    square of the players."""
    cells: dict[tuple[int, int], Meeting] = {}
    names: dict[int, str] = {}
    for row in _pairs(counted_participations(league, season), same_side=False):
        cells[(row["player_id"], row["other_id"])] = Meeting(
            row["other_id"],
            row["other_name"],
            row["games"],
            row["wins"],
            row["ties"],
            row["losses"],
            row["points_for_sum"] or 0,
            row["points_against_sum"] or 0,
        )
        names[row["other_id"]] = row["other_name"]
    order = [row.player_id for row in standings(league, season)]
    # standings() costs a query; the matrix only needs its order, so keep players who
    # met nobody (a game against a voided opponent) out.
    players = [(pid, names[pid]) for pid in order if pid in names]
    return HeadToHead(players, cells)


def rating_display(mu: float | None, sigma: float | None) -> float | None:
    """The rating shown on pages (openskill's ordinal), or None for an unrated player."""
    return None if mu is None or sigma is None else rating_of(mu, sigma)


def merged_away(league: League, player_id: int) -> str | None:
    """The sentence that tells an organiser this player was merged into another of the
    league's members (and so is gone), or None if no merge of the league took them."""
    event = (
        LeagueEvent.objects.filter(
            league=league, kind=LeagueEvent.Kind.PLAYERS_MERGED, before__player=player_id
        )
        .order_by("-id")
        .first()
    )
    if event is None:
        return None
    return (
        f"{event.before['name']} was merged into {event.after['name']} a moment ago; "
        "nothing was changed."
    )
