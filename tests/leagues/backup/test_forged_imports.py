"""A forged league export is refused, every one of its fields checked as the forms and the engine
check them, naming the place and what is allowed, with nothing stored; a genuine one restores a
league every page of which answers."""

import copy
import datetime

import pytest
from django.db import connection, transaction
from django.test import Client

from leagues import services
from leagues.backup import export as backup
from leagues.models import League, LeagueGame
from scorekeeper.models import Game
from scorekeeper.rounds.services import round_record
from tests.helpers.backups import dumped, row_counts
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game

WINTER = datetime.date(2026, 12, 3)


def genuine_league(organiser) -> League:
    """Teams of two and a player alone, a tie, a game with canastas, threes and a hand left, a
    voided game, a game still being played at an open night in a second season, a late arrival,
    a member linked to an account."""
    league = league_with(organiser)
    services.season_create(
        league=league,
        name="Winter 2026",
        starts_on=datetime.date(2026, 12, 1),
        ends_on=datetime.date(2027, 2, 28),
        user=organiser,
    )
    ann, bob, cy, di, eve, fay, gus, hal = members(
        league, "Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"
    ).values()
    services.member_add(
        league=league, name="Mia", account=UserFactory(username="mia"), user=organiser
    )
    first, second = datetime.date(2026, 10, 1), datetime.date(2026, 10, 8)
    play(table_game(league, [[ann, cy], [bob, di]], date=first), [500, 300])
    play(table_game(league, [[eve], [fay]], date=first), [400, 400])
    canastas = table_game(league, [[ann, bob], [cy, di]], date=second)
    round_record(
        game=canastas.game,
        number=1,
        ended_by="going_out",
        entry=[
            {
                "went_out": True,
                "canastas": {"natural": 3, "mixed": 1, "wild": 1},
                "melded_points": 1000,
                "red_threes": 1,
            },
            {"canastas": {"natural": 1}, "melded_points": 400, "hand_points": 85},
        ],
    )
    voided = table_game(league, [[eve, gus], [fay, hal]], date=second)
    play(voided, [700, 100])
    services.game_void(league_game=voided, reason="Misdeal", user=organiser)
    table_game(league, [[ann], [gus]], date=WINTER)
    night = league.nights.get(date=WINTER)
    services.night_arrival(night=night, player=hal, user=organiser)
    return league


def public_urls(league: League) -> list[str]:
    """Every page, PDF and CSV anyone may read of the league and of each of its games."""
    base = f"/leagues/{league.slug}"
    urls = [
        "/leagues/",
        f"{base}/",
        f"{base}/standings/",
        f"{base}/standings.pdf?paper=a4",
        f"{base}/standings.csv",
        f"{base}/score-sheet.pdf?paper=letter",
    ]
    for season in league.seasons.all():
        at = f"{base}/seasons/{season.pk}"
        urls += [
            f"{at}/standings/",
            f"{at}/standings.pdf?paper=a4",
            f"{at}/standings.csv",
            f"{at}/games.csv",
            f"{at}/head-to-head/",
        ]
    for night in league.nights.all():
        at = f"{base}/nights/{night.pk}"
        urls += [f"{at}/", f"{at}/pack.pdf?paper=a4", f"{at}/projector/"]
    for player in league.members.all():
        urls.append(f"{base}/players/{player.pk}/")
    for game in Game.objects.filter(league_game__league=league):
        at = f"/g/{game.public_id}"
        urls += [
            f"{at}/",
            f"{at}/history/",
            f"{at}/state",
            f"{at}/score-card.pdf?paper=a4",
            f"{at}/offline.json",
        ]
        urls += [
            f"{at}/rounds/{number}/" for number in game.rounds.values_list("number", flat=True)
        ]
    return urls


def organiser_urls(league: League) -> list[str]:
    """Every page of the league its organisers open (each form as it first shows)."""
    base = f"/leagues/{league.slug}"
    urls = [
        f"{base}/edit/",
        f"{base}/seasons/new/",
        f"{base}/members/",
        f"{base}/members/merge/",
        f"{base}/members/import/",
        f"{base}/nights/new/",
        f"{base}/audit/",
    ]
    urls += [f"{base}/seasons/{season.pk}/edit/" for season in league.seasons.all()]
    for night in league.nights.all():
        at = f"{base}/nights/{night.pk}"
        urls += [f"{at}/{page}/" for page in ("seating", "start", "arrivals", "close", "reopen")]
    urls += [f"{base}/members/{player.pk}/edit/" for player in league.members.all()]
    for league_game in league.games.all():
        urls += [f"{base}/games/{league_game.pk}/{page}/" for page in ("void", "unvoid")]
    return urls


