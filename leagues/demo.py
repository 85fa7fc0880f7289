"""Demo leagues for a fresh install: `python manage.py load_demo` (run by `make run`).

Everything is written through the real services, as an organiser and the tables' phones would:
leagues, seasons, members, club nights seated by the proposal, and every round scored with
`scorekeeper.rounds.services.round_record` (so participations, standings and ratings are kept by the
league app's signal receiver exactly as in use). The rounds come from
`scorekeeper.games.demo_rounds.random_game` with a fixed seed, so the same demo loads every time.

- "Riverside Card Club" (`riverside`): public, partnerships, match points 2/1/0, 16 members,
  season "Summer 2026" on the ten-thousand preset and "Autumn 2026" on four-rounds; one game
  voided, one corrected after it finished. Every night is played to the end, so each closed by
  itself when its last table finished, the last autumn night too: the demo's nights are over,
  as nights weeks ago are, rather than left looking abandoned.
- "Baskets Ladder" (`baskets-ladder`): singles on the Baskets preset, scored on total points,
  6 players (three of them also Riverside members), one season of two nights.

Loading is idempotent: when the Riverside league exists nothing is written.
"""

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from leagues import services
from leagues.models import ClubNight, League, LeagueGame, Player
from scorekeeper import engine
from scorekeeper.games import services as games
from scorekeeper.games.demo_rounds import random_game
from scorekeeper.games.scoring import preview_round
from scorekeeper.rounds.confirmation import round_confirm
from scorekeeper.rounds.services import round_record, round_update

# The demo tables' phones: one saves each round, the other side's confirms it.
SCORING_PHONE, OTHER_PHONE = "demo-scoring-phone", "demo-other-phone"

SEED = 2026
ORGANISER = "organiser"
ORGANISER_PASSWORD = "demo-organiser"
RIVERSIDE = "riverside"
LADDER = "baskets-ladder"
MAX_NIGHTS = 8

RIVERSIDE_MEMBERS = (
    "José Martínez",
    "Zoë Clarke",
    "Łukasz Nowak",
    "Søren Nielsen",
    "Margaret O'Brien",
    "Aoife Byrne",
    "Björn Larsson",
    "Chloé Dubois",
    "Dev Patel",
    "Fatima Haddad",
    "Renée Lefèvre",
    "Tomás Ó Briain",
    "Ana-María Pérez",
    "Mehmet Yılmaz",
    "Kofi Mensah",
    "Nguyễn Thị Lan",
)
# The ladder's players: three Riverside members who also play Baskets, and three newcomers.
LADDER_FROM_RIVERSIDE = ("Zoë Clarke", "Søren Nielsen", "Kofi Mensah")
LADDER_NEW = ("Gwen ap Rhys", "Héctor Sánchez", "Ingrid Håkonsen")

# Players present at each night of a Riverside season, in turn: from 12 to 16, so that the nights
# have three or four tables and the tables of three players appear.
SUMMER_PRESENT = (16, 13, 14, 15)
AUTUMN_PRESENT = (14, 12, 15, 16)

VOID_REASON = "Played with a short deck: two jokers were found in the box afterwards."


@dataclass
class Summary:
    """What a load wrote, for the command's report and the tests."""

    organiser_created: bool = False
    leagues: int = 0
    seasons: int = 0
    players: int = 0
    memberships: int = 0
    nights: int = 0
    games: int = 0
    finished: int = 0
    # Nights whose last table finished, and which therefore closed by themselves.
    closed: int = 0
    voided: int = 0
    corrected: int = 0
    rounds: int = 0


def demo_loaded() -> bool:
    return League.objects.filter(slug=RIVERSIDE).exists()


# When a demo night's last table finished and the night closed.
CLOSED_AT = datetime.time(22, 30)


