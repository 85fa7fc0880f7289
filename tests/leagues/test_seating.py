"""Seating for a club night: table shapes, who sits out, and arrangements that avoid repeats."""

import itertools
import random

import pytest

from leagues.seating import PastNight, Seating, Table, propose, table_sizes

PAIR = [1, 1]
TRIO = [1, 1, 1]
FOUR = [2, 2]
FIVE = [2, 3]
SIX = [3, 3]


def partners(seating: Seating) -> set[frozenset[int]]:
    return {
        frozenset(pair)
        for table in seating.tables
        for side in table.sides
        for pair in itertools.combinations(side, 2)
    }


def opponents(seating: Seating) -> set[frozenset[int]]:
    return {
        frozenset((a, b))
        for table in seating.tables
        for first, second in itertools.combinations(table.sides, 2)
        for a in first
        for b in second
    }


def night(*tables, out=()) -> PastNight:
    return PastNight(
        tables=tuple(tuple(tuple(side) for side in t) for t in tables), sitting_out=out
    )


def past_partners(history) -> set[frozenset[int]]:
    return {
        frozenset(pair)
        for past in history
        for table in past.tables
        for side in table
        for pair in itertools.combinations(side, 2)
    }


def partner_cost(pairs, weight: dict[frozenset[int], float]) -> float:
    return sum(weight.get(frozenset(pair), 0) for pair in pairs)


def random_night(players: list[int], rng: random.Random) -> PastNight:
    shuffled = players[:]
    rng.shuffle(shuffled)
    shapes, _ = table_sizes(len(shuffled), teams=True, max_sides=None)
    seats = iter(shuffled)
    tables = tuple(tuple(tuple(next(seats) for _ in range(size)) for size in s) for s in shapes)
    return PastNight(tables=tables, sitting_out=tuple(seats))


def matchings(players: list[int]):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, mate in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, mate), *more]


# table_sizes


def test_individual_play_with_three_sided_tables_seats_everyone():
    expected = {
        0: [],
        1: None,
        2: [PAIR],
        3: [TRIO],
        4: [PAIR, PAIR],
        5: [PAIR, TRIO],
        6: [PAIR] * 3,
        7: [PAIR] * 2 + [TRIO],
        8: [PAIR] * 4,
        9: [PAIR] * 3 + [TRIO],
        10: [PAIR] * 5,
        11: [PAIR] * 4 + [TRIO],
        12: [PAIR] * 6,
        13: [PAIR] * 5 + [TRIO],
    }
    for count, tables in expected.items():
        want = ([], 1) if tables is None else (tables, 0)
        assert table_sizes(count, teams=False, max_sides=None) == want, count


def test_individual_play_at_two_sided_tables_sits_one_out_of_an_odd_count():
    expected = {
        0: ([], 0),
        1: ([], 1),
        2: ([PAIR], 0),
        3: ([PAIR], 1),
        4: ([PAIR] * 2, 0),
        5: ([PAIR] * 2, 1),
        6: ([PAIR] * 3, 0),
        7: ([PAIR] * 3, 1),
        8: ([PAIR] * 4, 0),
        9: ([PAIR] * 4, 1),
        10: ([PAIR] * 5, 0),
        11: ([PAIR] * 5, 1),
        12: ([PAIR] * 6, 0),
        13: ([PAIR] * 6, 1),
    }
    for count, want in expected.items():
        assert table_sizes(count, teams=False, max_sides=2) == want, count


def test_partnership_play_prefers_pairs_and_lets_individual_tables_take_what_pairs_cannot():
    expected = {
        0: ([], 0),
        1: ([], 1),
        2: ([PAIR], 0),
        3: ([TRIO], 0),
        4: ([FOUR], 0),
        5: ([FIVE], 0),
        6: ([SIX], 0),
        7: ([FOUR, TRIO], 0),
        8: ([FOUR] * 2, 0),
        9: ([FOUR, FIVE], 0),
        10: ([FOUR, SIX], 0),
        11: ([FIVE, SIX], 0),
        12: ([FOUR] * 3, 0),
        13: ([FOUR] * 2 + [FIVE], 0),
    }
    for count, want in expected.items():
        assert table_sizes(count, teams=True, max_sides=None) == want, count


def test_partnership_play_at_two_sided_tables_sits_out_the_fewest_it_must():
    expected = {
        0: ([], 0),
        1: ([], 1),
        2: ([], 2),
        3: ([], 3),
        4: ([FOUR], 0),
        5: ([FIVE], 0),
        6: ([SIX], 0),
        7: ([SIX], 1),
        8: ([FOUR] * 2, 0),
        9: ([FOUR, FIVE], 0),
        10: ([FOUR, SIX], 0),
        11: ([FIVE, SIX], 0),
        12: ([FOUR] * 3, 0),
        13: ([FOUR] * 2 + [FIVE], 0),
    }
    for count, want in expected.items():
        assert table_sizes(count, teams=True, max_sides=2) == want, count


