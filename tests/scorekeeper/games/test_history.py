"""The history of changes: each change a sentence in the round form's words, with names."""

from types import SimpleNamespace

import pytest
from django.test import Client

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.games.history import history_sentence
from scorekeeper.models import GameEvent
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record, round_update
from tests.helpers.leagues import UserFactory

BASKETS = engine.RULESETS["baskets"]
NAMES = ["Ann", "Bob"]
# The engine contract's worked example: Ann 1,990, Bob 625.
ANN_OUT = {"went_out": True, "canastas": {"natural": 1, "mixed": 2}, "melded_points": 640}
BOB = {"canastas": {"natural": 1}, "melded_points": 310, "hand_points": 85}
BOB_NO_BUNS = {**BOB, "foot_picked_up": False}
ROUND_1 = {"ended_by": "going_out", "entry": [ANN_OUT, BOB_NO_BUNS]}


def event(kind, round_number=None, before=None, after=None):
    return SimpleNamespace(kind=kind, round_number=round_number, before=before, after=after)


def snapshot(entry, ann, bob, ended_by="going_out"):
    return {"ended_by": ended_by, "entry": entry, "totals": {"Ann": ann, "Bob": bob}}


SENTENCES = {
    "started": (
        event("started", after={"rules": {"base": "baskets"}, "sides": ["Ann", "Bob"]}),
        "Game started: Baskets, Ann vs Bob.",
    ),
    "rematch": (
        event("started", after={"sides": ["Ann", "Bob"], "rematch_of": "abc"}),
        "Rematch started: Baskets, Ann vs Bob.",
    ),
    "entered": (
        event(
            "round_added",
            1,
            {"totals": {"Ann": 0, "Bob": 0}},
            snapshot([ANN_OUT, BOB_NO_BUNS], 1990, 625),
        ),
        "Round 1 entered: Ann went out; totals Ann 0 → 1,990, Bob 0 → 625.",
    ),
    "corrected": (
        event(
            "round_changed",
            1,
            snapshot([ANN_OUT, BOB_NO_BUNS], 1990, 625),
            snapshot([{**ANN_OUT, "melded_points": 540}, BOB_NO_BUNS], 1890, 625),
        ),
        "Round 1 corrected: Ann's points laid down 640 → 540; totals Ann 1,990 → 1,890, Bob 625.",
    ),
    "corrected in every field the form has": (
        event(
            "round_changed",
            2,
            snapshot([ANN_OUT, BOB_NO_BUNS], 1990, 625),
            snapshot(
                [
                    {"canastas": {"natural": 2}, "melded_cards": {"K": 10}},
                    {**BOB, "went_out": True, "hand_points": 0},
                ],
                2100,
                -100,
            ),
        ),
        "Round 2 corrected: Ann went out → Bob went out; Ann's wicker baskets 1 → 2; "
        "Ann's plastic baskets 2 → 0; Ann's points laid down 640 → 100; "
        "Bob's points left in hand 85 → 0; Bob picked up the buns; "
        "totals Ann 1,990 → 2,100, Bob 625 → \u2212100.",
    ),
    "corrected to the stock running out": (
        event(
            "round_changed",
            1,
            snapshot([ANN_OUT, BOB], 1990, 625),
            snapshot([{**ANN_OUT, "went_out": False}, BOB], 1740, 625, "stock_exhausted"),
        ),
        "Round 1 corrected: Ann went out → the stock ran out; totals Ann 1,990 → 1,740, Bob 625.",
    ),
    "corrected to the same": (
        event("round_changed", 1, snapshot([BOB, BOB], 5, 5), snapshot([BOB, BOB], 5, 5)),
        "Round 1 corrected: nothing changed; totals Ann 5, Bob 5.",
    ),
    "deleted": (
        event(
            "round_deleted",
            2,
            snapshot([ANN_OUT, BOB], 3980, 1250),
            {"totals": {"Ann": 1990, "Bob": 625}},
        ),
        "Round 2 deleted (Ann went out); totals Ann 3,980 → 1,990, Bob 1,250 → 625.",
    ),
    "restored": (
        event(
            "round_restored",
            2,
            {"totals": {"Ann": 1990, "Bob": 625}},
            snapshot([ANN_OUT, BOB], 3980, 1250),
        ),
        "Round 2 restored (Ann went out); totals Ann 1,990 → 3,980, Bob 625 → 1,250.",
    ),
    "ended": (
        event(
            "ended",
            before={"finished": False, "winner": None, "tie": False},
            after={"finished": True, "winner": "Ann", "tie": False},
        ),
        "Game ended by hand: Ann wins.",
    ),
    "ended in a tie": (
        event("ended", after={"finished": True, "winner": None, "tie": True}),
        "Game ended by hand: a tie.",
    ),
    "reopened": (
        event("reopened", before={"finished": True, "winner": "Ann", "tie": False}),
        "Game reopened: Ann's win is undone.",
    ),
    "claimed": (
        event("claimed", before={"owner": None}, after={"owner": "olive"}),
        "Game claimed: it is now under the account olive.",
    ),
    "entered before totals were kept": (
        event("round_added", 1, None, {"ended_by": "stock_exhausted", "entry": [{}, {}]}),
        "Round 1 entered: the stock ran out.",
    ),
}


@pytest.mark.parametrize("change, expected", SENTENCES.values(), ids=SENTENCES.keys())
def test_each_change_is_one_sentence_in_the_forms_words(change, expected):
    assert history_sentence(change, BASKETS, NAMES) == expected


def test_a_side_whose_name_ends_in_s_owns_its_points_in_words_that_read():
    change = event(
        "round_changed",
        1,
        {"ended_by": "stock_exhausted", "entry": [{"melded_points": 50}, {}]},
        {
            "ended_by": "stock_exhausted",
            "entry": [{"melded_points": 60}, {}],
            "totals": {"Us": 60, "Them": 0},
        },
    )
    assert history_sentence(change, engine.RULESETS["cutthroat"], ["Us", "Them"]) == (
        "Round 1 corrected: the points laid down of Us 50 → 60; totals Us 60, Them 0."
    )


def test_the_history_page_tells_each_change_in_sentences_not_stored_values(db):
    olive = UserFactory(username="olive")
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    round_record(game=game, number=1, ended_by="going_out", entry=[ANN_OUT, BOB])
    round_update(
        game=game,
        number=1,
        ended_by="going_out",
        entry=[{**ANN_OUT, "melded_points": 540}, BOB],
        user=olive,
    )
    client = Client()
    client.force_login(olive)
    html = client.get(f"/g/{game.public_id}/history/").content.decode()

    assert [e.kind for e in GameEvent.objects.filter(game=game).order_by("id")] == [
        "started",
        "round_added",
        "round_changed",
    ]
    sentences = [part.split("</p>")[0] for part in html.split('<p class="history-change">')[1:]]
    assert sentences == [
        "Round 1 corrected: Ann&#x27;s points laid down 640 → 540; "
        "totals Ann 1,990 → 1,890, Bob 725.",
        "Round 1 entered: Ann went out; totals Ann 0 → 1,990, Bob 0 → 725.",
        "Game started: Baskets, Ann vs Bob.",
    ]
    assert "ended_by" not in html and "{&#x27;" not in html
