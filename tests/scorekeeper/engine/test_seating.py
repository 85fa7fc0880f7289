from scorekeeper.engine.seating import dealing_order


def test_partners_alternate_with_opponents_in_dealing_order():
    assert dealing_order([2, 2]) == [(0, 0), (1, 0), (0, 1), (1, 1)]


def test_a_team_of_three_against_a_team_of_two_deals_its_third_player_last():
    assert dealing_order([3, 2]) == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]


def test_individual_players_are_one_seat_each():
    assert dealing_order([0, 0, 0]) == [(0, 0), (1, 0), (2, 0)]
