"""A club night's pack: each table with its scorer code, the rules it prints, its queries."""

import datetime
import re

import pytest

from leagues import services
from leagues.models import League
from leagues.public import documents
from tests.helpers.leagues import league_with, members, table_game
from tests.helpers.pdfs import download, filename, pdf_pages, pdf_words

NIGHT = datetime.date(2026, 11, 21)
# For a visitor who is not signed in.
PACK_QUERIES = 5  # league, night, attendances, games, their sides
# A signed-in organiser pays for the session, the user and the organiser check.
ORGANISER_EXTRA_QUERIES = 3


def body(page: str) -> str:
    """A page's text on one line, its footer (which the reader finds first) left out."""
    return re.sub(r"^.*? Page [0-9]+ ", "", " ".join(page.split()), count=1)


@pytest.fixture
def four_rounds(organiser) -> League:
    """A partnership league on Four Rounds as published (four rounds, meld 60 to 150)."""
    return league_with(organiser, preset="four-rounds", house_rules={"rounds": 4})


FIRST_EIGHT = ["José", "Zoë", "Łukasz", "Søren", "Ann", "Cy", "Bob", "Di"]


def seat_night(league: League, *, start: bool, tables: int = 2):
    """Table 1: José & Zoë against Łukasz & Søren; table 2: Ann & Cy against Bob & Di; more
    tables of four if asked; Renée sits out, and Dev arrives late and waits."""
    seated = [*FIRST_EIGHT, *(f"P{n:02}" for n in range(4 * max(0, tables - 2)))][: 4 * tables]
    p = members(league, *seated, "Renée", "Dev")
    night = services.night_create(
        league=league,
        date=NIGHT,
        player_ids=[p[name].pk for name in [*seated, "Renée"]],
        user=None,
    )
    choices = [
        services.SeatChoice(p[name].pk, 1 + n // 4, (n // 2) % 2) for n, name in enumerate(seated)
    ]
    choices.append(services.SeatChoice(p["Renée"].pk, None, None))
    services.night_seating_set(night=night, choices=choices, user=None)
    if start:
        services.night_games_start(night=night, user=None)
    services.night_arrival(night=night, player=p["Dev"], user=None)
    return night


def table_games(night):
    return {lg.table: lg.game for lg in night.games.select_related("game")}


def test_the_pack_gives_the_organiser_each_table_with_its_scorer_code(
    client, four_rounds, organiser
):
    night = seat_night(four_rounds, start=True)
    games = table_games(night)
    client.force_login(organiser)
    response = client.get(f"/leagues/thursday/nights/{night.pk}/pack.pdf", {"paper": "a4"})
    pages = [body(page) for page in pdf_pages(download(response))]

    assert filename(response) == "2026-11-21-thursday-club-club-night-pack.pdf"
    assert len(pages) == 3
    assert pages[0] == (
        "Club night, Saturday 21 November 2026 Thursday Club · Autumn 2026 · Four Rounds "
        "Tables Table Sides Seats round the table, the deal passing left "
        "1 José & Zoë Łukasz & Søren José, Łukasz, Zoë, Søren José deals first. "
        "2 Ann & Cy Bob & Di Ann, Bob, Cy, Di Ann deals first. "
        "Sitting out Renée. Waiting for a seat Dev. " + documents.SCORER_NOTE
    )
    first = pages[1]
    assert first.startswith("Table 1 Four Rounds. The game ends after round 4")
    assert (
        "Opening meld by round: round 1 needs 60, round 2 needs 90, round 3 needs 120, "
        "round 4 needs 150."
    ) in first
    assert (
        "League: Thursday Club · Season: Autumn 2026 · Club night: 21 November 2026 · "
        "Seats, the deal passing left: José, Łukasz, Zoë, Søren"
    ) in first
    assert "Players: José & Zoë; Łukasz & Søren" in first
    assert "Round 1 · José deals José & Zoë Łukasz & Søren Opening meld 60 60" in first
    assert "Round 2 · Łukasz deals" in first
    assert "Scan to score this table on a phone" in first
    game = games[1]
    assert f"http://testserver/g/{game.public_id}/join/{game.scorer_token}/" in first
    assert "Signed for José & Zoë Signed for Łukasz & Søren" in first

    second = pages[2]
    assert second.startswith("Table 2 Four Rounds")
    assert "Round 1 · Ann deals Ann & Cy Bob & Di Opening meld 60 60" in second
    game = games[2]
    assert f"http://testserver/g/{game.public_id}/join/{game.scorer_token}/" in second
    assert "Not started" not in " ".join(pages)


def test_a_visitor_gets_the_game_pages_never_the_scorer_links(client, four_rounds):
    night = seat_night(four_rounds, start=True)
    games = table_games(night)
    response = client.get(f"/leagues/thursday/nights/{night.pk}/pack.pdf", {"paper": "letter"})
    pages = [body(page) for page in pdf_pages(download(response))]

    assert pages[0].endswith(
        "Sitting out Renée. Waiting for a seat Dev. " + documents.FOLLOWER_NOTE
    )
    for number, page in [(1, pages[1]), (2, pages[2])]:
        game = games[number]
        assert page.startswith(f"Table {number} Four Rounds")
        assert "Scan to follow this table" in page
        assert f"http://testserver/g/{game.public_id}/ " in page + " "
        assert game.scorer_token not in page
        assert "join" not in page


def test_tables_not_started_have_no_code_and_say_when_it_comes(client, four_rounds, organiser):
    night = seat_night(four_rounds, start=False)
    client.force_login(organiser)
    pages = [
        body(page)
        for page in pdf_pages(download(client.get(f"/leagues/thursday/nights/{night.pk}/pack.pdf")))
    ]

    assert (
        "1 José & Zoë Łukasz & Søren José, Łukasz, Zoë, Søren José deals first. Not started yet. "
        "2 Ann & Cy Bob & Di Ann, Bob, Cy, Di Ann deals first. Not started yet. "
        "Sitting out Renée. Waiting for a seat Dev."
    ) in pages[0]
    # No game yet, so nothing to say about what the codes open.
    assert pages[0].endswith("Waiting for a seat Dev.")
    for number, page in [(1, pages[1]), (2, pages[2])]:
        assert page.startswith(
            "Not started yet: the QR code of this table's game appears on its sheet once the "
            f"organiser starts the night's games. Print the pack again then, or score on paper. "
            f"Table {number} Four Rounds"
        )
        assert "Scan" not in page and "http" not in page
    assert "Round 1 · José deals José & Zoë Łukasz & Søren Opening meld 60 60" in pages[1]


def test_the_pack_prints_the_rules_the_season_froze(client, four_rounds, organiser):
    night = seat_night(four_rounds, start=False)
    # A change to the league after the season began reaches the next season, not this one.
    services.league_update(
        league=four_rounds, user=organiser, house_rules={"opening_meld": [75, 90, 120, 150]}
    )
    words = pdf_words(download(client.get(f"/leagues/thursday/nights/{night.pk}/pack.pdf")))
    assert "round 1 needs 60," in words
    assert "Opening meld 60 60" in words
    assert "needs 75" not in words and "Opening meld 75" not in words


def test_the_pack_says_which_house_rules_on_its_cover_and_every_sheet(client, league):
    night = seat_night(league, start=True)
    house = "House rules: no target score (the rule set's: 10,000); 1 round (the rule set's: none)."

    pages = pdf_pages(download(client.get(f"/leagues/thursday/nights/{night.pk}/pack.pdf")))

    cover = " ".join(pages[0].split())
    assert f"Thursday Club · Autumn 2026 · Ten Thousand {house} Tables" in cover
    sheets = [" ".join(page.split()) for page in pages[1:]]
    assert len(sheets) == 2
    for sheet in sheets:
        assert f"Ten Thousand. The game ends after round 1; the highest total wins. {house}" in (
            sheet
        )


def test_a_singles_pack_names_each_player_once(client, organiser):
    league = league_with(organiser, preset="baskets", house_rules={"rounds": None})
    p = members(league, "José", "Zoë", "Łukasz", "Søren")
    table_game(league, [[p["José"]], [p["Zoë"]]], date=NIGHT)
    table_game(league, [[p["Łukasz"]], [p["Søren"]]], date=NIGHT)
    night = league.nights.get()
    data = download(client.get(f"/leagues/thursday/nights/{night.pk}/pack.pdf"))
    cover, words = body(pdf_pages(data)[0]), pdf_words(data)
    assert (
        "1 José Zoë José, Zoë José deals first. 2 Łukasz Søren Łukasz, Søren Łukasz deals first. "
        "Sitting out Nobody."
    ) in cover
    assert "Seats, the deal passing left: José, Zoë" in words
    assert "Round 1 · José deals José Zoë Opening meld 50 50" in words
    assert "Round 2 · Zoë deals José Zoë Opening meld Going out" in words
    assert "Round 1 · Łukasz deals Łukasz Søren Opening meld 50 50" in words


@pytest.mark.parametrize("tables", [1, 5])
def test_the_pack_costs_the_same_queries_whatever_the_number_of_tables(
    client, four_rounds, organiser, django_assert_num_queries, tables
):
    night = seat_night(four_rounds, start=True, tables=tables)
    url = f"/leagues/thursday/nights/{night.pk}/pack.pdf"
    with django_assert_num_queries(PACK_QUERIES):
        pages = [body(page) for page in pdf_pages(download(client.get(url, {"paper": "a4"})))]
    assert len(pages) == 1 + tables
    assert sum("Scan to follow this table" in page for page in pages) == tables
    client.force_login(organiser)
    with django_assert_num_queries(PACK_QUERIES + ORGANISER_EXTRA_QUERIES):
        pages = [body(page) for page in pdf_pages(download(client.get(url, {"paper": "a4"})))]
    assert [page.split(" Four Rounds")[0] for page in pages[1:]] == [
        f"Table {n}" for n in range(1, tables + 1)
    ]
    assert sum("Scan to score this table on a phone" in page for page in pages) == tables
