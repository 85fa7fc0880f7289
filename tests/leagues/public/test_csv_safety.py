"""Every CSV download read as spreadsheets read it: split on ",", on ";" (German or French Excel)
and on a tab, no cell a spreadsheet would run as a formula, whatever the members' names and the
void reasons hold, and a shared player's new name carried into another league's files defused."""

import csv
import datetime

import pytest

from leagues import services
from tests.helpers.leagues import OCT, league_with, members, play, table_game
from tests.helpers.pages import csv_text, read_csv, runnable_cells

FORGED = "Ann;=cmd|' /C calc'!A0;"
SUM = "@SUM(1+9)*cmd|' /C calc'!A0"
# OWASP's characters at the start of a name and after a separator, a tab or a line break.
NAMES = (FORGED, SUM, "+Bob", "-Cy", "Di,=1+1", "Eve\t-2+3", 'Fay\n=HYPERLINK("http://x")')
NOTHING_RUNNABLE = {",": [], ";": [], "\t": []}


def urls(slug: str, season_id: int) -> list[str]:
    return [
        f"/leagues/{slug}/standings.csv",
        f"/leagues/{slug}/seasons/{season_id}/standings.csv",
        f"/leagues/{slug}/seasons/{season_id}/games.csv",
    ]


@pytest.fixture
def hostile(organiser):
    """Four games of hostile names, one a tie (a shared rank), one voided for a hostile reason."""
    league = league_with(organiser, play="singles")
    p = members(league, *NAMES)
    play(table_game(league, [[p[FORGED]], [p[SUM]]], date=OCT[0]), [500, 300])
    play(table_game(league, [[p["+Bob"]], [p["-Cy"]]], date=OCT[0]), [400, 400])
    play(table_game(league, [[p["Di,=1+1"]], [p["Eve\t-2+3"]]], date=OCT[1]), [200, 600])
    voided = table_game(league, [[p[NAMES[-1]]], [p[FORGED]]], date=OCT[1])
    play(voided, [100, 300])
    services.game_void(league_game=voided, reason="=1+1; -2, @x", user=None)
    return league


@pytest.mark.django_db
@pytest.mark.parametrize(
    "which", [0, 1, 2], ids=["all-time standings", "season standings", "season games"]
)
def test_no_csv_has_a_cell_a_spreadsheet_would_run(client, hostile, which):
    url = urls("thursday", hostile.seasons.get().pk)[which]

    text = csv_text(client.get(url))

    assert runnable_cells(text) == NOTHING_RUNNABLE
    # Six players with a counted game (Fay's one game was voided); four games.
    assert len(read_csv(text)) == [7, 7, 5][which]


@pytest.mark.django_db
def test_the_forged_name_is_text_in_a_spreadsheet_splitting_on_semicolons(client, hostile):
    season = hostile.seasons.get()
    first = hostile.games.get(table=1, date=OCT[0])
    text = csv_text(client.get(f"/leagues/thursday/seasons/{season.pk}/games.csv"))

    # Written before as 2026-10-01,2026-10-01,1,Ann;=cmd|' /C calc'!A0;,500,...: split on ";",
    # the second cell was =cmd|' /C calc'!A0, a command Excel runs. Now that cell is text,
    # which a spreadsheet shows with its apostrophe.
    assert read_csv(text, delimiter=";")[1] == [
        '2026-10-01,"2026-10-01",1,"Ann',
        "'=cmd|' /C calc'!A0",
        ",500,'@SUM(1+9)*cmd|' /C calc'!A0\",300,\"Ann",
        "'=cmd|' /C calc'!A0",
        f',No","",1,"http://testserver/g/{first.game.public_id}/"',
    ]
    # Read with the comma it was written with, the names and the figures are as stored.
    assert read_csv(text, quoting=csv.QUOTE_NONNUMERIC)[1] == [
        "2026-10-01",
        "2026-10-01",
        1.0,
        "Ann;'=cmd|' /C calc'!A0;",
        500.0,
        "'@SUM(1+9)*cmd|' /C calc'!A0",
        300.0,
        "Ann;'=cmd|' /C calc'!A0;",
        "No",
        "",
        1.0,
        f"http://testserver/g/{first.game.public_id}/",
    ]
    # The void reason is defused after its ";" and its "," as at its start.
    assert read_csv(text)[4][8:10] == ["Yes", "'=1+1; '-2, '@x"]


@pytest.mark.django_db
def test_ranks_are_numbers_with_a_tied_column_and_margins_stay_numbers(client, hostile):
    season = hostile.seasons.get()

    rows = read_csv(
        csv_text(client.get(f"/leagues/thursday/seasons/{season.pk}/standings.csv")),
        quoting=csv.QUOTE_NONNUMERIC,
    )

    # Rank, Tied, Player and Average margin; Fay, whose one game was voided, has none counted.
    assert [row[:3] + [row[12]] for row in rows] == [
        ["#", "Tied", "Player", "Average margin"],
        [1, "No", "Eve\t'-2+3", 400],
        [2, "No", "Ann;'=cmd|' /C calc'!A0;", 200],
        [3, "Yes", "'+Bob", 0],
        [3, "Yes", "'-Cy", 0],
        [5, "No", "'" + SUM, -200],
        [6, "No", "Di,'=1+1", -400],
    ]
    assert [type(row[12]) for row in rows[1:]] == [float] * 6


@pytest.mark.django_db
def test_a_shared_players_new_name_reaches_another_leagues_csv_defused(client, organiser):
    thursday = league_with(organiser, play="singles")
    pat = members(thursday, "Pat")["Pat"]
    friday = services.league_create(
        name="Friday Club",
        slug="friday",
        preset="ten-thousand",
        house_rules={"target_score": None, "rounds": 1},
        play="singles",
        user=organiser,
    )
    season = services.season_create(
        league=friday,
        name="Autumn 2026",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 11, 30),
        user=organiser,
    )
    services.member_add(league=friday, player=pat, user=None)
    quin = members(friday, "Quin")["Quin"]
    play(table_game(friday, [[pat], [quin]], date=OCT[0]), [500, 300])

    # Renamed by Thursday's organiser, in Thursday's league.
    services.player_update(league=thursday, player=pat, name=FORGED, account=None, user=organiser)

    for url in urls("friday", season.pk):
        assert runnable_cells(csv_text(client.get(url))) == NOTHING_RUNNABLE, url
    for url in urls("friday", season.pk)[:2]:
        rows = read_csv(csv_text(client.get(url)), delimiter=";")
        assert rows[1][:2] == ['1,"No","Ann', "'=cmd|' /C calc'!A0"], url
