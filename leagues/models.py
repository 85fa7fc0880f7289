"""Club leagues: players, seasons, club nights and the league's record of each game.

A league game is a kitchen-table `scorekeeper.Game`; `LeagueGame` attaches it to a league, a
season and a club night, and `Participation` keeps, per player, the figures the standings, the
ratings and the player pages aggregate, refreshed whenever the game is scored.
"""

from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from scorekeeper.models import Game

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
# A club night's round timer runs for a whole number of minutes in this range.
TIMER_MINUTES = (1, 180)


class Player(models.Model):
    """A person who plays; the same player may belong to several leagues. The link to a user
    account is each membership's, so that one league's organisers can link nobody into
    another league."""

    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class LeagueQuerySet(models.QuerySet):
    def visible_to(self, user) -> "LeagueQuerySet":
        """Leagues this user may open: public and unlisted ones, and private ones they belong
        to or organise."""
        if user is not None and user.is_authenticated:
            return self.filter(
                ~Q(visibility=League.Visibility.PRIVATE)
                | Q(organisers=user)
                | Q(memberships__user=user)
            ).distinct()
        return self.exclude(visibility=League.Visibility.PRIVATE)


class League(models.Model):
    """A club's league: its rule set, how a game scores in the standings, who runs it."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public: listed, anyone can view"
        UNLISTED = "unlisted", "Unlisted: anyone with the link can view"
        PRIVATE = "private", "Private: members and organisers only"

    class Scoring(models.TextChoices):
        MATCH = "match", "Match points (win, tie, loss)"
        TOTAL = "total", "Total points scored"

    class Play(models.TextChoices):
        TEAMS = "teams", "Partnerships (two teams a table)"
        SINGLES = "singles", "Individual players"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(blank=True, max_length=2000)
    preset = models.CharField(max_length=32)
    # Overrides of the preset; each season freezes the full rule set when it is created.
    house_rules = models.JSONField(default=dict, blank=True)
    play = models.CharField(max_length=10, choices=Play.choices, default=Play.TEAMS)
    scoring = models.CharField(max_length=10, choices=Scoring.choices, default=Scoring.MATCH)
    win_points = models.SmallIntegerField(default=2)
    tie_points = models.SmallIntegerField(default=1)
    loss_points = models.SmallIntegerField(default=0)
    # Whether each round of a club night's table waits for another side (or an organiser) to
    # confirm it before the game counts: on unless the league turns it off.
    confirm_rounds = models.BooleanField(default=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_leagues")
    members = models.ManyToManyField(Player, through="Membership", related_name="leagues")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(visibility__in=["public", "unlisted", "private"]),
                name="league_visibility_known",
            ),
            models.CheckConstraint(
                condition=Q(scoring__in=["match", "total"]), name="league_scoring_known"
            ),
            models.CheckConstraint(
                condition=Q(play__in=["teams", "singles"]), name="league_play_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules_spec(self) -> dict[str, Any]:
        """The league's rules as the engine names them: its preset and house rules."""
        return {"base": self.preset, "overrides": self.house_rules}


