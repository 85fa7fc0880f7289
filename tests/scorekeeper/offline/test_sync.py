"""Rounds and games sent by a phone that scored offline: stored once, never doubled, never
dropped; a round another phone saved first is reported, not overwritten."""

import json

import pytest
from django.db import connection
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.games import live, services
from scorekeeper.models import Game, GameEvent, Round
from scorekeeper.offline import sync
from scorekeeper.rounds.services import round_delete_last, round_record, round_update
from tests.helpers.games import side_specs, start_form
from tests.helpers.races import together

SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]
OTHER = [{"melded_points": 90}, {"melded_points": 10}]
KEY = "0b7e3f5c-3d1a-4c3e-9a59-0f1d2e3c4b5a"
PUBLIC_ID = "Zm9vYmFyYmF6cXV4MTIzNA"


def baskets() -> Game:
    return services.game_start(preset="baskets", sides=side_specs("baskets"))


def sync_round(game: Game, **sent) -> sync.Synced:
    fields = {"key": KEY, "number": 1, "ended_by": "stock_exhausted", "entry": SMALL}
    return sync.round_sync(game=game, **{"place": sync.EXACT, **fields, **sent})


def rounds_of(game: Game) -> list[tuple[int, list, str | None]]:
    return list(game.rounds.order_by("number").values_list("number", "entry", "client_key"))


def kinds(game: Game) -> list[tuple[str, int | None]]:
    return list(game.events.order_by("at", "id").values_list("kind", "round_number"))


def version(game: Game) -> str:
    return live.game_etag(Game.objects.get(pk=game.pk).updated_at)


def test_a_round_sent_for_the_next_number_is_stored_with_its_key_and_history(db):
    game = baskets()
    before = version(game)

    synced = sync_round(game)

    assert (synced.status, synced.number, synced.message) == ("stored", 1, "")
    assert synced.round == Round.objects.get()
    assert rounds_of(game) == [(1, SMALL, KEY)]
    assert list(game.sides.order_by("position").values_list("total", flat=True)) == [50, 25]
    assert kinds(game) == [("started", None), ("round_added", 1)]
    assert version(game) != before


def test_the_same_key_sent_again_is_already_stored_and_changes_nothing(db):
    game = baskets()
    sync_round(game)
    before = (rounds_of(game), kinds(game), version(game))

    again = sync_round(game)
    elsewhere = sync_round(game, number=7, place=sync.END, entry=OTHER)

    assert (again.status, again.number, again.round) == ("already", 1, Round.objects.get())
    assert (elsewhere.status, elsewhere.number) == ("already", 1)
    assert (rounds_of(game), kinds(game), version(game)) == before
    assert Round.objects.count() == 1


def test_a_round_sent_again_after_another_phone_deleted_it_does_not_come_back(db):
    game = baskets()
    sync_round(game)
    round_delete_last(game=game)
    before = (rounds_of(game), kinds(game), version(game))

    again = sync_round(game)

    assert (again.status, again.number, again.round) == ("already", 1, None)
    assert (rounds_of(game), kinds(game), version(game)) == before == ([], before[1], before[2])
    assert game.events.get(kind="round_deleted").before["key"] == KEY


def test_a_round_sent_again_after_another_phone_replaced_it_is_already_stored(db):
    game = baskets()
    mine = sync_round(game, key="mine").round
    sync_round(game, key="theirs", place=sync.REPLACE, entry=OTHER, version=mine.version)
    before = (rounds_of(game), kinds(game))

    again = sync_round(game, key="mine")

    assert (again.status, again.number, again.round) == ("already", 1, None)
    assert (rounds_of(game), kinds(game)) == before == ([(1, OTHER, "theirs")], before[1])


def test_a_round_number_another_phone_saved_first_is_a_conflict_showing_theirs(db):
    game = baskets()
    theirs = round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    before = (rounds_of(game), kinds(game), version(game))

    synced = sync_round(game)

    assert (synced.status, synced.number, synced.round) == ("conflict", 1, theirs)
    assert synced.message == (
        "Round 1 was already saved, from this phone or another; the game is at round 2."
    )
    assert (rounds_of(game), kinds(game), version(game)) == before


