"""A league's backup carries its league points adjustments and how its scores are confirmed (the
league's choice, a game's, each round's confirmation): exported, imported into an empty
database and exported again, the file is the same and the standings' page, PDF and CSV are the
same bytes; a file that gets them wrong is refused naming the place and what is allowed."""

import copy
import datetime
import re

import pytest
from django.test import Client

from leagues import services
from leagues.backup import export as backup
from leagues.models import League, LeagueGame, PointsAdjustment
from scorekeeper.models import Game, Round
from scorekeeper.rounds.confirmation import round_dispute
from tests.helpers.backups import drop_league, dumped, row_counts
from tests.helpers.leagues import UserFactory, league_with, members, play, play_rounds, table_game

pytestmark = pytest.mark.django_db

# A new CSRF token is handed out on every page: the one thing masked.
CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')
OCT = [datetime.date(2026, 10, day) for day in (1, 8, 15)]


def the_league(organiser) -> League:
    """Five players at club nights that confirm each round: a game confirmed by the other side,
    one still waiting for it, one disputed; a penalty by the organiser, a bonus by the system and
    a member adjusted before any game."""
    league = league_with(organiser, confirm_rounds=True)
    p = members(league, "Ann", "Bob", "Cy", "Di", "Eve")
    play(table_game(league, [[p["Ann"]], [p["Bob"]]], date=OCT[0]), [500, 300])
    waiting = table_game(league, [[p["Cy"]], [p["Di"]]], date=OCT[1])
    play_rounds(waiting, [400, 200], confirmed=False)
    disputed = table_game(league, [[p["Ann"]], [p["Di"]]], date=OCT[2])
    play_rounds(disputed, [100, 600], confirmed=False)
    round_dispute(
        game=disputed.game, number=1, version=None, phone="their-phone", reason="Miscounted"
    )
    season = league.seasons.get()
    services.adjustment_add(
        league=league,
        season=season,
        player=p["Ann"],
        points=-10,
        reason="Late twice",
        user=organiser,
        form_key="a" * 32,
    )
    services.adjustment_add(
        league=league, season=season, player=p["Bob"], points=3, reason="Hosted", user=None
    )
    services.adjustment_add(
        league=league, season=season, player=p["Eve"], points=1, reason="Scored", user=None
    )
    return league


