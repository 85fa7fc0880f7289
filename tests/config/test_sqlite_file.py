"""Tables saving at the same moment on the embedded default: an SQLite file, as `make run` uses,
with the options the settings give it, each thread on its own connection."""

import re
from html import unescape

import pytest
from django.db import connection
from django.test import Client

from scorekeeper import engine
from scorekeeper.busy import BUSY
from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent, Round, Side
from scorekeeper.rounds.services import round_record
from tests.helpers.games import expected_scores, round_form, side_specs
from tests.helpers.races import together, write_lock_held

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "sqlite", reason="the embedded default's own locking is SQLite's"
    ),
]

TABLES = 10
BASKETS = engine.RULESETS["baskets"]
SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


def scoring_phone(game: Game) -> Client:
    phone = Client()
    phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/", follow=True)
    return phone


def said(response) -> list[str]:
    html = response.content.decode()
    return [
        unescape(text)
        for text in re.findall(
            r'<(?:li class="message [a-z]+"|p class="field-error" role="alert")>([^<]*)<', html
        )
    ]


def test_the_file_is_in_wal_mode_and_takes_the_write_lock_up_front(club_file):
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone() == ("wal",)
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone() == (1,)  # NORMAL
    assert connection.transaction_mode == "IMMEDIATE"
    assert connection.settings_dict["OPTIONS"]["timeout"] == 20


def test_ten_games_recording_a_round_at_the_same_moment_store_all_ten_three_times_over(club_file):
    games = [
        services.game_start(preset="baskets", sides=side_specs("baskets")) for _ in range(TABLES)
    ]

    for number in (1, 2, 3):

        def record(index: int, number: int = number) -> int:
            round_record(game=games[index], number=number, ended_by="stock_exhausted", entry=SMALL)
            return index

        assert together(record, TABLES) == list(range(TABLES))

    assert Round.objects.count() == 3 * TABLES
    for game in games:
        assert list(game.rounds.values_list("number", flat=True)) == [1, 2, 3]
        assert list(game.sides.order_by("position").values_list("total", flat=True)) == [150, 75]
    assert GameEvent.objects.filter(kind="round_added").count() == 3 * TABLES


def test_ten_phones_saving_a_round_on_ten_tables_at_the_same_moment_are_all_told_saved(
    club_file,
):
    games = [
        services.game_start(preset="baskets", sides=side_specs("baskets")) for _ in range(TABLES)
    ]
    phones = [scoring_phone(game) for game in games]
    form = {**round_form(BASKETS), "round_number": "1"}

    def save(index: int):
        url = f"/g/{games[index].public_id}/"
        response = phones[index].post(url + "rounds/new/", form, follow=True)
        return response.status_code, response.redirect_chain, said(response)

    results = together(save, TABLES)

    assert results == [
        (200, [(f"/g/{game.public_id}/", 302)], ["Round 1 saved."]) for game in games
    ]
    assert Round.objects.count() == TABLES
    for game in games:
        assert list(game.sides.order_by("position").values_list("total", flat=True)) == list(
            expected_scores(BASKETS)
        )


def test_a_round_still_refused_after_the_busy_timeout_gets_its_form_back_and_nothing_is_kept(
    club_file,
):
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    phone = scoring_phone(game)
    url = f"/g/{game.public_id}/rounds/new/"
    form = {**round_form(BASKETS), "round_number": "1"}

    with write_lock_held(club_file):
        refused = phone.post(url, form)

    html = refused.content.decode()
    assert refused.status_code == 503
    assert said(refused) == [BUSY]
    assert BUSY == (
        "The scorebook is busy with another table's save; nothing was saved. Tap Save again."
    )
    # The form as typed, ready to send again.
    assert '<input type="hidden" name="round_number" value="1">' in html
    assert 'name="s0-melded_points" value="1000"' in html
    assert "Save round 1" in html
    assert Round.objects.count() == 0
    assert GameEvent.objects.filter(kind="round_added").count() == 0
    assert list(Side.objects.values_list("total", flat=True)) == [0, 0]

    again = phone.post(url, form, follow=True)

    assert said(again) == ["Round 1 saved."]
    assert Round.objects.count() == 1


def test_the_live_preview_answers_while_another_table_holds_the_write_lock(club_file):
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    phone = scoring_phone(game)
    form = {**round_form(BASKETS), "round_number": "1"}

    with write_lock_held(club_file):
        preview = phone.post(
            f"/g/{game.public_id}/rounds/new/", form, headers={"HX-Request": "true"}
        )

    went_out, other = expected_scores(BASKETS)
    assert preview.status_code == 200
    assert (
        f"Totals after round 1: Ann <strong>{went_out:,}</strong>, Bob <strong>{other:,}</strong>"
        in preview.content.decode()
    )
    assert Round.objects.count() == 0


def test_a_correction_refused_as_busy_keeps_its_values_and_its_confirmation(club_file):
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=SMALL)
    phone = scoring_phone(game)
    version = Round.objects.get().version
    form = {**round_form(BASKETS), "round_version": version, "confirm": "1"}

    with write_lock_held(club_file):
        refused = phone.post(f"/g/{game.public_id}/rounds/1/edit/", form)

    html = refused.content.decode()
    assert refused.status_code == 503
    assert said(refused) == [BUSY]
    assert f'<input type="hidden" name="round_version" value="{version}">' in html
    assert "Yes, save the correction" in html
    assert Round.objects.get().entry == SMALL
    assert GameEvent.objects.filter(kind="round_changed").count() == 0


def test_any_other_write_refused_as_busy_answers_503_with_the_same_form_to_send_again(
    club_file,
):
    game = services.game_start(preset="baskets", sides=side_specs("baskets"))
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=SMALL)
    phone = scoring_phone(game)
    url = f"/g/{game.public_id}/rounds/delete-last/"
    version = Round.objects.get().version

    with write_lock_held(club_file):
        refused = phone.post(url, {"round_number": "1", "round_version": version})

    html = refused.content.decode()
    assert refused.status_code == 503
    assert refused["Retry-After"] == "1"
    assert said(refused) == [BUSY]
    assert f'<form method="post" action="{url}">' in html
    assert '<input type="hidden" name="round_number" value="1">' in html
    assert f'<input type="hidden" name="round_version" value="{version}">' in html
    assert "Save again" in html
    assert Round.objects.count() == 1
    assert GameEvent.objects.filter(kind="round_deleted").count() == 0

    again = phone.post(url, {"round_number": "1", "round_version": version}, follow=True)

    assert said(again) == ["Round 1 deleted."]
    assert Round.objects.count() == 0