def test_a_round_past_a_gap_is_a_conflict_with_no_round_of_theirs(db):
    game = baskets()

    synced = sync_round(game, number=3)

    assert (synced.status, synced.number, synced.round) == ("conflict", 3, None)
    assert synced.message == (
        "Round 3 was not saved: a round was deleted on another phone meanwhile, so the game is "
        "at round 1."
    )
    assert rounds_of(game) == []


def test_end_keeps_both_rounds_mine_after_theirs(db):
    game = baskets()
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)

    synced = sync_round(game, place=sync.END)

    assert (synced.status, synced.number) == ("stored", 2)
    assert rounds_of(game) == [(1, OTHER, None), (2, SMALL, KEY)]
    assert list(game.sides.order_by("position").values_list("total", flat=True)) == [140, 35]
    assert kinds(game) == [("started", None), ("round_added", 1), ("round_added", 2)]


def test_replace_corrects_their_round_to_mine_and_the_history_keeps_theirs(db):
    game = baskets()
    theirs = round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)

    synced = sync_round(game, place=sync.REPLACE, version=theirs.version)

    assert (synced.status, synced.number) == ("stored", 1)
    assert rounds_of(game) == [(1, SMALL, KEY)]
    assert list(game.sides.order_by("position").values_list("total", flat=True)) == [50, 25]
    assert kinds(game) == [("started", None), ("round_added", 1), ("round_changed", 1)]
    changed = game.events.get(kind="round_changed")
    assert changed.before == {
        "ended_by": "stock_exhausted",
        "entry": OTHER,
        "totals": {"Ann": 90, "Bob": 10},
    }
    assert changed.after == {
        "ended_by": "stock_exhausted",
        "entry": SMALL,
        "totals": {"Ann": 50, "Bob": 25},
        "key": KEY,
    }
    # Sent again (its answer lost), the replacement is already stored.
    assert sync_round(game, place=sync.REPLACE, version=theirs.version).status == "already"
    assert game.events.filter(kind="round_changed").count() == 1


def test_replace_of_a_round_changed_since_the_player_saw_it_is_refused(db):
    game = baskets()
    seen = round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    round_update(game=game, number=1, ended_by="stock_exhausted", entry=[{"melded_points": 95}, {}])
    stored = Round.objects.get()
    before = (rounds_of(game), kinds(game))

    synced = sync_round(game, place=sync.REPLACE, version=seen.version)

    at = timezone.localtime(stored.updated_at).strftime("%H:%M")
    assert (synced.status, synced.number, synced.round) == ("conflict", 1, stored)
    assert synced.message == (
        f"Round 1 was corrected on another phone at {at} while you were editing; nothing you "
        "entered was saved. This is the round as stored now."
    )
    assert (rounds_of(game), kinds(game)) == before


def test_replace_of_a_round_deleted_since_is_a_conflict_with_no_round(db):
    game = baskets()
    seen = round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    round_delete_last(game=game)

    synced = sync_round(game, place=sync.REPLACE, version=seen.version)

    assert (synced.status, synced.number, synced.round) == ("conflict", 1, None)
    assert synced.message == (
        "Round 1 was deleted on another phone while you were editing; nothing you entered "
        "was saved."
    )
    assert rounds_of(game) == []


def test_a_round_the_engine_refuses_stores_nothing_and_says_why_per_field(db):
    game = baskets()
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)

    with pytest.raises(engine.RoundError) as refused:
        sync_round(game, place=sync.END, entry=[{"melded_points": -5}, {"hand_points": "x"}])

    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "sides[0].melded_points",
            "Ann's melded points must be a whole number of 0 or more, not −5.",
        ),
        (
            "sides[1].hand_points",
            'Bob\'s points left in hand must be a whole number of 0 or more, not "x".',
        ),
    ]
    assert rounds_of(game) == [(1, OTHER, None)]


def test_a_round_for_a_finished_game_is_refused(db):
    game = baskets()
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    services.game_end(game=game)

    for place in (sync.EXACT, sync.END):
        with pytest.raises(engine.RoundError) as refused:
            sync_round(game, number=2, place=place)
        assert [(e.path, e.message) for e in refused.value.errors] == [
            ("", "The game is over; reopen it or correct a round instead.")
        ]
    assert rounds_of(game) == [(1, OTHER, None)]