def pages(league: League) -> dict[str, bytes]:
    client = Client()
    season = league.seasons.get()
    base = f"/leagues/{league.slug}"
    found = {}
    for url in (
        f"{base}/",
        f"{base}/standings/",
        f"{base}/standings.pdf?paper=a4",
        f"{base}/standings.csv",
        f"{base}/seasons/{season.pk}/standings/",
        f"{base}/seasons/{season.pk}/standings.pdf?paper=a4",
        f"{base}/seasons/{season.pk}/standings.csv",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        found[url] = CSRF.sub(rb'\1"', body)
    return found


def wiped(league: League) -> None:
    # An adjustment holds its season and player: it goes before them.
    PointsAdjustment.objects.filter(league=league).delete()
    drop_league(league, games=True)


@pytest.fixture
def exported(organiser) -> dict:
    data = dumped(backup.league_export(the_league(organiser)))
    wiped(League.objects.get())
    return data


def test_adjustments_and_confirmations_come_back_the_same(organiser):
    league = the_league(organiser)
    before = pages(league)
    counts = row_counts()
    data = dumped(backup.league_export(league))
    wiped(league)

    restored = backup.league_import(copy.deepcopy(data))

    assert row_counts() == counts
    after = pages(restored)
    assert [url for url in before if before[url] != after[url]] == []
    again = dumped(backup.league_export(restored))
    assert {**again, "exported_at": None} == {**data, "exported_at": None}
    # What the file holds, as written.
    assert data["league"]["confirm_rounds"] is True
    assert [(a["points"], a["reason"], a["user"]) for a in data["adjustments"]] == [
        (-10, "Late twice", "olive"),
        (3, "Hosted", None),
        (1, "Scored", None),
    ]
    rounds = [game["rounds"][0] for game in data["games"]]
    assert [(r["confirmation"], r["dispute_reason"]) for r in rounds] == [
        ("confirmed", ""),
        ("waiting", ""),
        ("disputed", "Miscounted"),
    ]
    assert [game["confirm_rounds"] for game in data["games"]] == [True, True, True]
    assert rounds[0]["entered_phone"] and rounds[0]["checked_by"] and rounds[0]["checked_at"]
    # The standings count the adjustments again, and only the confirmed game.
    page = after[f"/leagues/thursday/seasons/{restored.seasons.get().pk}/standings/"].decode()
    assert "−10 Ann: Late twice (olive, " in page
    assert LeagueGame.objects.filter(ledger__isnull=False).count() == 1


def test_the_export_counts_name_the_adjustments(exported):
    assert backup.export_counts(exported).endswith(", 3 points adjustments")


def test_a_file_made_before_adjustments_and_confirmations_restores_with_the_defaults(organiser):
    league = league_with(organiser)
    ann, bob = members(league, "Ann", "Bob").values()
    League.objects.filter(pk=league.pk).update(confirm_rounds=False)
    play(table_game(league, [[ann], [bob]]), [500, 300])
    data = dumped(backup.league_export(League.objects.get()))
    drop_league(League.objects.get(), games=True)
    del data["adjustments"]
    del data["league"]["confirm_rounds"]
    for game in data["games"]:
        del game["confirm_rounds"]
        for round_ in game["rounds"]:
            for name in ("entered_phone", "confirmation", "checked_by", "checked_at"):
                del round_[name]
            del round_["dispute_reason"]

    restored = backup.league_import(data)

    assert restored.confirm_rounds is True
    game = Game.objects.get()
    assert game.confirm_rounds is False
    assert game.rounds.get().confirmation == Round.Confirmation.NONE
    assert not PointsAdjustment.objects.exists()


def refused(data: dict) -> str:
    counts = row_counts()
    with pytest.raises(backup.BackupError) as error:
        backup.league_import(data)
    assert row_counts() == counts
    return str(error.value)


def first_round(d: dict) -> dict:
    return d["games"][0]["rounds"][0]


POINTS = "adjustments[0].points"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["adjustments"][0].update(points=0),
            f"{POINTS}: 0 changes nothing; an adjustment is a penalty below 0 or a bonus above.",
        ),
        (
            lambda d: d["adjustments"][0].update(points=5000),
            f"{POINTS}: 5,000 is outside −1,000 to 1,000.",
        ),
        (
            lambda d: d["adjustments"][0].update(points="-10"),
            f'{POINTS}: expected a whole number, found "-10".',
        ),
        (
            lambda d: d["adjustments"][0].update(reason=""),
            "adjustments[0].reason: This field cannot be blank.",
        ),
        (
            lambda d: d["adjustments"][0].update(reason="   "),
            "adjustments[0].reason: empty; an adjustment says why.",
        ),
        (
            lambda d: d["adjustments"][0].update(reason="x" * 201),
            "adjustments[0].reason: Ensure this value has at most 200 characters (it has 201).",
        ),
        (
            lambda d: d["adjustments"][0].update(season=999),
            "adjustments[0].season: 999 is not in the backup.",
        ),
        (
            lambda d: d["adjustments"][0].update(player=999),
            "adjustments[0].player: 999 is not in the backup.",
        ),
        (
            lambda d: d["adjustments"][0].update(user="nobody"),
            "adjustments[0].user: 'nobody' is not in the backup.",
        ),
        (
            lambda d: d["adjustments"][0].pop("player"),
            "adjustments[0].player: None is not in the backup.",
        ),
        (
            lambda d: d["adjustments"][1].update(form_key="a" * 32),
            f'adjustments[1]: form_key "{"a" * 32}" again, as in adjustments[0].',
        ),
        (lambda d: d.update(adjustments={}), "adjustments: missing or not a list."),
        (
            lambda d: d["league"].update(confirm_rounds="maybe"),
            'league.confirm_rounds: expected true or false, found "maybe".',
        ),
        (
            lambda d: d["games"][0].update(confirm_rounds="yes"),
            'games[0].confirm_rounds: expected true or false, found "yes".',
        ),
        (
            lambda d: first_round(d).update(confirmation="ok"),
            'games[0].rounds[0].confirmation: "ok" is not a round\'s confirmation; expected "", '
            '"waiting", "confirmed" or "disputed".',
        ),
        (
            lambda d: first_round(d).update(confirmation="disputed", dispute_reason=" "),
            "games[0].rounds[0].dispute_reason: empty, but the round is disputed; a dispute says "
            "why.",
        ),
        (
            lambda d: first_round(d).update(entered_phone="p" * 33),
            "games[0].rounds[0].entered_phone: Ensure this value has at most 32 characters (it "
            "has 33).",
        ),
        (
            lambda d: first_round(d).update(checked_at="yesterday"),
            "games[0].rounds[0].checked_at: “yesterday” value has an invalid format. It must be "
            "in YYYY-MM-DD HH:MM[:ss[.uuuuuu]][TZ] format.",
        ),
        (
            lambda d: first_round(d).update(checked_by=7),
            "games[0].rounds[0].checked_by: expected text, found 7.",
        ),
        # The confirmed game's round waiting again: the game no longer counts, so its players'
        # figures are not what the file says.
        (
            lambda d: first_round(d).update(confirmation="waiting"),
            "participations[0].counted: true is not what its game gives: false.",
        ),
    ],
)
def test_a_bad_adjustment_or_confirmation_is_refused_naming_the_place(exported, change, message):
    data = copy.deepcopy(exported)
    change(data)

    assert refused(data) == message


def test_an_adjustment_of_a_player_who_is_not_a_member_is_refused(exported):
    data = copy.deepcopy(exported)
    outsider = {**data["players"][0], "id": 999, "name": "Zed"}
    data["players"].append(outsider)
    data["adjustments"][0]["player"] = 999

    assert refused(data) == (
        "adjustments[0].player: 999 is not a member of the league; an adjustment is a member's."
    )


def test_a_restored_adjustment_can_be_removed(exported):
    league = backup.league_import(copy.deepcopy(exported))
    adjustment = PointsAdjustment.objects.get(points=-10)
    organiser = UserFactory(username="sam")

    services.adjustment_remove(adjustment=adjustment, user=organiser)

    assert PointsAdjustment.objects.filter(league=league).count() == 2
