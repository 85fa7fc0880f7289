"""The public league pages: the list, who may look, the league, head to head and club nights."""

import datetime

import pytest

from leagues import services
from leagues.models import League
from leagues.public import views
from tests.helpers.leagues import (
    OCT,
    UserFactory,
    league_with,
    members,
    play,
    play_rounds,
    table_game,
)
from tests.helpers.pages import body_rows, tables, text

# The list ------------------------------------------------------------------------------------


def test_the_list_shows_public_leagues_with_rule_set_and_member_count(client, league, club):
    response = client.get("/leagues/")

    assert response.status_code == 200
    assert "Thursday Club" in text(response)
    assert (
        "Ten Thousand · 4 members House rules: no target score (the rule set's: 10,000); "
        "1 round (the rule set's: none)"
    ) in text(response)
    assert "Start a league" not in text(response)


def test_private_and_unlisted_leagues_are_listed_only_for_those_in_them(client, organiser):
    league_with(organiser, visibility=League.Visibility.PRIVATE)
    hidden = services.league_create(
        name="Side Room", slug="side", preset="baskets", user=organiser, visibility="unlisted"
    )
    member = UserFactory()
    services.member_add(league=hidden, name="Mo", account=member, user=organiser)

    assert "Thursday Club" not in text(client.get("/leagues/"))
    assert "Side Room" not in text(client.get("/leagues/"))

    client.force_login(member)
    listing = text(client.get("/leagues/"))
    assert "Side Room" in listing
    assert "Baskets · 1 member · unlisted" in listing
    assert "Thursday Club" not in listing
    assert "Start a league" in listing

    client.force_login(organiser)
    assert "Thursday Club" in text(client.get("/leagues/"))


# Who may look --------------------------------------------------------------------------------


def private_pages(league, player, night_id):
    season = league.seasons.get()
    return [
        "/leagues/thursday/",
        "/leagues/thursday/standings/",
        f"/leagues/thursday/seasons/{season.pk}/standings/",
        f"/leagues/thursday/seasons/{season.pk}/head-to-head/",
        f"/leagues/thursday/players/{player.pk}/",
        f"/leagues/thursday/nights/{night_id}/",
    ]


def test_a_private_league_is_404_to_strangers_and_open_to_members(client, organiser):
    league = league_with(organiser, visibility=League.Visibility.PRIVATE)
    member_user, stranger = UserFactory(), UserFactory()
    ann = services.member_add(league=league, name="Ann", account=member_user, user=None).player
    p = members(league, "Bob", "Cat", "Dan")
    game = table_game(league, [[ann, p["Bob"]], [p["Cat"], p["Dan"]]])
    play(game, [500, 300])
    pages = private_pages(league, ann, game.night_id)

    for url in pages:
        assert client.get(url).status_code == 404, url
    client.force_login(stranger)
    for url in pages:
        assert client.get(url).status_code == 404, url
    client.force_login(member_user)
    for url in pages:
        assert client.get(url).status_code == 200, url
    client.force_login(organiser)
    for url in pages:
        assert client.get(url).status_code == 200, url


def test_unknown_things_are_404(client, league, club, season, organiser):
    other = services.league_create(name="Friday", slug="friday", preset="baskets", user=organiser)
    services.season_create(
        league=other,
        name="Spring",
        starts_on=datetime.date(2027, 3, 1),
        ends_on=datetime.date(2027, 5, 31),
        user=None,
    )
    stranger = services.member_add(league=other, name="Zed", user=None).player
    night = league.nights.first()
    for url in [
        "/leagues/nowhere/",
        "/leagues/nowhere/standings/",
        "/leagues/thursday/seasons/999999/standings/",
        f"/leagues/thursday/seasons/{other.seasons.get().pk}/standings/",
        "/leagues/thursday/seasons/999999/head-to-head/",
        f"/leagues/thursday/players/{stranger.pk}/",
        "/leagues/thursday/players/99999999999999999999/",
        "/leagues/thursday/nights/999999/",
        f"/leagues/friday/nights/{night.pk}/",
    ]:
        assert client.get(url).status_code == 404, url


# The league ----------------------------------------------------------------------------------


