"""A league's audit page: what it shows, what it costs, and its pages of a hundred."""

import pytest

from leagues import services
from leagues.models import League, LeagueEvent
from scorekeeper.rounds.services import round_update
from tests.helpers.leagues import play

pytestmark = pytest.mark.django_db


def test_the_audit_shows_a_round_correction_and_a_void(
    as_organiser, league, league_game, organiser
):
    play(league_game, [500, 100])
    round_update(
        game=league_game.game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 100}, {"melded_points": 500}],
        user=organiser,
    )
    services.game_void(league_game=league_game, reason="Wrong <deck>", user=organiser)

    html = as_organiser.get("/leagues/thursday/audit/").content.decode()

    public_id = league_game.game.public_id
    assert (
        f'<strong>Round corrected</strong>: round 1 of <a href="/g/{public_id}/">Ann &amp; Bob '
        "vs Cy &amp; Di</a>" in html
    )
    assert "<dt>Entry</dt>" in html
    assert "&quot;melded_points&quot;: 500" in html
    assert (
        "<strong>Game Ann &amp; Bob vs Cy &amp; Di of 1 October 2026 voided: Wrong &lt;deck&gt;"
        "</strong>" in html
    )
    assert "<dt>Reason</dt><dd>Wrong &lt;deck&gt;</dd>" in html
    assert "Wrong <deck>" not in html
    # Newest first: the void, then the correction, then the league's earlier events.
    assert html.index("voided: Wrong") < html.index("Round corrected") < html.index("Games started")
    assert "by olive" in html


def _events(league: League, count: int) -> None:
    LeagueEvent.objects.bulk_create(
        LeagueEvent(league=league, kind="member_changed", who="olive", summary=f"Change {i}")
        for i in range(count)
    )


@pytest.mark.parametrize("extra", [5, 60])
def test_the_audit_costs_the_same_queries_however_long(
    as_organiser, league, league_game, organiser, extra, django_assert_num_queries
):
    play(league_game, [500, 100])
    for _ in range(extra // 5):
        round_update(
            game=league_game.game,
            number=1,
            ended_by="stock_exhausted",
            entry=[{"melded_points": 100}, {"melded_points": 500}],
            user=organiser,
        )
    _events(league, extra)

    # Session, user, league, organiser check, two counts, two reads, the games' sides.
    with django_assert_num_queries(9):
        response = as_organiser.get("/leagues/thursday/audit/")

    assert response.status_code == 200


def test_the_audit_pages_at_a_hundred(as_organiser, league, league_game):
    _events(league, 150)
    total = LeagueEvent.objects.filter(league=league).count()

    first = as_organiser.get("/leagues/thursday/audit/").content.decode()
    second = as_organiser.get("/leagues/thursday/audit/?page=2").content.decode()

    assert first.count('<p class="org-audit-what">') == 100
    assert second.count('<p class="org-audit-what">') == total - 100
    assert "Change 149" in first and "Change 49" not in first
    assert "Change 49" in second
    assert "Page 2 of 2" in second
