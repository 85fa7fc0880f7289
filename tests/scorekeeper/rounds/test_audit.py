"""Stale forms from a second phone, the game's history and restoring a deleted round."""

import re

import pytest
from django.test import Client
from django.utils import timezone

from leagues.selectors import standings
from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.games.store import Conflict
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_delete_last, round_record, round_restore, round_update
from tests.helpers.games import round_form
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game

BASKETS = engine.RULESETS["baskets"]
SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


def phone(game: Game, user=None) -> Client:
    """Another phone given the scorer link (signed in as `user` if given)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    return client


def hidden(html: str, name: str) -> str:
    return re.search(rf'<input type="hidden" name="{name}" value="([^"]*)">', html).group(1)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def scores(game: Game) -> list[tuple[int, str, int, int]]:
    return list(
        RoundScore.objects.filter(round__game=game)
        .order_by("round__number", "side__position")
        .values_list("round__number", "side__name", "points", "running_total")
    )


def at(stored: Round) -> str:
    return timezone.localtime(stored.updated_at).strftime("%H:%M")


# Stale corrections


def test_a_correction_saved_on_another_phone_first_is_not_overwritten(game_with_rounds):
    game = game_with_rounds(2)
    url = f"/g/{game.public_id}/rounds/2/edit/"
    first, second = phone(game), phone(game)
    opened = hidden(second.get(url).content.decode(), "round_version")
    assert opened == Round.objects.get(number=2).version
    first_version = hidden(first.get(url).content.decode(), "round_version")

    saved = first.post(url, {**round_form(BASKETS), "round_version": first_version, "confirm": "1"})
    assert saved.status_code == 302
    after_first = scores(game)
    # The second phone's confirmation step keeps the version its form was opened on.
    asking = second.post(url, {**round_form(BASKETS, other_melded=400), "round_version": opened})
    assert hidden(asking.content.decode(), "round_version") == opened
    stale = second.post(
        url,
        {**round_form(BASKETS, other_melded=400), "round_version": opened, "confirm": "1"},
        follow=True,
    )

    stored = Round.objects.get(number=2)
    assert stale.redirect_chain == [(f"/g/{game.public_id}/rounds/2/", 302)]
    assert messages_of(stale) == [
        f"Round 2 was corrected on another phone at {at(stored)} while you were editing; "
        "nothing you entered was saved. This is the round as stored now."
    ]
    assert stored.entry[1]["melded_points"] == 310
    assert scores(game) == after_first
    assert GameEvent.objects.filter(kind="round_changed").count() == 1


def test_a_correction_of_a_round_deleted_meanwhile_is_refused(game_with_rounds):
    game = game_with_rounds(2)
    url = f"/g/{game.public_id}/rounds/2/edit/"
    editing = phone(game)
    opened = hidden(editing.get(url).content.decode(), "round_version")
    round_delete_last(game=game)
    before = scores(game)

    with pytest.raises(Conflict) as refused:
        round_update(game=game, number=2, ended_by="stock_exhausted", entry=SMALL, version=opened)

    assert refused.value.errors[0].message == (
        "Round 2 was deleted on another phone while you were editing; "
        "nothing you entered was saved."
    )
    assert scores(game) == before


def test_a_round_deleted_and_entered_again_is_not_overwritten_by_the_old_form(game_with_rounds):
    game = game_with_rounds(2)
    opened = Round.objects.get(number=2).version
    round_delete_last(game=game)
    again = [{"melded_points": 90}, {"melded_points": 10}]
    round_record(game=game, number=2, ended_by="stock_exhausted", entry=again)

    with pytest.raises(Conflict) as refused:
        round_update(game=game, number=2, ended_by="stock_exhausted", entry=SMALL, version=opened)

    stored = Round.objects.get(number=2)
    assert refused.value.errors[0].message == (
        f"Round 2 was deleted and entered again on another phone at {at(stored)} while you were "
        "editing; nothing you entered was saved. This is the round as stored now."
    )
    assert refused.value.number == 2
    assert stored.entry == again


# Deleting the last round from a stale confirmation page


def test_deleting_a_round_that_is_no_longer_the_last_is_refused(game_with_rounds):
    game = game_with_rounds(2)
    url = f"/g/{game.public_id}/rounds/delete-last/"
    deleting = phone(game)
    page = deleting.get(url).content.decode()
    assert hidden(page, "round_number") == "2"
    round_record(game=game, number=3, ended_by="stock_exhausted", entry=SMALL)
    before = scores(game)

    refused = deleting.post(
        url,
        {"round_number": "2", "round_version": hidden(page, "round_version")},
        follow=True,
    )

    assert refused.redirect_chain == [(f"/g/{game.public_id}/", 302)]
    assert messages_of(refused) == [
        "Round 2 is no longer the last round: the game is at round 3, entered on another phone "
        "meanwhile, so nothing was deleted."
    ]
    assert scores(game) == before


def test_two_phones_confirming_the_same_deletion_delete_one_round(game_with_rounds):
    game = game_with_rounds(3)
    url = f"/g/{game.public_id}/rounds/delete-last/"
    first, second = phone(game), phone(game)
    forms = [
        {
            "round_number": hidden(page, "round_number"),
            "round_version": hidden(page, "round_version"),
        }
        for page in (first.get(url).content.decode(), second.get(url).content.decode())
    ]

    done = first.post(url, forms[0], follow=True)
    refused = second.post(url, forms[1], follow=True)

    assert messages_of(done) == ["Round 3 deleted."]
    assert messages_of(refused) == [
        "Round 3 was already deleted, from this phone or another, so nothing else was deleted."
    ]
    assert list(game.rounds.values_list("number", flat=True)) == [1, 2]


def test_deleting_a_round_corrected_since_the_question_is_refused(game_with_rounds):
    game = game_with_rounds(2)
    version = Round.objects.get(number=2).version
    round_update(game=game, number=2, ended_by="stock_exhausted", entry=[{"melded_points": 90}, {}])

    with pytest.raises(Conflict) as refused:
        round_delete_last(game=game, number=2, version=version)

    stored = Round.objects.get(number=2)
    assert refused.value.errors[0].message == (
        f"Round 2 was corrected on another phone at {at(stored)} after you asked to delete it; "
        "nothing was deleted. This is the round as stored now."
    )
    assert game.rounds.count() == 2


def test_a_round_form_opened_before_a_deletion_is_not_saved_in_the_wrong_place(
    game_with_rounds,
):
    game = game_with_rounds(2)
    entering = phone(game)
    assert (
        hidden(entering.get(f"/g/{game.public_id}/rounds/new/").content.decode(), "round_number")
        == "3"
    )
    round_delete_last(game=game)

    refused = entering.post(
        f"/g/{game.public_id}/rounds/new/",
        {**round_form(BASKETS), "round_number": "3"},
        follow=True,
    )

    assert messages_of(refused) == [
        "Round 3 was not saved: a round was deleted on another phone meanwhile, so the game is "
        "at round 2."
    ]
    assert list(game.rounds.values_list("number", flat=True)) == [1]


def test_a_double_tap_on_the_round_that_ends_the_game_shows_the_stored_round(scorer, start_game):
    url = start_game("baskets")
    for number in ("1", "2", "3"):
        form = {**round_form(BASKETS), "round_number": number}
        assert scorer.post(url + "rounds/new/", form, follow=True).status_code == 200
    assert Game.objects.get().finished

    again = scorer.post(url + "rounds/new/", form, follow=True)

    assert again.redirect_chain == [(url + "rounds/3/", 302)]
    assert messages_of(again) == [
        "Round 3 was already saved, from this phone or another, so nothing was added. "
        "This is the stored round; correct it if it is wrong."
    ]
    assert Round.objects.count() == 3


# The history


def test_every_change_is_in_the_history_with_who_and_the_values_before_and_after(db):
    olive = UserFactory(username="olive")
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=SMALL)
    corrected = [{"melded_points": 60}, SMALL[1]]
    round_update(game=game, number=1, ended_by="stock_exhausted", entry=corrected, user=olive)
    services.game_end(game=game, user=olive)
    services.game_reopen(game=game)
    services.game_claim(game=game, user=olive)
    round_record(game=game, number=2, ended_by="stock_exhausted", entry=SMALL)
    round_delete_last(game=game, user=olive)
    deleted = GameEvent.objects.get(kind="round_deleted")
    round_restore(game=game, event_id=deleted.pk, user=olive)
    rematch = services.game_rematch(game=game, user=olive)

    events = list(
        game.events.order_by("id").values_list("kind", "who", "round_number", "before", "after")
    )
    result = {"finished": False, "winner": None, "tie": False}
    won = {"finished": True, "winner": "Ann", "tie": False}

    def totals(ann: int, bob: int) -> dict:
        return {"totals": {"Ann": ann, "Bob": bob}}

    first = {"ended_by": "stock_exhausted", "entry": SMALL, **totals(50, 25)}
    second = {"ended_by": "stock_exhausted", "entry": corrected, **totals(60, 25)}
    again = {"ended_by": "stock_exhausted", "entry": SMALL, **totals(110, 50)}
    assert [event[:3] for event in events] == [
        ("started", "a scorer's phone", None),
        ("round_added", "a scorer's phone", 1),
        ("round_changed", "olive", 1),
        ("ended", "olive", None),
        ("reopened", "a scorer's phone", None),
        ("claimed", "olive", None),
        ("round_added", "a scorer's phone", 2),
        ("round_deleted", "olive", 2),
        ("round_restored", "olive", 2),
    ]
    assert [event[3:] for event in events[1:]] == [
        (totals(0, 0), first),
        (first, second),
        (result, won),
        (won, result),
        ({"owner": None}, {"owner": "olive"}),
        (totals(60, 25), again),
        (again, totals(60, 25)),
        (totals(60, 25), again),
    ]
    started = rematch.events.get()
    assert (started.kind, started.who, started.after["rematch_of"]) == (
        "started",
        "olive",
        game.public_id,
    )
    assert started.after["sides"] == ["Ann", "Bob"]


def test_the_history_page_lists_the_changes_in_a_fixed_number_of_queries(
    game_with_rounds, django_assert_num_queries
):
    game = game_with_rounds(3)
    for _ in range(2):
        round_delete_last(game=game)
    viewer = phone(game)

    # One of them is the phone's right to score the game, read from its row.
    with django_assert_num_queries(10):
        html = viewer.get(f"/g/{game.public_id}/history/").content.decode()

    assert html.count("deleted (the stock ran out); totals") == 2
    assert "Round 2 deleted (the stock ran out); totals Ann 100 → 50, Bob 50 → 25." in html
    assert html.count("entered: the stock ran out; totals") == 3


# Restoring a deleted round


def test_a_deleted_round_comes_back_as_it_was_with_its_totals(game_with_rounds):
    game = game_with_rounds(3)
    olive = UserFactory(username="olive")
    scoring = phone(game, olive)
    stored = Round.objects.get(number=3)
    entry, ended_by = stored.entry, stored.ended_by
    before = scores(game)
    totals = list(Side.objects.order_by("position").values_list("total", flat=True))
    assert (
        scoring.post(f"/g/{game.public_id}/rounds/delete-last/", {"round_number": "3"}).status_code
        == 302
    )
    assert totals != list(Side.objects.order_by("position").values_list("total", flat=True))
    event = GameEvent.objects.get(kind="round_deleted")
    history = scoring.get(f"/g/{game.public_id}/history/").content.decode()
    action = f"/g/{game.public_id}/history/{event.pk}/restore/"
    assert f'<form method="post" action="{action}">' in history
    assert "Restore round 3</button>" in history

    restored = scoring.post(action, follow=True)

    assert restored.redirect_chain == [(f"/g/{game.public_id}/", 302)]
    assert messages_of(restored) == ["Round 3 restored."]
    again = Round.objects.get(number=3)
    assert (again.entry, again.ended_by) == (entry, ended_by)
    assert scores(game) == before
    assert list(Side.objects.order_by("position").values_list("total", flat=True)) == totals
    history = scoring.get(f"/g/{game.public_id}/history/").content.decode()
    restored_line = "Round 3 restored (the stock ran out); totals Ann 100 → 150, Bob 50 → 75.</p>"
    assert restored_line in history
    assert '<span class="muted">by olive,' in history.split(restored_line)[1][:80]
    assert "Restore round 3</button>" not in history


def test_a_deleted_round_entered_again_cannot_come_back(game_with_rounds):
    game = game_with_rounds(3)
    scoring = phone(game)
    round_delete_last(game=game)
    event = GameEvent.objects.get(kind="round_deleted")
    again = [{"melded_points": 90}, {"melded_points": 10}]
    round_record(game=game, number=3, ended_by="stock_exhausted", entry=again)
    before = scores(game)
    history = scoring.get(f"/g/{game.public_id}/history/").content.decode()
    assert "Restore round" not in history

    refused = scoring.post(f"/g/{game.public_id}/history/{event.pk}/restore/", follow=True)

    assert refused.redirect_chain == [(f"/g/{game.public_id}/history/", 302)]
    assert messages_of(refused) == [
        "Round 3 cannot come back: round 3 has been entered again since it was deleted."
    ]
    assert Round.objects.get(number=3).entry == again
    assert scores(game) == before
    assert not GameEvent.objects.filter(kind="round_restored").exists()


def test_a_round_cannot_come_back_before_the_rounds_deleted_after_it(game_with_rounds):
    game = game_with_rounds(3)
    round_delete_last(game=game)
    round_delete_last(game=game)
    third = GameEvent.objects.get(kind="round_deleted", round_number=3)

    with pytest.raises(engine.RoundError) as refused:
        round_restore(game=game, event_id=third.pk)

    assert refused.value.errors[0].message == (
        "Round 3 cannot come back before round 2: restore or enter round 2 first."
    )
    assert game.rounds.count() == 1


def test_only_a_scoring_phone_may_restore_a_round(game_with_rounds, client):
    game = game_with_rounds(2)
    round_delete_last(game=game)
    event = GameEvent.objects.get(kind="round_deleted")
    history = client.get(f"/g/{game.public_id}/history/").content.decode()
    assert "Restore round" not in history

    refused = client.post(f"/g/{game.public_id}/history/{event.pk}/restore/")

    assert refused.status_code == 403
    assert (
        "Only the phones scoring this game can restore a round. Ask a scorer for the scorer link."
    ) in refused.content.decode()
    assert game.rounds.count() == 1


def test_a_league_games_standings_follow_a_restored_round(db):
    league = league_with(UserFactory(username="olive"))
    people = members(league, "Ann", "Bob", "Cy", "Di")
    league_game = table_game(league, [[people["Ann"], people["Bob"]], [people["Cy"], people["Di"]]])
    play(league_game, [500, 300])
    counted = {row.name: (row.games, row.wins, row.league_points) for row in standings(league)}
    assert counted == {"Ann": (1, 1, 2), "Bob": (1, 1, 2), "Cy": (1, 0, 0), "Di": (1, 0, 0)}
    game = league_game.game

    round_delete_last(game=game)
    assert standings(league) == []
    event = game.events.get(kind="round_deleted")
    round_restore(game=game, event_id=event.pk)

    game.refresh_from_db()
    assert game.finished and game.winner.name == "Ann & Bob"
    assert {
        row.name: (row.games, row.wins, row.league_points) for row in standings(league)
    } == counted
