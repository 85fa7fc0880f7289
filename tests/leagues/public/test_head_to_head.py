"""The head-to-head page: one player's record against everyone they met in a season, sorted by
any column; the whole matrix only in a small season; a bad address answers a message, not 500."""

import datetime

import pytest

from leagues import rivalry, selectors
from leagues.selectors import Meeting
from tests.helpers.leagues import members, play, table_game
from tests.helpers.pages import body_rows, tables, text

OCT = [datetime.date(2026, 10, day) for day in (1, 8, 15, 22)]


@pytest.fixture
def club(league):
    """Four players over four nights, Ann's record worked out by hand:

    1 Oct  Ann & Cat 500 beat Bob & Dan 300
    8 Oct  Ann & Dan 300 lose to Bob & Cat 450
    15 Oct Ann & Cat 600 beat Bob & Dan 200
    22 Oct Ann & Bob 400 tie Cat & Dan 400

    Ann against Bob: 3 games, 2-0-1, points 1,400 to 950; against Dan: 3 games, 2-1-0, 1,500
    to 900; against Cat: 2 games, 0-1-1, 700 to 850.
    """
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    for date, sides, totals in [
        (OCT[0], [["Ann", "Cat"], ["Bob", "Dan"]], [500, 300]),
        (OCT[1], [["Ann", "Dan"], ["Bob", "Cat"]], [300, 450]),
        (OCT[2], [["Ann", "Cat"], ["Bob", "Dan"]], [600, 200]),
        (OCT[3], [["Ann", "Bob"], ["Cat", "Dan"]], [400, 400]),
    ]:
        play(table_game(league, [[p[n] for n in side] for side in sides], date=date), totals)
    return p


@pytest.fixture
def url(league):
    return f"/leagues/thursday/seasons/{league.seasons.get().pk}/head-to-head/"


HEADER = [
    "Opponent",
    "Games ▼",
    "Wins",
    "Ties",
    "Losses",
    "Win %",
    "Points for",
    "Points against",
]


def test_a_players_record_against_each_opponent(client, club, url):
    response = client.get(url, {"player": club["Ann"].pk})

    assert response.status_code == 200
    record = tables(response)[0]
    assert record[0] == HEADER
    assert body_rows(response) == [
        "Bob | 3 | 2 | 0 | 1 | 66.7 | 1,400 | 950",
        "Dan | 3 | 2 | 1 | 0 | 83.3 | 1,500 | 900",
        "Cat | 2 | 0 | 1 | 1 | 25 | 700 | 850",
    ]
    page = text(response)
    assert "Ann against each opponent" in page
    # Bob and Dan both met Ann three times: neither is "most met".
    assert "Most met" not in page
    assert "Nemesis Cat : won 0, tied 1, lost 1 of 2 games" in page
    assert "Best against Dan : won 2, tied 1, lost 0 of 3 games" in page
    assert f'<option value="{club["Ann"].pk}" selected>Ann</option>' in response.content.decode()
    # Names lead to the player page.
    assert f'<a href="/leagues/thursday/players/{club["Bob"].pk}/">Bob</a>' in (
        response.content.decode()
    )


def test_partners_in_a_partnership_league(client, club, url):
    response = client.get(url, {"player": club["Ann"].pk})

    assert tables(response)[1][0] == ["Partner", "Games", "Wins", "Ties", "Losses", "Win %"]
    assert body_rows(response, 1) == [
        "Cat | 2 | 2 | 0 | 0 | 100",
        "Bob | 1 | 0 | 1 | 0 | 50",
        "Dan | 1 | 0 | 0 | 1 | 0",
    ]


