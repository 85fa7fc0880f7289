"""The phone's offline game: the game page, the live breakdown, a game started offline and the
round form, each as the server's own pages give them for the same game and the same fields."""

import re

import pytest
from django.test import Client

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.games.scoring import preview_round, status_for
from scorekeeper.games.selectors import game_get, game_view
from scorekeeper.models import Game
from scorekeeper.portable import phone, round_fields
from scorekeeper.rounds.services import round_record
from tests.helpers.games import round_form, side_specs, start_form
from tests.helpers.offline_games import (
    PRESETS,
    next_round_form,
    planned_to_the_end,
    played_game,
    snapshot,
)

ROUND_1 = {
    "number": 1,
    "ended_by": "stock_exhausted",
    "entry": [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}],
    "key": None,
}
WAITING_2 = {
    "key": "k2",
    "number": 2,
    "ended_by": "stock_exhausted",
    "entry": [{"melded_points": 100, "hand_points": 5}, {"melded_points": 300}],
}
# The server's round form posts these beside the fields a round is made of.
# The header's text-size switch ("next", "text") is on every page, not the round's form.
NOT_FIELDS = {"csrfmiddlewaretoken", "round_number", "round_version", "confirm", "next", "text"}


def baskets_game() -> dict:
    """Ann and Bob's Baskets game as the phone keeps it, Bob dealing first, one round played."""
    started = phone.start_game(
        "baskets", {"side0-player0": "Ann", "side1-player0": "Bob", "first_dealer": "1-0"}, "g1"
    )
    return {**started["snapshot"], "rounds": [ROUND_1]}


def scores(*rows):
    return [
        {
            "side": side,
            "points": points,
            "points_text": points_text,
            "total": total,
            "total_text": str(total),
        }
        for side, points, points_text, total in rows
    ]


def data(answer: dict) -> dict:
    """An answer without its HTML pieces (tests/scorekeeper/portable/test_fragments.py)."""
    return {key: value for key, value in answer.items() if not key.endswith("_html")}


def test_the_game_view_gives_rounds_totals_dealer_and_melds_with_their_text():
    assert data(phone.game_view(baskets_game(), [])) == {
        "id": "g1",
        "sides": ["Ann", "Bob"],
        "rounds": [
            {
                "number": 1,
                "waiting": False,
                "key": None,
                "scores": scores(("Ann", 50, "+50", 50), ("Bob", 25, "+25", 25)),
            }
        ],
        "totals": [
            {"side": "Ann", "total": 50, "total_text": "50"},
            {"side": "Bob", "total": 25, "total_text": "25"},
        ],
        "next_round": 2,
        "dealer": "Ann",
        "meld_requirement": [
            {"side": "Ann", "points": 50, "points_text": "50"},
            {"side": "Bob", "points": 50, "points_text": "50"},
        ],
        "finished": False,
        "winner": None,
        "tie": False,
        "leader_text": "Ann leads by 25",
        "to_win": [
            "Ann needs 4,950 more to win (target 5,000)",
            "Bob needs 4,975 more to win (target 5,000)",
        ],
        "to_win_text": "Ann needs 4,950 more to win (target 5,000) · "
        "Bob needs 4,975 more to win (target 5,000)",
        "errors": [],
        "left_out": [],
    }


def test_a_waiting_round_counts_in_the_totals_the_dealer_and_the_next_round():
    game = baskets_game()
    before = phone.game_view(game, [])
    after = phone.game_view(game, [WAITING_2])
    assert [r["waiting"] for r in before["rounds"]] == [False]
    assert after["left_out"] == []
    assert [(r["number"], r["waiting"], r["key"]) for r in after["rounds"]] == [
        (1, False, None),
        (2, True, "k2"),
    ]
    assert after["rounds"][1]["scores"] == scores(
        ("Ann", 95, "+95", 145), ("Bob", 300, "+300", 325)
    )
    assert (before["next_round"], before["dealer"], before["leader_text"]) == (
        2,
        "Ann",
        "Ann leads by 25",
    )
    assert (after["next_round"], after["dealer"], after["leader_text"]) == (
        3,
        "Bob",
        "Bob leads by 180",
    )


