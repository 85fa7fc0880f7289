"""Club nights opened, seated, started and joined by late arrivals, and the refusals."""

import re

import pytest
from django.utils import timezone

from leagues import services
from leagues.models import Attendance, ClubNight, LeagueEvent, LeagueGame, Membership, Player
from scorekeeper.models import Game
from tests.helpers.leagues import EIGHT, NIGHT, members
from tests.helpers.pages import assert_beside, field_block

pytestmark = pytest.mark.django_db


# Helpers ------------------------------------------------------------------------------------


def seat_row(html: str, player: Player) -> str:
    start = html.index('<div class="seat-row')
    rows = re.split(r'(?=<div class="seat-row)', html[start:])
    (row,) = [r for r in rows if f'id="seat-{player.pk}"' in r]
    return row.split("</fieldset>")[0]


def table_fieldset(html: str, table: int) -> str:
    start = html.index(f'<fieldset class="seat-table" id="table-{table}">')
    return html[start : html.index("</fieldset>", start)]


def seating_form(night: ClubNight, seats: dict[Player, tuple[int | str, int] | None]) -> dict:
    """The seating form as typed: a table and a 1-based side per player; None sits out."""
    data = {"action": "save"}
    for player, seat in seats.items():
        table, side = seat if seat is not None else ("", 1)
        data[f"seat-{player.pk}-table"] = str(table)
        data[f"seat-{player.pk}-side"] = str(side)
    return data


def seats_of(night: ClubNight) -> dict[str, tuple]:
    return {
        a.player.name: (a.table, a.side)
        for a in Attendance.objects.filter(night=night).select_related("player")
    }


# Club nights --------------------------------------------------------------------------------


def test_the_new_night_form_starts_today_with_nobody_ticked(as_organiser, league, eight):
    html = as_organiser.get("/leagues/thursday/nights/new/").content.decode()

    assert f'value="{timezone.localdate():%Y-%m-%d}"' in field_block(html, "date")
    assert 'type="checkbox"' in html
    assert "checked" not in field_block(html, "players")


def test_tick_everyone_ticks_every_member_and_writes_nothing(as_organiser, league, eight):
    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "select_all", "date": "2026-10-01", "notes": "Hall B"},
    )

    assert response.status_code == 200
    html = response.content.decode()
    players = field_block(html, "players")
    assert players.count("checked") == 8
    assert 'value="2026-10-01"' in field_block(html, "date")
    assert 'value="Hall B"' in field_block(html, "notes")
    assert not ClubNight.objects.exists()


@pytest.mark.parametrize("player_id", ["9223372036854775808", "-9223372036854775809"])
def test_an_id_too_big_for_the_database_is_refused_beside_the_players(
    as_organiser, league, eight, player_id
):
    # Found by the hostile-input property test: SQLite raised OverflowError, a 500.
    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "create", "date": "2026-10-01", "players": [eight["Ann"].pk, player_id]},
    )

    assert response.status_code == 200
    assert_beside(response.content.decode(), "players", "Tick members of the league only.")
    assert not ClubNight.objects.exists()


def test_a_night_opens_with_the_players_ticked(as_organiser, league, eight):
    chosen = [eight[name].pk for name in EIGHT]

    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "create", "date": "2026-10-01", "players": chosen, "notes": "Hall B"},
    )

    night = ClubNight.objects.get()
    assert response["Location"] == f"/leagues/thursday/nights/{night.pk}/seating/"
    assert (night.date, night.notes) == (NIGHT, "Hall B")
    assert sorted(night.attendances.values_list("player_id", flat=True)) == sorted(chosen)


def test_a_night_outside_every_season_is_refused_beside_its_date(as_organiser, league, eight):
    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "create", "date": "2027-01-07", "players": [eight["Ann"].pk]},
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert_beside(
        html, "date", "No season of Thursday Club covers 7 January 2027; add a season first."
    )
    assert f'value="{eight["Ann"].pk}"' in field_block(html, "players")
    assert "checked" in field_block(html, "players")
    assert not ClubNight.objects.exists()


def test_a_second_night_on_a_date_is_refused(as_organiser, league, night):
    response = as_organiser.post(
        "/leagues/thursday/nights/new/", {"action": "create", "date": "2026-10-01"}
    )

    assert_beside(
        response.content.decode(),
        "date",
        "Thursday Club already has a club night on 1 October 2026.",
    )
    assert ClubNight.objects.count() == 1


