"""The projector view of a club night: every table's totals, its state and the side ahead, the
top of the season's standings, refreshing itself until the night is closed."""

import datetime
import html
import re

import pytest
from django.utils import timezone

from leagues import selectors, services
from leagues.models import League
from scorekeeper.rounds.services import round_record
from tests.helpers.leagues import NIGHT, UserFactory, league_with, members, table_game

# league, night, the night's attendances, games and their sides, the brief standings
PROJECTOR_QUERIES = 6
MEMBER_EXTRA_QUERIES = 4  # session, user, the two access checks


def text(fragment: str) -> str:
    """The visible text, tags and screen-reader-only spans left out."""
    fragment = re.sub(r'<span class="visually-hidden">[^<]*</span>', "", fragment)
    # Unescaped before the spaces are squeezed: a no-break space is a space to the eye.
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def cards(page: str) -> list[str]:
    """Each table card's visible text, in the order shown."""
    return [text(card) for card in re.findall(r'<li class="card .*?</ul>.*?</li>', page, re.S)]


HEARD = re.compile(r'<span class="visually-hidden">, (\w+)</span>')


def marked(page: str) -> list[str]:
    """The sides marked ahead, each with what a screen reader hears beside the star."""
    sides = re.findall(r'<li class="side marked">(.*?)</li>', page)
    return [f"{text(side)} ({HEARD.search(side)[1]})" for side in sides]


def top(page: str) -> list[str]:
    """The standings' rows: rank | player | league points | games."""
    body = re.search(r'<table class="top">.*?<tbody>(.*?)</tbody>', page, re.S)
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S) if body else []
    return [
        " | ".join(text(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r)) for r in rows
    ]


def rounds(league_game, *totals_by_round):
    """Rounds in which the stock runs out and each side scores what it melded."""
    done = league_game.game.rounds.count()
    for number, totals in enumerate(totals_by_round, start=done + 1):
        round_record(
            game=league_game.game,
            number=number,
            ended_by="stock_exhausted",
            entry=[{"melded_points": total} for total in totals],
        )


@pytest.fixture
def night(organiser):
    """Games of two rounds. Table 1 finished, table 2 playing (Ivy & Jo ahead), table 3 voided,
    table 4 level after a round, table 5 seated but not started."""
    league = league_with(organiser, house_rules={"rounds": 2})
    names = ["Ann", "Bob", "Cat", "Dan", "Gus", "Hal", "Ivy", "Jo", "Max", "Ned"]
    p = members(league, *names, "Pam", "Quin", "Kit", "Lou", "Zed")
    first = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    rounds(first, [500, 300], [200, 100])
    second = table_game(league, [[p["Gus"], p["Hal"]], [p["Ivy"], p["Jo"]]])
    rounds(second, [250, 400])
    voided = table_game(league, [[p["Max"]], [p["Ned"]]])
    rounds(voided, [100, 900], [100, 100])
    services.game_void(league_game=voided, reason="Misdeal", user=None)
    level = table_game(league, [[p["Pam"]], [p["Quin"]]])
    rounds(level, [300, 300])
    night = first.night
    for name in ("Kit", "Lou", "Zed"):
        services.night_arrival(night=night, player=p[name], user=None)
    seated = [
        services.SeatChoice(a.player_id, a.table, a.side)
        for a in night.attendances.filter(table__isnull=False)
    ]
    services.night_seating_set(
        night=night,
        choices=[
            *seated,
            services.SeatChoice(p["Kit"].pk, 5, 0),
            services.SeatChoice(p["Lou"].pk, 5, 1),
        ],
        user=None,
    )
    return night, {"second": second, "level": level}


def url(night) -> str:
    return f"/leagues/thursday/nights/{night.pk}/projector/"