@pytest.mark.parametrize(
    ("sort", "order", "names", "caption"),
    [
        ("win_pct", "desc", ["Dan", "Bob", "Cat"], "sorted by win %, highest first"),
        ("win_pct", "asc", ["Cat", "Bob", "Dan"], "sorted by win %, lowest first"),
        ("name", "desc", ["Dan", "Cat", "Bob"], "Z to A"),
        # Equal losses: the most games first, then by name.
        ("losses", "desc", ["Bob", "Cat", "Dan"], "sorted by losses, highest first"),
        ("points_against", "asc", ["Cat", "Dan", "Bob"], "sorted by points against, lowest"),
    ],
)
def test_the_record_sorts_on_each_column(client, club, url, sort, order, names, caption):
    response = client.get(url, {"player": club["Ann"].pk, "sort": sort, "order": order})

    assert [row.split(" | ")[0] for row in body_rows(response)] == names
    assert f"Ann's record by opponent, {caption}" in text(response)


def test_a_sort_link_turns_the_sorted_column_round_and_names_its_fragment(client, club, url):
    ann = club["Ann"].pk
    page = client.get(url, {"player": ann, "sort": "wins", "order": "desc"}).content.decode()

    link = f"{url}?player={ann}&amp;sort=wins&amp;order=asc"
    assert (
        f'<th scope="col" aria-sort="descending"><a href="{link}" hx-get="{link}" '
        'hx-target="#h2h-record" hx-swap="outerHTML" hx-push-url="true">Wins '
        '<span aria-hidden="true">▼</span></a></th>'
    ) in page
    # Another column starts at its natural order: names A to Z, figures highest first.
    assert f'href="{url}?player={ann}&amp;sort=name&amp;order=asc"' in page
    assert f'href="{url}?player={ann}&amp;sort=games&amp;order=desc"' in page


def test_htmx_gets_the_record_alone(client, club, url, django_assert_num_queries):
    # The league, its seasons, the season's players and the opponents: no partners for it.
    with django_assert_num_queries(4):
        response = client.get(
            url,
            {"player": club["Ann"].pk, "sort": "name", "order": "asc"},
            HTTP_HX_REQUEST="true",
        )

    page = response.content.decode()
    assert page.lstrip().startswith('<div class="table-wrap h2h-scroll" id="h2h-record">')
    assert "<html" not in page
    assert [row.split(" | ")[0] for row in body_rows(response)] == ["Bob", "Cat", "Dan"]
    assert "HX-Request" in response["Vary"]


def test_a_small_season_shows_the_chooser_and_the_matrix(client, club, url):
    response = client.get(url)

    page = text(response)
    assert "Player See their record against everyone they met in Autumn 2026." in page
    assert "Everyone against everyone" in page
    header, *rows = tables(response)[0]
    # In standings order: Cat 7 league points, Ann 5, Bob 3, Dan 1.
    assert header == ["", "Cat", "Ann", "Bob", "Dan"]
    assert [" | ".join(row) for row in rows][1] == "Ann | 0–1–1 |  | 2–0–1 | 2–1–0"


def test_a_season_of_thirteen_has_no_matrix(client, league, url, django_assert_num_queries):
    names = [f"P{n:02d}" for n in range(1, 14)]
    p = members(league, *names)
    # Thirteen players at four tables: the last table brings P13 in with three others again.
    for table, four in enumerate([names[0:4], names[4:8], names[8:12], names[9:13]]):
        game = table_game(
            league, [[p[four[0]], p[four[1]]], [p[four[2]], p[four[3]]]], date=OCT[table]
        )
        play(game, [500, 300])

    # The league, its seasons and the season's players: no pairs, no standings.
    with django_assert_num_queries(3):
        response = client.get(url)

    assert response.status_code == 200
    assert tables(response) == []
    assert (
        "13 players played in Autumn 2026: too many for one table of everyone against "
        "everyone, so choose one above."
    ) in text(response)
    assert response.content.decode().count("<option value=") == 14
    chosen = text(client.get(url, {"player": p["P13"].pk}))
    assert "Choose another player" in chosen


NO_SUCH = (
    "Player: there is no such player in Autumn 2026; choose one of the season's players from "
    "the list."
)