def test_a_bogus_night_is_not_found(as_organiser, league, night):
    assert as_organiser.get("/leagues/thursday/nights/99999/seating/").status_code == 404
    assert as_organiser.post("/leagues/thursday/nights/99999/start/").status_code == 404


def test_another_leagues_night_is_not_found(as_organiser, league, night, organiser):
    other = services.league_create(name="Other", slug="other", preset="sevens", user=organiser)

    assert as_organiser.get(f"/leagues/{other.slug}/nights/{night.pk}/seating/").status_code == 404


# Seating ------------------------------------------------------------------------------------


def test_a_club_night_from_the_form_to_three_tables(as_organiser, league, eight):
    p = eight
    # Open the night with eight players.
    response = as_organiser.post(
        "/leagues/thursday/nights/new/",
        {"action": "create", "date": "2026-10-01", "players": [x.pk for x in p.values()]},
    )
    night = ClubNight.objects.get()
    seating_url = f"/leagues/thursday/nights/{night.pk}/seating/"
    assert response["Location"] == seating_url

    # Propose: two tables of two pairs, every table just changed (so shown open).
    response = as_organiser.post(seating_url, {"action": "propose"})
    assert response["Location"] == f"{seating_url}?changed=all"
    seats = seats_of(night)
    assert sorted({table for table, _ in seats.values()}) == [1, 2]
    assert all(side in (0, 1) for _, side in seats.values())
    html = as_organiser.get(seating_url).content.decode()
    assert '<fieldset class="seat-table" id="table-1">' in html
    assert '<fieldset class="seat-table" id="table-2">' in html

    # Swap two players between the tables by hand.
    at_1 = sorted(name for name, (t, _) in seats.items() if t == 1)
    at_2 = sorted(name for name, (t, _) in seats.items() if t == 2)
    a, b = at_1[0], at_2[0]
    typed = {p[name]: (t, s + 1) for name, (t, s) in seats.items()}
    typed[p[a]], typed[p[b]] = typed[p[b]], typed[p[a]]
    response = as_organiser.post(seating_url, seating_form(night, typed))
    assert response["Location"] == f"{seating_url}?changed=1,2"
    swapped = seats_of(night)
    assert swapped[a] == seats[b] and swapped[b] == seats[a]

    # Start the games: two league games whose sides hold the seated players.
    response = as_organiser.post(f"/leagues/thursday/nights/{night.pk}/start/")
    assert response["Location"] == f"/leagues/thursday/nights/{night.pk}/"
    started = list(LeagueGame.objects.filter(night=night).order_by("table"))
    assert [g.table for g in started] == [1, 2]
    for league_game in started:
        expected = [
            sorted(n for n, (t, s) in swapped.items() if t == league_game.table and s == side)
            for side in (0, 1)
        ]
        sides = list(league_game.game.sides.order_by("position"))
        assert [sorted(side.players) for side in sides] == expected
    assert Game.objects.count() == 2

    # Four more arrive late: three members and a newcomer.
    more = members(league, "Ida", "Jo", "Kim")
    for player in more.values():
        response = as_organiser.post(
            f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": str(player.pk)}
        )
        assert response["Location"] == seating_url
    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": "", "name": "Lou"}
    )
    assert response["Location"] == seating_url
    lou = Player.objects.get(name="Lou")
    assert Membership.objects.filter(league=league, player=lou).exists()
    html = as_organiser.get(seating_url).content.decode()
    assert "<strong>Waiting for a seat:</strong> Ida, Jo, Kim, Lou" in html
    # The playing tables are shown, not offered for changes.
    assert f'name="seat-{p["Ann"].pk}-table"' not in html

    # Seat the four at table 3 and start it.
    late = {more["Ida"]: (3, 1), more["Jo"]: (3, 1), more["Kim"]: (3, 2), lou: (3, 2)}
    response = as_organiser.post(seating_url, seating_form(night, late))
    assert response["Location"] == f"{seating_url}?changed=3"
    assert as_organiser.get(f"/leagues/thursday/nights/{night.pk}/start/").status_code == 200
    as_organiser.post(f"/leagues/thursday/nights/{night.pk}/start/")
    third = LeagueGame.objects.get(night=night, table=3)
    assert [side.players for side in third.game.sides.order_by("position")] == [
        ["Ida", "Jo"],
        ["Kim", "Lou"],
    ]
    assert seats_of(night) == {**swapped, "Ida": (3, 0), "Jo": (3, 0), "Kim": (3, 1), "Lou": (3, 1)}