class Membership(models.Model):
    """A player in a league, with their current rating there (openskill's mu and sigma) and
    the user account linked to them in this league: that account is the league's member."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
    )
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    rated_games = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)
    # The day the organiser retired the member (`services.member_retire`): kept in the league's
    # history and standings, off the tick lists of a new night and its late arrivals. Null for
    # a member who plays.
    retired_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="membership_unique_player"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="membership_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}"

    @property
    def rating(self) -> float:
        return rating_of(self.mu, self.sigma)


def rating_of(mu: float, sigma: float) -> float:
    # The conservative estimate openskill calls the ordinal: a new player starts at 0 and rises
    # as the games make their skill certain.
    return mu - 3 * sigma


class Season(models.Model):
    """A span of dates; a game belongs to the season of its date."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    starts_on = models.DateField()
    ends_on = models.DateField()
    # The league's complete rule set when the season was created, so old games never change.
    rules = models.JSONField()

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_unique_name"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ClubNight(models.Model):
    """An evening of play: who came, where they sat, and the tables' games."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="nights")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="nights")
    date = models.DateField()
    notes = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when the organiser closes the night (or its last table finishes); a closed night's
    # page stops refreshing. Null while the night is open.
    closed_at = models.DateTimeField(null=True, blank=True)
    # The round timer the organiser starts and stops (`services.night_timer_start`), which the
    # projector counts down: its length and the moment it runs out, both null while none is
    # set. A timer that has run out stays until it is stopped or another is started.
    timer_minutes = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(TIMER_MINUTES[0]), MaxValueValidator(TIMER_MINUTES[1])],
    )
    timer_ends_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["league", "date"], name="night_unique_date"),
            models.CheckConstraint(
                condition=Q(timer_minutes__isnull=True, timer_ends_at__isnull=True)
                | Q(
                    timer_minutes__isnull=False,
                    timer_minutes__gte=TIMER_MINUTES[0],
                    timer_minutes__lte=TIMER_MINUTES[1],
                    timer_ends_at__isnull=False,
                ),
                name="night_timer_whole",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} on {self.date:%d %b %Y}"


class Attendance(models.Model):
    """A player present at a night, and their seat: a table, a side and a place in it; no
    table means sitting out (or waiting to be seated, for a late arrival)."""

    night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="attendances")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attendances")
    arrived_late = models.BooleanField(default=False)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "side", "place", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="attendance_unique_player"),
            models.UniqueConstraint(
                fields=["night", "table", "side", "place"], name="attendance_unique_seat"
            ),
            models.CheckConstraint(
                condition=(Q(table__isnull=True) & Q(side__isnull=True) & Q(place__isnull=True))
                | (Q(table__gte=1) & Q(side__isnull=False) & Q(place__isnull=False)),
                name="attendance_seat_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.night}"


class LeagueGameQuerySet(models.QuerySet):
    def counted(self) -> "LeagueGameQuerySet":
        """Games that count in standings and ratings: finished and not voided."""
        return self.filter(game__finished=True, voided=False)


class LeagueGame(models.Model):
    """A kitchen-table game played for a league, on a date of one of its seasons."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="league_game")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="games")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="games")
    night = models.ForeignKey(
        ClubNight, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    date = models.DateField()
    voided = models.BooleanField(default=False)
    void_reason = models.CharField(max_length=200, blank=True)
    # Place in the rating ledger: given when the game first counts, kept through corrections,
    # so a correction replays the ratings from this game on.
    ledger = models.PositiveBigIntegerField(null=True, blank=True)

    objects = LeagueGameQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "table", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "table"], name="leaguegame_unique_table"),
            models.UniqueConstraint(fields=["league", "ledger"], name="leaguegame_unique_ledger"),
            models.CheckConstraint(
                condition=Q(voided=False) | ~Q(void_reason=""), name="leaguegame_void_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} ({self.date})"


class Participation(models.Model):
    """One player's part in one league game: their side and, once the game counts, its result
    and card figures; the rating before and after it. Each player of a team gets the team's
    result."""

    class Outcome(models.TextChoices):
        WIN = "W", "Win"
        TIE = "T", "Tie"
        LOSS = "L", "Loss"

    league_game = models.ForeignKey(
        LeagueGame, on_delete=models.CASCADE, related_name="participations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="participations")
    side = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(default=0)
    # Copied from the league game so that standings aggregate one table.
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="participations")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="participations")
    date = models.DateField()
    counted = models.BooleanField(default=False)
    outcome = models.CharField(max_length=1, choices=Outcome.choices, blank=True)
    points_for = models.BigIntegerField(default=0)
    # Against the best other side: the total that had to be beaten.
    points_against = models.BigIntegerField(default=0)
    rounds = models.PositiveSmallIntegerField(default=0)
    went_out = models.PositiveSmallIntegerField(default=0)
    red_threes = models.PositiveIntegerField(default=0)
    # Card points left in hand and foot over the game (as a positive number).
    hand_points = models.BigIntegerField(default=0)
    # Canastas completed over the game by kind, {"natural": 3, "mixed": 5, ...}.
    canastas = models.JSONField(default=dict, blank=True)
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-date", "-league_game_id", "side", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["league_game", "player"], name="participation_unique_player"
            ),
            models.UniqueConstraint(
                fields=["league_game", "side", "place"], name="participation_unique_seat"
            ),
            models.CheckConstraint(
                condition=(Q(counted=True) & Q(outcome__in=["W", "T", "L"]))
                | (Q(counted=False) & Q(outcome="")),
                name="participation_counted_has_outcome",
            ),
        ]
        indexes = [
            models.Index(fields=["league", "counted", "player"], name="participation_standings"),
            models.Index(fields=["season", "counted", "player"], name="participation_season"),
            # A player's games newest first (the player page's results, count, rating chart
            # and partners and opponents), without sorting every game of the league.
            models.Index(
                fields=["player", "league", "-date", "-league_game"], name="participation_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league_game}"


class Standing(models.Model):
    """A player's record in a season of a league (or all time: no season), kept up to date by
    `services.standings_refresh` whenever their counted participations change, so that the
    standings read one row a player instead of adding up every game at each view."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings")
    # None: the all-time row, every season of the league together.
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="standings"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    ties = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    points_for = models.BigIntegerField(default=0)
    points_against = models.BigIntegerField(default=0)
    # The last five results, newest first by (date, league game), as "WLTWW".
    last_five = models.CharField(max_length=5, blank=True)
    # The participation whose rating the season's table shows: the player's last rated game of
    # the scope in the ledger's order. A link rather than a copy, so that a ratings replay
    # (which rewrites the ratings, never which games count) leaves the row right.
    last_rated = models.ForeignKey(
        Participation, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The player page's figures by rule set: {preset: {"games": .., "wins": .., "ties": ..,
    # "points_for": .., "rounds": .., "went_out": .., "red_threes": .., "hand_points": ..,
    # "canastas": {kind: count}}}.
    by_ruleset = models.JSONField(default=dict, blank=True)
    # All-time rows only (empty on a season's), for the player page: the record with each
    # partner and against each opponent, most games first, as [[other player id, games, wins,
    # ties, losses, points for, points against], ...]; and the rating chart as drawn
    # (`charts.chart_to_json`).
    partners = models.JSONField(default=list, blank=True)
    opponents = models.JSONField(default=list, blank=True)
    rating_chart = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["league", "season", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "season", "player"], name="standing_unique_player"
            ),
            # A null season is never equal to another in a unique constraint: one all-time row.
            models.UniqueConstraint(
                fields=["league", "player"],
                condition=Q(season__isnull=True),
                name="standing_unique_all_time",
            ),
            models.CheckConstraint(
                condition=Q(games=F("wins") + F("ties") + F("losses")),
                name="standing_games_add_up",
            ),
            models.CheckConstraint(
                condition=Q(games__gte=0, wins__gte=0, ties__gte=0, losses__gte=0),
                name="standing_counts_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season or self.league}"


class LeagueEvent(models.Model):
    """The league's audit: who changed what, when, with the values before and after."""

    class Kind(models.TextChoices):
        LEAGUE_CREATED = "league_created", "League created"
        LEAGUE_CHANGED = "league_changed", "League settings changed"
        SEASON_ADDED = "season_added", "Season added"
        SEASON_CHANGED = "season_changed", "Season changed"
        MEMBER_ADDED = "member_added", "Member added"
        ROSTER_IMPORTED = "roster_imported", "Roster imported"
        MEMBER_CHANGED = "member_changed", "Member changed"
        PLAYERS_MERGED = "players_merged", "Players merged"
        NIGHT_ADDED = "night_added", "Club night added"
        NIGHT_CLOSED = "night_closed", "Club night closed"
        NIGHT_REOPENED = "night_reopened", "Club night reopened"
        SEATING_SET = "seating_set", "Seating set"
        LATE_ARRIVAL = "late_arrival", "Late arrival"
        GAMES_STARTED = "games_started", "Games started"
        GAME_VOIDED = "game_voided", "Game voided"
        GAME_RESTORED = "game_restored", "Void lifted"
        TIMER_STARTED = "timer_started", "Round timer started"
        TIMER_STOPPED = "timer_stopped", "Round timer stopped"
        RATINGS_REPLAYED = "ratings_replayed", "Ratings replayed"
        MEMBER_RETIRED = "member_retired", "Member retired"
        MEMBER_BACK = "member_back", "Member back"
        RESULTS_SENT = "results_sent", "Night's results sent"
        ROUNDS_CONFIRMED = "rounds_confirmed", "Rounds confirmed by the organiser"
        POINTS_ADJUSTED = "points_adjusted", "League points adjusted"
        ADJUSTMENT_REMOVED = "adjustment_removed", "Adjustment removed"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    who = models.CharField(max_length=150)
    summary = models.CharField(max_length=300)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return self.summary


# A penalty or bonus is a whole number of league points from −1,000 to 1,000, never 0.
ADJUSTMENT_POINTS = (-1000, 1000)


class PointsAdjustment(models.Model):
    """A penalty or bonus of league points the organiser gives a player in a season, with the
    reason: added to the player's league points of the season and of all time
    (`selectors.league_points`), shown under the standings and recorded in the audit."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="adjustments")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="adjustments")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="adjustments")
    points = models.SmallIntegerField(
        validators=[
            MinValueValidator(ADJUSTMENT_POINTS[0]),
            MaxValueValidator(ADJUSTMENT_POINTS[1]),
        ]
    )
    reason = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    who = models.CharField(max_length=150)
    # The key the adjustments page gave its form: the same form sent twice saves once. NULL,
    # not "", for an adjustment made without the form: the unique constraint leaves NULLs out.
    form_key = models.CharField(max_length=36, null=True, blank=True)  # noqa: DJ001

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(points=0), name="adjustment_points_not_zero"),
            models.CheckConstraint(
                condition=Q(points__gte=ADJUSTMENT_POINTS[0], points__lte=ADJUSTMENT_POINTS[1]),
                name="adjustment_points_in_range",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
            models.UniqueConstraint(
                fields=["league", "form_key"], name="adjustment_unique_form_key"
            ),
        ]
        indexes = [
            # A player's adjustments of a season or of all time, summed beside each standing row.
            models.Index(fields=["league", "player", "season"], name="adjustment_player"),
        ]

    def __str__(self) -> str:
        return f"{self.points:+d} for {self.player} in {self.season}: {self.reason}"