def test_the_snapshot_is_the_game_as_the_phone_keeps_it(db):
    game = services.game_start(preset="four-rounds", sides=side_specs("four-rounds"), decks=5)
    sync_round(game, entry=SMALL)
    stored = Round.objects.get()

    snapshot = sync.game_snapshot(game)

    assert snapshot == {
        "id": game.public_id,
        "preset": "four-rounds",
        "rules": Game.objects.get().rules,
        "sides": ["Ann & Cy", "Bob & Di"],
        "players": [["Ann", "Cy"], ["Bob", "Di"]],
        "decks": 5,
        "first_dealer": 0,
        "ended_by_hand": False,
        "finished": False,
        "rounds": [
            {
                "number": 1,
                "ended_by": "stock_exhausted",
                "entry": SMALL,
                "key": KEY,
                "version": stored.version,
            }
        ],
        "version": version(game),
        "title": "Ann & Cy vs Bob & Di",
    }
    assert json.loads(json.dumps(snapshot)) == snapshot


def test_round_scores_are_each_sides_points_and_total_with_their_text(db):
    game = baskets()
    round_record(game=game, number=1, ended_by="stock_exhausted", entry=OTHER)
    round_record(game=game, number=2, ended_by="stock_exhausted", entry=[{"hand_points": 1300}, {}])

    assert sync.round_scores(Round.objects.get(number=2)) == [
        {
            "side": "Ann",
            "points": -1300,
            "points_text": "−1,300",
            "total": -1210,
            "total_text": "−1,210",
        },
        {"side": "Bob", "points": 0, "points_text": "0", "total": 10, "total_text": "10"},
    ]


def test_a_game_started_offline_is_created_at_the_phones_address(db):
    made = sync.game_sync_create(public_id=PUBLIC_ID, preset="baskets", form=start_form("baskets"))

    assert made.created is True
    game = Game.objects.get()
    assert (made.game, game.public_id, game.preset) == (game, PUBLIC_ID, "baskets")
    assert list(game.sides.values_list("name", flat=True)) == ["Ann", "Bob"]
    assert kinds(game) == [("started", None)]


def test_a_game_sent_again_is_returned_and_nothing_more_is_created(db):
    first = sync.game_sync_create(public_id=PUBLIC_ID, preset="baskets", form=start_form("baskets"))
    before = (Game.objects.count(), kinds(first.game), version(first.game))

    again = sync.game_sync_create(
        public_id=PUBLIC_ID, preset="cutthroat", form=start_form("cutthroat")
    )

    assert (again.game, again.created) == (first.game, False)
    assert (Game.objects.count(), kinds(first.game), version(first.game)) == before
    assert Game.objects.get().preset == "baskets"


def test_a_game_the_start_page_would_refuse_is_refused_with_its_words(db):
    form = {"side0-player0": "Ann", "first_dealer": "0-0", "rule-going_out_bonus": "lots"}

    with pytest.raises(engine.RoundError) as refused:
        sync.game_sync_create(public_id=PUBLIC_ID, preset="baskets", form=form)

    assert [(e.path, e.message) for e in refused.value.errors] == [
        ("sides", "Baskets needs at least 2 players; name 1 more."),
        (
            "rule-going_out_bonus",
            'The going-out bonus must be a whole number from 0 to 1,000,000, not "lots".',
        ),
    ]
    assert Game.objects.count() == 0


def test_a_game_is_created_only_at_an_address_a_phone_could_have_made(db):
    with pytest.raises(engine.RoundError) as refused:
        sync.game_sync_create(public_id="../admin", preset="baskets", form=start_form("baskets"))

    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "id",
            "The game's address made on this phone must be 22 letters, digits, dashes or "
            "underscores; start the game again on this phone.",
        )
    ]
    assert Game.objects.count() == 0


def test_the_round_a_phone_sends_is_read_into_its_parts():
    body = json.dumps(
        {"key": KEY, "number": 4, "ended_by": "going_out", "entry": SMALL, "place": "end"}
    )

    assert sync.round_sent(body.encode()) == sync.RoundSent(
        key=KEY, number=4, ended_by="going_out", entry=SMALL, place="end", version=None
    )


def test_a_replacement_carries_the_version_it_replaces_and_exact_is_the_default():
    replace = {"key": "k", "number": 1, "ended_by": "going_out", "entry": SMALL}

    assert sync.round_sent(json.dumps(replace).encode()).place == "exact"
    assert (
        sync.round_sent(
            json.dumps({**replace, "place": "replace", "version": "v1"}).encode()
        ).version
        == "v1"
    )