def seat_fold(html: str, table: int) -> str:
    """The opening tag of a table's fold on the seating page."""
    return re.search(
        rf'<fieldset class="seat-table" id="table-{table}">\s*<legend[^>]*>Table {table}</legend>'
        r"\s*(<details[^>]*>)",
        html,
    ).group(1)


def test_the_seating_page_puts_its_actions_and_the_late_arrivals_before_folded_tables(
    as_organiser, league, eight, night
):
    services.night_seating_propose(night=night, user=None)
    (zed,) = members(league, "Zed").values()
    services.night_arrival(night=night, player=zed, user=None)

    html = as_organiser.get(f"/leagues/thursday/nights/{night.pk}/seating/").content.decode()

    first_table = html.index('<fieldset class="seat-table" id="table-1">')
    for before in (
        "<strong>Waiting for a seat:</strong> Zed",
        'value="propose">Propose a seating</button>',
        ">Start the games</button>",
        '<fieldset class="seat-table" id="sitting-out">',
        f'name="seat-{zed.pk}-table"',
    ):
        assert html.index(before) < first_table, before
    # Each table folded to its players, its fields still in the form (a save keeps them).
    for table in (1, 2):
        assert seat_fold(html, table) == '<details class="seat-fold">'
        assert re.search(
            rf'<summary><span class="seat-fold-title">Table {table}</span> <span class="hint">'
            r"Side 1: \w+ &amp; \w+ · Side 2: \w+ &amp; \w+</span></summary>",
            html,
        )
    assert html.count('name="seat-') == 2 * 9
    assert html.index('value="save">Save the seating</button>', first_table) > first_table


def test_the_tables_just_changed_or_refused_are_shown_open(as_organiser, league, eight, night):
    p = eight
    services.night_seating_propose(night=night, user=None)
    url = f"/leagues/thursday/nights/{night.pk}/seating/"

    def opened(html: str) -> list[int]:
        return [t for t in (1, 2) if seat_fold(html, t) == '<details class="seat-fold" open>']

    assert opened(as_organiser.get(url).content.decode()) == []
    assert opened(as_organiser.get(f"{url}?changed=2").content.decode()) == [2]
    assert opened(as_organiser.get(f"{url}?changed=all").content.decode()) == [1, 2]
    # An address typed by hand that names no table shows them folded.
    for junk in ("x", "1;2", ",,", "123", "-1"):
        response = as_organiser.get(url, {"changed": junk})
        assert response.status_code == 200
        assert opened(response.content.decode()) == []

    # A player who moves to another side changes their table alone.
    seats = seats_of(night)
    typed = {p[name]: (t, s + 1) for name, (t, s) in seats.items()}
    mover = next(name for name, (t, _) in seats.items() if t == 2)
    typed[p[mover]] = (2, 2 - seats[mover][1])
    response = as_organiser.post(url, seating_form(night, typed))
    assert response["Location"] == f"{url}?changed=2"

    # A table refused (one side) comes back open beside its error; the other stays folded.
    seats = seats_of(night)
    typed = {p[name]: (t, 1 if t == 1 else s + 1) for name, (t, s) in seats.items()}
    response = as_organiser.post(url, seating_form(night, typed))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Table 1 has 1 side" in table_fieldset(html, 1)
    assert opened(html) == [1]


def test_propose_after_tables_started_seats_only_the_others(as_organiser, league, eight, night):
    p = eight
    services.night_seating_set(
        night=night,
        choices=[
            services.SeatChoice(p["Ann"].pk, 1, 0),
            services.SeatChoice(p["Bob"].pk, 1, 0),
            services.SeatChoice(p["Cy"].pk, 1, 1),
            services.SeatChoice(p["Di"].pk, 1, 1),
        ],
        user=None,
    )
    services.night_games_start(night=night, user=None)

    as_organiser.post(f"/leagues/thursday/nights/{night.pk}/seating/", {"action": "propose"})

    seats = seats_of(night)
    assert {n: seats[n] for n in ("Ann", "Bob", "Cy", "Di")} == {
        "Ann": (1, 0),
        "Bob": (1, 0),
        "Cy": (1, 1),
        "Di": (1, 1),
    }
    assert {seats[n][0] for n in ("Eve", "Fay", "Gus", "Hal")} == {2}


