"""Tables finishing at the same moment, and a member added while a roster import runs, in real
concurrent transactions: each thread on its own connection, on PostgreSQL (row locks) or on an
SQLite file with the settings' locking (a write waits for the one before it, up to the busy
timeout). Every finish gets its own place in the rating ledger, the ratings are those a replay
in ledger order gives, and no final round is lost."""

import datetime
from collections import Counter

import pytest
from django.db import connection

from leagues import roster, services
from leagues.models import LeagueGame, Membership, Participation, Player
from leagues.roster_selectors import roster_facts
from scorekeeper.models import Round
from scorekeeper.rounds.services import round_record
from tests.helpers.kept_standings import assert_kept
from tests.helpers.leagues import EIGHT, UserFactory, league_with, members, table_game
from tests.helpers.races import THREADS, together

pytestmark = pytest.mark.django_db(transaction=True)

# Five club nights of four tables: eight players, each meeting a different opponent each night,
# so that every game's rating starts from the one its players' last game left.
NIGHTS = [datetime.date(2026, 10, day) for day in (1, 8, 15, 22, 29)]


@pytest.fixture
def database(request) -> None:
    """Real concurrent transactions: PostgreSQL's, or an SQLite file with the settings' locking
    (the in-memory test database refuses a second writer at once instead of waiting)."""
    if connection.vendor == "sqlite":
        request.getfixturevalue("club_file")


def pairings(players: list, nights: int) -> list[list[tuple]]:
    """Each night's pairs, by the circle method: nobody meets the same opponent twice."""
    ring = list(players)
    nights_pairs = []
    for _ in range(nights):
        half = len(ring) // 2
        nights_pairs.append(list(zip(ring[:half], reversed(ring[half:]), strict=True)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return nights_pairs


@pytest.fixture
def tables(database):
    """Twenty league games, seated and started, none of them played yet."""
    league = league_with(UserFactory(username="olive"))
    p = members(league, *EIGHT)
    games = []
    for date, pairs in zip(NIGHTS, pairings([p[name] for name in EIGHT], len(NIGHTS)), strict=True):
        for a, b in pairs:
            games.append(table_game(league, [[a], [b]], date=date))
    assert len(games) == THREADS
    return league, games


def totals_of(index: int) -> list[int]:
    # Wins and losses on both sides, and a tie.
    return [500 + 70 * (index % 5), 800 - 90 * (index % 4)]


def ratings_of(league) -> tuple[list, list]:
    return (
        list(
            Participation.objects.filter(league=league)
            .order_by("pk")
            .values_list("pk", "mu_before", "sigma_before", "mu_after", "sigma_after")
        ),
        list(
            Membership.objects.filter(league=league)
            .order_by("player_id")
            .values_list("player_id", "mu", "sigma", "rated_games")
        ),
    )


def test_twenty_tables_finishing_at_once_each_get_a_ledger_place_and_keep_their_round(tables):
    league, games = tables

    def finish(index: int):
        entry = [{"melded_points": total} for total in totals_of(index)]
        return round_record(
            game=games[index].game, number=1, ended_by="stock_exhausted", entry=entry
        )

    results = together(finish, THREADS)

    failed = Counter(type(r).__name__ for r in results if isinstance(r, BaseException))
    assert failed == Counter(), f"{sum(failed.values())} of {THREADS} finishes failed: {failed}"
    assert Round.objects.filter(game__league_game__league=league).count() == THREADS
    finished = LeagueGame.objects.filter(league=league, game__finished=True)
    assert sorted(finished.values_list("ledger", flat=True)) == list(range(1, THREADS + 1))
    # Every player's games chain in ledger order: each starts from the rating the one before left.
    rated = ratings_of(league)
    assert all(None not in row for row in rated[0]), rated[0]
    assert [row[3] for row in rated[1]] == [5] * len(EIGHT)
    for player in Player.objects.filter(memberships__league=league):
        chain = list(
            Participation.objects.filter(player=player)
            .order_by("league_game__ledger")
            .values_list("mu_before", "sigma_before", "mu_after", "sigma_after")
        )
        assert [row[:2] for row in chain[1:]] == [row[2:] for row in chain[:-1]]
    # And they are exactly what replaying the whole ledger gives.
    assert services.ratings_replay(league=league, start=None) == THREADS
    assert ratings_of(league) == rated
    assert_kept(league)


def test_a_merge_of_a_player_whose_tables_are_finishing_waits_its_turn(tables):
    """The merge locks the players, then the league; a finish locks its game, then the league,
    then refers to its players (their standings): neither holds what the other waits for."""
    league, games = tables
    kat = members(league, "Kat")["Kat"]
    ann = Player.objects.get(name="Ann")
    olive = league.organisers.get()

    def work(index: int):
        if index == THREADS:
            return services.player_merge(league=league, keep=kat, absorb=ann, user=olive)
        entry = [{"melded_points": total} for total in totals_of(index)]
        return round_record(
            game=games[index].game, number=1, ended_by="stock_exhausted", entry=entry
        )

    results = together(work, THREADS + 1)

    failed = Counter(type(r).__name__ for r in results if isinstance(r, BaseException))
    assert failed == Counter(), [r for r in results if isinstance(r, BaseException)]
    assert results[-1] == kat
    assert not Player.objects.filter(pk=ann.pk).exists()
    assert Participation.objects.filter(player=kat).count() == len(NIGHTS)
    finished = LeagueGame.objects.filter(league=league, game__finished=True)
    assert sorted(finished.values_list("ledger", flat=True)) == list(range(1, THREADS + 1))
    rated = ratings_of(league)
    services.ratings_replay(league=league, start=None)
    assert ratings_of(league) == rated
    assert_kept(league)


# A member added while a roster import runs ---------------------------------------------------

IMPORTERS = 10


def test_members_added_while_roster_imports_run_make_one_player_of_each_name(database):
    olive = UserFactory(username="olive")
    league = league_with(olive)
    rows = roster.read_text("Ann\nBob").rows
    facts = roster_facts(league=league, organiser=olive, rows=rows)
    seen = [decision.outcome for decision in roster.decide(rows, facts)]
    assert seen == [roster.ADD, roster.ADD]

    def add(index: int):
        if index < IMPORTERS:
            return services.roster_import(
                league=league, rows=rows, seen=seen, choices={}, user=olive
            )
        return services.member_add(league=league, name=["Ann", "Bob"][index % 2], user=olive)

    results = together(add, THREADS)

    players = Counter(
        Player.objects.filter(memberships__league=league).values_list("name", flat=True)
    )
    assert players == {"Ann": 1, "Bob": 1}, f"{players.total()} players for 2 names: {results}"
    imports, alone = results[:IMPORTERS], results[IMPORTERS:]
    # Each import added what was not there yet and skipped what was.
    assert all(
        sorted([m.player.name for m in each.added] + each.already) == ["Ann", "Bob"]
        for each in imports
    ), imports
    by_import = [m.player.name for each in imports for m in each.added]
    by_hand = Counter(m.player.name for m in alone if isinstance(m, Membership))
    assert sorted(by_import + list(by_hand.elements())) == ["Ann", "Bob"]
    # Every other add was refused with its reason, never a server error.
    refused = Counter(
        str(r) if isinstance(r, services.LeagueError) else repr(r)
        for r in alone
        if not isinstance(r, Membership)
    )
    assert refused == {
        f"{name} is already a member of Thursday Club, so nobody was added. A second player "
        "of that name needs something to tell them apart, such as an initial.": (
            THREADS - IMPORTERS
        )
        // 2
        - by_hand[name]
        for name in ("Ann", "Bob")
    }
