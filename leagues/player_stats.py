"""Reads for the public league pages: the league list, a league's front page, a player's record
and a club night's tables.

Each read is one query (or a query and a prefetch) whatever the number of games, rounds or
players; the pages add them up to a fixed count that the query tests pin.
"""

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q, QuerySet

from leagues.charts import RatingChart, chart_from_json
from leagues.models import (
    Attendance,
    ClubNight,
    League,
    LeagueGame,
    Membership,
    Participation,
    Player,
    Season,
    Standing,
    rating_of,
)
from leagues.selectors import Meeting, win_percentage
from scorekeeper import engine
from scorekeeper.engine.formatting import rule_set_name
from scorekeeper.models import Round, Side

# The games a page of the player's results shows, newest first; older ones are a link away.
HISTORY_LIMIT = 10
# The partners and opponents the player page lists before a link to all of them.
MEETINGS_SHOWN = 10


# Leagues -------------------------------------------------------------------------------------


def leagues_listed(user) -> QuerySet[League]:
    """Public leagues and those the user organises or plays in, with their member counts."""
    shown = Q(visibility=League.Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        # Subqueries rather than joins, so the member count is not multiplied by the join.
        shown |= Q(pk__in=League.objects.filter(organisers=user).values("pk"))
        shown |= Q(pk__in=Membership.objects.filter(user=user).values("league_id"))
    return League.objects.filter(shown).annotate(member_count=Count("memberships"))


def league_get(slug: str) -> League | None:
    """The league at this slug, or None."""
    return League.objects.filter(slug=slug).first()


def league_seasons(league: League) -> list[Season]:
    """The league's seasons, newest first."""
    return list(league.seasons.order_by("-starts_on"))


def current_season(seasons: list[Season], today: datetime.date) -> Season | None:
    """The season covering today, else the latest one (seasons newest first)."""
    for season in seasons:
        if season.starts_on <= today <= season.ends_on:
            return season
    return seasons[0] if seasons else None


def recent_nights(league: League, limit: int = 10) -> QuerySet[ClubNight]:
    """The league's latest club nights, newest first, with their seasons."""
    return league.nights.select_related("season").order_by("-date")[:limit]


# A player's record ---------------------------------------------------------------------------


def membership_get(league: League, player_id: int) -> Membership | None:
    """The player's membership of the league, with the player, or None."""
    return (
        Membership.objects.select_related("player")
        .filter(league=league, player_id=player_id)
        .first()
    )


@dataclass(frozen=True)
class HistoryRow:
    """One game in a player's results: who played with and against them, and how it went."""

    participation: Participation
    league_game: LeagueGame
    partners: list[str]
    opponents: list[list[str]]

    @property
    def result(self) -> str:
        if self.league_game.voided:
            return "Voided"
        if not self.participation.counted:
            return "In progress"
        return self.participation.get_outcome_display()


def player_history(
    league: League, player_id: int, limit: int = HISTORY_LIMIT, page: int = 1
) -> list[HistoryRow]:
    """A page of the player's games (voided and unfinished too), newest first, with their
    tables: the `page`th `limit` of them (1: the latest)."""
    start = (page - 1) * limit
    rows = list(
        Participation.objects.filter(league=league, player_id=player_id)
        .select_related("league_game__game")
        # What the results show: the page reads no other column of the game.
        .only(
            "league_game_id",
            "side",
            "counted",
            "outcome",
            "points_for",
            "points_against",
            "league_game__date",
            "league_game__night_id",
            "league_game__voided",
            "league_game__game__public_id",
        )
        .order_by("-date", "-league_game_id")[start : start + limit]
    )
    # The other players of those games as plain values: at 50 games of four, model instances
    # for them (and their players) cost more than the page's queries.
    others: dict[int, dict[int, list[str]]] = {}
    for league_game_id, side, name in (
        Participation.objects.filter(league_game__in=[p.league_game_id for p in rows])
        .exclude(player_id=player_id)
        .order_by("side", "place")
        .values_list("league_game_id", "side", "player__name")
    ):
        others.setdefault(league_game_id, {}).setdefault(side, []).append(name)
    history = []
    for p in rows:
        sides = others.get(p.league_game_id, {})
        history.append(
            HistoryRow(
                participation=p,
                league_game=p.league_game,
                partners=sides.get(p.side, []),
                opponents=[sides[side] for side in sorted(sides) if side != p.side],
            )
        )
    return history


def player_game_count(league: League, player_id: int) -> int:
    """How many league games the player has a seat in, voided and unfinished ones included."""
    return Participation.objects.filter(league=league, player_id=player_id).count()


@dataclass(frozen=True)
class CanastaRate:
    kind: str
    label: str
    count: int
    per_round: float


@dataclass(frozen=True)
class RulesetRecord:
    """A player's results and card figures under one rule set, labelled in its words."""

    preset: str
    name: str
    games: int
    wins: int
    ties: int
    points_for: int
    rounds: int
    went_out: int
    red_threes: int
    hand_points: int
    canastas: list[CanastaRate] = field(default_factory=list)
    # Shown only where the rule set scores red threes laid down, or the player has some.
    red_threes_label: str = ""
    hand_label: str = "Left in hand and foot"

    @property
    def win_pct(self) -> float:
        return win_percentage(self.wins, self.ties, self.games)

    @property
    def avg_score(self) -> float:
        return self.points_for / self.games if self.games else 0.0

    @property
    def went_out_pct(self) -> float:
        return 100 * self.went_out / self.rounds if self.rounds else 0.0

    @property
    def red_threes_per_round(self) -> float:
        return self.red_threes / self.rounds if self.rounds else 0.0

    @property
    def hand_points_per_round(self) -> float:
        return self.hand_points / self.rounds if self.rounds else 0.0


@dataclass(frozen=True)
class PlayerRecord:
    """What the player's page shows of their whole history, read from their all-time standing
    row, which keeps it (`services.standings_refresh`): their figures by rule set, their rating
    chart, and the partners and opponents they met most (all of them when asked), with how
    many there are."""

    by_ruleset: list["RulesetRecord"]
    chart: RatingChart | None
    partners: list[Meeting]
    opponents: list[Meeting]
    partner_count: int
    opponent_count: int


def player_record(
    league: League, player_id: int, shown: int | None = MEETINGS_SHOWN
) -> PlayerRecord:
    """The player's kept record, with their `shown` most met partners and opponents (None: all
    of them), most games first and then by name: two queries, whatever their number of games."""
    kept = (
        Standing.objects.filter(league=league, player_id=player_id, season__isnull=True)
        .values_list("by_ruleset", "rating_chart", "partners", "opponents")
        .first()
    )
    tallies, chart, partners, opponents = kept or ({}, {}, [], [])
    records = sorted(
        (_record(preset, tally) for preset, tally in tallies.items()),
        key=lambda record: (record.name, record.preset),
    )
    # Kept most games first: only those level with the last one shown need their names to
    # tell which are shown.
    candidates = [_candidates(rows, shown) for rows in (partners, opponents)]
    wanted = {row[0] for rows in candidates for row in rows}
    names = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "name")) if wanted else {}
    partners_shown, opponents_shown = (_meetings(rows, names, shown) for rows in candidates)
    return PlayerRecord(
        records,
        chart_from_json(chart),
        partners_shown,
        opponents_shown,
        len(partners),
        len(opponents),
    )


