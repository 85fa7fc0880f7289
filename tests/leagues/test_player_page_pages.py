"""The player page a page at a time: its results ten games at a time with working links to older
and newer ones (htmx swaps the results in; without JavaScript the links load the page), and the
ten partners and opponents met most with a link to all of them; the same queries whatever the
number of games."""

import datetime

import pytest

from leagues import player_stats
from tests.helpers.leagues import league_with, members, play, table_game

NAMES = [f"Player {chr(ord('A') + n)}" for n in range(14)]
START = datetime.date(2026, 9, 1)


def ann_league(organiser, games: int):
    """Ann plays every game, with a new partner and new opponents in turn from 13 others."""
    league = league_with(organiser)
    p = list(members(league, *NAMES).values())
    ann, others = p[0], p[1:]
    for n in range(games):
        three = [others[(3 * n + k) % len(others)] for k in range(3)]
        game = table_game(
            league,
            [[ann, three[0]], [three[1], three[2]]],
            date=START + datetime.timedelta(days=2 * n),
        )
        play(game, [500, 300 + 100 * (n % 3)])
    return league, ann


def rows(html: str) -> int:
    return html.count('<td class="num"><a href="/g/')


def test_the_results_come_ten_at_a_time_with_links_both_ways(client, organiser):
    league, ann = ann_league(organiser, 23)
    url = f"/leagues/{league.slug}/players/{ann.pk}/"
    first = client.get(url).content.decode()
    assert "The latest 10 of 23 games." in first
    assert rows(first) == 10
    assert (
        f'<a class="button secondary" href="{url}?page=2" hx-get="{url}?page=2" '
        'hx-target="#results" hx-swap="outerHTML" hx-push-url="true" rel="next">Older games</a>'
    ) in first
    assert "Newer games" not in first
    # The newest game first: the 23rd week.
    assert (START + datetime.timedelta(days=2 * 22)).strftime("%-d %b %Y") in first

    second = client.get(f"{url}?page=2").content.decode()
    assert "Games 11 to 20 of 23, newest first." in second
    assert rows(second) == 10
    assert f'<a class="button secondary" href="{url}" hx-get="{url}" hx-target="#results"' in second
    assert f'href="{url}?page=3"' in second

    last = client.get(f"{url}?page=3").content.decode()
    assert "Games 21 to 23 of 23, newest first." in last
    assert rows(last) == 3
    assert "Older games" not in last
    assert START.strftime("%-d %b %Y") in last

    for page in ("4", "0", "x", "²", "99999999999999"):
        assert client.get(url, {"page": page}).status_code == 404, page


def test_htmx_asks_for_the_results_alone(client, organiser):
    league, ann = ann_league(organiser, 12)
    url = f"/leagues/{league.slug}/players/{ann.pk}/?page=2"
    response = client.get(url, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="results">')
    assert "Games 11 to 12 of 12, newest first." in html
    assert "<h1" not in html and "Head to head" not in html
    assert "HX-Request" in response["Vary"]
    # A history restore gets the whole page.
    full = client.get(url, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<h1" in full.content.decode()


def test_the_ten_met_most_then_a_link_to_all(client, organiser):
    league, ann = ann_league(organiser, 13)
    url = f"/leagues/{league.slug}/players/{ann.pk}/"
    page = client.get(url).content.decode()
    # 13 partners and 13 opponents in all: each other player partnered once, met twice.
    assert page.count("/players/") - page.count(f"/players/{ann.pk}/") >= 20
    assert (
        '<p class="muted">The 10 opponents of most games, of 13. '
        '<a href="?meetings=all#opponents-heading">All 13 opponents</a></p>'
    ) in page
    assert (
        '<p class="muted">The 10 partners of most games, of 13. '
        '<a href="?meetings=all#partners-heading">All 13 partners</a></p>'
    ) in page
    everyone = client.get(url, {"meetings": "all"}).content.decode()
    assert "All 13 opponents" not in everyone and "All 13 partners" not in everyone
    for name in NAMES[1:]:
        assert everyone.count(f">{name}</a></th>") == 2, name
    # The ten shown are the first ten of the whole list: most games, then by name.
    record = player_stats.player_record(league, ann.pk)
    full = player_stats.player_record(league, ann.pk, shown=None)
    assert record.opponents == full.opponents[:10]
    assert record.partners == full.partners[:10]
    assert (record.partner_count, record.opponent_count) == (13, 13)


@pytest.mark.parametrize("games", [3, 25])
def test_the_pages_queries_do_not_grow_with_games(
    client, organiser, django_assert_num_queries, games
):
    league, ann = ann_league(organiser, games)
    url = f"/leagues/{league.slug}/players/{ann.pk}/"
    for asked in ({}, {"meetings": "all"}):
        with django_assert_num_queries(8):
            assert client.get(url, asked).status_code == 200
    with django_assert_num_queries(8):
        assert client.get(url, {"page": 1}, headers={"HX-Request": "true"}).status_code == 200
