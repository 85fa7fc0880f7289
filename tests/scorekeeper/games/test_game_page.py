"""The game page's scoreboard, chart and status are made once per change of the game and kept in
the cache under the game's version: every write shows on the next view, in this process or in
another (none of them clears the cache: the version read from the game's row moves), and what
differs between viewers is never taken from the cache."""

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from leagues import services as leagues
from scorekeeper.games import live, services
from scorekeeper.models import Game, GameEvent
from scorekeeper.offline import sync
from scorekeeper.rounds.services import round_delete_last, round_record, round_restore, round_update
from tests.helpers.games import side_specs
from tests.helpers.leagues import UserFactory, league_with, members, table_game

SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]
OTHER = [{"melded_points": 90}, {"melded_points": 10}]
ROW = re.compile(r'<th scope="row"><a href="[^"]+">(\d+)</a></th>(.*?)</tr>', re.S)
CELL = re.compile(r'<span class="points">([^<]*)</span>.*?<span class="running">([^<]*)</span>')
TOTAL = re.compile(r'<td class="total">([^<]*)</td>')
STATE = re.compile(r'<div data-offline-part="state">\s*<section[^>]*>\s*<h2>([^<]*)</h2>')


def shown(client: Client, game: Game) -> dict:
    """The game page as a player reads it: each round's points and running totals, the totals
    and the heading of the status (the next round, or the result)."""
    response = client.get(f"/g/{game.public_id}/")
    assert response.status_code == 200
    html = response.content.decode()
    return {
        "rounds": [(int(n), CELL.findall(cells)) for n, cells in ROW.findall(html)],
        "totals": TOTAL.findall(html),
        "status": STATE.search(html).group(1),
    }


@pytest.fixture
def game(db) -> Game:
    """A Baskets game of two rounds in which the stock ran out."""
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    for number in (1, 2):
        round_record(game=game, number=number, ended_by="stock_exhausted", entry=SMALL)
    return Game.objects.get(pk=game.pk)


TWO_ROUNDS = {
    "rounds": [(1, [("+50", "50"), ("+25", "25")]), (2, [("+50", "100"), ("+25", "50")])],
    "totals": ["100", "50"],
    "status": "Round 3",
}


def _record(game: Game) -> None:
    round_record(game=game, number=3, ended_by="stock_exhausted", entry=OTHER)


def _correct(game: Game) -> None:
    round_update(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)


@pytest.mark.parametrize(
    ("write", "expected"),
    [
        pytest.param(
            _record,
            {
                "rounds": [*TWO_ROUNDS["rounds"], (3, [("+90", "190"), ("+10", "60")])],
                "totals": ["190", "60"],
                "status": "Round 4",
            },
            id="round saved",
        ),
        pytest.param(
            _correct,
            # Every later running total follows the corrected round.
            {
                "rounds": [
                    (1, [("+90", "90"), ("+10", "10")]),
                    (2, [("+50", "140"), ("+25", "35")]),
                ],
                "totals": ["140", "35"],
                "status": "Round 3",
            },
            id="round corrected",
        ),
    ],
)
def test_a_round_saved_or_corrected_shows_on_the_next_view(client, game, write, expected):
    assert shown(client, game) == TWO_ROUNDS

    write(game)

    assert shown(client, game) == expected


def test_a_deleted_round_and_a_restored_one_show(client, game):
    assert shown(client, game) == TWO_ROUNDS

    round_delete_last(game=game)
    after_delete = shown(client, game)
    deleted = game.events.get(kind=GameEvent.Kind.ROUND_DELETED)
    round_restore(game=game, event_id=deleted.pk)

    assert after_delete == {
        "rounds": TWO_ROUNDS["rounds"][:1],
        "totals": ["50", "25"],
        "status": "Round 2",
    }
    assert shown(client, game) == TWO_ROUNDS


def test_an_undone_round_is_gone_from_the_page(game):
    scorer = Client()
    scorer.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    scorer.post(
        f"/g/{game.public_id}/rounds/new/",
        {
            "round_number": "3",
            "went_out": "stock",
            "s0-melded_points": "90",
            "s1-melded_points": "10",
        },
    )
    assert shown(scorer, game)["totals"] == ["190", "60"]

    scorer.post(f"/g/{game.public_id}/rounds/undo/", {"round_number": "3"})

    assert shown(scorer, game) == TWO_ROUNDS


