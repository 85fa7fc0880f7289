"""A refused import changes nothing, not even an id sequence; a file that would break a page is
refused naming the game, round and field; a file that is not JSON a league export can hold gets
one line saying why; a copy of another league's export does not take over that league's players."""

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from leagues.backup import export as backup
from leagues.models import League, Player
from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.portable.start_fields import SideSpec
from tests.helpers.backups import drop_league, dumped, row_counts
from tests.helpers.leagues import league_with, members, play, table_game

LARGEST_BIGINT = 2**63 - 1


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


def export_of_two_players(organiser, totals=(500, 300)) -> dict:
    league = league_with(organiser)
    ann, bob = members(league, "Ann", "Bob").values()
    play(table_game(league, [[ann], [bob]]), list(totals))
    return dumped(backup.league_export(league))


@pytest.fixture
def exported(organiser) -> dict:
    """A league of Ann and Bob with one finished game (Ann 500, Bob 300), exported, then gone."""
    data = export_of_two_players(organiser)
    drop_league(League.objects.get(), games=True)
    return data


def refused(data: dict, **options) -> str:
    """The refusal's message, after checking that no row and no sequence changed."""
    counts, sequences_before = row_counts(), sequences()
    with pytest.raises(backup.BackupError) as error:
        backup.league_import(data, **options)
    assert row_counts() == counts
    assert sequences() == sequences_before
    return str(error.value)


# Sequences ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_refused_file_with_the_largest_bigint_as_a_game_id_leaves_every_sequence_alone(
    exported,
):
    exported["games"][0]["id"] = LARGEST_BIGINT
    exported["league_games"][0]["season"] = 999

    assert refused(exported) == (
        "games[0].id: 9223372036854775807 is not an id a league export has: ids are whole "
        "numbers from 1 to 9007199254740992."
    )

    # New games are still numbered after the old ones.
    sides = [SideSpec("Ann", ()), SideSpec("Bob", ())]
    game = services.game_start(preset="ten-thousand", sides=sides)
    assert game.pk == max(Game.objects.values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_file_refused_after_its_ids_were_read_leaves_every_sequence_alone(exported):
    exported["games"][0]["id"] = 2**53
    exported["league_games"][0]["season"] = 999

    assert refused(exported) == "league_games[0].season: 999 is not in the backup."


@pytest.mark.django_db
def test_a_file_refused_once_its_rows_are_in_leaves_every_sequence_alone(exported, organiser):
    # The league's id is taken, so it needs a new one; then its ratings, replayed once the rows
    # are in, are not the file's.
    other = league_with(organiser)
    exported["league"]["id"] = other.pk
    other.slug = "elsewhere"
    other.save()
    given = exported["participations"][0]["mu_after"]
    exported["participations"][0]["mu_after"] = 30.5

    assert refused(exported) == (
        f"participations[0].mu_after: 30.5 is not what the league's games give: {given!r}."
    )


@pytest.mark.parametrize("game_id", [0, -4, LARGEST_BIGINT + 1, 2**53 + 1])
@pytest.mark.django_db
def test_an_id_outside_the_range_a_league_export_has_is_refused(exported, game_id):
    exported["games"][0]["id"] = game_id

    assert refused(exported) == (
        f"games[0].id: {game_id} is not an id a league export has: ids are whole numbers from "
        "1 to 9007199254740992."
    )


# Games through the engine -------------------------------------------------------------------


def game(data: dict) -> dict:
    return data["games"][0]


def first_round(data: dict) -> dict:
    return game(data)["rounds"][0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: game(d).update(rules={"overrides": {}}),
            "Game {id}: its rules are not a rule set: House rules need a base: the id of a preset.",
        ),
        (
            lambda d: game(d).update(preset="baskets"),
            "Game {id}: its rule set is stored as 'baskets', but its rules are 'ten-thousand'.",
        ),
        (
            lambda d: first_round(d).update(entry="a round"),
            "Game {id}, round 1: the round is not one entry for each of the 2 sides.",
        ),
        (
            lambda d: first_round(d).update(entry=[{"melded_points": 500}, 300]),
            "Game {id}, round 1: the round is not one entry for each of the 2 sides.",
        ),
        (
            lambda d: first_round(d)["entry"][0].update(melded_points=7),
            "Game {id}, round 1: Ann's melded points must be a multiple of 5, since every card "
            "is, not 7.",
        ),
        (
            lambda d: first_round(d).update(number=2),
            "Game {id}: its rounds are numbered 2; they must be numbered 1, 2, 3 and so on.",
        ),
        (
            lambda d: first_round(d)["scores"][0].update(points=550),
            "Game {id}, round 1: the stored score for Ann is 550, but the rules give 500.",
        ),
        (
            lambda d: first_round(d)["scores"][1].update(running_total=350),
            "Game {id}, round 1: the stored running total for Bob is 350, but the rules give 300.",
        ),
        (
            lambda d: first_round(d)["scores"][1]["lines"][0].update(label="Cards"),
            "Game {id}, round 1: the stored breakdown of Bob's score is not the one the rules "
            "give.",
        ),
        (
            lambda d: first_round(d)["scores"].pop(),
            "Game {id}, round 1: there is no stored score for Bob.",
        ),
        (
            lambda d: first_round(d)["scores"].append({**first_round(d)["scores"][0], "id": 99}),
            "Game {id}, round 1: Ann has two stored scores.",
        ),
        (
            lambda d: game(d)["sides"][0].update(total=10_100),
            "Game {id}: the stored total for Ann is 10,100, but the rules give 500.",
        ),
        (
            lambda d: game(d).update(winner=1),
            "Game {id}: the stored winner is Bob, but the rules give Ann.",
        ),
        (
            lambda d: game(d).update(winner=None, tie=True),
            "Game {id}: the stored winner is nobody (a tie), but the rules give Ann.",
        ),
        (
            lambda d: game(d).update(finished=False, winner=None),
            "Game {id}: it is stored as still being played, but the rules say it is over.",
        ),
    ],
)
@pytest.mark.django_db
def test_a_game_the_engine_does_not_give_is_refused_naming_game_round_and_field(
    exported, change, message
):
    change(exported)

    assert refused(exported) == message.format(id=game(exported)["id"])