@pytest.fixture(scope="module")
def genuine_file(django_db_setup, django_db_blocker) -> dict:
    """The genuine league's export, built once a module (it takes seconds) and rolled back."""
    with django_db_blocker.unblock(), transaction.atomic():
        data = dumped(backup.league_export(genuine_league(UserFactory(username="olive"))))
        transaction.set_rollback(True)
    return data


def sequences() -> dict[str, int | None]:
    """Each id sequence's last value (PostgreSQL's sequences, SQLite's sqlite_sequence)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT sequencename, last_value FROM pg_sequences "
                "WHERE schemaname = current_schema()"
            )
        else:
            cursor.execute("SELECT name, seq FROM sqlite_sequence")
        return dict(cursor.fetchall())


def refused(data: dict) -> str:
    """The refusal's message, after checking that no row and no sequence changed."""
    counts, sequences_before = row_counts(), sequences()
    with pytest.raises(backup.BackupError) as error:
        backup.league_import(data)
    assert row_counts() == counts
    assert sequences() == sequences_before
    return str(error.value)


# The forged files -----------------------------------------------------------------------------


def game(d: dict, index: int = 0) -> dict:
    return d["games"][index]


def side(d: dict, index: int = 0) -> dict:
    return game(d)["sides"][index]


def event(d: dict, index: int) -> dict:
    return game(d)["events"][index]


def taking(d: dict, section: str, index: int, **changes) -> None:
    """A copy of a section's row, under a new id, with these changes, appended."""
    rows = d[section]
    rows.append({**rows[index], "id": max(row["id"] for row in rows) + 1, **changes})


def rename_game(d: dict, public_id: str) -> None:
    d["league_games"][0]["game"] = game(d)["public_id"] = public_id


def other_rules(d: dict) -> None:
    game(d)["rules"] = {
        "base": "ten-thousand",
        "overrides": {**game(d)["rules"]["overrides"], "going_out_bonus": 200},
    }
    game(d)["house_rules"] = {**game(d)["house_rules"], "going_out_bonus": 200}


def without_league_game(d: dict) -> None:
    lost = d["league_games"].pop()
    d["participations"] = [p for p in d["participations"] if p["league_game"] != lost["id"]]


def sent_twice(d: dict) -> None:
    """A second round with the key of the round a phone sent."""
    rounds = game(d)["rounds"]
    rounds[0]["client_key"] = "phone-1"
    ids = [r["id"] for g in d["games"] for r in g["rounds"]]
    rounds.append({**rounds[0], "id": max(ids) + 1, "number": 2, "scores": []})


def reopened_by(d: dict, winner) -> None:
    event(d, 1).update(kind="reopened", before={"winner": winner, "tie": False})


YEARS = "is outside the years 2000 to 2100; a league's dates and times fall within them."
RULE_SETS = (
    '"nope"; the rulesets are baskets, four-rounds, sevens, ten-thousand, cutthroat, contract, '
    "canasta, samba and buraco."
)