def test_a_game_for_three_or_more_sides_counts_as_allowing_three_sided_tables():
    assert table_sizes(7, teams=True, max_sides=4) == ([FOUR, TRIO], 0)
    assert table_sizes(5, teams=False, max_sides=3) == ([PAIR, TRIO], 0)


def test_a_negative_count_or_a_one_sided_table_is_refused():
    with pytest.raises(ValueError):
        table_sizes(-1, teams=True, max_sides=None)
    with pytest.raises(ValueError):
        table_sizes(4, teams=False, max_sides=1)


# propose: partners and opponents


def test_last_nights_partner_is_not_repeated_even_at_the_price_of_repeated_opponents():
    history = [night([(1, 2), (3, 4)])]
    for seed in range(10):
        seating = propose([1, 2, 3, 4], teams=True, history=history, seed=seed)
        assert seating.tables[0].sides in {((1, 3), (2, 4)), ((1, 4), (2, 3))}


def test_eight_players_after_two_nights_get_all_new_partners():
    history = [
        night([(1, 2), (3, 4)], [(5, 6), (7, 8)]),
        night([(1, 3), (5, 7)], [(2, 4), (6, 8)]),
    ]
    for seed in range(10):
        seating = propose(range(1, 9), teams=True, history=history, seed=seed)
        assert not partners(seating) & past_partners(history)


def test_when_a_partner_must_repeat_it_is_the_one_from_longest_ago():
    # Newest first: every pairing of four players has been used in the last three nights.
    history = [
        night([(1, 2), (3, 4)]),
        night([(1, 3), (2, 4)]),
        night([(1, 4), (2, 3)]),
    ]
    for seed in range(10):
        seating = propose([1, 2, 3, 4], teams=True, history=history, seed=seed)
        assert seating.tables == (Table(sides=((1, 4), (2, 3))),)


def test_an_old_repeated_partner_outweighs_opponents_met_on_each_of_the_last_three_nights():
    # 1+2 v 3+4 repeats no partner but meets last three nights' opponents again; both other
    # splits repeat a partnership from four or five nights ago.
    history = [
        night([(1,), (3,)], [(2,), (4,)]),
        night([(1,), (4,)], [(2,), (3,)]),
        night([(1,), (3,)], [(2,), (4,)]),
        night([(1, 3), (2, 4)]),
        night([(1, 4), (2, 3)]),
    ]
    for seed in range(10):
        seating = propose([1, 2, 3, 4], teams=True, history=history, seed=seed)
        assert seating.tables == (Table(sides=((1, 2), (3, 4))),)


def test_the_fewest_repeated_partners_possible_for_eight_players_after_random_nights():
    # Partner cost depends only on the pairs, so every matching of the eight covers every
    # arrangement of two [2, 2] tables: the search is checked against the true minimum.
    players = list(range(8))
    rng = random.Random(7)
    for trial in range(15):
        history = [random_night(players, rng) for _ in range(rng.randint(2, 6))]
        weight = {}
        for index, past in enumerate(history):
            for pair in past_partners([past]):
                weight[pair] = weight.get(pair, 0) + 0.5**index
        best = min(partner_cost(pairs, weight) for pairs in matchings(players))
        seating = propose(players, teams=True, history=history, seed=trial)
        assert partner_cost(partners(seating), weight) == pytest.approx(best), trial


def test_individual_players_avoid_last_nights_opponents():
    history = [night([(1,), (2,)], [(3,), (4,)])]
    for seed in range(10):
        seating = propose([1, 2, 3, 4], teams=False, max_sides=2, history=history, seed=seed)
        assert not opponents(seating) & {frozenset((1, 2)), frozenset((3, 4))}


def test_individual_players_meet_the_one_opponent_they_have_not_met_lately():
    history = [night([(1,), (2,)], [(3,), (4,)]), night([(1,), (3,)], [(2,), (4,)])]
    seating = propose([1, 2, 3, 4], teams=False, max_sides=2, history=history)
    assert seating.tables == (Table(sides=((1,), (4,))), Table(sides=((2,), (3,))))


def test_a_three_sided_table_last_night_made_all_three_opponents():
    history = [night([(1,), (2,), (3,)], [(4,), (5,)], [(6,), (7,)])]
    seating = propose(range(1, 8), teams=False, history=history)
    assert not opponents(seating) & {frozenset(p) for p in [(1, 2), (1, 3), (2, 3), (4, 5), (6, 7)]}


# propose: ratings


def test_ratings_balance_the_teams():
    ratings = {10: 10.0, 9: 9.0, 1: 1.0, 0: 0.0}
    seating = propose([0, 1, 9, 10], teams=True, ratings=ratings)
    assert seating.tables == (Table(sides=((0, 10), (1, 9))),)


