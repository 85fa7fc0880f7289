"""Pages that follow a game live (the game's ETag and its state check) and Undo of a save."""

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.games import live, services
from scorekeeper.models import Game, GameEvent, Round
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_delete_last, round_record, round_update
from tests.helpers.games import round_form

BASKETS = engine.RULESETS["baskets"]
SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


def phone(game: Game) -> Client:
    """A phone given the scorer link."""
    client = Client()
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/", follow=True)
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def etag(game: Game) -> str:
    return live.game_etag(Game.objects.get(pk=game.pk).updated_at)


def watched(html: str) -> tuple[str, str]:
    found = re.search(r'data-watch="([^"]+)" data-etag="([^"]+)"', html)
    return found.group(1), found.group(2).replace("&quot;", '"')


def kinds(game: Game) -> list[tuple[str, int | None]]:
    return list(game.events.order_by("at", "id").values_list("kind", "round_number"))


# The state check


def test_the_state_check_answers_304_with_no_body_while_the_game_is_unchanged(
    game_with_rounds, django_assert_num_queries
):
    game = game_with_rounds(1)
    url = f"/g/{game.public_id}/state"
    first = Client().get(url)
    assert first.status_code == 200
    assert first.json() == {"rounds": 1, "finished": False}
    assert first["ETag"] == etag(game)
    assert first["Cache-Control"] == "no-cache"

    with django_assert_num_queries(1):
        again = Client().get(url, headers={"If-None-Match": first["ETag"]})

    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_the_state_check_answers_200_once_another_phone_saves_a_round(game_with_rounds):
    game = game_with_rounds(1)
    url = f"/g/{game.public_id}/state"
    seen = Client().get(url)["ETag"]

    round_record(game=game, number=2, ended_by="stock_exhausted", entry=SMALL)
    changed = Client().get(url, headers={"If-None-Match": seen})

    assert changed.status_code == 200
    assert changed.json() == {"rounds": 2, "finished": False}
    assert changed["ETag"] != seen
    assert changed["ETag"] == etag(game)


@pytest.mark.parametrize(
    "write",
    [
        lambda game: round_record(game=game, number=3, ended_by="stock_exhausted", entry=SMALL),
        lambda game: round_update(
            game=game, number=1, ended_by="stock_exhausted", entry=[{"melded_points": 90}, {}]
        ),
        lambda game: round_delete_last(game=game),
        lambda game: round_delete_last(
            game=game, number=2, undo_within=datetime.timedelta(seconds=60)
        ),
        lambda game: services.game_end(game=game),
    ],
    ids=["record", "correct", "delete", "undo", "end"],
)
def test_every_round_write_changes_the_games_etag(game_with_rounds, write):
    game = game_with_rounds(2)
    before = etag(game)
    write(game)
    assert etag(game) != before


def test_the_state_check_of_a_game_that_does_not_exist_is_404(db):
    assert Client().get("/g/nothing-here/state").status_code == 404


# The pages that watch


def test_the_game_page_round_detail_and_new_round_form_watch_the_game(game_with_rounds):
    game = game_with_rounds(1)
    scorer = phone(game)
    state = f"/g/{game.public_id}/state"
    for path in ["", "rounds/1/", "rounds/new/"]:
        html = scorer.get(f"/g/{game.public_id}/{path}").content.decode()
        assert watched(html) == (state, etag(game)), path

    form = scorer.get(f"/g/{game.public_id}/rounds/new/").content.decode()
    assert 'data-round-new="2"' in form
    assert re.search(
        r'<p id="round-taken" class="message error" role="alert" hidden>Round 2 was just saved on '
        r"another phone\. What you typed is kept: if the table played another round, save it as "
        r'round <span data-round-next>3</span>; if not, <a href="/g/[^/]+/rounds/2/">see round '
        r"2</a>\.</p>",
        form,
    )


def test_a_correction_form_does_not_watch_the_game(game_with_rounds):
    game = game_with_rounds(1)
    html = phone(game).get(f"/g/{game.public_id}/rounds/1/edit/").content.decode()
    assert "data-watch" not in html
    assert "round-taken" not in html


def test_the_game_page_refreshes_its_live_section_from_itself(game_with_rounds):
    game = game_with_rounds(1)
    html = Client().get(f"/g/{game.public_id}/").content.decode()
    assert (
        f'id="live" data-watch="/g/{game.public_id}/state" data-etag="{etag(game)}" '
        f'hx-get="/g/{game.public_id}/" hx-trigger="game-changed from:body" hx-select="#live" '
        'hx-swap="outerHTML" hx-disinherit="*"'
    ) in html.replace("&quot;", '"')


