"""Ratings: openskill's Plackett-Luce, sides of different sizes, and replay after a correction."""

import datetime

import pytest
from openskill.models import PlackettLuce

from leagues import services
from leagues.models import DEFAULT_MU, DEFAULT_SIGMA, Membership, Participation
from leagues.ratings import Skill, ranks_of, rate
from scorekeeper.rounds.services import round_delete_last, round_update
from tests.helpers.leagues import members, play, table_game

NEW = Skill(DEFAULT_MU, DEFAULT_SIGMA)


def test_ranks_put_the_highest_total_first_and_share_a_rank_on_equal_totals():
    assert ranks_of([500, 900, 500, 100]) == [2, 1, 2, 4]


def test_a_game_between_two_single_players_is_rated_exactly_as_openskill_rates_it():
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])

    (winner,), (loser,) = rate([[NEW], [NEW]], [700, 200])

    assert winner.mu == pytest.approx(expected[0][0].mu)
    assert winner.sigma == pytest.approx(expected[0][0].sigma)
    assert loser.mu == pytest.approx(expected[1][0].mu)


def test_a_team_of_two_beating_a_team_of_three_gains_what_the_three_would_have_gained():
    two_win = rate([[NEW, NEW], [NEW, NEW, NEW]], [900, 400])
    three_win = rate([[NEW, NEW], [NEW, NEW, NEW]], [400, 900])

    gain_of_two = two_win[0][0].mu - NEW.mu
    gain_of_three = three_win[1][0].mu - NEW.mu

    assert gain_of_two > 0
    assert gain_of_two == pytest.approx(gain_of_three)
    # Each loser loses what each winner gains: neither size is favoured.
    assert two_win[1][2].mu - NEW.mu == pytest.approx(-gain_of_two)


def test_sides_of_equal_players_move_as_one_player_of_that_strength_would():
    team = rate([[NEW, NEW], [NEW, NEW, NEW]], [900, 400])
    single = rate([[NEW], [NEW]], [900, 400])

    assert team[0][1].mu == pytest.approx(single[0][0].mu)
    assert team[1][0].sigma == pytest.approx(single[1][0].sigma)


def test_the_more_uncertain_partner_moves_further_and_the_side_mean_moves_by_the_sides_change():
    settled = Skill(30.0, 2.0)
    side = rate([[settled, NEW], [NEW, NEW]], [800, 300])[0]
    mean_before = (settled.mu + NEW.mu) / 2

    assert side[1].mu - NEW.mu > side[0].mu - settled.mu > 0
    moved = (side[0].mu + side[1].mu) / 2 - mean_before
    contestant = rate(
        [[Skill(mean_before, ((settled.sigma**2 + NEW.sigma**2) / 2) ** 0.5)], [NEW]], [800, 300]
    )[0][0]
    assert moved == pytest.approx(contestant.mu - mean_before)


def skills(league):
    return {
        m.player.name: (round(m.mu, 9), round(m.sigma, 9), m.rated_games)
        for m in Membership.objects.filter(league=league).select_related("player")
    }


def by_hand(games_in_ledger_order):
    """The ratings worked out game by game with leagues.ratings.rate."""
    state = {}
    for sides, totals in games_in_ledger_order:
        rated = rate([[state.get(name, NEW) for name in side] for side in sides], totals)
        for side, after in zip(sides, rated, strict=True):
            for name, skill in zip(side, after, strict=True):
                state[name] = skill
    return state


@pytest.fixture
def three_nights(league):
    p = members(league, "Ann", "Bob", "Cy", "Di")
    first = table_game(
        league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]], date=datetime.date(2026, 10, 1)
    )
    play(first, [300, 800])
    second = table_game(
        league, [[p["Ann"], p["Cy"]], [p["Bob"], p["Di"]]], date=datetime.date(2026, 10, 8)
    )
    play(second, [600, 500])
    third = table_game(league, [[p["Ann"]], [p["Di"]]], date=datetime.date(2026, 10, 15))
    play(third, [200, 900])
    return first, second, third


def test_ratings_follow_the_ledger_game_by_game(league, three_nights):
    expected = by_hand(
        [
            ([["Ann", "Bob"], ["Cy", "Di"]], [300, 800]),
            ([["Ann", "Cy"], ["Bob", "Di"]], [600, 500]),
            ([["Ann"], ["Di"]], [200, 900]),
        ]
    )

    found = skills(league)

    assert found["Ann"] == (round(expected["Ann"].mu, 9), round(expected["Ann"].sigma, 9), 3)
    assert found["Bob"][:2] == (round(expected["Bob"].mu, 9), round(expected["Bob"].sigma, 9))
    assert found["Bob"][2] == 2


def test_correcting_the_first_game_replays_every_later_rating(league, three_nights):
    first, second, _ = three_nights
    before = skills(league)
    second_before = list(
        Participation.objects.filter(league_game=second).values_list("mu_before", flat=True)
    )

    round_update(
        game=first.game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 900}, {"melded_points": 800}],
    )

    expected = by_hand(
        [
            ([["Ann", "Bob"], ["Cy", "Di"]], [900, 800]),
            ([["Ann", "Cy"], ["Bob", "Di"]], [600, 500]),
            ([["Ann"], ["Di"]], [200, 900]),
        ]
    )
    after = skills(league)
    assert after != before
    assert after == {
        name: (round(skill.mu, 9), round(skill.sigma, 9), before[name][2])
        for name, skill in expected.items()
    }
    second_after = list(
        Participation.objects.filter(league_game=second).values_list("mu_before", flat=True)
    )
    assert second_after != second_before


def test_a_correction_that_keeps_the_order_changes_no_rating(league, three_nights):
    first, _, _ = three_nights
    before = skills(league)

    round_update(
        game=first.game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 100}, {"melded_points": 800}],
    )

    assert skills(league) == before


def test_voiding_a_game_replays_the_ratings_without_it(league, three_nights):
    _, second, _ = three_nights

    services.game_void(league_game=second, reason="Wrong rules", user=None)

    expected = by_hand(
        [
            ([["Ann", "Bob"], ["Cy", "Di"]], [300, 800]),
            ([["Ann"], ["Di"]], [200, 900]),
        ]
    )
    found = skills(league)
    assert found["Ann"] == (round(expected["Ann"].mu, 9), round(expected["Ann"].sigma, 9), 2)
    assert found["Cy"] == (round(expected["Cy"].mu, 9), round(expected["Cy"].sigma, 9), 1)
    voided = Participation.objects.filter(league_game=second)
    assert list(voided.values_list("mu_after", flat=True)) == [None] * 4


def test_a_full_replay_gives_the_ratings_kept_game_by_game(league, three_nights):
    before = skills(league)

    replayed = services.ratings_replay(league=league, start=None)

    assert replayed == 3
    assert skills(league) == before


def test_deleting_the_last_round_of_a_finished_game_takes_it_out_of_the_ratings(
    league, three_nights
):
    _, _, third = three_nights

    round_delete_last(game=third.game)

    expected = by_hand(
        [
            ([["Ann", "Bob"], ["Cy", "Di"]], [300, 800]),
            ([["Ann", "Cy"], ["Bob", "Di"]], [600, 500]),
        ]
    )
    found = skills(league)
    assert found["Di"] == (round(expected["Di"].mu, 9), round(expected["Di"].sigma, 9), 2)
    assert Participation.objects.filter(league_game=third, counted=True).count() == 0