def test_a_waiting_round_the_engine_refuses_is_left_out_with_those_after_it_and_its_reason():
    refused = {**WAITING_2, "entry": [{"melded_points": 7}, {}]}
    after = {**WAITING_2, "key": "k3", "number": 3}
    view = phone.game_view(baskets_game(), [refused, after])
    assert [r["number"] for r in view["rounds"]] == [1]
    assert view["next_round"] == 2
    assert view["left_out"] == ["k2", "k3"]
    assert view["errors"] == [
        {
            "key": "__all__",
            "message": "Ann's melded points must be a multiple of 5, since every card is, not 7.",
        }
    ]


def test_the_waiting_rounds_before_a_refused_one_still_count():
    refused = {**WAITING_2, "key": "k3", "number": 3, "entry": [{"melded_points": 7}, {}]}
    view = phone.game_view(baskets_game(), [WAITING_2, refused])
    assert [(r["number"], r["key"]) for r in view["rounds"]] == [(1, None), (2, "k2")]
    assert view["left_out"] == ["k3"]
    assert [t["total"] for t in view["totals"]] == [145, 325]


def test_the_live_breakdown_gives_the_entry_each_sides_lines_and_the_totals_after():
    form = {
        "round_number": "2",
        "went_out": "stock",
        "s0-melded_points": "100",
        "s0-hand_points": "5",
        "s1-melded_cards-K": "3",
        "s1-hand_points": "15",
    }

    def line(label, points, text):
        return {
            "label": label,
            "points": points,
            "points_text": text,
            "count": None,
            "each": None,
            "note": "",
            "count_text": "",
        }

    preview = phone.round_preview(baskets_game(), [], form)
    # Drawn as the round page draws it: see the test of the live breakdown's HTML below.
    assert "Totals after round 2: Ann <strong>145</strong>" in preview.pop("preview_html")
    assert preview.pop("summary_html") == ""
    assert preview == {
        "ok": True,
        "errors": [],
        "number": 2,
        "ended_by": "stock_exhausted",
        "entry": [
            {"melded_points": 100, "hand_points": 5},
            {"melded_cards": {"K": 3}, "hand_points": 15},
        ],
        "counted": {"s1-melded_points": 30},
        "sides": [
            {
                "name": "Ann",
                "total": 95,
                "total_text": "+95",
                "lines": [
                    line("Cards melded", 100, "+100"),
                    line("Cards left in biscuits and buns", -5, "\N{MINUS SIGN}5"),
                ],
            },
            {
                "name": "Bob",
                "total": 15,
                "total_text": "+15",
                "lines": [
                    line("Cards melded", 30, "+30"),
                    line("Cards left in biscuits and buns", -15, "\N{MINUS SIGN}15"),
                ],
            },
        ],
        "totals_after": [
            {"side": "Ann", "total": 145, "total_text": "145"},
            {"side": "Bob", "total": 40, "total_text": "40"},
        ],
    }


def test_the_live_breakdown_puts_each_error_at_its_field_and_shows_no_lines():
    preview = phone.round_preview(
        baskets_game(), [], {"round_number": "2", "s0-melded_points": "abc"}
    )
    assert (preview["ok"], preview["sides"], preview["totals_after"]) == (False, [], [])
    assert preview["errors"] == [
        {
            "key": "went_out",
            "message": "Choose the player that went out, or that the stock ran out.",
        },
        {
            "key": "s0-melded_points",
            "message": 'Ann\'s melded points must be a whole number of 0 or more, not "abc".',
        },
    ]


