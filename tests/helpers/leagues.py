"""Leagues as the tests make them: accounts and players, a league with its season, members, club
night games seated by hand and played, and the league form as an organiser fills it in."""

import datetime

import factory
from django.contrib.auth import get_user_model

from leagues import services
from leagues.models import League, LeagueGame, Player
from scorekeeper.rounds.confirmation import round_confirm
from scorekeeper.rounds.services import round_record

NIGHT = datetime.date(2026, 10, 1)
OCT = [datetime.date(2026, 10, day) for day in (1, 8, 15)]
EIGHT = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
# Every account's password, unless a test gives its own.
PASSWORD = "a-long-enough-password"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


def league_with(organiser, *, preset="ten-thousand", play=None, **settings) -> League:
    """A league whose games are one round long, so that a game's totals are what we type.
    Its rounds count once saved, as most tests want: those of confirmation ask for it."""
    house = {"target_score": None, "rounds": 1, **settings.pop("house_rules", {})}
    settings.setdefault("confirm_rounds", False)
    league = services.league_create(
        name="Thursday Club",
        slug="thursday",
        preset=preset,
        house_rules=house,
        play=play,
        user=organiser,
        **settings,
    )
    services.season_create(
        league=league,
        name="Autumn 2026",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 11, 30),
        user=organiser,
    )
    return league


def members(league: League, *names: str) -> dict[str, Player]:
    return {name: services.member_add(league=league, name=name, user=None).player for name in names}


def table_game(
    league: League,
    sides: list[list[Player]],
    *,
    date: datetime.date = NIGHT,
    table: int | None = None,
) -> LeagueGame:
    """A league game at a club night on `date` with these sides, seated by hand."""
    night = league.nights.filter(date=date).first()
    everyone = [p for side in sides for p in side]
    if night is None:
        night = services.night_create(
            league=league, date=date, player_ids=[p.pk for p in everyone], user=None
        )
    else:
        if night.closed_at is not None:
            # Its tables so far have all finished, so the night closed by itself; another table
            # tonight means the organiser opens it again.
            services.night_reopen(night=night, user=None)
        for player in everyone:
            if not night.attendances.filter(player=player).exists():
                services.night_arrival(night=night, player=player, user=None)
    table = table or (max(night.games.values_list("table", flat=True), default=0) + 1)
    seated = [
        services.SeatChoice(a.player_id, a.table, a.side)
        for a in night.attendances.filter(table__isnull=False)
    ]
    choices = seated + [
        services.SeatChoice(p.pk, table, s) for s, side in enumerate(sides) for p in side
    ]
    services.night_seating_set(night=night, choices=choices, user=None)
    (started,) = services.night_games_start(night=night, user=None)
    return started


def play(league_game: LeagueGame, totals: list[int]) -> None:
    """The game's one round: the stock ran out and each side scores what it melded."""
    play_rounds(league_game, totals)


def play_rounds(
    league_game: LeagueGame, *totals_by_round: list[int], confirmed: bool = True
) -> None:
    """Rounds in which the stock runs out and each side scores what it melded, each confirmed
    by the other side's phone where the table confirms its rounds (unless `confirmed` False)."""
    for number, totals in enumerate(totals_by_round, start=1):
        round_record(
            game=league_game.game,
            number=number,
            ended_by="stock_exhausted",
            entry=[{"melded_points": total} for total in totals],
            phone="scoring-phone",
        )
    if confirmed:
        confirm_rounds(league_game)


def confirm_rounds(league_game: LeagueGame) -> None:
    """Every round of the game not confirmed yet, confirmed from the other side's phone."""
    game = league_game.game
    game.refresh_from_db()
    if not game.confirm_rounds:
        return
    for stored in game.rounds.exclude(confirmation="confirmed").order_by("number"):
        round_confirm(game=game, number=stored.number, version=None, phone="their-phone")


def league_form(**changes) -> dict:
    """The new league form as an organiser sends it, with these fields changed."""
    data = {
        "action": "save",
        "name": "Friday Club",
        "slug": "friday",
        "description": "Fridays at the hall.",
        "preset": "ten-thousand",
        "play": "",
        "scoring": "match",
        "win_points": "3",
        "tie_points": "1",
        "loss_points": "0",
        # As `league_with` makes them: rounds count once saved.
        "confirm_rounds": "off",
        "visibility": "public",
        "rules_for": "ten-thousand",
    }
    data.update(changes)
    return data