def test_every_table_shows_its_totals_state_and_the_side_ahead(client, night):
    night, _ = night

    response = client.get(url(night))

    assert response.status_code == 200
    page = response.content.decode()
    assert cards(page) == [
        "Table 1 2 rounds · finished Ann & Bob ★ 700 Cat & Dan 400",
        "Table 2 1 round · playing Gus & Hal 250 Ivy & Jo ★ 400",
        "Table 3 2 rounds · voided Max 200 Ned 1,000",
        "Table 4 1 round · playing Pam 300 Quin 300",
        "Table 5 not started Kit Lou",
    ]
    # Nobody leads a level table or a voided game; the finished table marks its winner.
    assert marked(page) == ["Ann & Bob ★ 700 (winner)", "Ivy & Jo ★ 400 (leading)"]
    assert "Thursday Club Club night, Thursday 1 October 2026" in text(page)
    assert "Live · updated" in text(page)
    # Only Ann, Bob, Cat and Dan have a game that counts: partners level on every tie-break
    # share a rank, and the name orders them, as on the standings page.
    assert top(page) == [
        "=1 | Ann | 2 | 1",
        "=1 | Bob | 2 | 1",
        "=3 | Cat | 0 | 1",
        "=3 | Dan | 0 | 1",
    ]


def test_a_round_saved_at_a_table_changes_the_projector(client, night):
    night, games = night
    before = client.get(url(night), HTTP_HX_REQUEST="true").content.decode()

    rounds(games["second"], [600, 100])

    after = client.get(url(night), HTTP_HX_REQUEST="true").content.decode()
    assert cards(before)[1] == "Table 2 1 round · playing Gus & Hal 250 Ivy & Jo ★ 400"
    assert cards(after)[1] == "Table 2 2 rounds · finished Gus & Hal ★ 850 Ivy & Jo 500"
    assert marked(after) == ["Ann & Bob ★ 700 (winner)", "Gus & Hal ★ 850 (winner)"]
    # Gus and Hal's margin (350) beats Ann and Bob's (300); the losers in the same order.
    assert top(after) == [
        "=1 | Gus | 2 | 1",
        "=1 | Hal | 2 | 1",
        "=3 | Ann | 2 | 1",
        "=3 | Bob | 2 | 1",
        "=5 | Cat | 0 | 1",
        "=5 | Dan | 0 | 1",
        "=7 | Ivy | 0 | 1",
        "=7 | Jo | 0 | 1",
    ]


def test_the_top_of_the_standings_stops_at_ten(client, organiser):
    league = league_with(organiser)
    p = list(members(league, *(f"P{n:02}" for n in range(12))).values())
    for t in range(3):
        game = table_game(league, [p[4 * t : 4 * t + 2], p[4 * t + 2 : 4 * t + 4]], table=t + 1)
        rounds(game, [300 + 100 * t, 1_200])
    night = league.nights.get()

    page = client.get(url(night)).content.decode()

    # Each table's winners (and losers) are level on every tie-break with their partner.
    assert top(page) == [
        "=1 | P02 | 2 | 1",
        "=1 | P03 | 2 | 1",
        "=3 | P06 | 2 | 1",
        "=3 | P07 | 2 | 1",
        "=5 | P10 | 2 | 1",
        "=5 | P11 | 2 | 1",
        "=7 | P08 | 0 | 1",
        "=7 | P09 | 0 | 1",
        "=9 | P04 | 0 | 1",
        "=9 | P05 | 0 | 1",
    ]
    assert cards(page)[0] == "Table 1 1 round · finished P00 & P01 300 P02 & P03 ★ 1,200"


def test_the_board_polls_itself_and_without_js_the_page_reloads(client, night):
    night, _ = night
    address = url(night)

    page = client.get(address).content.decode()
    fragment = client.get(address, HTTP_HX_REQUEST="true").content.decode()

    board = (
        f'<main id="board" class="board" hx-get="{address}" hx-trigger="every 20s" '
        'hx-swap="outerHTML">'
    )
    assert board in page
    assert f'<noscript><meta http-equiv="refresh" content="20; url={address}"></noscript>' in page
    assert fragment.lstrip().startswith(board)
    assert "<html" not in fragment
    assert cards(fragment) == cards(page)