@pytest.mark.parametrize("body", [b"", b"{", b"[1, 2]", b'"round"', b"[" * 100_000, b"\xff"])
def test_what_is_not_a_json_object_cannot_be_read(body):
    with pytest.raises(engine.RoundError) as refused:
        sync.round_sent(body)

    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "__all__",
            "Nothing was saved: what this phone sent could not be read. Reload the page and "
            "send it again.",
        )
    ]


def test_every_wrong_part_of_a_round_is_named_with_what_is_allowed():
    body = {
        "key": "k" * 37,
        "number": True,
        "ended_by": "gone",
        "entry": [{"name": "Bob", "melded_points": 5}],
        "place": "middle",
    }

    with pytest.raises(engine.RoundError) as refused:
        sync.round_sent(json.dumps(body).encode())

    assert [(e.path, e.message) for e in refused.value.errors] == [
        ("key", "The round's mark on this phone must be 1 to 36 letters, digits or dashes."),
        ("number", "The round number must be a whole number from 1 to 60."),
        (
            "ended_by",
            "How the round ended must be “Somebody went out” or “The stock ran out”.",
        ),
        ("entry", "The round needs the scores of each side, one per side in seating order."),
        (
            "place",
            "The round must go at its own number, after the last round, or in place of the "
            "stored round (exact, end or replace).",
        ),
    ]


@pytest.mark.parametrize(
    ("field", "value"),
    [("key", ""), ("key", 7), ("number", 0), ("number", 10_001), ("number", 1.5), ("entry", [])],
)
def test_a_missing_or_out_of_range_part_is_refused(field, value):
    body = {"key": "k", "number": 1, "ended_by": "going_out", "entry": SMALL, field: value}

    with pytest.raises(engine.RoundError) as refused:
        sync.round_sent(json.dumps(body).encode())

    assert [e.path for e in refused.value.errors] == [field]


def test_a_replacement_without_the_version_it_replaces_is_refused():
    body = {"key": "k", "number": 1, "ended_by": "going_out", "entry": SMALL, "place": "replace"}

    with pytest.raises(engine.RoundError) as refused:
        sync.round_sent(json.dumps(body).encode())

    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "version",
            "To replace a stored round the phone must say which save of it the player saw; open "
            "the game again and choose once more.",
        )
    ]


def test_a_game_a_phone_sends_is_read_into_its_parts():
    body = {"id": PUBLIC_ID, "preset": "baskets", "form": start_form("baskets")}

    assert sync.game_sent(json.dumps(body).encode()) == sync.GameSent(
        public_id=PUBLIC_ID, preset="baskets", form=start_form("baskets")
    )


def test_every_wrong_part_of_a_game_is_named_with_what_is_allowed():
    body = {"id": PUBLIC_ID + "=", "preset": "poker", "form": {"side0-player0": 5}}

    with pytest.raises(engine.RoundError) as refused:
        sync.game_sent(json.dumps(body).encode())

    names = [rules.name for rules in engine.RULESETS.values()]
    assert [(e.path, e.message) for e in refused.value.errors] == [
        (
            "id",
            "The game's address made on this phone must be 22 letters, digits, dashes or "
            "underscores; start the game again on this phone.",
        ),
        ("preset", f"The rule set must be one of {', '.join(names[:-1])} or {names[-1]}."),
        ("form", "The start page's fields must each be text, as typed."),
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks and real concurrent transactions need PostgreSQL",
)
def test_two_phones_sending_the_same_key_at_once_store_it_once():
    game = baskets()

    results = together(lambda index: sync_round(game, place=sync.END), count=2)

    assert sorted(result.status for result in results) == ["already", "stored"]
    assert {result.number for result in results} == {1}
    assert rounds_of(game) == [(1, SMALL, KEY)]
    assert kinds(game) == [("started", None), ("round_added", 1)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="real concurrent transactions need PostgreSQL",
)
def test_two_requests_creating_the_same_game_at_once_create_it_once():
    results = together(
        lambda index: sync.game_sync_create(
            public_id=PUBLIC_ID, preset="baskets", form=start_form("baskets")
        ),
        count=2,
    )

    assert sorted(result.created for result in results) == [False, True]
    assert {result.game.pk for result in results} == {Game.objects.get().pk}
    assert GameEvent.objects.filter(kind="started").count() == 1