def _candidates(rows: list[list[int]], shown: int | None) -> list[list[int]]:
    if shown is None or len(rows) <= shown:
        return rows
    if not shown:
        return []
    least = rows[shown - 1][1]
    return [row for row in rows if row[1] >= least]


def _meetings(rows: list[list[int]], names: dict[int, str], shown: int | None) -> list[Meeting]:
    found = sorted(
        (Meeting(row[0], names.get(row[0], ""), *row[1:]) for row in rows),
        key=lambda m: (-m.games, m.other.casefold(), m.other_id),
    )
    return found if shown is None else found[:shown]


def by_ruleset(league: League, player_id: int) -> list["RulesetRecord"]:
    """The player's counted games grouped by the rule set they were played under, each with
    its card figures in that rule set's words (its canastas, books or baskets)."""
    return player_record(league, player_id, shown=0).by_ruleset


def _record(preset: str, tally: dict) -> RulesetRecord:
    rules = engine.RULESETS.get(preset)
    order = list(rules.kinds) if rules is not None else []
    kinds = tally["canastas"]
    ranked = sorted(kinds, key=lambda k: (order.index(k) if k in order else len(order), k))
    rounds = tally["rounds"]
    scores_red_threes = rules is not None and bool(rules.red_three_bonus)
    held = rules.words["held"] if rules else "hand and foot"
    return RulesetRecord(
        preset=preset,
        name=rule_set_name(preset),
        games=tally["games"],
        wins=tally["wins"],
        ties=tally["ties"],
        points_for=tally["points_for"],
        rounds=rounds,
        went_out=tally["went_out"],
        red_threes=tally["red_threes"],
        hand_points=tally["hand_points"],
        canastas=[
            CanastaRate(kind, kind_label(rules, kind), kinds[kind], _per(kinds[kind], rounds))
            for kind in ranked
        ],
        red_threes_label=(
            "Red threes laid down" if scores_red_threes or tally["red_threes"] else ""
        ),
        hand_label=f"Left in {held}",
    )


def _per(count: int, rounds: int) -> float:
    return count / rounds if rounds else 0.0


def rating_history(league: League, player_id: int) -> list[tuple[datetime.date, float]]:
    """The date of each rated game and the player's rating after it, in the ledger's order."""
    return [
        (date, rating_of(mu, sigma))
        for date, mu, sigma in Participation.objects.filter(
            league=league, player_id=player_id, mu_after__isnull=False
        )
        .order_by("league_game__ledger")
        .values_list("date", "mu_after", "sigma_after")
    ]


def kind_label(rules: engine.RuleSet | None, kind: str) -> str:
    """`Red canastas`, `Clean books`: the rule set's words for a kind, else the kind's name."""
    if rules is not None and kind in rules.words:
        return rules.label(kind)
    return f"{kind.replace('_', ' ').capitalize()} canastas"