def test_a_table_with_one_side_is_refused_beside_the_table(as_organiser, league, eight, night):
    p = eight
    typed = {p[n]: (1, 1) for n in ("Ann", "Bob")} | {p[n]: None for n in EIGHT[2:]}

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, typed)
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert (
        '<p class="field-error" role="alert">Table 1 has 1 side; this rule set plays with 2 or '
        "more.</p>" in table_fieldset(html, 1)
    )
    assert 'value="1"' in seat_row(html, p["Ann"])
    assert all(seat == (None, None) for seat in seats_of(night).values())
    assert not league.events.filter(kind=LeagueEvent.Kind.SEATING_SET).exists()


def test_a_table_that_is_not_a_number_is_refused_beside_the_player(
    as_organiser, league, eight, night
):
    p = eight
    typed = {p["Ann"]: ("one", 1), p["Bob"]: (1, 1), p["Cy"]: (1, 2), p["Di"]: (1, 2)}

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, typed)
    )

    assert response.status_code == 200
    row = seat_row(response.content.decode(), p["Ann"])
    assert (
        '<p class="field-error" role="alert">Type Ann&#x27;s table as a number from 1 to 99, or '
        "leave it blank to sit out.</p>" in row
    )
    assert 'value="one"' in row
    assert all(seat == (None, None) for seat in seats_of(night).values())


def test_a_player_cannot_join_a_table_already_playing(as_organiser, league, eight, league_game):
    night = league_game.night
    eve = eight["Eve"]
    services.night_arrival(night=night, player=eve, user=None)

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, {eve: (1, 1)})
    )

    assert response.status_code == 200
    assert "Table 1&#x27;s game has started; seat Eve at a new table." in seat_row(
        response.content.decode(), eve
    )
    assert seats_of(night)["Eve"] == (None, None)


def test_a_player_left_off_the_posted_form_keeps_their_seat(as_organiser, league, eight, night):
    p = eight
    typed = {p["Ann"]: (1, 1), p["Bob"]: (1, 1), p["Cy"]: (1, 2), p["Di"]: (1, 2)}
    as_organiser.post(f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, typed))
    # Eve arrived while another organiser had the form open; Ann moves to side 2 and Cy to 1.
    typed = {p["Ann"]: (1, 2), p["Bob"]: (1, 1), p["Cy"]: (1, 1), p["Di"]: (1, 2)}

    as_organiser.post(f"/leagues/thursday/nights/{night.pk}/seating/", seating_form(night, typed))

    assert seats_of(night)["Ann"] == (1, 1)
    assert seats_of(night)["Eve"] == (None, None)


def test_starting_with_nobody_seated_says_why(as_organiser, league, night):
    response = as_organiser.post(f"/leagues/thursday/nights/{night.pk}/start/", follow=False)

    assert response["Location"] == f"/leagues/thursday/nights/{night.pk}/seating/"
    page = as_organiser.get(response["Location"]).content.decode()
    assert "Every seated table is already playing; seat players first." in page
    assert not LeagueGame.objects.exists()


def test_an_arrival_needs_a_member_or_a_name(as_organiser, league, night):
    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": "", "name": ""}
    )

    assert response.status_code == 200
    assert_beside(
        response.content.decode(), "player", "Choose who arrived, or type a new member's name."
    )


def test_an_arrival_is_a_member_or_a_name_not_both(as_organiser, league, night):
    ida = members(league, "Ida")["Ida"]

    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": str(ida.pk), "name": "Lou"}
    )

    assert_beside(
        response.content.decode(), "name", "Choose a member or type a new name, not both."
    )
    assert not Player.objects.filter(name="Lou").exists()
    assert not night.attendances.filter(player=ida).exists()


def test_a_player_already_here_is_not_offered_as_an_arrival(as_organiser, league, eight, night):
    response = as_organiser.post(
        f"/leagues/thursday/nights/{night.pk}/arrivals/", {"player": str(eight["Ann"].pk)}
    )

    assert_beside(response.content.decode(), "player", "Choose one of the members listed.")
    assert night.attendances.count() == 8