@pytest.mark.django_db
def test_a_round_score_of_another_games_side_is_refused(organiser):
    league = league_with(organiser)
    ann, bob, cy, di = members(league, "Ann", "Bob", "Cy", "Di").values()
    play(table_game(league, [[ann], [bob]]), [500, 300])
    play(table_game(league, [[cy], [di]]), [500, 300])
    data = dumped(backup.league_export(league))
    drop_league(league, games=True)
    first, second = data["games"]
    # Same names and scores: only the side's id tells the games apart.
    for side in second["sides"]:
        side["name"] = {"Cy": "Ann", "Di": "Bob"}[side["name"]]
    first["rounds"][0]["scores"][0]["side"] = second["sides"][0]["id"]

    assert refused(data) == (
        f"Game {first['id']}, round 1: a stored score belongs to side "
        f"{second['sides'][0]['id']}, which is not a side of this game."
    )


@pytest.mark.django_db
def test_a_file_the_engine_agrees_with_is_restored(exported):
    league = backup.league_import(exported)

    (restored,) = Game.objects.filter(league_game__league=league)
    assert (restored.winner.name, [s.total for s in restored.sides.all()]) == ("Ann", [500, 300])


# Files that are not JSON a league export can hold -------------------------------------------


def write(tmp_path, text: str):
    path = tmp_path / "riverside.json"
    path.write_text(text, encoding="utf-8")
    return path


def import_refused(path) -> str:
    counts, sequences_before = row_counts(), sequences()
    with pytest.raises(CommandError) as error:
        call_command("import_league", str(path), stdout=StringIO())
    assert row_counts() == counts
    assert sequences() == sequences_before
    return str(error.value)