def other_leagues(league: League, player_id: int, user) -> QuerySet[League]:
    """The other leagues the player plays in that the viewer may see listed."""
    return (
        leagues_listed(user)
        .filter(pk__in=Membership.objects.filter(player_id=player_id).values("league_id"))
        .exclude(pk=league.pk)
    )


# A club night --------------------------------------------------------------------------------


def night_get(league: League, night_id: int) -> ClubNight | None:
    """The league's club night with its season, or None."""
    return ClubNight.objects.select_related("season").filter(league=league, pk=night_id).first()


@dataclass
class TableSide:
    """One side at a table: its players, and its name and running total once the game runs."""

    players: list[str]
    name: str = ""
    total: int | None = None
    won: bool = False


@dataclass
class NightTable:
    """A table of a club night: its sides, and its game if it has started."""

    number: int
    sides: list[TableSide]
    league_game: LeagueGame | None = None

    @property
    def rounds(self) -> int:
        return self.league_game.rounds_played if self.league_game else 0

    @property
    def to_confirm(self) -> int:
        """How many of its rounds wait for another side's word."""
        lg = self.league_game
        return getattr(lg, "rounds_waiting", 0) if lg and not lg.voided else 0

    @property
    def disputed(self) -> int:
        """How many of its rounds another side has disputed."""
        lg = self.league_game
        return getattr(lg, "rounds_disputed", 0) if lg and not lg.voided else 0

    @property
    def confirming(self) -> str:
        """What the night's pages say of its rounds not confirmed yet, or ""."""
        parts = []
        if self.disputed:
            parts.append(f"{self.disputed} round{'s' if self.disputed > 1 else ''} disputed")
        if self.to_confirm:
            parts.append(f"{self.to_confirm} to confirm")
        return ", ".join(parts)

    @property
    def playing(self) -> bool:
        """Its game has started and is neither finished nor voided."""
        lg = self.league_game
        return lg is not None and not lg.game.finished and not lg.voided

    @property
    def state(self) -> str:
        """`not started`, `voided`, `playing`, `finished` or `tie`: what the night's pages and
        the projector say of the table."""
        lg = self.league_game
        if lg is None:
            return "not started"
        if lg.voided:
            return "voided"
        if not lg.game.finished:
            return "playing"
        return "tie" if lg.game.tie else "finished"


@dataclass(frozen=True)
class NightView:
    tables: list[NightTable]
    present: list[Attendance]
    sitting_out: list[Attendance]
    waiting: list[Attendance]

    @property
    def in_progress(self) -> bool:
        """Whether a table's game is still being played."""
        return any(t.playing for t in self.tables)

    @property
    def to_start(self) -> list[NightTable]:
        """Seated tables whose game has not started."""
        return [t for t in self.tables if t.league_game is None]

    @property
    def unfinished(self) -> list[NightTable]:
        """The tables that keep the night from closing: playing, seated and not started, or
        over with rounds not yet confirmed (as `services.night_close` finds them)."""
        return [
            t
            for t in self.tables
            if t.league_game is None or t.playing or (t.to_confirm or t.disputed)
        ]


def night_view(night: ClubNight) -> NightView:
    """The night's tables with their sides and games, and who sits out or waits for a seat."""
    present = list(night.attendances.select_related("player").order_by("player__name"))
    games = {
        lg.table: lg
        for lg in LeagueGame.objects.filter(night=night)
        .select_related("game")
        .annotate(
            rounds_played=Count("game__rounds"),
            rounds_waiting=Count(
                "game__rounds", filter=Q(game__rounds__confirmation=Round.Confirmation.WAITING)
            ),
            rounds_disputed=Count(
                "game__rounds", filter=Q(game__rounds__confirmation=Round.Confirmation.DISPUTED)
            ),
        )
        .prefetch_related(Prefetch("game__sides", queryset=Side.objects.order_by("position")))
    }
    seats: dict[int, dict[int, list[tuple[int, str]]]] = {}
    sitting_out, waiting = [], []
    for a in present:
        if a.table is None:
            # A late arrival without a seat is waiting for the next table; anyone else unseated
            # was left out by the seating.
            (waiting if a.arrived_late else sitting_out).append(a)
        else:
            seats.setdefault(a.table, {}).setdefault(a.side, []).append((a.place, a.player.name))
    tables = []
    for number in sorted(set(seats) | {t for t in games if t is not None}):
        seated = seats.get(number, {})
        league_game = games.get(number)
        game_sides = list(league_game.game.sides.all()) if league_game else []
        count = max(len(game_sides), max(seated, default=-1) + 1)
        sides = []
        for index in range(count):
            players = [name for _, name in sorted(seated.get(index, []))]
            side = TableSide(players)
            if index < len(game_sides):
                game_side = game_sides[index]
                game = league_game.game
                side.name, side.total = game_side.name, game_side.total
                side.won = game.finished and game.winner_id == game_side.pk
                if not players:
                    side.players = list(game_side.players) or [game_side.name]
            sides.append(side)
        tables.append(NightTable(number, sides, league_game))
    return NightView(tables, present, sitting_out, waiting)