def test_the_league_page_shows_the_current_season_and_its_top_standings(
    client, league, club, monkeypatch
):
    spring = services.season_create(
        league=league,
        name="Spring 2027",
        starts_on=datetime.date(2027, 3, 1),
        ends_on=datetime.date(2027, 5, 31),
        user=None,
    )
    night = league.nights.get(date=OCT[2])
    monkeypatch.setattr(views, "_today", lambda: datetime.date(2026, 10, 20))

    response = client.get("/leagues/thursday/")

    page = text(response)
    assert (
        "Rule set Ten Thousand House rules: no target score (the rule set's: 10,000); "
        "1 round (the rule set's: none) Play"
    ) in page
    assert "League points Win 2, tie 1, loss 0." in page
    assert "<h2>Autumn 2026</h2>" in response.content.decode()
    assert [row.split(" | ")[1] for row in body_rows(response)] == ["Bob", "Cat", "Ann", "Dan"]
    assert f'href="/leagues/thursday/nights/{night.pk}/"' in response.content.decode()
    assert "Thursday 15 Oct 2026" in page
    assert f'href="/leagues/thursday/seasons/{spring.pk}/standings/"' in response.content.decode()
    # Organiser links only for organisers.
    assert "/leagues/thursday/edit/" not in response.content.decode()

    # Between seasons, the latest one is shown.
    monkeypatch.setattr(views, "_today", lambda: datetime.date(2026, 12, 20))
    response = client.get("/leagues/thursday/")
    assert "<h2>Spring 2027</h2>" in response.content.decode()
    assert "No games counted in this season yet." in text(response)


def test_the_league_and_its_season_each_say_which_house_rules(
    client, league, organiser, monkeypatch
):
    season_rules = (
        "House rules: no target score (the rule set's: 10,000); 1 round (the rule set's: none)"
    )
    # The league changes its house rules after the season froze its own.
    services.league_update(
        league=league, user=organiser, house_rules={"decks": 4, "going_out_bonus": 200}
    )
    monkeypatch.setattr(views, "_today", lambda: datetime.date(2026, 10, 20))
    season = league.seasons.get()

    league_page = text(client.get("/leagues/thursday/"))
    season_page = text(client.get(f"/leagues/thursday/seasons/{season.pk}/standings/"))

    # The page's rule set is the season's, which its blank sheet prints; the league's change
    # is said to be for the next season.
    assert (
        f"Rule set Ten Thousand {season_rules} (Autumn 2026) "
        "From the next season Ten Thousand House rules: 4 decks (the rule set's: 3); "
        "going-out bonus 200 (the rule set's: 100) Play"
    ) in league_page
    assert league_page.count("House rules") == 2
    assert f"Standings: Autumn 2026 1 Sep 2026 to 30 Nov 2026 {season_rules} " in season_page


def test_a_league_without_seasons_shows_its_own_rules_and_nothing_for_the_next_season(
    client, organiser
):
    services.league_create(
        name="Fresh", slug="fresh", preset="ten-thousand", house_rules={"decks": 4}, user=organiser
    )

    page = text(client.get("/leagues/fresh/"))

    assert "Rule set Ten Thousand House rules: 4 decks (the rule set's: 3) Play" in page
    assert "From the next season" not in page


def test_a_league_on_the_preset_mentions_no_house_rules(client, organiser):
    services.league_create(name="Plain", slug="plain", preset="contract", user=organiser)

    assert "House rules" not in text(client.get("/leagues/plain/"))
    assert "Contract · 0 members" in text(client.get("/leagues/"))


def test_the_league_page_shows_ten_standings_and_a_link_to_the_rest(client, league, monkeypatch):
    monkeypatch.setattr(views, "_today", lambda: OCT[0])
    players = list(members(league, *(f"P{n:02}" for n in range(12))).values())
    for t in range(3):
        four = players[4 * t : 4 * t + 4]
        play(table_game(league, [four[:2], four[2:]], table=t + 1), [500, 300])

    response = client.get("/leagues/thursday/")

    assert len(body_rows(response)) == 10
    assert "Full standings" in text(response)


def test_organisers_see_their_links(client, league, club, organiser):
    client.force_login(organiser)
    night = league.nights.first()

    league_page = client.get("/leagues/thursday/").content.decode()
    night_page = client.get(f"/leagues/thursday/nights/{night.pk}/").content.decode()

    for url in [
        "/leagues/thursday/edit/",
        "/leagues/thursday/members/",
        "/leagues/thursday/nights/new/",
        "/leagues/thursday/seasons/new/",
        "/leagues/thursday/audit/",
    ]:
        assert f'href="{url}"' in league_page, url
    # Its one game finished, so the night closed by itself: it offers reopening only.
    assert f'href="/leagues/thursday/nights/{night.pk}/reopen/"' in night_page
    game = night.games.get()
    assert f'href="/leagues/thursday/games/{game.pk}/void/"' in night_page
    services.night_reopen(night=night, user=organiser)
    night_page = client.get(f"/leagues/thursday/nights/{night.pk}/").content.decode()
    for url in ["seating/", "arrivals/", "close/"]:
        assert f'href="/leagues/thursday/nights/{night.pk}/{url}"' in night_page, url
    # Every seated table has started: nothing is left to start.
    assert f'href="/leagues/thursday/nights/{night.pk}/start/"' not in night_page


# Head to head --------------------------------------------------------------------------------