def test_ending_and_reopening_the_game_show(client, game):
    assert shown(client, game) == TWO_ROUNDS

    services.game_end(game=game)
    ended = shown(client, game)
    services.game_reopen(game=game)

    assert ended == {**TWO_ROUNDS, "status": "Ann wins!"}
    assert shown(client, game) == TWO_ROUNDS


def test_a_round_sent_by_a_phone_that_scored_offline_shows(client, game):
    assert shown(client, game) == TWO_ROUNDS

    sync.round_sync(
        game=game,
        key="0b7e3f5c-3d1a-4c3e-9a59-0f1d2e3c4b5a",
        number=3,
        ended_by="stock_exhausted",
        entry=OTHER,
        place=sync.EXACT,
    )

    assert shown(client, game)["rounds"][-1] == (3, [("+90", "190"), ("+10", "60")])


def test_a_league_game_corrected_and_voided_shows_both(client, db):
    league = league_with(UserFactory(username="olive"))
    ann, bob = members(league, "Ann", "Bob").values()
    league_game = table_game(league, [[ann], [bob]])
    game = league_game.game
    round_record(
        game=game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 500}, {"melded_points": 300}],
    )
    before = client.get(f"/g/{game.public_id}/").content.decode()

    round_update(
        game=game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 200}, {"melded_points": 300}],
    )
    leagues.game_void(league_game=league_game, reason="Wrong table", user=None)
    after = client.get(f"/g/{game.public_id}/").content.decode()

    # Ten Thousand's sides are teams or players: "win", as the page always said.
    assert "<h2>Ann win!</h2>" in before and "Voided" not in before
    assert "<h2>Bob win!</h2>" in after
    assert "<p>Final score: Ann 200, Bob 300.</p>" in after
    assert "<strong>Voided:</strong> Wrong table</p>" in after


def test_a_write_on_a_server_whose_clock_is_behind_still_moves_the_version(client, game):
    shown(client, game)
    before = Game.objects.get(pk=game.pk).updated_at

    with mock.patch("django.utils.timezone.now", return_value=before - timedelta(seconds=5)):
        round_record(game=game, number=3, ended_by="stock_exhausted", entry=OTHER)

    assert Game.objects.get(pk=game.pk).updated_at == before + timedelta(microseconds=1)
    assert shown(client, game)["totals"] == ["190", "60"]


def test_two_writes_in_the_same_microsecond_are_two_versions(game):
    frozen = timezone.now() + timedelta(seconds=5)

    with mock.patch("django.utils.timezone.now", return_value=frozen):
        services.game_end(game=game)
        first = live.game_version(Game.objects.get(pk=game.pk))
        services.game_reopen(game=game)
        second = live.game_version(Game.objects.get(pk=game.pk))

    assert int(second, 16) == int(first, 16) + 1


def test_a_scorer_and_a_viewer_each_see_their_own_page_from_one_cached_version(game):
    scorer, viewer = Client(), Client()
    scorer.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    cache.clear()

    mine = scorer.get(f"/g/{game.public_id}/").content.decode()
    theirs = viewer.get(f"/g/{game.public_id}/").content.decode()

    enter = (
        f'<a class="button big" href="/g/{game.public_id}/rounds/new/" data-needs-settled>'
        "Enter round 3</a>"
    )
    assert enter in mine and enter not in theirs
    assert 'data-can-score="1"' in mine and 'data-can-score="0"' in theirs
    assert f"/g/{game.public_id}/join/{game.scorer_token}/" in mine
    assert game.scorer_token not in theirs
    assert "Delete round 2" in mine and "Delete round 2" not in theirs
    assert '<h1>Ann <span class="muted">vs</span> Bob</h1>' in mine
    assert '<h1>Ann <span class="muted">vs</span> Bob</h1>' in theirs
    assert "<title>Ann vs Bob · Hand and Foot scorekeeper</title>" in theirs


def test_the_result_and_its_rematch_form_carry_this_viewers_own_csrf_token(game):
    services.game_end(game=game)
    first, second = Client(), Client()
    for phone in (first, second):
        phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/")

    pages = [phone.get(f"/g/{game.public_id}/") for phone in (first, second)]

    tokens = [
        re.search(
            r'action="/g/[^"]+/rematch/" class="inline"><input type="hidden" '
            r'name="csrfmiddlewaretoken" value="([^"]+)"',
            page.content.decode(),
        ).group(1)
        for page in pages
    ]
    assert tokens[0] != tokens[1]
    assert all("<h2>Ann wins!</h2>" in page.content.decode() for page in pages)
    assert all("<p>Final score: Ann 100, Bob 50.</p>" in page.content.decode() for page in pages)