def test_a_round_details_live_refresh_gets_the_whole_page_and_the_panel_the_breakdown(
    game_with_rounds,
):
    game = game_with_rounds(1)
    url = f"/g/{game.public_id}/rounds/1/"
    refresh = Client().get(url, headers={"HX-Request": "true", "HX-Target": "live"})
    panel = Client().get(url, headers={"HX-Request": "true", "HX-Target": "breakdown-panel"})
    assert 'id="live"' in refresh.content.decode()
    assert "<html" in refresh.content.decode()
    assert panel.content.decode().lstrip().startswith('<section id="breakdown">')


# Undo


def save_round_one(scorer: Client, game: Game):
    return scorer.post(f"/g/{game.public_id}/rounds/new/", round_form(BASKETS), follow=True)


def undo(scorer: Client, game: Game, number: int = 1):
    return scorer.post(
        f"/g/{game.public_id}/rounds/undo/", {"round_number": str(number)}, follow=True
    )


@pytest.fixture
def new_game(db) -> Game:
    return services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])


def test_the_saved_message_carries_an_undo_button(new_game):
    game = new_game
    scorer = phone(game)
    saved = save_round_one(scorer, game)
    html = saved.content.decode()
    assert messages_of(saved) == ["Round 1 saved."]
    form = re.search(
        r'<form method="post" action="([^"]+)" class="inline undo" '
        r'data-undo-seconds="(\d+)">.*?</form>',
        html,
        re.S,
    )
    assert form.group(1) == f"/g/{game.public_id}/rounds/undo/"
    assert 55 <= int(form.group(2)) <= 60
    assert '<input type="hidden" name="round_number" value="1">' in form.group(0)
    assert (
        '<button class="button secondary">Undo<span class="visually-hidden"> round 1</span>'
        "</button>" in form.group(0)
    )


def test_undo_removes_the_round_just_saved_and_its_history_entry(new_game):
    game = new_game
    scorer = phone(game)
    save_round_one(scorer, game)
    assert kinds(game) == [("started", None), ("round_added", 1)]
    assert Client().get(f"/g/{game.public_id}/state").json()["rounds"] == 1

    undone = undo(scorer, game)

    assert messages_of(undone) == ["Round 1 removed."]
    assert undone.redirect_chain == [(f"/g/{game.public_id}/", 302)]
    assert list(game.rounds.all()) == []
    assert kinds(game) == [("started", None)]
    assert list(game.sides.values_list("total", flat=True)) == [0, 0]
    assert "undo" not in undone.content.decode()


def test_a_second_undo_is_refused_and_changes_nothing(new_game):
    game = new_game
    scorer = phone(game)
    save_round_one(scorer, game)
    undo(scorer, game)
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=SMALL)
    before = kinds(game)

    again = undo(scorer, game)

    assert messages_of(again) == [
        "Round 1 can be undone only on the phone that saved it, within 60 seconds, so nothing "
        "was removed. If it is wrong, correct or delete it from the game page."
    ]
    assert game.rounds.count() == 1
    assert kinds(game) == before


def test_a_repeated_undo_of_a_round_already_removed_says_so(new_game):
    game = new_game
    scorer = phone(game)
    save_round_one(scorer, game)
    undo(scorer, game)

    again = undo(scorer, game)

    assert messages_of(again) == ["Round 1 was already removed, so nothing else was removed."]
    assert kinds(game) == [("started", None)]


def test_undo_after_its_window_is_refused_and_changes_nothing(new_game):
    game = new_game
    scorer = phone(game)
    save_round_one(scorer, game)
    saved_at = Round.objects.get(game=game).created_at
    Round.objects.filter(game=game).update(created_at=saved_at - datetime.timedelta(seconds=61))

    late = undo(scorer, game)

    assert messages_of(late) == [
        "Round 1 was saved more than 60 seconds ago, so it can no longer be undone and nothing "
        "was removed. If it is wrong, correct or delete it from the game page."
    ]
    assert game.rounds.count() == 1
    assert kinds(game) == [("started", None), ("round_added", 1)]


def test_the_undo_button_is_gone_from_the_page_once_its_window_has_passed(new_game):
    game = new_game
    scorer = phone(game)
    scorer.post(f"/g/{game.public_id}/rounds/new/", round_form(BASKETS))
    offer = scorer.session[live.UNDO_KEY]
    old = datetime.datetime.fromisoformat(offer["version"]) - datetime.timedelta(seconds=61)
    session = scorer.session
    session[live.UNDO_KEY] = {**offer, "version": old.isoformat()}
    session.save()

    page = scorer.get(f"/g/{game.public_id}/")

    assert messages_of(page) == ["Round 1 saved."]
    assert "rounds/undo/" not in page.content.decode()


