"""A league game is a kitchen-table game: scored from any member's phone, seated by the
proposal, and its players' records merged when two records are one person."""

import datetime

import pytest

from leagues import services
from leagues.models import Attendance, Membership, Participation
from leagues.selectors import standings
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game

NIGHTS = [datetime.date(2026, 10, day) for day in (1, 8, 15)]


def seating_of(night) -> tuple[list[list[list[str]]], list[str]]:
    tables: dict[int, dict[int, list[str]]] = {}
    out = []
    for a in Attendance.objects.filter(night=night).select_related("player"):
        if a.table is None:
            out.append(a.player.name)
        else:
            tables.setdefault(a.table, {}).setdefault(a.side, []).append(a.player.name)
    return (
        [[sorted(sides[s]) for s in sorted(sides)] for _, sides in sorted(tables.items())],
        sorted(out),
    )


def partner_pairs(tables) -> set[frozenset[str]]:
    return {
        frozenset((a, b)) for table in tables for side in table for a in side for b in side if a < b
    }


def test_a_member_scores_a_table_from_their_own_phone_and_a_stranger_may_not(client, league):
    p = members(league, "Ann", "Bob", "Cy", "Di")
    member = UserFactory(username="cy")
    services.player_update(league=league, player=p["Cy"], name="Cy", account=member, user=None)
    game = table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]]).game
    stranger = UserFactory(username="stranger")

    client.force_login(stranger)
    refused = client.get(f"/g/{game.public_id}/rounds/new/")
    client.force_login(member)
    allowed = client.get(f"/g/{game.public_id}/rounds/new/")
    saved = client.post(
        f"/g/{game.public_id}/rounds/new/",
        {"round_number": "1", "went_out": "stock", "s0-melded_points": "500"},
    )

    assert refused.status_code == 403
    assert allowed.status_code == 200
    assert saved.status_code == 302
    assert [row.name for row in standings(league)] == ["Ann", "Bob", "Cy", "Di"]


def test_the_game_page_names_its_league_night_and_table(client, league):
    p = members(league, "Ann", "Bob")
    game = table_game(league, [[p["Ann"]], [p["Bob"]]]).game
    night = league.nights.get()

    response = client.get(f"/g/{game.public_id}/")

    assert (
        '<p class="league-context"><a href="/leagues/thursday/">Thursday Club</a> · '
        f'<a href="/leagues/thursday/nights/{night.pk}/">club night of 1 October 2026</a>, '
        "table 1</p>"
    ) in response.content.decode()


def test_the_proposal_avoids_last_nights_partners(league):
    p = members(league, "Ann", "Bob", "Cy", "Di")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]], date=NIGHTS[0]), [500, 0])
    night = services.night_create(
        league=league, date=NIGHTS[1], player_ids=[x.pk for x in p.values()], user=None
    )

    services.night_seating_propose(night=night, user=None)

    tables, out = seating_of(night)
    assert out == []
    assert len(tables) == 1
    assert partner_pairs(tables).isdisjoint({frozenset(("Ann", "Bob")), frozenset(("Cy", "Di"))})


def test_eight_players_over_three_nights_never_repeat_a_partner(league):
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
    p = members(league, *names)
    seen: set[frozenset[str]] = set()
    for date in NIGHTS:
        night = services.night_create(
            league=league, date=date, player_ids=[x.pk for x in p.values()], user=None
        )
        services.night_seating_propose(night=night, user=None)
        tables, out = seating_of(night)
        pairs = partner_pairs(tables)
        assert out == []
        assert [len(table) for table in tables] == [2, 2]
        assert pairs.isdisjoint(seen)
        seen |= pairs


def test_five_partnership_players_make_a_table_of_two_against_three(league):
    p = members(league, "Ann", "Bob", "Cy", "Di", "Eve")
    night = services.night_create(
        league=league, date=NIGHTS[0], player_ids=[x.pk for x in p.values()], user=None
    )

    services.night_seating_propose(night=night, user=None)
    (started,) = services.night_games_start(night=night, user=None)

    tables, out = seating_of(night)
    assert out == []
    assert sorted(len(side) for side in tables[0]) == [2, 3]
    assert sorted(len(side.players) for side in started.game.sides.all()) == [2, 3]