def test_head_to_head_cells(client, league, club, season):
    response = client.get(f"/leagues/thursday/seasons/{season.pk}/head-to-head/")

    assert response.status_code == 200
    header, *rows = tables(response)[0]
    assert header == ["", "Bob", "Cat", "Ann", "Dan"]
    assert [" | ".join(row) for row in rows] == [
        "Bob |  | 1–1–0 | 1–1–0 | 2–0–0",
        "Cat | 0–1–1 |  | 1–0–1 | 1–1–0",
        "Ann | 0–1–1 | 1–0–1 |  | 1–1–0",
        "Dan | 0–0–2 | 0–1–1 | 0–1–1 | ",
    ]
    page = response.content.decode()
    assert '<td class="self"></td>' in page
    assert '<div class="table-wrap h2h-scroll" role="region"' in page
    assert '<th scope="col"><a href="/leagues/thursday/players/' in page
    assert '<th scope="row"><a href="/leagues/thursday/players/' in page
    assert "wins–ties–losses" in text(response)


def test_head_to_head_without_ties_shows_wins_and_losses(client, league, season):
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]]), [500, 300])

    response = client.get(f"/leagues/thursday/seasons/{season.pk}/head-to-head/")

    rows = [" | ".join(row) for row in tables(response)[0][1:]]
    assert rows[0] == "Ann |  | · | 1–0 | 1–0"
    assert rows[2] == "Cat | 0–1 | 0–1 |  | ·"


# Club night ----------------------------------------------------------------------------------


@pytest.fixture
def busy_night(organiser):
    """Games of two rounds. Table 1 finished, table 2 playing (one round in), table 3 voided,
    table 4 seated but not started; Eve sits out and Fay, late, waits for a seat."""
    league = league_with(organiser, house_rules={"rounds": 2})
    names = ["Ann", "Bob", "Cat", "Dan", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Ned"]
    p = members(league, *names, "Eve", "Fay")
    first = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    play_rounds(first, [500, 300], [200, 100])
    second = table_game(league, [[p["Gus"], p["Hal"]], [p["Ivy"], p["Jo"]]])
    play_rounds(second, [250, 400])
    voided = table_game(league, [[p["Max"]], [p["Ned"]]])
    play_rounds(voided, [100, 900], [100, 100])
    services.game_void(league_game=voided, reason="Misdeal", user=None)
    night = first.night
    for name in ("Eve", "Kit", "Lou"):
        services.night_arrival(night=night, player=p[name], user=None)
    seated = [
        services.SeatChoice(a.player_id, a.table, a.side)
        for a in night.attendances.filter(table__isnull=False)
    ]
    services.night_seating_set(
        night=night,
        choices=[
            *seated,
            services.SeatChoice(p["Kit"].pk, 4, 0),
            services.SeatChoice(p["Lou"].pk, 4, 1),
        ],
        user=None,
    )
    services.night_arrival(night=night, player=p["Fay"], user=None)
    # Eve came late too, but the seating left her out: sitting out, not waiting.
    night.attendances.filter(player=p["Eve"]).update(arrived_late=False)
    return night, {"first": first, "second": second, "voided": voided}


def test_the_night_page_shows_tables_games_and_who_waits(client, busy_night):
    night, games = busy_night

    response = client.get(f"/leagues/thursday/nights/{night.pk}/")

    assert response.status_code == 200
    page = text(response)
    assert "Club night, Thursday 1 October 2026" in page
    assert "Autumn 2026" in page
    assert "Table 1 finished Ann & Bob 700 ★ Cat & Dan 400 Ann & Bob won after 2 rounds" in page
    assert "Table 2 playing Gus & Hal 250 Ivy & Jo 400 1 round played" in page
    assert "Table 3 voided Max 200 Ned 1,000 ★ Ned won after 2 rounds · voided: Misdeal" in page
    assert "Table 4 not started Kit Lou" in page
    assert "14 players:" in page
    assert "Sitting out: Eve" in page
    assert "Waiting for a seat: Fay" in page
    html = response.content.decode()
    for key in ("first", "second", "voided"):
        assert f'href="/g/{games[key].game.public_id}/"' in html
    assert "/void/" not in html


def test_the_night_results_refresh_themselves_while_tables_play(client, busy_night):
    night, _ = busy_night
    url = f"/leagues/thursday/nights/{night.pk}/"

    page = client.get(url).content.decode()
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()

    assert (
        f'<section id="night-results" hx-get="{url}" hx-trigger="every 15s" '
        'hx-select="#night-results" hx-swap="outerHTML">'
    ) in page
    assert fragment.lstrip().startswith('<section id="night-results"')
    assert "<html" not in fragment
    assert "Table 2 playing" in text(fragment)


def test_a_finished_past_night_does_not_poll(client, league, club, monkeypatch):
    monkeypatch.setattr(views, "_today", lambda: datetime.date(2026, 11, 1))
    night = league.nights.get(date=OCT[0])

    page = client.get(f"/leagues/thursday/nights/{night.pk}/").content.decode()

    assert '<section id="night-results">' in page
    assert "every 15s" not in page
