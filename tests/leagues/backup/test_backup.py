"""A league's backup: `export_league` then `import_league` into an empty database gives back the
same pages and PDFs byte for byte; refusals and bad files answer with a message naming why."""

import datetime
import json
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from leagues import demo, services
from leagues.backup import export as backup
from leagues.models import ClubNight, League, Player
from scorekeeper.models import Game
from tests.helpers.backups import drop_league, dumped, row_counts
from tests.helpers.leagues import league_with, members, play, table_game

# A new CSRF token is handed out on every page: the one thing masked.
CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


RIVERSIDE_COUNTS = (
    "1 league, 16 players, 16 memberships, 2 seasons, 2 club nights, 8 games, 32 rounds, "
    "32 participations, 29 league events"
)
LADDER_COUNTS = (
    "1 league, 6 players, 6 memberships, 1 season, 1 club night, 3 games, 12 rounds, "
    "6 participations, 12 league events"
)


def fetch(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    if response.streaming:
        return b"".join(response.streaming_content)
    return CSRF.sub(rb'\1"', response.content)


def league_urls(league: League) -> list[str]:
    """Every public page and PDF of the league and of each of its games."""
    base = f"/leagues/{league.slug}"
    urls = [f"{base}/", f"{base}/standings/", f"{base}/standings.pdf?paper=a4"]
    urls.append(f"{base}/score-sheet.pdf?paper=letter")
    for season in league.seasons.all():
        urls += [
            f"{base}/seasons/{season.pk}/standings/",
            f"{base}/seasons/{season.pk}/standings.pdf?paper=a4",
            f"{base}/seasons/{season.pk}/head-to-head/",
        ]
    for night in league.nights.all():
        urls += [f"{base}/nights/{night.pk}/", f"{base}/nights/{night.pk}/pack.pdf?paper=a4"]
    for player in league.members.all():
        urls.append(f"{base}/players/{player.pk}/")
    for public_id in Game.objects.filter(league_game__league=league).values_list(
        "public_id", flat=True
    ):
        urls += [
            f"/g/{public_id}/",
            f"/g/{public_id}/history/",
            f"/g/{public_id}/score-card.pdf?paper=a4",
            f"/g/{public_id}/score-card.pdf?paper=letter",
        ]
    return urls


def snapshot(slugs: list[str]) -> dict[str, bytes]:
    client = Client()
    return {
        url: fetch(client, url)
        for slug in slugs
        for url in league_urls(League.objects.get(slug=slug))
    }


def wipe() -> None:
    """Every league and game row and every account: the database is empty again."""
    # Seasons and nights are protected while games use them: the games go first.
    Game.objects.all().delete()
    ClubNight.objects.all().delete()
    League.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()
    assert set(row_counts().values()) == {0}


def without_time(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "exported_at"}


@pytest.fixture
def demo_leagues(db):
    # One night a season: a voided game, a game corrected after it ended, nights closed by
    # their last table, tables of three, and three players in both leagues.
    call_command("load_demo", nights=1, stdout=StringIO())


@pytest.mark.django_db
def test_export_then_import_into_an_empty_database_gives_the_same_pages_and_pdfs(demo_leagues):
    slugs = [demo.RIVERSIDE, demo.LADDER]
    before = snapshot(slugs)
    counts = row_counts()
    exports = [dumped(backup.league_export(League.objects.get(slug=slug))) for slug in slugs]
    # Per league 4 pages and PDFs; per season 3 (2 + 1), per night 2 (2 + 1), per member 1
    # (16 + 6), per game 4 (8 + 3).
    assert len(before) == 2 * 4 + 3 * 3 + 3 * 2 + (16 + 6) + 11 * 4

    wipe()
    # The ladder's three Riverside members come back as the same players, not as copies, where
    # the operator says that the ladder shares them with Riverside.
    restored = [
        backup.league_import(exports[0]),
        backup.league_import(exports[1], share_players_with=[demo.RIVERSIDE]),
    ]

    assert [league.slug for league in restored] == slugs
    assert row_counts() == counts
    after = snapshot(slugs)
    assert after.keys() == before.keys()
    assert [url for url in before if before[url] != after[url]] == []
    organiser = get_user_model().objects.get()
    assert (organiser.username, organiser.first_name) == (demo.ORGANISER, "Demo organiser")
    assert not organiser.is_active and not organiser.has_usable_password()
    assert [without_time(dumped(backup.league_export(league))) for league in restored] == [
        without_time(data) for data in exports
    ]


@pytest.mark.django_db
def test_the_commands_round_trip_through_a_file(demo_leagues, tmp_path):
    slugs = [demo.RIVERSIDE, demo.LADDER]
    before = snapshot(slugs)
    paths = [tmp_path / f"{slug}.json" for slug in slugs]
    exported = []
    for slug, path in zip(slugs, paths, strict=True):
        out = StringIO()
        call_command("export_league", slug, output=str(path), stdout=out)
        exported.append(out.getvalue())
    assert exported == [
        f"Exported {RIVERSIDE_COUNTS} to {paths[0]}.\n",
        f"Exported {LADDER_COUNTS} to {paths[1]}.\n",
    ]
    text = paths[0].read_text(encoding="utf-8")
    written = json.loads(text)
    assert (written["format"], written["version"]) == ("scorekeeper-league", 1)
    # Names as they are, not escaped; no password, not even a hash.
    assert "José Martínez" in text and "password" not in text and "pbkdf2" not in text

    wipe()
    imported = []
    for path, shared in zip(paths, [[], [demo.RIVERSIDE]], strict=True):
        out = StringIO()
        call_command("import_league", str(path), share_players_with=shared, stdout=out)
        imported.append(out.getvalue())

    assert imported == [
        f"Imported 'Riverside Card Club' (riverside): {RIVERSIDE_COUNTS}.\n",
        f"Imported 'Baskets Ladder' (baskets-ladder): {LADDER_COUNTS}.\n",
    ]
    assert snapshot(slugs) == before
    again = tmp_path / "again.json"
    call_command("export_league", "riverside", output=str(again), stdout=StringIO())
    assert without_time(json.loads(again.read_text(encoding="utf-8"))) == without_time(written)


@pytest.mark.django_db
def test_export_names_its_file_after_the_league_and_the_day(demo_leagues, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: datetime.date(2026, 12, 1))
    call_command("export_league", "baskets-ladder", stdout=StringIO())
    assert [p.name for p in tmp_path.iterdir()] == ["baskets-ladder-2026-12-01.json"]


@pytest.mark.django_db
def test_import_is_refused_when_the_league_is_already_there(demo_leagues):
    data = dumped(backup.league_export(League.objects.get(slug="riverside")))
    counts = row_counts()

    with pytest.raises(backup.BackupError) as error:
        backup.league_import(data)

    assert str(error.value) == (
        "The database already has a league 'riverside'; import into an empty database or delete "
        "it first."
    )
    assert row_counts() == counts


@pytest.mark.django_db
def test_import_is_refused_when_one_of_its_games_is_already_there(demo_leagues):
    league = League.objects.get(slug="riverside")
    data = dumped(backup.league_export(league))
    first = min(g["public_id"] for g in data["games"])
    drop_league(league, games=False)
    counts = row_counts()

    with pytest.raises(backup.BackupError) as error:
        backup.league_import(data)

    assert str(error.value) == (
        f"The database already has a game '{first}'; import into an empty database or delete "
        "it first."
    )
    assert row_counts() == counts


@pytest.mark.django_db
def test_ids_taken_by_other_rows_are_given_new_ones(organiser):
    league = league_with(organiser)
    ann, bob = members(league, "Ann", "Bob").values()
    play(table_game(league, [[ann], [bob]]), [500, 300])
    data = dumped(backup.league_export(league))
    Game.objects.all().delete()
    ClubNight.objects.all().delete()
    League.objects.all().delete()
    Player.objects.all().delete()
    # Someone else's player now holds Ann's id, under another name.
    Player.objects.create(pk=ann.pk, name="Someone else")

    restored = backup.league_import(data)

    names = dict(restored.members.values_list("name", "pk"))
    assert set(names) == {"Ann", "Bob"}
    assert names["Ann"] != ann.pk and names["Bob"] == bob.pk
    assert Player.objects.get(pk=ann.pk).name == "Someone else"
    (game,) = Game.objects.all()
    assert game.winner.name == "Ann"
    assert restored.participations.get(player__name="Ann").outcome == "W"
    assert list(restored.organisers.values_list("username", flat=True)) == ["olive"]
    # The account existed: it is linked as it is, still active.
    assert get_user_model().objects.get(username="olive").is_active


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d.update(format="something-else"),
            "format: 'something-else' is not a league backup; expected 'scorekeeper-league'.",
        ),
        (
            lambda d: d.update(version=2),
            "version: 2 is not a version this app restores; expected 1.",
        ),
        (lambda d: d.pop("seasons"), "seasons: missing or not a list."),
        (lambda d: d["games"][0].pop("scorer_token"), "games[0].scorer_token: missing."),
        (
            lambda d: d["games"][0]["sides"][1].update(name=""),
            "games[0].sides[1].name: This field cannot be blank.",
        ),
        (
            lambda d: d["participations"][0].update(outcome="X"),
            "participations[0].outcome: Value 'X' is not a valid choice.",
        ),
        (
            lambda d: d["league_games"][0].update(season=999),
            "league_games[0].season: 999 is not in the backup.",
        ),
        (
            lambda d: d["league"].update(created_at="yesterday"),
            "league.created_at: “yesterday” value has an invalid format. It must be in "
            "YYYY-MM-DD HH:MM[:ss[.uuuuuu]][TZ] format.",
        ),
    ],
)
@pytest.mark.django_db
def test_a_bad_document_is_refused_naming_the_field(organiser, change, message):
    league = league_with(organiser)
    ann, bob = members(league, "Ann", "Bob").values()
    play(table_game(league, [[ann], [bob]]), [500, 300])
    data = dumped(backup.league_export(league))
    drop_league(league, games=True)
    counts = row_counts()
    change(data)

    with pytest.raises(backup.BackupError) as error:
        backup.league_import(data)

    assert str(error.value) == message
    assert row_counts() == counts