@pytest.mark.django_db
def test_malformed_json_is_one_line_naming_where(tmp_path):
    path = write(tmp_path, '{"format": "scorekeeper-league",\n "version": 1\n "league": {}}')

    assert import_refused(path) == (
        f"{path} is not a league export: line 3, column 2: Expecting ',' delimiter."
    )


@pytest.mark.django_db
def test_a_five_thousand_digit_number_is_one_line(tmp_path):
    path = write(tmp_path, '{"format": "scorekeeper-league", "version": ' + "9" * 5000 + "}")

    assert import_refused(path) == (
        f"{path} is not a league export: a number has 5000 digits; the numbers of a league "
        "export have at most 30."
    )


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity", "-Infinity"])
@pytest.mark.django_db
def test_a_number_past_what_a_float_holds_is_one_line(tmp_path, number):
    path = write(tmp_path, '{"format": "scorekeeper-league", "version": ' + number + "}")

    assert import_refused(path) == (
        f"{path} is not a league export: {number} is not a number a league export holds."
    )


@pytest.mark.parametrize("depth", [60, 100_000])
@pytest.mark.django_db
def test_very_deep_nesting_is_one_line(tmp_path, depth):
    path = write(tmp_path, '{"format": ' + "[" * depth + "]" * depth + "}")

    assert import_refused(path) == (
        f"{path} is not a league export: its lists and objects nest more than 50 deep."
    )


@pytest.mark.parametrize(
    ("text", "what"),
    [("Ann\\u0000", "a NUL character (\\u0000)"), ("Ann\\ud800", "a lone surrogate (\\ud800)")],
)
@pytest.mark.django_db
def test_a_character_no_database_column_holds_is_one_line(organiser, tmp_path, text, what):
    data = export_of_two_players(organiser)
    drop_league(League.objects.get(), games=True)
    path = write(tmp_path, json.dumps(data).replace('"Bob"', f'"{text}"', 1))

    assert import_refused(path) == (
        f"{path}: players[1].name: {what} cannot be stored; a league export never holds one."
    )


# Players of another league ------------------------------------------------------------------


def forged_copy(data: dict, slug: str) -> dict:
    """Another league's export under a new slug, with new addresses for its games."""
    copied = copy.deepcopy(data)
    copied["league"]["slug"] = slug
    for index, row in enumerate(copied["games"]):
        row["public_id"] = f"copied-game-{index}"
        row["scorer_token"] = f"copied-token-{index}"
    for row in copied["league_games"]:
        row["game"] = f"copied-game-{data['league_games'].index(row)}"
    return copied


@pytest.mark.django_db
def test_a_copy_of_another_leagues_export_does_not_take_over_its_players(organiser):
    data = export_of_two_players(organiser)
    players = list(Player.objects.order_by("pk").values_list("pk", "name"))

    assert refused(forged_copy(data, "copy")) == (
        "Ann and Bob (players[0], players[1]) are already players of thursday. A file may not "
        "take over another league's players: only if this league really shares them with "
        "thursday, import it with --share-players-with thursday."
    )
    assert list(Player.objects.order_by("pk").values_list("pk", "name")) == players


@pytest.mark.django_db
def test_players_shared_with_a_league_named_by_the_operator_are_the_same_players(organiser):
    data = export_of_two_players(organiser)
    thursday = League.objects.get()

    league = backup.league_import(forged_copy(data, "copy"), share_players_with=["thursday"])

    assert list(league.members.order_by("pk")) == list(thursday.members.order_by("pk"))
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_the_command_takes_the_leagues_that_share_players(organiser, tmp_path):
    data = export_of_two_players(organiser)
    path = write(tmp_path, json.dumps(forged_copy(data, "copy")))

    assert import_refused(path).endswith("import it with --share-players-with thursday.")
    out = StringIO()
    call_command("import_league", str(path), share_players_with=["thursday"], stdout=out)

    assert out.getvalue().startswith("Imported 'Thursday Club' (copy): 1 league, 2 players, ")
    assert Player.objects.count() == 2