def test_a_player_without_a_rating_counts_as_rated_zero():
    seating = propose([0, 1, 9, 10], teams=True, ratings={10: 10.0, 9: 9.0, 1: 1.0})
    assert seating.tables == (Table(sides=((0, 10), (1, 9))),)


def test_a_team_of_two_meets_a_team_of_three_with_equal_mean_ratings():
    ratings = {1: 8.0, 2: 4.0, 3: 4.0, 4: 4.0, 5: 0.0}
    seating = propose(range(1, 6), teams=True, ratings=ratings)
    assert seating.tables == (Table(sides=((1, 5), (2, 3, 4))),)


def test_repeated_partners_outweigh_rating_balance():
    ratings = {10: 10.0, 9: 9.0, 1: 1.0, 0: 0.0}
    history = [night([(0, 10), (1, 9)])]
    seating = propose([0, 1, 9, 10], teams=True, ratings=ratings, history=history)
    assert not partners(seating) & past_partners(history)


# propose: sitting out and table shapes


def test_five_baskets_players_fill_two_tables_and_last_nights_sitter_plays():
    history = [night([(1,), (2,)], [(3,), (4,)], out=(5,))]
    for seed in range(20):
        seating = propose(range(1, 6), teams=False, max_sides=2, history=history, seed=seed)
        assert len(seating.tables) == 2
        assert len(seating.sitting_out) == 1
        assert 5 not in seating.sitting_out


def test_the_player_who_sat_out_fewest_nights_sits_out_and_then_the_one_who_did_so_longest_ago():
    # 1 and 2 have sat out once each, 1 of them last night; 3 has sat out twice.
    history = [night(out=(1,)), night(out=(2,)), night(out=(3,)), night(out=(3,))]
    for seed in range(10):
        seating = propose([1, 2, 3], teams=False, max_sides=2, history=history, seed=seed)
        assert seating.sitting_out == (2,)


def test_who_sits_out_among_equals_is_drawn_by_the_seed():
    drawn = {
        propose(range(1, 6), teams=False, max_sides=2, seed=seed).sitting_out for seed in range(30)
    }
    assert len(drawn) > 1


def test_partnership_nights_seat_teams_of_three_and_individual_tables():
    def shapes(count):
        seating = propose(range(count), teams=True)
        return sorted(sorted(len(side) for side in table.sides) for table in seating.tables)

    assert shapes(5) == [[2, 3]]
    assert shapes(6) == [[3, 3]]
    assert shapes(7) == [[1, 1, 1], [2, 2]]
    assert shapes(11) == [[2, 3], [3, 3]]


def test_every_present_player_appears_exactly_once_in_the_shapes_table_sizes_gives():
    rng = random.Random(3)
    for count in [*range(18), 29]:
        players = rng.sample(range(100), count)
        history = [random_night(players, rng) for _ in range(3)]
        for teams, max_sides in itertools.product([True, False], [2, None]):
            seating = propose(
                players, teams=teams, max_sides=max_sides, history=history, seed=count
            )
            seated = [p for table in seating.tables for side in table.sides for p in side]
            assert sorted(seated + list(seating.sitting_out)) == sorted(players)
            shapes, out = table_sizes(count, teams=teams, max_sides=max_sides)
            got = sorted(sorted(len(side) for side in table.sides) for table in seating.tables)
            assert got == sorted(sorted(shape) for shape in shapes)
            assert len(seating.sitting_out) == out


def test_sides_tables_and_sitters_come_in_a_stable_order():
    seating = propose(range(20, 0, -1), teams=True, max_sides=2, history=[], seed=5)
    for table in seating.tables:
        assert all(list(side) == sorted(side) for side in table.sides)
        assert list(table.sides) == sorted(table.sides)
    smallest = [min(min(side) for side in table.sides) for table in seating.tables]
    assert smallest == sorted(smallest)
    assert list(seating.sitting_out) == sorted(seating.sitting_out)


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError):
        propose([1, 2, 2, 3], teams=True)


# propose: determinism and size


def test_the_same_inputs_and_seed_give_the_same_seating_whatever_the_players_order():
    rng = random.Random(11)
    players = list(range(1, 24))
    history = [random_night(players, rng) for _ in range(4)]
    ratings = {p: rng.uniform(0, 40) for p in players}
    first = propose(players, teams=True, ratings=ratings, history=history, seed=42)
    again = propose(players[::-1], teams=True, ratings=ratings, history=history, seed=42)
    assert first == again


def test_forty_players_after_four_nights_get_all_new_partners():
    rng = random.Random(5)
    players = list(range(40))
    history = [random_night(players, rng) for _ in range(4)]
    ratings = {p: rng.uniform(0, 40) for p in players}
    seating = propose(players, teams=True, ratings=ratings, history=history)
    assert len(seating.tables) == 10
    assert not partners(seating) & past_partners(history)