def test_undo_from_another_scoring_phone_is_refused(new_game):
    game = new_game
    save_round_one(phone(game), game)

    other = undo(phone(game), game)

    assert messages_of(other) == [
        "Round 1 can be undone only on the phone that saved it, within 60 seconds, so nothing "
        "was removed. If it is wrong, correct or delete it from the game page."
    ]
    assert game.rounds.count() == 1


def test_undo_is_refused_once_another_phone_has_saved_the_next_round(new_game):
    game = new_game
    scorer = phone(game)
    save_round_one(scorer, game)
    round_record(game=game, number=2, ended_by="stock_exhausted", entry=SMALL)

    refused = undo(scorer, game)

    assert messages_of(refused) == [
        "Round 1 is no longer the last round: the game is at round 2, entered on another phone "
        "meanwhile, so nothing was deleted."
    ]
    assert list(game.rounds.values_list("number", flat=True)) == [1, 2]
    assert kinds(game) == [("started", None), ("round_added", 1), ("round_added", 2)]


def test_undo_is_refused_once_another_phone_has_corrected_the_round(new_game):
    game = new_game
    scorer = phone(game)
    save_round_one(scorer, game)
    round_update(game=game, number=1, ended_by="stock_exhausted", entry=[{"melded_points": 90}, {}])
    stored = Round.objects.get(game=game)

    refused = undo(scorer, game)

    at = timezone.localtime(stored.updated_at).strftime("%H:%M")
    assert messages_of(refused) == [
        f"Round 1 was corrected on another phone at {at} after it was saved, so it can no longer "
        "be undone; nothing was removed. This is the round as stored now."
    ]
    assert refused.redirect_chain == [(f"/g/{game.public_id}/rounds/1/", 302)]
    assert game.rounds.count() == 1


def test_undo_needs_a_scoring_phone(new_game):
    game = new_game
    save_round_one(phone(game), game)
    assert (
        Client().post(f"/g/{game.public_id}/rounds/undo/", {"round_number": "1"}).status_code == 403
    )
    assert game.rounds.count() == 1


def test_undo_drops_only_the_history_entry_of_the_save_it_undoes(game_with_rounds):
    game = game_with_rounds(2)
    round_delete_last(game=game)
    round_record(game=game, number=2, ended_by="stock_exhausted", entry=SMALL)

    round_delete_last(game=game, number=2, undo_within=live.UNDO_WINDOW)

    assert kinds(game) == [
        ("started", None),
        ("round_added", 1),
        ("round_added", 2),
        ("round_deleted", 2),
    ]
    assert GameEvent.objects.filter(game=game, kind="round_deleted").count() == 1


def test_a_preview_arriving_after_its_round_was_saved_leaves_the_saved_message_and_undo(
    new_game,
):
    game = new_game
    scorer = phone(game)
    url = f"/g/{game.public_id}/rounds/new/"
    scorer.post(url, round_form(BASKETS))

    late = scorer.post(url, round_form(BASKETS), headers={"HX-Request": "true"})
    page = scorer.get(f"/g/{game.public_id}/")

    assert late.status_code == 204
    assert late.content == b""
    assert messages_of(page) == ["Round 1 saved."]
    assert f'action="/g/{game.public_id}/rounds/undo/"' in page.content.decode()
    assert game.rounds.count() == 1


def test_undo_of_the_round_that_ended_the_game_opens_it_again(new_game):
    game = new_game
    scorer = phone(game)
    number = 0
    while not Game.objects.get(pk=game.pk).finished:
        number += 1
        ended = scorer.post(
            f"/g/{game.public_id}/rounds/new/", round_form(BASKETS, number=number), follow=True
        )
    assert messages_of(ended) == [f"Round {number} saved."]

    undone = undo(scorer, game, number)

    game.refresh_from_db()
    assert messages_of(undone) == [f"Round {number} removed."]
    assert (game.finished, game.winner, game.tie) == (False, None, False)
    assert game.rounds.count() == number - 1
    enter = f'href="/g/{game.public_id}/rounds/new/" data-needs-settled>Enter round {number}</a>'
    assert enter in undone.content.decode()


def test_a_live_refresh_leaves_the_saved_message_and_undo_for_the_next_page(new_game):
    game = new_game
    scorer = phone(game)
    scorer.post(f"/g/{game.public_id}/rounds/new/", round_form(BASKETS))

    refresh = scorer.get(
        f"/g/{game.public_id}/", headers={"HX-Request": "true", "HX-Target": "live"}
    )
    page = scorer.get(f"/g/{game.public_id}/")

    assert "Round 1 saved." not in refresh.content.decode()
    assert messages_of(page) == ["Round 1 saved."]
    assert f'action="/g/{game.public_id}/rounds/undo/"' in page.content.decode()