FORGERIES = {
    # Dates and times.
    "player created in 9999": (
        lambda d: d["players"][0].update(created_at="9999-12-31T23:00:00-12:00"),
        f"players[0].created_at: 9999-12-31T23:00:00-12:00 {YEARS}",
    ),
    "league event in year 0": (
        lambda d: d["league_events"][0].update(at="0001-01-01T00:00:00+01:00"),
        f"league_events[0].at: 0001-01-01T00:00:00+01:00 {YEARS}",
    ),
    "league created in 1999": (
        lambda d: d["league"].update(created_at="1999-12-31T23:59:59+00:00"),
        f"league.created_at: 1999-12-31T23:59:59+00:00 {YEARS}",
    ),
    "membership joined in 2101": (
        lambda d: d["memberships"][0].update(joined_at="2101-01-01T00:00:00+00:00"),
        f"memberships[0].joined_at: 2101-01-01T00:00:00+00:00 {YEARS}",
    ),
    "season starting in 1900": (
        lambda d: d["seasons"][0].update(starts_on="1900-09-01"),
        f"seasons[0].starts_on: 1900-09-01 {YEARS}",
    ),
    "night closed in 9999": (
        lambda d: d["nights"][0].update(closed_at="9999-12-31T23:59:59-12:00"),
        f"nights[0].closed_at: 9999-12-31T23:59:59-12:00 {YEARS}",
    ),
    "round changed in 9999": (
        lambda d: game(d)["rounds"][0].update(updated_at="9999-12-31T23:59:59+00:00"),
        f"games[0].rounds[0].updated_at: 9999-12-31T23:59:59+00:00 {YEARS}",
    ),
    "game event in year 0": (
        lambda d: event(d, 0).update(at="0001-01-01T00:30:00+01:00"),
        f"games[0].events[0].at: 0001-01-01T00:30:00+01:00 {YEARS}",
    ),
    "league game on another day than its night": (
        lambda d: d["league_games"][0].update(date="2026-10-02"),
        "league_games[0].date: 2026-10-02 is not the date of its club night, 2026-10-01.",
    ),
    "participation on another day than its game": (
        lambda d: d["participations"][0].update(date="2026-10-08"),
        "participations[0].date: 2026-10-08 is not the date of its league game, 2026-10-01.",
    ),
    "night outside its season": (
        lambda d: d["nights"][2].update(date="2027-03-01"),
        "nights[2].date: 2027-03-01 is outside its season, 2026-12-01 to 2027-02-28.",
    ),
    "season ending before it starts": (
        lambda d: d["seasons"][0].update(ends_on="2026-08-01"),
        "seasons[0].ends_on: 2026-08-01 is before the season starts, 2026-09-01.",
    ),
    "seasons overlapping": (
        lambda d: d["seasons"][1].update(starts_on="2026-11-01"),
        "seasons[1]: 2026-11-01 to 2027-02-28 overlaps seasons[0], 2026-09-01 to 2026-11-30; "
        "a game's date falls in one season only.",
    ),
    # Whole numbers and their bounds.
    "ledger at the largest bigint": (
        lambda d: d["league_games"][0].update(ledger=2**63 - 1),
        "league_games[0].ledger: 9,223,372,036,854,775,807 is outside 1 to 9,007,199,254,740,992.",
    ),
    "30,000 points for a win": (
        lambda d: d["league"].update(win_points=30_000),
        "league.win_points: 30,000 is outside −100 to 100.",
    ),
    "table 100": (
        lambda d: d["attendances"][0].update(table=100),
        "attendances[0].table: 100 is outside 1 to 99.",
    ),
    "side 10 of a table": (
        lambda d: d["attendances"][0].update(side=10),
        "attendances[0].side: 10 is outside 0 to 9.",
    ),
    "fourth player of a side": (
        lambda d: d["attendances"][0].update(place=3),
        "attendances[0].place: 3 is outside 0 to 2.",
    ),
    "league game at table 0": (
        lambda d: d["league_games"][0].update(table=0),
        "league_games[0].table: 0 is outside 1 to 99.",
    ),
    "first dealer past the seats": (
        lambda d: game(d).update(first_dealer=4),
        "games[0].first_dealer: 4 is outside 0 to 3, the seats of its game.",
    ),
    "10,000 decks": (
        lambda d: game(d).update(decks=10_000),
        "games[0].decks: 10,000 is outside 1 to 12.",
    ),
    "a side its game does not have": (
        lambda d: d["participations"][0].update(side=2),
        "participations[0].side: 2 is outside 0 to 1, the sides of its game.",
    ),
    "round number below 1": (
        lambda d: event(d, 1).update(round_number=-1),
        "games[0].events[1].round_number: −1 is outside 1 to 60.",
    ),
    "round 1,509 of a game": (
        lambda d: game(d)["rounds"][0].update(number=1509),
        "games[0].rounds[0].number: 1,509 is outside 1 to 60.",
    ),
    "an event of round 61": (
        lambda d: event(d, 1).update(round_number=61),
        "games[0].events[1].round_number: 61 is outside 1 to 60.",
    ),
    "side positions with a gap": (
        lambda d: side(d, 1).update(position=5),
        "games[0].sides: their positions are 0 and 5; they must be 0, 1, 2 and so on.",
    ),
    "rated games not played": (
        lambda d: d["memberships"][8].update(rated_games=99),
        "memberships[8].rated_games: 99 is not what the league's games give: 0.",
    ),
    # Types.
    "points as text": (
        lambda d: d["participations"][0].update(points_for="500"),
        'participations[0].points_for: expected a whole number, found "500".',
    ),
    "counted as 1": (
        lambda d: d["participations"][0].update(counted=1),
        "participations[0].counted: expected true or false, found 1.",
    ),
    "voided as no": (
        lambda d: d["league_games"][0].update(voided="no"),
        'league_games[0].voided: expected true or false, found "no".',
    ),
    "a name as a number": (
        lambda d: d["players"][0].update(name=12),
        "players[0].name: expected text, found 12.",
    ),
    "a date as a number": (
        lambda d: d["seasons"][0].update(starts_on=20260901),
        "seasons[0].starts_on: expected a date such as 2026-10-01, found 20260901.",
    ),
    "a rating as text": (
        lambda d: d["participations"][0].update(mu_before="25"),
        'participations[0].mu_before: expected a number, found "25".',
    ),
    # Figures the games give.
    "999,999 points for": (
        lambda d: d["participations"][0].update(points_for=999_999),
        "participations[0].points_for: 999,999 is not what its game gives: 500.",
    ),
    "no points against": (
        lambda d: d["participations"][0].update(points_against=0),
        "participations[0].points_against: 0 is not what its game gives: 300.",
    ),
    "a win recorded as a loss": (
        lambda d: d["participations"][0].update(outcome="L"),
        'participations[0].outcome: "L" is not what its game gives: "W".',
    ),
    "a counted game not counted": (
        lambda d: d["participations"][0].update(counted=False, outcome=""),
        "participations[0].counted: false is not what its game gives: true.",
    ),
    "a voided game counted": (
        lambda d: d["participations"][10].update(counted=True, outcome="W"),
        "participations[10].counted: true is not what its game gives: false.",
    ),
    "points for a game not played yet": (
        lambda d: d["participations"][14].update(points_for=100),
        "participations[14].points_for: 100 is not what its game gives: 0.",
    ),
    "canastas as garbage": (
        lambda d: d["participations"][6].update(canastas="garbage"),
        'participations[6].canastas: "garbage" is not what its game gives: '
        '{"natural": 3, "mixed": 1, "wild": 1}.',
    ),
    "99 canastas": (
        lambda d: d["participations"][6].update(canastas={"natural": 99}),
        'participations[6].canastas: {"natural": 99} is not what its game gives: '
        '{"natural": 3, "mixed": 1, "wild": 1}.',
    ),
    "hand points": (
        lambda d: d["participations"][8].update(hand_points=5),
        "participations[8].hand_points: 5 is not what its game gives: 85.",
    ),
    "going out three times in one round": (
        lambda d: d["participations"][0].update(went_out=3),
        "participations[0].went_out: 3 is not what its game gives: 0.",
    ),
    "red threes": (
        lambda d: d["participations"][6].update(red_threes=2),
        "participations[6].red_threes: 2 is not what its game gives: 1.",
    ),
    "rounds": (
        lambda d: d["participations"][0].update(rounds=9),
        "participations[0].rounds: 9 is not what its game gives: 1.",
    ),
    "points for adding up past a bigint": (
        lambda d: [d["participations"][i].update(points_for=2**63 - 1) for i in (0, 6)],
        "participations[0].points_for: 9,223,372,036,854,775,807 is not what its game gives: 500.",
    ),
    "a participation in another season than its game": (
        lambda d: d["participations"][0].update(season=d["seasons"][1]["id"]),
        lambda d: (
            f"participations[0].season: {d['seasons'][1]['id']} is not the season of its league "
            f"game, {d['seasons'][0]['id']}."
        ),
    ),
    # Ratings.
    "a rating of 1e308": (
        lambda d: d["participations"][0].update(mu_after=1e308),
        lambda d: (
            "participations[0].mu_after: 1e+308 is not what the league's games give: "
            f"{d['participations'][0]['mu_after']!r}."
        ),
    ),
    "a negative sigma": (
        lambda d: d["participations"][0].update(sigma_after=-5),
        "participations[0].sigma_after: −5 is not a rating's sigma, which is above 0.",
    ),
    "a member's rating": (
        lambda d: d["memberships"][0].update(mu=99.5),
        lambda d: (
            "memberships[0].mu: 99.5 is not what the league's games give: "
            f"{d['memberships'][0]['mu']!r}."
        ),
    ),
    "a member's sigma of 0": (
        lambda d: d["memberships"][0].update(sigma=0),
        "memberships[0].sigma: 0 is not a rating's sigma, which is above 0.",
    ),
    "a rating for a game not played yet": (
        lambda d: d["participations"][14].update(mu_after=30.0),
        "participations[14].mu_after: 30.0 is not what the league's games give: null.",
    ),
    # Rules.
    "season rules with an unknown base": (
        lambda d: d["seasons"][0].update(rules={"base": "nope"}),
        f"seasons[0].rules.base: There are no rules called {RULE_SETS}",
    ),
    "season rules as garbage": (
        lambda d: d["seasons"][0].update(rules="garbage"),
        f"seasons[0].rules: There are no rules called {RULE_SETS}".replace("nope", "garbage"),
    ),
    "season rules by name only": (
        lambda d: d["seasons"][0].update(rules="ten-thousand"),
        'seasons[0].rules: "ten-thousand" is not a season\'s rules, kept whole as '
        '{"base": ..., "overrides": {...}}.',
    ),
    "season of 10,000 rounds": (
        lambda d: d["seasons"][0]["rules"]["overrides"].update(rounds=10_000),
        "seasons[0].rules.overrides.rounds: The number of rounds must be a whole number from 1 "
        "to 60 or left empty, not 10,000.",
    ),
    "season of 50 rounds with 100 decks": (
        lambda d: d["seasons"][0]["rules"]["overrides"].update(rounds=50, decks=100),
        "seasons[0].rules.overrides.decks: The number of decks must be between 1 and 12. "
        "seasons[0].rules.overrides.rounds: The number of rounds must be between 1 and 20.",
    ),
    "league house rules with 100,000 decks": (
        lambda d: d["league"]["house_rules"].update(decks=100_000),
        "league.house_rules.decks: The number of decks must be a whole number from 1 to 100, not "
        "100,000.",
    ),
    "league house rules as garbage": (
        lambda d: d["league"].update(house_rules="garbage"),
        'league.house_rules: House rules must be given as {rule: value}, not "garbage".',
    ),
    "league preset nope": (
        lambda d: d["league"].update(preset="nope"),
        f"league.preset: There are no rules called {RULE_SETS}",
    ),
    "a game playing other rules than its season": (
        other_rules,
        "games[0].rules: they are not the rules of its season, seasons[0]; a league game plays "
        "its season's rules.",
    ),
    "a game's house rules": (
        lambda d: game(d).update(house_rules={"decks": 4}),
        'games[0].house_rules: {"decks": 4} is not what its rules give: '
        '{"target_score": null, "rounds": 1}.',
    ),
    # The players of a side.
    "players as a list and an object": (
        lambda d: side(d).update(players=[[1, 2], {"x": 1}]),
        "games[0].sides[0].players: expected the names of at most 3 players, found "
        '[[1, 2], {"x": 1}].',
    ),
    "four players on a side": (
        lambda d: side(d).update(players=["Ann", "Cy", "Eve", "Gus"]),
        "games[0].sides[0].players: expected the names of at most 3 players, found "
        '["Ann", "Cy", "Eve", "Gus"].',
    ),
    "players as one text": (
        lambda d: side(d).update(players="Ann & Cy"),
        'games[0].sides[0].players: expected the names of at most 3 players, found "Ann & Cy".',
    ),
    # Text.
    "a game's address with a slash": (
        lambda d: rename_game(d, "a/b"),
        'games[0].public_id: "a/b" is not a game\'s address: 1 to 32 letters, digits, hyphens '
        "and underscores.",
    ),
    "a scorer's key with a space": (
        lambda d: game(d).update(scorer_token="no way"),
        'games[0].scorer_token: "no way" is not a scorer\'s key: 1 to 32 letters, digits, '
        "hyphens and underscores.",
    ),
    "a league at a page's address": (
        lambda d: d["league"].update(slug="new"),
        'league.slug: "new" is the address of a page of the site; a league has another.',
    ),
    # A game's history.
    "sides in history as numbers": (
        lambda d: event(d, 0)["after"].update(sides=[1, 2]),
        "games[0].events[0].after.sides: expected the sides' names, found [1, 2].",
    ),
    "totals in history as text": (
        lambda d: event(d, 1)["after"].update(totals={"Ann & Cy": "lots"}),
        'games[0].events[1].after.totals: expected each side\'s total, found {"Ann & Cy": "lots"}.',
    ),
    "a winner in history as a number": (
        lambda d: reopened_by(d, 5),
        "games[0].events[1].before.winner: expected a side's name, found 5.",
    ),
    # Rows and their references.
    "one phone's round twice": (
        sent_twice,
        'games[0].rounds[1]: client_key "phone-1" again, as in games[0].rounds[0].',
    ),
    "an organiser twice": (
        lambda d: d["organisers"].append("olive"),
        'organisers[1]: "olive" again, as in organisers[0].',
    ),
    "a game of no league game": (
        without_league_game,
        "games[4]: no league game holds it; a league export holds the league's games only.",
    ),
    "one game for two league games": (
        lambda d: d["league_games"][1].update(game=game(d)["public_id"]),
        lambda d: (
            f'league_games[1]: game "{d["games"][0]["public_id"]}" again, as in league_games[0].'
        ),
    ),
    "a league game at a night of another season": (
        lambda d: d["league_games"][2].update(night=d["nights"][2]["id"], table=2),
        lambda d: (
            f"league_games[2].season: {d['seasons'][0]['id']} is not the season of its club night, "
            f"{d['seasons'][1]['id']}."
        ),
    ),
    "a player twice at a night": (
        lambda d: taking(d, "attendances", 0, table=None, side=None, place=None),
        lambda d: (
            f"attendances[17]: night {d['nights'][0]['id']} and player {d['players'][0]['id']} "
            "again, as in attendances[0]."
        ),
    ),
    "a member twice": (
        lambda d: taking(d, "memberships", 0),
        lambda d: f"memberships[9]: player {d['players'][0]['id']} again, as in memberships[0].",
    ),
    "a game that counts without a ledger": (
        lambda d: d["league_games"][0].update(ledger=None),
        "league_games[0].ledger: null, but the game counts, so it has a place in the rating "
        "ledger.",
    ),
    "two games at one place in the ledger": (
        lambda d: d["league_games"][1].update(ledger=d["league_games"][0]["ledger"]),
        lambda d: (
            f"league_games[1]: ledger {d['league_games'][0]['ledger']} again, as in "
            "league_games[0]."
        ),
    ),
}