def test_a_correction_previews_the_round_in_its_place_among_the_waiting_ones():
    form = round_fields.values_from_entry(
        engine.RULESETS["baskets"], "stock_exhausted", [{"melded_points": 60}, {}]
    )
    preview = phone.round_preview(baskets_game(), [WAITING_2], {**form, "round_number": "1"})
    assert preview["number"] == 1
    assert preview["totals_after"] == [
        {"side": "Ann", "total": 60, "total_text": "60"},
        {"side": "Bob", "total": 0, "total_text": "0"},
    ]


def test_a_round_past_the_next_one_is_refused_in_words():
    preview = phone.round_preview(baskets_game(), [], {"round_number": "4", "went_out": "stock"})
    assert preview["errors"] == [
        {
            "key": "__all__",
            "message": "The game is at round 2, so round 4 cannot be entered yet.",
        }
    ]


# Ann goes out with two wicker baskets and a plastic one: the lines of a round saved on two
# phones, this phone's version.
ANN_OUT_2 = {
    "key": "k2",
    "number": 2,
    "ended_by": "going_out",
    "entry": [
        {"went_out": True, "canastas": {"natural": 2, "mixed": 1}, "melded_points": 235},
        {"melded_points": 50, "hand_points": 35},
    ],
}


def line(label, points, text, count=None, each=None):
    return {
        "label": label,
        "points": points,
        "points_text": text,
        "count": count,
        "each": each,
        "note": "",
        "count_text": "" if count is None else f"{count} \N{MULTIPLICATION SIGN} {each}",
    }


def test_a_rounds_lines_at_its_place_are_each_sides_breakdown_with_the_counts():
    assert data(phone.round_lines(baskets_game(), [], ANN_OUT_2)) == {
        "ok": True,
        "errors": [],
        "number": 2,
        "ended_by": "going_out",
        "sides": [
            {
                "name": "Ann",
                "total": 1785,
                "total_text": "+1,785",
                "lines": [
                    line("Wicker baskets", 1000, "+1,000", 2, 500),
                    line("Plastic baskets", 300, "+300", 1, 300),
                    line("Going out", 250, "+250"),
                    line("Cards melded", 235, "+235"),
                ],
            },
            {
                "name": "Bob",
                "total": 15,
                "total_text": "+15",
                "lines": [
                    line("Cards melded", 50, "+50"),
                    line("Cards left in biscuits and buns", -35, "\N{MINUS SIGN}35"),
                ],
            },
        ],
        "totals_after": [
            {"side": "Ann", "total": 1835, "total_text": "1,835"},
            {"side": "Bob", "total": 40, "total_text": "40"},
        ],
    }


def test_each_version_of_a_round_saved_on_two_phones_is_scored_in_the_same_place():
    # The server stored the other phone's round 2 (WAITING_2's) and a round 3 after it.
    theirs = {**WAITING_2, "key": "theirs"}
    game = {**baskets_game(), "rounds": [ROUND_1, theirs, {**WAITING_2, "number": 3}]}
    mine = phone.round_lines(game, [], ANN_OUT_2)
    other = phone.round_lines(game, [], theirs)
    assert mine == phone.round_lines(baskets_game(), [], ANN_OUT_2)
    assert [s["total_text"] for s in other["sides"]] == ["+95", "+300"]
    assert [t["total"] for t in other["totals_after"]] == [145, 325]
    assert [[ln["label"] for ln in s["lines"]] for s in other["sides"]] == [
        ["Cards melded", "Cards left in biscuits and buns"],
        ["Cards melded"],
    ]


def test_the_rounds_before_a_rounds_lines_are_the_waiting_ones_in_their_places():
    corrected = {**ROUND_1, "key": "k1", "entry": [{"melded_points": 500}, {}]}
    lines = phone.round_lines(baskets_game(), [corrected], WAITING_2)
    assert [t["total"] for t in lines["totals_after"]] == [595, 300]