def test_a_closed_night_shows_its_final_results_and_stops_refreshing(client, night):
    night, _ = night
    night.closed_at = timezone.now()
    night.save(update_fields=["closed_at"])

    page = client.get(url(night)).content.decode()

    assert '<main id="board" class="board closed">' in page
    closed_at = timezone.localtime(night.closed_at).strftime("%H:%M")
    assert f"Closed at {closed_at} · final results Tables" in text(page)
    assert "updated" not in text(page)
    assert "Live" not in text(page)
    assert "hx-trigger" not in page
    assert "http-equiv" not in page
    assert "htmx.min.js" not in page
    assert cards(page)[0] == "Table 1 2 rounds · finished Ann & Bob ★ 700 Cat & Dan 400"
    assert top(page)[0] == "=1 | Ann | 2 | 1"


def big_night(organiser, tables: int):
    """`tables` tables of two pairs, all started; every other table has played a round."""
    league = league_with(organiser, house_rules={"rounds": 2})
    players = list(members(league, *(f"P{n:03}" for n in range(4 * tables))).values())
    night = services.night_create(
        league=league, date=NIGHT, player_ids=[p.pk for p in players], user=None
    )
    services.night_seating_set(
        night=night,
        choices=[services.SeatChoice(p.pk, n // 4 + 1, n % 4 // 2) for n, p in enumerate(players)],
        user=None,
    )
    for game in services.night_games_start(night=night, user=None):
        if game.table % 2:
            rounds(game, [100 + 10 * game.table, 50])
    return night


@pytest.mark.parametrize("tables", [4, 50])
def test_the_projector_costs_the_same_queries_at_4_and_50_tables(
    client, organiser, django_assert_num_queries, tables
):
    night = big_night(organiser, tables)

    with django_assert_num_queries(PROJECTOR_QUERIES):
        page = client.get(url(night)).content.decode()
    with django_assert_num_queries(PROJECTOR_QUERIES):
        fragment = client.get(url(night), HTTP_HX_REQUEST="true").content.decode()

    assert len(cards(page)) == len(cards(fragment)) == min(tables, 17)
    # A private league's member pays for the session, the user and the two access checks.
    league = League.objects.get()
    League.objects.filter(pk=league.pk).update(visibility=League.Visibility.PRIVATE)
    account = UserFactory()
    player = league.memberships.first().player
    services.player_update(
        league=league, player=player, name=player.name, account=account, user=None
    )
    client.force_login(account)
    with django_assert_num_queries(PROJECTOR_QUERIES + MEMBER_EXTRA_QUERIES):
        assert client.get(url(night)).status_code == 200


def test_fifty_tables_take_turns_a_page_each_refresh(client, organiser):
    night = big_night(organiser, 50)
    address = url(night)

    pages = [client.get(f"{address}?page={n}").content.decode() for n in (1, 2, 3)]

    shown = [[card.split(" ")[1] for card in cards(page)] for page in pages]
    assert shown == [
        [str(n) for n in range(1, 18)],
        [str(n) for n in range(18, 35)],
        [str(n) for n in range(35, 51)],
    ]
    assert "Tables 1–17 of 50" in text(pages[0])
    assert "Tables 35–50 of 50" in text(pages[2])
    # Each refresh asks for the next page; the last goes back to the first.
    assert f'hx-get="{address}?page=2"' in pages[0]
    assert f'hx-get="{address}?page=1"' in pages[2]
    assert f'<meta http-equiv="refresh" content="20; url={address}?page=3">' in pages[1]
    assert cards(pages[0])[2] == "Table 3 1 round · playing P008 & P009 ★ 130 P010 & P011 50"
    assert cards(pages[0])[1] == "Table 2 0 rounds · playing P004 & P005 0 P006 & P007 0"
    # The pages, as links for whoever stands at the laptop.
    assert (
        f'<a href="{address}?page=2"><span class="visually-hidden">Tables </span>18–34</a>'
        in (pages[0])
    )


def test_a_page_number_out_of_range_wraps_round_and_a_bad_one_shows_the_first(client, organiser):
    night = big_night(organiser, 21)
    answers = {}

    for asked in ("1", "2", "3", "0", "abc", "-1", "9" * 5000):
        response = client.get(f"{url(night)}?page={asked}")
        assert response.status_code == 200
        answers[asked[:5]] = re.search(r"Tables [^ ]+ of 21", text(response.content.decode()))[0]

    assert answers == {
        "1": "Tables 1–11 of 21",
        "2": "Tables 12–21 of 21",
        "3": "Tables 1–11 of 21",
        "0": "Tables 12–21 of 21",
        "abc": "Tables 1–11 of 21",
        "-1": "Tables 1–11 of 21",
        "99999": "Tables 1–11 of 21",
    }


def test_a_night_nobody_is_seated_at_yet(client, league):
    night = services.night_create(league=league, date=NIGHT, player_ids=[], user=None)

    page = client.get(url(night)).content.decode()

    assert "Nobody is seated yet." in text(page)
    assert "No games counted yet this season." in text(page)


def test_a_private_leagues_projector_is_as_private_as_its_night_page(client, night):
    night, _ = night
    League.objects.update(visibility=League.Visibility.PRIVATE)

    assert client.get(url(night)).status_code == 404
    assert client.get(f"/leagues/thursday/nights/{night.pk}/").status_code == 404
    client.force_login(night.league.organisers.get())
    assert client.get(url(night)).status_code == 200


@pytest.mark.parametrize(
    "address",
    [
        "/leagues/thursday/nights/999999/projector/",
        f"/leagues/thursday/nights/{2**63}/projector/",
        "/leagues/nobody/nights/1/projector/",
    ],
)
def test_no_such_night_is_a_404(client, night, address):
    assert client.get(address).status_code == 404


def test_another_leagues_night_is_a_404(client, night, organiser):
    night, _ = night
    services.league_create(name="Friday", slug="friday", preset="ten-thousand", user=organiser)

    assert client.get(f"/leagues/friday/nights/{night.pk}/projector/").status_code == 404


def test_the_projector_only_answers_get(client, night):
    night, _ = night
    assert client.post(url(night)).status_code == 405


def test_the_night_page_links_to_its_projector_view(client, night):
    night, _ = night

    page = client.get(f"/leagues/thursday/nights/{night.pk}/").content.decode()

    assert f'<a href="{url(night)}">Projector view</a>' in page


def test_the_brief_standings_are_the_standings_without_ratings_and_last_five(organiser):
    league = league_with(organiser)
    p = list(members(league, *(f"P{n:02}" for n in range(8))).values())
    # Two nights, so that the tie-breaks (wins, win %, margin, points) all have work to do.
    for night, totals in enumerate([[(500, 300), (400, 400)], [(350, 600), (700, 100)]]):
        date = NIGHT + datetime.timedelta(days=7 * night)
        for t, scores_ in enumerate(totals):
            seats = p[4 * t : 4 * t + 4] if night == 0 else [p[t], p[t + 2], p[t + 4], p[t + 6]]
            game = table_game(league, [seats[:2], seats[2:]], date=date, table=t + 1)
            rounds(game, list(scores_))
    season = league.seasons.get()

    full = selectors.standings(league, season)
    brief = selectors.standings(league, season, brief=True)

    def figures(row):
        return (row.name, row.games, row.wins, row.ties, row.losses, row.league_points)

    assert [figures(row) for row in brief] == [figures(row) for row in full]
    assert all(row.rating is not None and row.last_five for row in full)
    assert all(row.rating is None and row.last_five == "" for row in brief)
