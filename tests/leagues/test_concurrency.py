"""Organisers submitting at the same moment, in real concurrent transactions on PostgreSQL."""

import pytest
from django.utils.html import escape

from leagues import selectors
from leagues.models import ClubNight, LeagueEvent, Membership, Participation, Player
from tests.helpers.kept_standings import assert_kept
from tests.helpers.leagues import NIGHT, league_with, members, play, table_game
from tests.helpers.races import ON_POSTGRESQL, answers, phones, together

# Real transactions on PostgreSQL, skipped on SQLite, as the scorekeeper's own races.
pytestmark = ON_POSTGRESQL

THREADS = 30
MERGE = "/leagues/thursday/members/merge/"
TOLD = "Cat was merged into Ann a moment ago; nothing was changed."


@pytest.fixture
def club(organiser):
    """Ann and Cat, one person entered twice, each with a counted game on a different night."""
    league = league_with(organiser)
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    play(table_game(league, [[p["Ann"]], [p["Bob"]]]), [120, 80])
    play(table_game(league, [[p["Cat"]], [p["Dan"]]], date=NIGHT.replace(day=8)), [90, 100])
    return league, p


def merged_state(league, ann, cat):
    events = list(
        LeagueEvent.objects.filter(kind=LeagueEvent.Kind.PLAYERS_MERGED).values_list(
            "summary", flat=True
        )
    )
    return {
        "events": sorted(events),
        "players left": sorted(
            Player.objects.filter(pk__in=[ann.pk, cat.pk]).values_list("name", flat=True)
        ),
        "memberships": Membership.objects.filter(league=league).count(),
        "games": sorted(
            Participation.objects.filter(player__in=[ann, cat]).values_list(
                "player__name", "points_for"
            )
        ),
    }


@pytest.mark.parametrize("crossing", [False, True], ids=["same-pair", "crossing-pairs"])
def test_thirty_merges_of_one_pair_merge_once_and_the_others_are_told(club, organiser, crossing):
    league, p = club
    ann, cat = p["Ann"], p["Cat"]
    clients = phones(organiser, THREADS)

    def merge(index: int):
        keep, absorb = (cat, ann) if crossing and index % 2 else (ann, cat)
        form = {"keep": str(keep.pk), "absorb": str(absorb.pk), "confirm": "yes"}
        return clients[index].post(MERGE, form)

    results = together(merge, THREADS)

    counted = answers(results)
    redirects = sum(n for answer, n in counted.items() if answer.startswith("302"))
    assert redirects == 1, (counted, merged_state(league, ann, cat))
    (winner,) = [r for r in results if not isinstance(r, BaseException) and r.status_code == 302]
    kept = ann if winner.wsgi_request.POST["keep"] == str(ann.pk) else cat
    gone = cat if kept == ann else ann
    told = f"{gone.name} was merged into {kept.name} a moment ago; nothing was changed."
    assert counted == {
        "302 /leagues/thursday/members/": 1,
        f"200 {escape(told)}": THREADS - 1,
    }
    assert merged_state(league, ann, cat) == {
        "events": [f"{gone.name} merged into {kept.name}"],
        "players left": [kept.name],
        "memberships": 3,
        "games": [(kept.name, 90), (kept.name, 120)],
    }


def test_a_loser_sees_the_message_beside_the_player_who_went(club, organiser):
    league, p = club
    ann, cat = p["Ann"], p["Cat"]
    first, late = phones(organiser, 2)
    form = {"keep": str(ann.pk), "absorb": str(cat.pk), "confirm": "yes"}
    assert first.post(MERGE, form).status_code == 302

    response = late.post(MERGE, form)

    assert response.status_code == 200
    assert f'<p class="field-error" role="alert">{escape(TOLD)}</p>' in response.text
    assert LeagueEvent.objects.filter(kind=LeagueEvent.Kind.PLAYERS_MERGED).count() == 1


def test_thirty_organisers_opening_the_same_night_open_it_once(club, organiser):
    league, p = club
    clients = phones(organiser, THREADS)
    date = NIGHT.replace(day=15)
    form = {"date": date.isoformat(), "players": [str(p["Ann"].pk), str(p["Bob"].pk)]}

    results = together(
        lambda index: clients[index].post("/leagues/thursday/nights/new/", form), THREADS
    )

    counted = answers(results)
    night = ClubNight.objects.get(league=league, date=date)
    assert counted == {
        f"302 /leagues/thursday/nights/{night.pk}/seating/": 1,
        "200 Thursday Club already has a club night on 15 October 2026.": THREADS - 1,
    }
    assert (
        LeagueEvent.objects.filter(kind=LeagueEvent.Kind.NIGHT_ADDED, after__date=str(date)).count()
        == 1
    )


def test_a_correction_and_a_finished_game_of_one_player_at_once_keep_her_standings(club):
    """Ann's old game corrected while her new game finishes, in two transactions: both refresh
    her standing rows; the second waits for the first (the lock on her membership) and counts
    both games. Without that lock, both deleted her rows and the second insert failed."""
    from scorekeeper.rounds.services import round_update

    league, p = club
    new = table_game(league, [[p["Ann"]], [p["Dan"]]], date=NIGHT.replace(day=15))
    old = new.league.games.order_by("date").first().game

    def write(index: int):
        if index == 0:
            return round_update(
                game=old,
                number=1,
                ended_by="stock_exhausted",
                # Still a win: no ratings replayed, so nothing else locks Ann's membership.
                entry=[{"melded_points": 150}, {"melded_points": 80}],
            )
        return play(new, [300, 100])

    results = [r for r in together(write, 2) if isinstance(r, BaseException)]

    assert results == []
    assert_kept(league)
    ann = [row for row in selectors.standings(league, None) if row.name == "Ann"]
    assert [(row.games, row.wins, row.points_for) for row in ann] == [(2, 2, 450)]
