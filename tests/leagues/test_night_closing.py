"""Closing a club night: by the organiser once every table is done, or by itself when its last
table finishes; reopened by the organiser, or by itself when a table plays again."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from leagues import services
from leagues.models import ClubNight, LeagueEvent
from leagues.services import LeagueError
from scorekeeper.rounds.services import round_delete_last, round_record
from tests.helpers.leagues import UserFactory, league_with, members, play_rounds, table_game
from tests.helpers.pages import text

CLOSED_AT = datetime.datetime(2026, 10, 1, 23, 15, tzinfo=datetime.UTC)


@pytest.fixture
def two_rounds(organiser):
    """Games of two rounds; table 1 one round in, table 2 finished, Eve and Fay sitting out."""
    league = league_with(organiser, house_rules={"rounds": 2})
    p = members(league, "Ann", "Bob", "Cat", "Dan", "Gus", "Hal", "Ivy", "Jo", "Eve", "Fay")
    first = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    second = table_game(league, [[p["Gus"], p["Hal"]], [p["Ivy"], p["Jo"]]])
    night = first.night
    for name in ("Eve", "Fay"):
        services.night_arrival(night=night, player=p[name], user=None)
    night.attendances.filter(table__isnull=True).update(arrived_late=False)
    play_rounds(first, [500, 300])
    play_rounds(second, [250, 400], [100, 100])
    return night, first, second, p


def last_round(league_game, totals: list[int]) -> None:
    """The second and last round of a game one round in."""
    round_record(
        game=league_game.game,
        number=2,
        ended_by="stock_exhausted",
        entry=[{"melded_points": total} for total in totals],
    )


def events(night: ClubNight) -> list[tuple[str, str, str]]:
    kinds = (LeagueEvent.Kind.NIGHT_CLOSED, LeagueEvent.Kind.NIGHT_REOPENED)
    return list(
        night.league.events.filter(kind__in=kinds)
        .order_by("id")
        .values_list("kind", "who", "summary")
    )


def refused(call, **kwargs) -> list[tuple[str, str]]:
    with pytest.raises(LeagueError) as caught:
        call(**kwargs)
    return caught.value.errors


# The services -------------------------------------------------------------------------------


def test_a_night_with_a_table_playing_is_not_closed_and_the_message_names_it(two_rounds, organiser):
    night, *_ = two_rounds

    errors = refused(services.night_close, night=night, user=organiser)

    assert errors == [
        ("night", "The night cannot close while table 1 is not finished."),
        ("table-1", "Table 1's game is still being played: finish it, or void it."),
    ]
    night.refresh_from_db()
    assert night.closed_at is None
    assert events(night) == []


def test_a_seated_table_not_started_keeps_the_night_open_too(two_rounds, organiser):
    night, first, _, p = two_rounds
    seated = [
        services.SeatChoice(a.player_id, a.table, a.side)
        for a in night.attendances.filter(table__isnull=False)
    ]
    services.night_seating_set(
        night=night,
        choices=[
            *seated,
            services.SeatChoice(p["Eve"].pk, 3, 0),
            services.SeatChoice(p["Fay"].pk, 3, 1),
        ],
        user=None,
    )

    errors = refused(services.night_close, night=night, user=organiser)
    services.game_void(league_game=first, reason="Misdeal", user=None)
    errors_after_void = refused(services.night_close, night=night, user=organiser)

    assert errors == [
        ("night", "The night cannot close while tables 1 and 3 are not finished."),
        ("table-1", "Table 1's game is still being played: finish it, or void it."),
        (
            "table-3",
            "Table 3 is seated but its game has not started: start it, or clear its seats on "
            "the seating page.",
        ),
    ]
    assert errors_after_void == [
        ("night", "The night cannot close while table 3 is not finished."),
        (
            "table-3",
            "Table 3 is seated but its game has not started: start it, or clear its seats on "
            "the seating page.",
        ),
    ]


def test_once_the_playing_table_is_voided_the_organiser_closes_the_night(two_rounds, organiser):
    night, first, *_ = two_rounds
    # Eve waits for a seat, so voiding the last table playing leaves the closing to the
    # organiser.
    night.attendances.filter(table__isnull=True).update(arrived_late=True)
    services.game_void(league_game=first, reason="Misdeal", user=None)
    night.refresh_from_db()
    assert night.closed_at is None
    before = timezone.now()

    services.night_close(night=night, user=organiser)

    night.refresh_from_db()
    assert before <= night.closed_at <= timezone.now()
    assert events(night) == [("night_closed", "olive", "Club night of 1 October 2026 closed")]
    # Closing twice (a double submit) is told, and changes nothing.
    closed_at = night.closed_at
    assert refused(services.night_close, night=night, user=organiser) == [
        ("night", "The club night of 1 October 2026 is already closed.")
    ]
    night.refresh_from_db()
    assert night.closed_at == closed_at and len(events(night)) == 1


def test_a_closed_night_refuses_seating_games_and_arrivals_until_it_is_reopened(
    two_rounds, organiser
):
    night, first, _, p = two_rounds
    last_round(first, [600, 100])
    night.refresh_from_db()
    assert night.closed_at is not None
    newcomer = members(night.league, "Zed")["Zed"]

    assert refused(services.night_seating_propose, night=night, user=organiser) == [
        ("night", "The club night of 1 October 2026 is closed: reopen it to change the seating.")
    ]
    assert refused(services.night_seating_set, night=night, choices=[], user=organiser) == [
        ("night", "The club night of 1 October 2026 is closed: reopen it to change the seating.")
    ]
    assert refused(services.night_games_start, night=night, user=organiser) == [
        ("night", "The club night of 1 October 2026 is closed: reopen it to start games.")
    ]
    assert refused(services.night_arrival, night=night, player=newcomer, user=organiser) == [
        (
            "night",
            "The club night of 1 October 2026 is closed: reopen it to record a late arrival.",
        )
    ]
    assert not night.attendances.filter(player=newcomer).exists()

    services.night_reopen(night=night, user=organiser)
    services.night_arrival(night=night, player=newcomer, user=organiser)

    night.refresh_from_db()
    assert night.closed_at is None
    assert night.attendances.filter(player=newcomer, arrived_late=True).exists()
    assert refused(services.night_reopen, night=night, user=organiser) == [
        ("night", "The club night of 1 October 2026 is open already.")
    ]
    assert events(night) == [
        (
            "night_closed",
            "the system",
            "Club night of 1 October 2026 closed: every table has finished",
        ),
        ("night_reopened", "olive", "Club night of 1 October 2026 reopened"),
    ]


# Closing by itself --------------------------------------------------------------------------


def test_the_last_table_to_finish_closes_the_night(two_rounds):
    night, first, *_ = two_rounds
    assert night.closed_at is None

    last_round(first, [100, 200])

    night.refresh_from_db()
    assert night.closed_at is not None
    assert events(night) == [
        (
            "night_closed",
            "the system",
            "Club night of 1 October 2026 closed: every table has finished",
        )
    ]


def test_a_late_arrival_waiting_for_a_seat_keeps_the_night_open(two_rounds):
    night, first, *_ = two_rounds
    night.attendances.filter(table__isnull=True).update(arrived_late=True)

    last_round(first, [100, 200])

    night.refresh_from_db()
    assert night.closed_at is None
    assert events(night) == []


def test_a_correction_that_reopens_a_game_reopens_its_night_and_the_game_closes_it_again(
    two_rounds,
):
    night, first, second, _ = two_rounds
    last_round(first, [100, 200])

    # The last round of table 2 was typed wrong: deleted, the game plays again.
    round_delete_last(game=second.game)
    night.refresh_from_db()
    assert night.closed_at is None
    last_round(second, [150, 100])

    night.refresh_from_db()
    assert night.closed_at is not None
    assert events(night) == [
        (
            "night_closed",
            "the system",
            "Club night of 1 October 2026 closed: every table has finished",
        ),
        (
            "night_reopened",
            "the system",
            "Club night of 1 October 2026 reopened: table 2's game is being played again",
        ),
        (
            "night_closed",
            "the system",
            "Club night of 1 October 2026 closed: every table has finished",
        ),
    ]


def test_voiding_the_last_table_playing_closes_the_night_and_lifting_it_reopens(two_rounds):
    night, first, *_ = two_rounds

    services.game_void(league_game=first, reason="Misdeal", user=None)
    night.refresh_from_db()
    assert night.closed_at is not None
    services.game_unvoid(league_game=first, user=None)

    night.refresh_from_db()
    assert night.closed_at is None
    assert [kind for kind, *_ in events(night)] == ["night_closed", "night_reopened"]


# The pages ----------------------------------------------------------------------------------


def test_the_close_page_flags_the_unfinished_table_with_its_game_and_void(
    client, organiser, two_rounds
):
    night, first, *_ = two_rounds
    client.force_login(organiser)
    url = f"/leagues/thursday/nights/{night.pk}/close/"

    page = client.get(url)

    assert page.status_code == 200
    assert text(page).count("Table ") == 1
    assert (
        "Close the club night of Thursday 1 October 2026? This table is not finished. A night "
        "closes once every table has finished or its game is voided, so that no game is left "
        "half played on a night that says it is over. Table 1 playing Side 1: Ann & Bob "
        "Side 2: Cat & Dan 1 round played. Finish the game, or void it if it will not be "
        "finished. Game page · Void Back to the night"
    ) in text(page)
    html = page.content.decode()
    assert f'href="/g/{first.game.public_id}/"' in html
    assert f'href="/leagues/thursday/games/{first.pk}/void/"' in html
    assert "Close the night</button>" not in html

    # Posted anyway (a stale page): refused with the tables named, nothing closed.
    response = client.post(url)
    assert response.status_code == 200
    assert "The night cannot close while table 1 is not finished." in text(response)
    night.refresh_from_db()
    assert night.closed_at is None


def test_the_organiser_closes_a_finished_night_and_a_second_close_is_told(
    client, organiser, two_rounds
):
    night, first, *_ = two_rounds
    night.attendances.filter(table__isnull=True).update(arrived_late=True)
    services.game_void(league_game=first, reason="Misdeal", user=None)
    client.force_login(organiser)
    url = f"/leagues/thursday/nights/{night.pk}/close/"
    assert "Every table has finished or been voided." in text(client.get(url))

    first_post = client.post(url)
    second_post = client.post(url, follow=True)

    assert first_post.status_code == 302
    assert first_post["Location"] == f"/leagues/thursday/nights/{night.pk}/"
    assert second_post.status_code == 200
    assert "The club night of 1 October 2026 is already closed." in text(second_post)
    # Eve came too late to play: on a closed night she no longer waits for a seat.
    assert "Came late, not seated: Eve" in text(second_post)
    assert "Waiting for a seat" not in text(second_post)
    assert [kind for kind, *_ in events(night)] == ["night_closed"]


def test_a_closed_night_says_when_stops_refreshing_and_offers_only_reopening(
    client, organiser, two_rounds
):
    night, first, *_ = two_rounds
    services.game_void(league_game=first, reason="Misdeal", user=None)
    ClubNight.objects.filter(pk=night.pk).update(closed_at=CLOSED_AT)
    client.force_login(organiser)

    page = client.get(f"/leagues/thursday/nights/{night.pk}/")

    assert "Closed on 1 October 2026 at 23:15 UTC Tables" in text(page)
    html = page.content.decode()
    assert '<section id="night-results">' in html and "every 15s" not in html
    assert f"/nights/{night.pk}/reopen/" in html
    for path in ("seating", "start", "arrivals", "close"):
        assert f"/nights/{night.pk}/{path}/" not in html, path

    # The organiser's pages of the night say it is closed instead of offering their forms.
    notice = (
        "Closed on 1 October 2026 at 23:15 UTC . A closed night's seating, games and late arrivals "
        "stay as they were left; reopen it to change them. Reopen the night"
    )
    for path in ("seating", "start", "arrivals"):
        response = client.get(f"/leagues/thursday/nights/{night.pk}/{path}/")
        assert response.status_code == 200, path
        assert notice in text(response), path
        assert 'name="action" value="save"' not in response.content.decode()
        assert 'name="player"' not in response.content.decode()


def test_reopening_goes_back_to_the_page_that_offered_it(client, organiser, two_rounds):
    night, first, *_ = two_rounds
    services.game_void(league_game=first, reason="Misdeal", user=None)
    client.force_login(organiser)
    url = f"/leagues/thursday/nights/{night.pk}/reopen/"
    assert "Reopen the club night of Thursday 1 October 2026?" in text(client.get(url))

    response = client.post(url, {"then": "arrival"})
    again = client.post(url, {"then": "https://elsewhere.example/"}, follow=True)

    assert response["Location"] == f"/leagues/thursday/nights/{night.pk}/arrivals/"
    night.refresh_from_db()
    assert night.closed_at is None
    assert again.redirect_chain == [(f"/leagues/thursday/nights/{night.pk}/", 302)]
    assert "The club night of 1 October 2026 is open already." in text(again)


def test_the_start_link_goes_once_every_seated_table_has_started(client, organiser, two_rounds):
    night, _, _, p = two_rounds
    client.force_login(organiser)
    url = f"/leagues/thursday/nights/{night.pk}/"
    start = f'href="/leagues/thursday/nights/{night.pk}/start/"'
    assert start not in client.get(url).content.decode()

    seated = [
        services.SeatChoice(a.player_id, a.table, a.side)
        for a in night.attendances.filter(table__isnull=False)
    ]
    services.night_seating_set(
        night=night,
        choices=[
            *seated,
            services.SeatChoice(p["Eve"].pk, 3, 0),
            services.SeatChoice(p["Fay"].pk, 3, 1),
        ],
        user=None,
    )

    html = client.get(url).content.decode()
    assert start in html
    assert f'href="/leagues/thursday/nights/{night.pk}/close/"' in html


def test_only_organisers_close_a_night(client, two_rounds):
    night, *_ = two_rounds
    url = f"/leagues/thursday/nights/{night.pk}/close/"
    assert client.get(url)["Location"].startswith("/accounts/login/")
    stranger_client = Client()
    stranger_client.force_login(UserFactory(username="sam"))

    assert stranger_client.get(url).status_code == 403
    assert stranger_client.post(f"/leagues/thursday/nights/{night.pk}/reopen/").status_code == 403


def test_forms_posted_to_a_closed_night_change_nothing_and_say_why(client, organiser, two_rounds):
    night, first, _, p = two_rounds
    services.game_void(league_game=first, reason="Misdeal", user=None)
    night.refresh_from_db()
    assert night.closed_at is not None
    seats = list(night.attendances.values_list("player_id", "table", "side", "place"))
    client.force_login(organiser)
    base = f"/leagues/thursday/nights/{night.pk}"
    closed = "The club night of 1 October 2026 is closed"

    proposed = client.post(f"{base}/seating/", {"action": "propose"}, follow=True)
    saved = client.post(
        f"{base}/seating/",
        {"action": "save", f"seat-{p['Eve'].pk}-table": "3", f"seat-{p['Eve'].pk}-side": "1"},
    )
    started = client.post(f"{base}/start/", follow=True)
    arrived = client.post(f"{base}/arrivals/", {"name": "Zed"})

    assert f"{closed}: reopen it to change the seating." in text(proposed)
    assert f"{closed}: reopen it to start games." in text(started)
    for response in (proposed, saved, started, arrived):
        assert response.status_code == 200
        assert "Reopen the night" in text(response)
    assert list(night.attendances.values_list("player_id", "table", "side", "place")) == seats
    assert not night.league.members.filter(name="Zed").exists()