def thursdays(starts_on: datetime.date, ends_on: datetime.date, count: int) -> list:
    """`count` Thursdays (club night) of the season from its first, two or three weeks apart
    when the season is long enough."""
    day = starts_on + datetime.timedelta(days=(3 - starts_on.weekday()) % 7)
    every = []
    while day <= ends_on:
        every.append(day)
        day += datetime.timedelta(days=7)
    if count > len(every):
        raise ValueError(f"At most {len(every)} club nights fit in {starts_on}..{ends_on}.")
    step = min(3, len(every) // count)
    return every[::step][:count]


def round_entry(round_: dict) -> tuple[str, list[dict]]:
    """A demo_rounds round as round_record takes it: ended_by, and each side's fields in
    seating order without its name."""
    entry = [{k: v for k, v in side.items() if k != "name"} for side in round_["sides"]]
    return round_["ended_by"], entry


class _Builder:
    def __init__(self, nights: int, seed: int):
        if not 1 <= nights <= MAX_NIGHTS:
            raise ValueError(f"nights must be from 1 to {MAX_NIGHTS}.")
        self.nights = nights
        # Separate streams, so who comes to a night never depends on how the cards fell.
        self.attendance_rng = random.Random(seed)
        self.cards_rng = random.Random(seed + 1)
        self.summary = Summary()
        self.user = None

    # -- the organiser --------------------------------------------------------------------

    def organiser(self) -> None:
        User = get_user_model()
        user = User.objects.filter(username=ORGANISER).first()
        if user is None:
            user = User.objects.create_user(
                username=ORGANISER, password=ORGANISER_PASSWORD, first_name="Demo organiser"
            )
            self.summary.organiser_created = True
        self.user = user

    # -- games ----------------------------------------------------------------------------

    def play(self, league_game: LeagueGame) -> None:
        """Score the table's game round by round to the end, as its phone would."""
        game = league_game.game
        sides = [side.name for side in game.sides.order_by("position")]
        rules = engine.resolve_rules(game.rules)
        planned = random_game(rules, sides, rng=self.cards_rng, max_rounds=30)
        for number, round_ in enumerate(planned, start=1):
            ended_by, entry = round_entry(round_)
            round_record(
                game=game, number=number, ended_by=ended_by, entry=entry, phone=SCORING_PHONE
            )
            self.confirm(game, number)
        self.summary.rounds += len(planned)
        self.summary.games += 1
        game.refresh_from_db(fields=["finished"])
        if not game.finished:
            # A target game that ran past closing time: stopped by hand, highest total wins.
            games.game_end(game=game, user=self.user)
        self.summary.finished += 1

    def confirm(self, game, number: int) -> None:
        """The other side's word on a round, from their own phone, as a club night asks."""
        game.refresh_from_db(fields=["confirm_rounds"])
        if game.confirm_rounds:
            round_confirm(game=game, number=number, version=None, phone=OTHER_PHONE)

    def night(
        self, league: League, date: datetime.date, players: Sequence[Player], present: int
    ) -> tuple[ClubNight, list[LeagueGame]]:
        chosen = self.attendance_rng.sample(list(players), present)
        night = services.night_create(
            league=league, date=date, player_ids=[p.pk for p in chosen], user=self.user
        )
        services.night_seating_propose(night=night, user=self.user)
        started = services.night_games_start(night=night, user=self.user)
        self.summary.nights += 1
        return night, sorted(started, key=lambda g: g.table)

    # -- corrections ----------------------------------------------------------------------

    def correct(self, league_game: LeagueGame) -> None:
        """A typo fixed after the game ended: a side's melded points in round 2, entered
        100 short (or over), put right with round_update, which the game's history shows."""
        game = league_game.game
        game.refresh_from_db()
        sides = list(game.sides.order_by("position"))
        stored = list(game.rounds.order_by("number"))
        target = stored[1] if len(stored) > 1 else stored[0]
        for side_index in (1, 0):
            for delta in (100, -100, 50, -50):
                entry = [dict(data) for data in target.entry]
                entry[side_index]["melded_points"] += delta
                status, errors = preview_round(
                    game, sides, stored, target.number, target.ended_by, entry
                )
                if errors or not status.finished:
                    continue
                round_update(
                    game=game,
                    number=target.number,
                    ended_by=target.ended_by,
                    entry=entry,
                    user=self.user,
                )
                # A correction waits for the other side's word again.
                self.confirm(game, target.number)
                self.summary.corrected += 1
                return
        raise RuntimeError("No valid correction found for the demo game.")  # pragma: no cover

    # -- leagues --------------------------------------------------------------------------

    def riverside(self) -> list[Player]:
        user = self.user
        league = services.league_create(
            name="Riverside Card Club",
            slug=RIVERSIDE,
            preset="ten-thousand",
            user=user,
            description=(
                "A demo league: Thursday club nights at the riverside hall, partnerships, "
                "2 points a win and 1 a tie. Loaded by `manage.py load_demo`."
            ),
            play=League.Play.TEAMS,
            scoring=League.Scoring.MATCH,
            win_points=2,
            tie_points=1,
            loss_points=0,
            visibility=League.Visibility.PUBLIC,
        )
        players = [
            services.member_add(league=league, name=name, user=user).player
            for name in RIVERSIDE_MEMBERS
        ]
        summer = services.season_create(
            league=league,
            name="Summer 2026",
            starts_on=datetime.date(2026, 7, 1),
            ends_on=datetime.date(2026, 8, 31),
            user=user,
        )
        # Each season freezes the league's rules when it is created: change the preset first.
        league = services.league_update(league=league, user=user, preset="four-rounds")
        autumn = services.season_create(
            league=league,
            name="Autumn 2026",
            starts_on=datetime.date(2026, 9, 1),
            ends_on=datetime.date(2026, 11, 30),
            user=user,
        )
        self.summary.leagues += 1
        self.summary.seasons += 2
        self.summary.players += len(players)
        self.summary.memberships += len(players)

        for index, date in enumerate(thursdays(summer.starts_on, summer.ends_on, self.nights)):
            present = SUMMER_PRESENT[index % len(SUMMER_PRESENT)]
            _, started = self.night(league, date, players, present)
            for league_game in started:
                self.play(league_game)
            if index == 0:
                services.game_void(league_game=started[-1], reason=VOID_REASON, user=user)
                self.summary.voided += 1

        dates = thursdays(autumn.starts_on, autumn.ends_on, self.nights)
        for index, date in enumerate(dates):
            present = AUTUMN_PRESENT[(index - len(dates)) % len(AUTUMN_PRESENT)]
            _, started = self.night(league, date, players, present)
            for league_game in started:
                self.play(league_game)
            if index == 0:
                self.correct(started[0])
        return players

    def ladder(self, riverside: Sequence[Player]) -> None:
        user = self.user
        league = services.league_create(
            name="Baskets Ladder",
            slug=LADDER,
            preset="baskets",
            user=user,
            description="A demo league: Baskets, one against one, ranked on total points.",
            play=League.Play.SINGLES,
            scoring=League.Scoring.TOTAL,
            visibility=League.Visibility.PUBLIC,
        )
        by_name = {p.name: p for p in riverside}
        players = [
            services.member_add(league=league, player=by_name[name], user=user).player
            for name in LADDER_FROM_RIVERSIDE
        ] + [services.member_add(league=league, name=name, user=user).player for name in LADDER_NEW]
        season = services.season_create(
            league=league,
            name="Autumn 2026",
            starts_on=datetime.date(2026, 9, 1),
            ends_on=datetime.date(2026, 11, 30),
            user=user,
        )
        self.summary.leagues += 1
        self.summary.seasons += 1
        self.summary.players += len(LADDER_NEW)
        self.summary.memberships += len(players)
        for date in thursdays(season.starts_on, season.ends_on, min(2, self.nights)):
            _, started = self.night(league, date, players, len(players))
            for league_game in started:
                self.play(league_game)


def build_demo(*, nights: int = 4, seed: int = SEED) -> Summary | None:
    """Load the demo leagues with `nights` club nights a Riverside season; None (and nothing
    written) when the demo is already there."""
    with transaction.atomic():
        if demo_loaded():
            return None
        builder = _Builder(nights, seed)
        builder.organiser()
        riverside = builder.riverside()
        builder.ladder(riverside)
        closed = ClubNight.objects.filter(
            league__slug__in=(RIVERSIDE, LADDER), closed_at__isnull=False
        )
        # The nights closed themselves as the loader played them, today; a club closes its
        # night that evening, so the pages say so rather than "closed on" the day of the load.
        for night in closed:
            night.closed_at = timezone.make_aware(datetime.datetime.combine(night.date, CLOSED_AT))
            night.save(update_fields=["closed_at"])
        builder.summary.closed = len(closed)
        return builder.summary
