"""The round page's decisions, one branch each: preview, refuse, ask first, save, conflict, busy."""

import pytest
from django.db import OperationalError

from scorekeeper import engine
from scorekeeper.busy import BUSY, is_busy
from scorekeeper.games import services
from scorekeeper.games.selectors import dealer_for, game_view
from scorekeeper.models import Round
from scorekeeper.rounds import page as round_page
from scorekeeper.rounds import services as round_services
from tests.helpers.games import expected_scores, round_form, side_specs

BASKETS = engine.RULESETS["baskets"]
WENT_OUT, OTHER = expected_scores(BASKETS)
NOT_FIVES = "Bob's melded points must be a multiple of 5, since every card is, not 312."


@pytest.fixture
def game(db):
    return services.game_start(preset="baskets", sides=side_specs("baskets"))


def post(game, data, *, number=1, htmx=False, view=None):
    view = view or game_view(game)
    return round_page.round_post(
        game=game,
        view=view,
        number=number,
        dealer=dealer_for(game, view.sides, number).side_index,
        data=data,
        htmx=htmx,
    )


def stored_totals(game) -> list[list[int]]:
    return [
        [score.running_total for score in r.scores.order_by("side")]
        for r in game.rounds.order_by("number")
    ]


def form_errors(outcome) -> dict[str, tuple[str, ...]]:
    return {slot: errors for slot, errors in outcome.form.slots() if errors}


def test_an_htmx_post_previews_the_round_and_saves_nothing(game):
    outcome = post(game, round_form(BASKETS), htmx=True)
    assert outcome.kind == round_page.PREVIEW
    assert outcome.status_code == 200
    assert dict(outcome.new_totals) == {"Ann": WENT_OUT, "Bob": OTHER}
    assert [side.total for side in outcome.preview.result.sides] == [WENT_OUT, OTHER]
    assert outcome.confirm is False
    assert form_errors(outcome) == {}
    assert Round.objects.count() == 0


def test_an_htmx_post_with_an_error_previews_the_error_and_no_breakdown(game):
    outcome = post(game, round_form(BASKETS, other_melded=312), htmx=True)
    assert outcome.kind == round_page.PREVIEW
    assert outcome.preview is None
    assert dict(outcome.new_totals) == {}
    assert form_errors(outcome) == {"s1-melded_points": (NOT_FIVES,)}
    assert Round.objects.count() == 0


def test_a_save_with_an_error_is_refused_with_the_error_beside_its_field(game):
    outcome = post(game, round_form(BASKETS, other_melded=312))
    assert outcome.kind == round_page.REFUSED
    assert outcome.status_code == 200
    assert outcome.preview is None
    assert form_errors(outcome) == {"s1-melded_points": (NOT_FIVES,)}
    assert outcome.form.blocks[1].melded.points.value == "312"
    assert Round.objects.count() == 0


def test_a_save_of_a_new_round_stores_it(game):
    assert stored_totals(game) == []
    outcome = post(game, round_form(BASKETS))
    assert outcome.kind == round_page.SAVED
    assert outcome.message == "Round 1 saved."
    assert outcome.form is None
    assert stored_totals(game) == [[WENT_OUT, OTHER]]


def test_a_correction_asks_first_with_the_new_totals_and_changes_nothing(game):
    post(game, round_form(BASKETS))
    outcome = post(game, round_form(BASKETS, other_melded=410))
    assert outcome.kind == round_page.CONFIRM
    assert outcome.confirm is True
    assert dict(outcome.new_totals) == {"Ann": WENT_OUT, "Bob": OTHER + 100}
    assert stored_totals(game) == [[WENT_OUT, OTHER]]


def test_a_confirmed_correction_is_saved(game):
    post(game, round_form(BASKETS))
    version = game.rounds.get().version
    data = {**round_form(BASKETS, other_melded=410), "confirm": "1", "round_version": version}
    outcome = post(game, data)
    assert outcome.kind == round_page.SAVED
    assert outcome.message == "Round 1 corrected."
    assert stored_totals(game) == [[WENT_OUT, OTHER + 100]]


def test_a_round_another_phone_saved_first_is_a_conflict(game):
    opened = game_view(game)
    post(game, round_form(BASKETS))
    outcome = post(game, round_form(BASKETS, other_melded=410), view=opened)
    assert outcome.kind == round_page.CONFLICT
    assert outcome.conflict.number == 1
    assert [e.message for e in outcome.conflict.errors] == [
        "Round 1 was already saved, from this phone or another; the game is at round 2."
    ]
    assert stored_totals(game) == [[WENT_OUT, OTHER]]


def test_a_correction_of_a_round_changed_since_is_a_conflict(game):
    post(game, round_form(BASKETS))
    data = {**round_form(BASKETS, other_melded=410), "confirm": "1", "round_version": "old"}
    outcome = post(game, data)
    assert outcome.kind == round_page.CONFLICT
    assert outcome.conflict.number == 1
    assert stored_totals(game) == [[WENT_OUT, OTHER]]


def test_a_busy_database_answers_503_with_the_form_as_typed(game, monkeypatch):
    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(round_services, "round_record", locked)
    outcome = post(game, round_form(BASKETS))
    assert outcome.kind == round_page.BUSY
    assert outcome.status_code == 503
    assert form_errors(outcome) == {"__all__": (BUSY,)}
    assert dict(outcome.new_totals) == {"Ann": WENT_OUT, "Bob": OTHER}
    assert outcome.form.blocks[0].melded.points.value == "1000"
    assert outcome.confirm is False
    assert Round.objects.count() == 0


def test_a_busy_database_asks_the_correction_again(game, monkeypatch):
    post(game, round_form(BASKETS))

    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(round_services, "round_update", locked)
    outcome = post(game, {**round_form(BASKETS, other_melded=410), "confirm": "1"})
    assert outcome.kind == round_page.BUSY
    assert outcome.confirm is True
    assert stored_totals(game) == [[WENT_OUT, OTHER]]


def test_any_other_database_error_is_not_taken_for_busy(game, monkeypatch):
    def broken(**kwargs):
        raise OperationalError("disk I/O error")

    monkeypatch.setattr(round_services, "round_record", broken)
    with pytest.raises(OperationalError, match="disk I/O error"):
        post(game, round_form(BASKETS))


def test_a_shared_cache_lock_naming_its_table_is_busy_too():
    assert is_busy(OperationalError("database table is locked: scorekeeper_game"))
    assert is_busy(OperationalError("database table is locked"))
    assert is_busy(OperationalError("database is locked"))
    assert not is_busy(OperationalError("database table is locked out of its mind"))
    assert not is_busy(OperationalError("no such table: scorekeeper_game"))
