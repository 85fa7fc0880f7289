"""Saving a round costs the same at round 20 as at round 2: one engine call for the new round,
the same queries, and only the new round's score rows written."""

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.models import RoundScore
from scorekeeper.rounds.services import round_record
from tests.helpers.round_saves import ENTRY, saved_with_queries, shape


def posted_with_queries(game, number: int) -> tuple[int, int]:
    phone = Client()
    phone.get(reverse("game_join", args=[game.public_id, game.scorer_token]))
    form = {"round_number": str(number), "went_out": "stock", "s0-melded_points": "50"}
    with CaptureQueriesContext(connection) as queries:
        response = phone.post(reverse("round_new", args=[game.public_id]), form)
    assert response.status_code == 302, response.content.decode()[:500]
    return len(queries.captured_queries), game.rounds.count()


def test_the_service_runs_the_same_queries_at_round_2_and_round_20(game_with_rounds):
    early, late = game_with_rounds(1), game_with_rounds(19)
    at_2, at_20 = saved_with_queries(early, 2), saved_with_queries(late, 20)
    # The same statements, but for the ids, numbers and times in them.
    assert [shape(sql, early) for sql in at_2] == [shape(sql, late) for sql in at_20]


def test_saving_round_20_writes_two_score_rows_and_leaves_the_other_38_as_they_were(
    game_with_rounds,
):
    game = game_with_rounds(19)
    before = dict(RoundScore.objects.filter(round__game=game).values_list("pk", "running_total"))
    assert len(before) == 38
    round_record(game=game, number=20, ended_by="stock_exhausted", entry=ENTRY)
    after = dict(RoundScore.objects.filter(round__game=game).values_list("pk", "running_total"))
    assert {pk: after[pk] for pk in before} == before
    new = RoundScore.objects.filter(round__game=game, round__number=20).order_by("side__position")
    assert [(row.points, row.running_total) for row in new] == [(50, 1000), (25, 500)]


def test_the_round_form_posts_round_2_and_round_20_with_the_same_queries(game_with_rounds):
    early, late = game_with_rounds(1), game_with_rounds(19)
    assert posted_with_queries(early, 2) == (posted_with_queries(late, 20)[0], 2)


def test_the_round_forms_save_scores_the_new_round_once(game_with_rounds, monkeypatch):
    game = game_with_rounds(19)
    calls = []
    for name in ("game_status", "game_status_after"):
        real = getattr(engine, name)
        monkeypatch.setattr(
            engine,
            name,
            lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k),
        )
    assert posted_with_queries(game, 20)[1] == 20
    assert calls == ["game_status_after"]