@pytest.mark.parametrize(
    "value",
    ["abc", "-1", "0", "1.5", "99999999999999999999999999", "１", "999999", "9" * 5_000],
)
def test_a_bad_player_answers_a_message_and_the_chooser(client, club, url, value):
    response = client.get(url, {"player": value, "sort": "nonsense", "order": "sideways"})

    assert response.status_code == 200
    assert NO_SUCH in text(response)
    page = response.content.decode()
    assert 'aria-invalid="true"' in page
    assert "Everyone against everyone" in text(response)


def test_a_member_without_a_game_in_the_season_is_named(client, league, club, url):
    eve = members(league, "Eve")["Eve"]

    response = client.get(url, {"player": eve.pk})

    assert (
        "Player: Eve has no counted game in Autumn 2026; choose one of the season's players "
        "from the list."
    ) in text(response)


def test_an_unknown_sort_falls_back_to_most_games(client, club, url):
    response = client.get(url, {"player": club["Ann"].pk, "sort": "__class__", "order": "up"})

    assert response.status_code == 200
    assert tables(response)[0][0] == HEADER
    assert [row.split(" | ")[0] for row in body_rows(response)] == ["Bob", "Dan", "Cat"]


def test_the_season_switcher_keeps_the_chosen_player(client, club, url):
    ann = club["Ann"].pk
    page = client.get(url, {"player": ann, "sort": "wins"}).content.decode()

    assert f'href="{url}?player={ann}&amp;sort=wins&amp;order=desc" aria-current="page"' in page


def test_an_empty_season_says_so(client, league, url):
    response = client.get(url, {"player": "1"})

    assert response.status_code == 200
    assert "No games counted in this season yet." in text(response)
    assert "<select" not in response.content.decode()


# The decisions, without the page ----------------------------------------------------------


def meeting(other: str, wins: int, ties: int, losses: int, other_id: int = 1) -> Meeting:
    return Meeting(other_id, other, wins + ties + losses, wins, ties, losses)


def test_rivals_need_a_losing_or_winning_record():
    even = [meeting("Bob", 1, 0, 2), meeting("Cat", 0, 2, 0)]

    found = selectors.rivals(even)

    assert found.nemesis.other == "Bob"
    assert found.best_against is None
    assert selectors.rivals([meeting("Cat", 0, 2, 0)]) == selectors.Rivals(
        meeting("Cat", 0, 2, 0), None, None
    )
    assert selectors.rivals([]) == selectors.Rivals(None, None, None)


def test_most_met_only_when_one_opponent_stands_out():
    assert selectors.rivals([meeting("Bob", 1, 0, 2), meeting("Cat", 0, 2, 0)]).most_met == (
        meeting("Bob", 1, 0, 2)
    )
    assert selectors.rivals([meeting("Bob", 1, 0, 1), meeting("Cat", 0, 2, 0)]).most_met is None


def test_the_nemesis_has_the_most_losses_net_of_wins_then_the_most_games():
    found = selectors.rivals(
        [meeting("Al", 0, 0, 2), meeting("Bo", 1, 0, 3), meeting("Cy", 3, 0, 1)]
    )

    assert found.nemesis.other == "Bo"
    assert found.best_against.other == "Cy"


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (meeting("Bob", 1, 0, 0), "won 1, lost 0 of 1 game"),
        (meeting("Bob", 1, 1, 3), "won 1, tied 1, lost 3 of 5 games"),
        (meeting("Bob", 1200, 0, 0), "won 1,200, lost 0 of 1,200 games"),
    ],
)
def test_a_record_in_words(record, words):
    assert rivalry.summary(record) == words


def test_a_caption_after_a_name_ending_in_s():
    assert rivalry.record_caption("Chris", "games", "desc") == (
        "The record of Chris by opponent, sorted by games, highest first"
    )


@pytest.mark.parametrize(
    ("sort", "order", "expected"),
    [
        (None, None, ("games", "desc")),
        ("name", None, ("name", "asc")),
        ("wins", "asc", ("wins", "asc")),
        ("rating", "desc", ("games", "desc")),
        ("win_pct", "DROP", ("win_pct", "desc")),
    ],
)
def test_sort_order_falls_back_to_natural_orders(sort, order, expected):
    assert rivalry.sort_order(sort, order) == expected
