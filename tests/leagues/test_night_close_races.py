"""A table saving its last round while organisers close the night, in real concurrent
transactions on PostgreSQL (skipped on SQLite, as the other races)."""

from collections import Counter

from leagues.models import LeagueEvent
from scorekeeper.rounds.services import round_record
from tests.helpers.leagues import league_with, members, table_game
from tests.helpers.races import ON_POSTGRESQL, answers, phones, together

pytestmark = ON_POSTGRESQL

ORGANISERS = 10


def test_the_last_round_and_ten_closes_at_once_close_the_night_once(organiser):
    league = league_with(organiser, house_rules={"rounds": 2})
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    game = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    entry = [{"melded_points": 500}, {"melded_points": 300}]
    round_record(game=game.game, number=1, ended_by="stock_exhausted", entry=entry)
    night = game.night
    clients = phones(organiser, ORGANISERS)
    url = f"/leagues/thursday/nights/{night.pk}/close/"

    def work(index: int):
        if index == ORGANISERS:
            return round_record(game=game.game, number=2, ended_by="stock_exhausted", entry=entry)
        return clients[index].post(url)

    results = together(work, ORGANISERS + 1)

    assert not isinstance(results[-1], BaseException), results[-1]
    counted = answers(results[:-1])
    refused = "200 The night cannot close while table 1 is not finished."
    # Each close either came first (refused: the round was not stored yet) or after the night
    # was closed, by the round or by another organiser (sent to the night's page); never a 500.
    assert set(counted) <= {f"302 /leagues/thursday/nights/{night.pk}/", refused}
    assert sum(counted.values()) == ORGANISERS
    night.refresh_from_db()
    assert night.closed_at is not None
    closings = LeagueEvent.objects.filter(kind=LeagueEvent.Kind.NIGHT_CLOSED)
    assert closings.count() == 1
    assert Counter(closings.values_list("who", flat=True)).keys() <= {"olive", "the system"}