@pytest.mark.django_db
def test_the_commands_name_what_is_wrong(tmp_path):
    with pytest.raises(CommandError) as error:
        call_command("export_league", "nowhere", stdout=StringIO())
    assert str(error.value) == "No league has the slug 'nowhere'; the leagues are: none."

    missing = tmp_path / "missing.json"
    with pytest.raises(CommandError) as error:
        call_command("import_league", str(missing), stdout=StringIO())
    assert str(error.value) == f"{missing}: cannot read it: No such file or directory."

    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_league", str(broken), stdout=StringIO())
    assert str(error.value) == (
        f"{broken} is not a league export: line 1, column 12: Expecting value."
    )

    other = tmp_path / "other.json"
    other.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_league", str(other), stdout=StringIO())
    assert str(error.value) == f"{other}: The file is not a league backup: expected a JSON object."

    old = tmp_path / "old.json"
    old.write_text('{"format": "scorekeeper-league", "version": 0}', encoding="utf-8")
    with pytest.raises(CommandError) as error:
        call_command("import_league", str(old), stdout=StringIO())
    assert str(error.value) == (
        f"{old}: version: 0 is not a version this app restores; expected 1."
    )
    assert set(row_counts().values()) == {0}


def test_an_account_link_is_the_memberships_and_an_older_backup_links_the_player_here(organiser):
    league = league_with(organiser)
    mia_account = get_user_model().objects.create_user(username="mia")
    services.member_add(league=league, name="Mia", account=mia_account, user=organiser)
    data = backup.league_export(league)
    (row,) = [m for m in data["memberships"] if m["user"] is not None]
    assert (row["user"], "user" in data["players"][0]) == ("mia", False)
    # As a backup made while the link was the player's has it.
    for membership in data["memberships"]:
        player = next(p for p in data["players"] if p["id"] == membership["player"])
        player["user"] = membership.pop("user")
    League.objects.all().delete()
    Player.objects.all().delete()

    restored = backup.league_import(dumped(data))

    assert list(
        restored.memberships.values_list("player__name", "user__username").order_by("player__name")
    ) == [("Mia", "mia")]


def test_a_night_closed_round_trips_and_an_older_backup_restores_its_nights_open(demo_leagues):
    league = League.objects.get(slug="riverside")
    closed_at = datetime.datetime(2026, 11, 3, 22, 15, 0, 123456, tzinfo=datetime.UTC)
    night = league.nights.order_by("date").first()
    ClubNight.objects.filter(pk=night.pk).update(closed_at=closed_at)
    data = dumped(backup.league_export(league))
    closed = {row["id"]: row["closed_at"] for row in data["nights"]}
    assert closed[night.pk] == "2026-11-03T22:15:00.123456+00:00"
    wipe()

    backup.league_import(dumped(data))

    assert ClubNight.objects.get(pk=night.pk).closed_at == closed_at
    wipe()
    # As a backup made before a night could be closed has it.
    for row in data["nights"]:
        row.pop("closed_at")

    restored = backup.league_import(data)

    assert list(restored.nights.values_list("closed_at", flat=True)) == [None] * len(closed)