def test_an_odd_baskets_player_sits_out_and_not_twice_running(organiser):
    league = league_with(organiser, preset="baskets", house_rules={})
    p = members(league, "Ann", "Bob", "Cy", "Di", "Eve")
    everyone = [x.pk for x in p.values()]
    first = services.night_create(league=league, date=NIGHTS[0], player_ids=everyone, user=None)
    services.night_seating_propose(night=first, user=None)
    second = services.night_create(league=league, date=NIGHTS[1], player_ids=everyone, user=None)

    services.night_seating_propose(night=second, user=None)

    first_tables, first_out = seating_of(first)
    second_tables, second_out = seating_of(second)
    assert [len(t) for t in first_tables] == [2, 2]
    assert all(len(side) == 1 for table in first_tables for side in table)
    assert len(first_out) == len(second_out) == 1
    assert first_out != second_out


def test_a_late_arrival_waits_and_is_seated_at_a_new_table_by_a_second_proposal(league):
    p = members(league, "Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
    first_four = [p[n].pk for n in ("Ann", "Bob", "Cy", "Di")]
    night = services.night_create(league=league, date=NIGHTS[0], player_ids=first_four, user=None)
    services.night_seating_propose(night=night, user=None)
    services.night_games_start(night=night, user=None)
    for name in ("Eve", "Fay", "Gus", "Hal"):
        services.night_arrival(night=night, player=p[name], user=None)
    waiting = seating_of(night)[1]

    services.night_seating_propose(night=night, user=None)
    started = services.night_games_start(night=night, user=None)

    tables, out = seating_of(night)
    assert waiting == ["Eve", "Fay", "Gus", "Hal"]
    assert out == []
    assert sorted(name for side in tables[0] for name in side) == ["Ann", "Bob", "Cy", "Di"]
    assert sorted(name for side in tables[1] for name in side) == ["Eve", "Fay", "Gus", "Hal"]
    assert [g.table for g in started] == [2]


def test_a_started_table_keeps_its_players_when_seating_by_hand(league):
    p = members(league, "Ann", "Bob", "Cy", "Di", "Eve")
    table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]])
    night = league.nights.get()
    services.night_arrival(night=night, player=p["Eve"], user=None)

    with pytest.raises(services.LeagueError) as refused:
        services.night_seating_set(
            night=night,
            choices=[services.SeatChoice(p["Eve"].pk, 1, 0)],
            user=None,
        )

    assert refused.value.errors == [
        ("seat-" + str(p["Eve"].pk), "Table 1's game has started; seat Eve at a new table.")
    ]
    assert seating_of(night)[1] == ["Eve"]


def test_merging_two_records_of_one_person_moves_their_games_and_replays_ratings(league, organiser):
    p = members(league, "Ann", "Bob", "Cy", "Di", "Annie")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]], date=NIGHTS[0]), [900, 100])
    play(
        table_game(league, [[p["Annie"], p["Cy"]], [p["Bob"], p["Di"]]], date=NIGHTS[1]),
        [700, 200],
    )
    before = {row.name: row.games for row in standings(league)}

    services.player_merge(league=league, keep=p["Ann"], absorb=p["Annie"], user=organiser)

    after = {row.name: (row.games, row.wins) for row in standings(league)}
    assert before == {"Ann": 1, "Annie": 1, "Bob": 2, "Cy": 2, "Di": 2}
    assert after == {"Ann": (2, 2), "Bob": (2, 1), "Cy": (2, 1), "Di": (2, 0)}
    assert Membership.objects.get(league=league, player=p["Ann"]).rated_games == 2
    assert not Participation.objects.filter(player__name="Annie").exists()


def test_two_players_at_the_same_night_cannot_be_merged(league, organiser):
    p = members(league, "Ann", "Bob", "Cy", "Di")
    table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]])

    with pytest.raises(services.LeagueError) as refused:
        services.player_merge(league=league, keep=p["Ann"], absorb=p["Bob"], user=organiser)

    assert refused.value.errors == [
        ("absorb", "Ann and Bob were at the same club night, so they are two people.")
    ]
    assert Membership.objects.filter(league=league).count() == 4