@pytest.mark.parametrize(("change", "message"), FORGERIES.values(), ids=FORGERIES.keys())
@pytest.mark.django_db
def test_a_forged_file_is_refused_naming_the_place_and_nothing_is_stored(
    genuine_file, change, message
):
    data = copy.deepcopy(genuine_file)
    change(data)

    assert refused(data) == (message(genuine_file) if callable(message) else message)


# A genuine file -------------------------------------------------------------------------------


def answers(client: Client, urls: list[str]) -> dict[str, int]:
    """Each page's status, its whole body read (a PDF or CSV is written as it streams)."""
    found = {}
    for url in urls:
        response = client.get(url)
        if response.streaming:
            b"".join(response.streaming_content)
        found[url] = response.status_code
    return found


@pytest.mark.django_db
def test_a_genuine_file_restores_a_league_every_page_of_which_answers(genuine_file, organiser):
    # Every forged file first: each is refused and leaves nothing behind.
    for change, _ in FORGERIES.values():
        data = copy.deepcopy(genuine_file)
        change(data)
        with pytest.raises(backup.BackupError):
            backup.league_import(data)
    assert set(row_counts().values()) == {0, 1}

    league = backup.league_import(copy.deepcopy(genuine_file))

    visitor, organising = Client(), Client()
    organising.force_login(organiser)
    public, organisers = public_urls(league), organiser_urls(league)
    # 6 of the league, 5 a season (2), 3 a night (3), 1 a member (9), 5 a game (5) and 1 a round
    # (4); 7 of the organisers' league, 1 a season, 5 a night, 1 a member and 2 a game.
    assert (len(public), len(organisers)) == (6 + 10 + 9 + 9 + 25 + 4, 7 + 2 + 15 + 9 + 10)
    assert answers(visitor, public) == dict.fromkeys(public, 200)
    assert answers(organising, public + organisers) == dict.fromkeys(public + organisers, 200)
    # What was restored is what was exported: the figures and the ratings the games give.
    again = dumped(backup.league_export(league))
    assert {**again, "exported_at": None} == {**genuine_file, "exported_at": None}
    # The league plays on: the game still being played counts at the next place in the ledger.
    playing = LeagueGame.objects.get(ledger=None)
    play(playing, [300, 200])
    playing.refresh_from_db()
    assert (playing.game.finished, playing.ledger) == (True, 5)
    assert answers(visitor, public) == dict.fromkeys(public, 200)