def test_a_round_the_engine_does_not_take_there_gives_its_reasons_and_no_lines():
    refused = phone.round_lines(
        baskets_game(), [], {**WAITING_2, "entry": [{"melded_points": 7}, {}]}
    )
    assert (refused["ok"], refused["sides"], refused["totals_after"]) == (False, [], [])
    assert refused["errors"] == [
        {
            "key": "__all__",
            "message": "Ann's melded points must be a multiple of 5, since every card is, not 7.",
        }
    ]
    # A round with no entry (a conflict kept from an answer without one): said in words.
    short = phone.round_lines(baskets_game(), [], {"number": 2, "ended_by": "stock_exhausted"})
    assert [e["message"] for e in short["errors"]] == [
        "Baskets is played by exactly 2 players; this round has 0.",
        "Round 2 has no score for Ann and Bob; every player of the game plays every round.",
    ]
    gap = phone.round_lines(baskets_game(), [], {**WAITING_2, "number": 4})
    assert (gap["ok"], gap["errors"]) == (
        False,
        [{"key": "__all__", "message": "The rounds before round 4 are not all on this phone."}],
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_a_stored_rounds_lines_are_the_round_pages(db, preset):
    game, _ = played_game(preset)
    kept = snapshot(game)
    # As the round page reads them: game_get orders each round's scores by seat.
    server = game_view(game_get(game.public_id))
    for stored, round_scores in server.rows:
        lines = phone.round_lines(kept, [], kept["rounds"][stored.number - 1])
        assert lines["ok"] is True
        assert [
            (
                s["total"],
                [(ln["label"], ln["points"], ln["count"], ln["each"]) for ln in s["lines"]],
            )
            for s in lines["sides"]
        ] == [
            (
                score.points,
                [
                    (ln["label"], ln["points"], ln.get("count"), ln.get("each"))
                    for ln in score.lines
                ],
            )
            for score in round_scores
        ]
        assert [t["total"] for t in lines["totals_after"]] == [
            score.running_total for score in round_scores
        ]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_game_view_has_the_servers_totals_dealer_and_melds(db, preset):
    game, _ = played_game(preset)
    view = phone.game_view(snapshot(game), [])
    # As the game page loads it: game_get orders each round's scores by seat.
    server = game_view(game_get(game.public_id))
    status = status_for(game, server.sides, server.rounds)
    assert [t["total"] for t in view["totals"]] == [status.totals[s.name] for s in server.sides]
    assert [t["total"] for t in view["totals"]] == server.totals
    assert view["dealer"] == server.dealer.player
    assert [m["points"] for m in view["meld_requirement"]] == server.meld
    assert [[s["points"] for s in r["scores"]] for r in view["rounds"]] == [
        [score.points for score in scores] for _, scores in server.rows
    ]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_preview_entry_is_what_the_round_page_stores_for_the_same_fields(db, preset):
    game, planned = played_game(preset)
    client = Client()
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    form = next_round_form(game, planned[0])
    preview = phone.round_preview(snapshot(game), [], form)
    response = client.post(f"/g/{game.public_id}/rounds/new/", form)
    assert response.status_code == 302
    stored = game.rounds.get(number=preview["number"])
    assert (preview["ended_by"], preview["entry"]) == (stored.ended_by, stored.entry)
    assert [s["total"] for s in preview["sides"]] == [
        score.points for score in stored.scores.order_by("side__position")
    ]
    assert [t["total"] for t in preview["totals_after"]] == [
        side.total for side in game.sides.order_by("position")
    ]


@pytest.mark.parametrize("preset", ["baskets", "four-rounds"])
def test_a_refused_preview_has_the_errors_the_round_page_shows(db, preset):
    game, _ = played_game(preset)
    view = game_view(game_get(game.public_id))
    form = {**round_form(view.rules, number=4), "s0-melded_points": "12", "s1-hand_points": "x"}
    preview = phone.round_preview(snapshot(game), [], form)
    dealer = view.dealer.side_index
    ended_by, entry, problems = round_fields.parse(view.rules, len(view.sides), form, dealer)
    _, errors = preview_round(game, view.sides, view.rounds, 4, ended_by, entry)
    page = round_fields.build(view.rules, view.sides, form, dealer, [*problems, *errors])
    shown = {(key, message) for key, messages in page.slots() for message in messages}
    assert preview["ok"] is False
    assert {(e["key"], e["message"]) for e in preview["errors"]} == shown


def test_a_game_started_offline_is_a_snapshot_with_the_rules_frozen():
    started = phone.start_game("baskets", start_form("baskets"), "Zq3")
    assert started["ok"] is True
    assert started["errors"] == []
    game = started["snapshot"]
    assert {k: v for k, v in game.items() if k != "rules"} == {
        "id": "Zq3",
        "preset": "baskets",
        "sides": ["Ann", "Bob"],
        "players": [[], []],
        "decks": None,
        "first_dealer": 0,
        "ended_by_hand": False,
        "finished": False,
        "rounds": [],
        "version": None,
        "title": "Ann vs Bob",
    }
    assert game["rules"] == {
        "base": "baskets",
        "overrides": engine.RULESETS["baskets"].parameters(),
    }


@pytest.mark.parametrize("preset", PRESETS)
def test_a_game_started_offline_is_the_game_the_start_page_makes(db, preset):
    started = phone.start_game(preset, start_form(preset), "Zq3")["snapshot"]
    response = Client().post(f"/games/new/{preset}/", start_form(preset))
    assert response.status_code == 302
    made = snapshot(Game.objects.get())
    keep = ("preset", "rules", "sides", "players", "decks", "first_dealer", "rounds", "title")
    assert {k: started[k] for k in keep} == {k: made[k] for k in keep}


def test_a_start_form_with_problems_gives_each_at_its_field():
    started = phone.start_game("baskets", {"side0-player0": "Ann", "rule-target_score": "-5"}, "g")
    assert started == {
        "ok": False,
        "errors": [
            {"key": "sides", "message": "Baskets needs at least 2 players; name 1 more."},
            {"key": "first_dealer", "message": "Choose who deals first: tap the circle by a name."},
            {
                "key": "rule-target_score",
                "message": "The target score must be a whole number from 1 to 100,000,000 or "
                "left empty, not \N{MINUS SIGN}5.",
            },
        ],
        "snapshot": None,
    }


def test_an_unknown_rule_set_is_refused_naming_the_ones_there_are():
    assert phone.start_game("poker", {}, "g")["errors"] == [
        {
            "key": "__all__",
            "message": "There is no rule set called poker; choose one of baskets, buraco, "
            "canasta, contract, cutthroat, four-rounds, samba, sevens or ten-thousand.",
        }
    ]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_round_form_has_the_fields_of_the_servers_round_page(db, preset):
    game, _ = played_game(preset)
    client = Client()
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    page = client.get(f"/g/{game.public_id}/rounds/new/").content.decode()
    names = set(re.findall(r'<(?:input|select|textarea)[^>]* name="([^"]+)"', page)) - NOT_FIELDS
    drawn = phone.round_form(snapshot(game), [])
    keys = {"went_out"}
    for side in drawn["sides"]:
        keys |= {f["key"] for f in side["fields"]}
        keys |= {card["key"] for pile in ("melded", "hand") for card in side[pile]["cards"]}
        keys |= {key for book in side["open_books"] for key in book.values()}
    assert keys == names
    view = game_view(game_get(game.public_id))
    assert (drawn["number"], drawn["dealer"]) == (view.next_round, view.dealer.player)
    assert [m["points"] for m in drawn["meld_requirement"]] == view.meld


def test_the_round_form_names_the_dealer_and_gives_the_dealer_the_exact_cut():
    game = phone.start_game("four-rounds", start_form("four-rounds"), "g")["snapshot"]
    drawn = phone.round_form(game, [])
    assert (drawn["number"], drawn["dealer"], drawn["dealer_side"]) == (1, "Ann", 0)
    assert [side["is_dealer"] for side in drawn["sides"]] == [True, False]
    cuts = [[f["key"] for f in side["fields"] if f["kind"] == "flag"] for side in drawn["sides"]]
    assert cuts[0][:1] == ["s0-exact_cuts"]
    assert "s1-exact_cuts" not in cuts[1]


def test_the_standing_says_who_leads_by_how_much_or_who_is_level():
    names = ["Ann", "Bob", "Cy"]
    assert phone.standing(names, [0, 0, 0], 0, finished=False, winner=None, tie=False) == (
        "No rounds yet"
    )
    assert phone.standing(names, [500, 1765, 20], 2, finished=False, winner=None, tie=False) == (
        "Bob leads by 1,265"
    )
    assert phone.standing(names, [900, 100, 900], 2, finished=False, winner=None, tie=False) == (
        "Ann and Cy level"
    )
    assert phone.standing(names, [900, 100, 90], 5, finished=True, winner="Ann", tie=False) == (
        "Ann won"
    )


# Ann goes out with three natural canastas and 300 melded: 2,050 a round, past 5,000 in three.
ANN_OUT = {
    "ended_by": "going_out",
    "entry": [{"went_out": True, "canastas": {"natural": 3}, "melded_points": 300}, {}],
}


def baskets_two_rounds_from_the_end() -> dict:
    started = phone.start_game(
        "baskets", {"side0-player0": "Ann", "side1-player0": "Bob", "first_dealer": "1-0"}, "g1"
    )
    rounds = [{**ANN_OUT, "number": n, "key": None} for n in (1, 2)]
    return {**started["snapshot"], "rounds": rounds}


def test_a_waiting_round_that_ends_the_game_shows_the_winner_and_no_next_round():
    game = baskets_two_rounds_from_the_end()
    before = phone.game_view(game, [])
    after = phone.game_view(game, [{**ANN_OUT, "number": 3, "key": "k3"}])
    assert (before["finished"], before["next_round"], before["winner"]) == (False, 3, None)
    assert [m["points"] for m in before["meld_requirement"]] == [90, 50]
    assert (after["finished"], after["next_round"], after["winner"], after["tie"]) == (
        True,
        None,
        "Ann",
        False,
    )
    assert (after["dealer"], after["meld_requirement"], after["to_win"]) == (None, [], [])
    assert after["leader_text"] == "Ann won"
    assert [t["total_text"] for t in after["totals"]] == ["6,150", "0"]
    assert after["left_out"] == []


def test_the_round_form_after_a_game_ending_waiting_round_says_the_game_is_over():
    made = phone.round_form(baskets_two_rounds_from_the_end(), [{**ANN_OUT, "number": 3}])
    assert (made["finished"], made["number"], made["meld_requirement"]) == (True, 3, [])


def test_the_phone_refuses_a_round_after_the_end_as_the_server_does():
    game = baskets_two_rounds_from_the_end()
    fields = {"round_number": "4", "went_out": "stock"}
    preview = phone.round_preview(game, [{**ANN_OUT, "number": 3, "key": "k3"}], fields)
    assert (preview["ok"], preview["sides"]) == (False, [])
    assert preview["errors"] == [
        {"key": "__all__", "message": "The game is over; reopen it or correct a round instead."}
    ]


def test_a_game_ended_by_hand_takes_no_new_round_on_the_phone_but_takes_a_correction():
    game = {**baskets_game(), "ended_by_hand": True, "finished": True}
    new = phone.round_preview(game, [], {"round_number": "2", "went_out": "stock"})
    correction = phone.round_preview(
        game, [], {"round_number": "1", "went_out": "stock", "side0-melded": "60"}
    )
    assert new["errors"] == [
        {"key": "__all__", "message": "The game is over; reopen it or correct a round instead."}
    ]
    assert (correction["ok"], correction["errors"]) == (True, [])


@pytest.mark.parametrize("preset", PRESETS)
def test_a_game_ended_offline_has_the_winner_and_totals_the_server_gives_it(db, preset):
    game = services.game_start(preset=preset, sides=side_specs(preset))
    planned = planned_to_the_end(preset)
    for number, (ended_by, entry) in enumerate(planned[:-1], start=1):
        round_record(game=game, number=number, ended_by=ended_by, entry=entry)
    kept = snapshot(Game.objects.get(pk=game.pk))
    ended_by, entry = planned[-1]
    last = {"key": "k", "number": len(planned), "ended_by": ended_by, "entry": entry}
    view = phone.game_view(kept, [last])
    round_record(game=game, number=len(planned), ended_by=ended_by, entry=entry)
    stored = Game.objects.get(pk=game.pk)
    assert stored.finished is True
    assert (view["finished"], view["next_round"], view["meld_requirement"]) == (True, None, [])
    winner = stored.winner.name if stored.winner_id else None
    assert (view["winner"], view["tie"]) == (winner, stored.tie)
    assert [t["total"] for t in view["totals"]] == [
        side.total for side in stored.sides.order_by("position")
    ]


def every_round_scored(snapshot, waiting, form):
    """round_preview as it was before it kept the game after the earlier rounds: every round of
    the game scored again, twice for a new round (once to see whether the game is over). The
    kept version must answer exactly this."""
    names = list(snapshot["sides"])
    rules = engine.resolve_rules(snapshot["rules"])

    def status(rounds, finished):
        inputs = [
            {
                "ended_by": r["ended_by"],
                "sides": [
                    {"name": name, **dict(side)}
                    for name, side in zip(names, r["entry"], strict=False)
                ],
            }
            for r in rounds
        ]
        return engine.game_status(
            rules, names, inputs, finished=finished, decks=snapshot.get("decks")
        )

    def over(rounds):
        if snapshot.get("ended_by_hand"):
            return True
        try:
            return status(rounds, False).finished
        except engine.RoundError:
            return False

    rounds = phone._rounds(snapshot, waiting)
    posted = round_fields.posted_round_number(form)
    number = len(rounds) + 1 if posted is None else posted
    ended_by, entry, errors = round_fields.parse(
        rules, len(names), form, phone._dealer(snapshot, number)[0]
    )
    scored = None
    if number > len(rounds) and over(rounds):
        errors.append(engine.FieldError("", phone.GAME_OVER))
    elif number > len(rounds) + 1:
        errors.append(
            engine.FieldError(
                "",
                f"The game is at round {len(rounds) + 1}, so round {number} cannot be entered yet.",
            )
        )
    else:
        replaced = [*rounds]
        candidate = {"number": number, "ended_by": ended_by, "entry": entry}
        if number <= len(replaced):
            replaced[number - 1] = candidate
        else:
            replaced.append(candidate)
        by_hand = bool(snapshot.get("ended_by_hand")) and number <= len(rounds)
        try:
            scored = status(replaced, by_hand).rounds[number - 1]
        except engine.RoundError as error:
            errors = round_fields.without_repeats(errors, round_fields.round_errors(error, number))
    return {
        "ok": not errors,
        "errors": phone._errors(errors, round_fields.form_keys(rules, len(names))),
        "number": number,
        "ended_by": ended_by,
        "entry": entry,
        "counted": round_fields.counted_points(rules, entry),
        "sides": phone._breakdown(scored) if scored and not errors else [],
        "totals_after": phone._totals(names, scored.totals) if scored and not errors else [],
    }


def previews_to_check(preset):
    """(snapshot, waiting, form) triples over a whole game of `preset`: new rounds, corrections
    of waiting rounds, rounds past the next, fields the engine refuses, a waiting round it
    refuses, the game over by its rules and by hand; one after the other, as a phone asks."""
    rules = engine.RULESETS[preset]
    started = phone.start_game(preset, start_form(preset), "g1")["snapshot"]
    planned = planned_to_the_end(preset)

    def form(number, ended_by, entry, **changed):
        return {
            **round_fields.values_from_entry(rules, ended_by, entry),
            "round_number": str(number),
            **changed,
        }

    refused = {"number": 0, "ended_by": "stock_exhausted", "entry": [{"melded_points": 7}, {}]}
    for stored in sorted({0, 1, len(planned) - 2, len(planned) - 1}):
        kept = {
            **started,
            "rounds": [
                {"number": n, "ended_by": e, "entry": s, "key": None}
                for n, (e, s) in enumerate(planned[:stored], start=1)
            ],
        }
        for count in (0, 1, 2):
            waiting = [
                {"key": f"k{n}", "number": n, "ended_by": e, "entry": s}
                for n, (e, s) in enumerate(planned[stored : stored + count], start=stored + 1)
            ]
            played = stored + len(waiting)
            for number in range(1, min(played + 1, len(planned)) + 1):
                ended_by, entry = planned[number - 1]
                yield kept, waiting, form(number, ended_by, entry)
                yield kept, waiting, form(number, ended_by, entry, **{"s1-hand_points": "x"})
                yield kept, waiting, form(number, ended_by, entry, went_out="")
                yield {**kept, "ended_by_hand": bool(played)}, waiting, form(number, *planned[0])
            yield kept, waiting, form(played + 2, *planned[0])
            yield kept, waiting, {"went_out": "stock"}
            if waiting:
                wrong = [*waiting[:-1], {**refused, "key": "bad", "number": played}]
                yield kept, wrong, form(played, *planned[played - 1])
                yield kept, wrong, form(played + 1, *planned[0])
    # Every round of the game but the one that ends it, then that one waiting: no round after.
    ended = [
        {"key": f"k{n}", "number": n, "ended_by": e, "entry": s}
        for n, (e, s) in enumerate(planned, start=1)
    ]
    yield started, ended, form(len(planned) + 1, *planned[0])
    yield started, ended, form(len(planned), *planned[-1])
    yield started, ended, form(1, *planned[0])


@pytest.mark.parametrize("preset", PRESETS)
def test_the_live_breakdown_is_what_scoring_every_round_again_gives(preset):
    for kept, waiting, form in previews_to_check(preset):
        # The HTML is drawn from what is compared here, and held to the server's page by
        # test_the_live_breakdown_is_drawn_as_the_round_pages_preview.
        preview = data(phone.round_preview(kept, waiting, form))
        assert preview == every_round_scored(kept, waiting, form)


def test_a_changed_earlier_round_changes_the_live_breakdown_of_the_same_fields():
    form = round_fields.values_from_entry(
        engine.RULESETS["baskets"], "stock_exhausted", [{"melded_points": 60}, {}]
    )
    first = phone.round_preview(baskets_game(), [], form)
    corrected = {**ROUND_1, "key": "k1", "entry": [{"melded_points": 500}, {}]}
    second = phone.round_preview(baskets_game(), [corrected], form)
    back = phone.round_preview(baskets_game(), [], form)
    assert [t["total"] for t in first["totals_after"]] == [110, 25]
    assert [t["total"] for t in second["totals_after"]] == [560, 0]
    assert back == first


def served_preview(client, game, form) -> tuple[str, str]:
    """The breakdown and the note beside Save as the round page's live preview answers them."""
    url = f"/g/{game.public_id}/rounds/new/"
    page = client.post(url, form, headers={"HX-Request": "true"}).content.decode()
    start = page.index('<section id="preview"')
    section = page[start : page.index("</section>", start) + len("</section>")]
    opening = page.index(">", page.index('<div id="save-summary"')) + 1
    return section, page[opening : page.index("</div>", opening)]


@pytest.mark.parametrize("preset", ["baskets", "four-rounds", "contract"])
def test_the_live_breakdown_is_drawn_as_the_round_pages_preview(db, preset):
    game, planned = played_game(preset)
    client = Client()
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    form = next_round_form(game, planned[0])
    refused = {**form, "s0-melded_points": "12", "s1-hand_points": "x"}
    for fields in (form, refused, {**form, "s1-hand_points": "7"}):
        preview = phone.round_preview(snapshot(game), [], fields)
        assert (preview["preview_html"], preview["summary_html"]) == served_preview(
            client, game, fields
        )
