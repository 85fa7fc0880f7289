"""The phone's runtime is the server's: phone.py run in the vendored Pyodide (under node, by
tests/js/phone_runtime.mjs, with the JSON crossing the engine worker has) answers every call
exactly as CPython does, over the phone tests' games, every preset played through, the engine
tests' own rounds and games, house rules typed on the start page, and typed round fields.

An exception on either side fails: the phone's functions answer every call, so two runtimes that
raise alike are not equal. No database: the games are built as the phone builds them.

Node is needed (skipped without it, unless E2E_REQUIRED=1). PHONE_STDLIB=<python_stdlib.zip>
runs the runtime on another standard library than the vendored one (tools/trim_stdlib.py's
candidates); PHONE_RUNTIME_LOADED=<file> writes the modules Python imported over the whole run,
each with its file, when the runtime stops (how tools/stdlib_kept.txt was made)."""

import functools
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import engine
from scorekeeper.offline import pack
from scorekeeper.portable import phone, round_fields, start_fields
from tests.helpers.games import start_form
from tests.helpers.offline_games import PRESETS, planned_rounds, planned_to_the_end
from tests.helpers.phone_runtime import (
    PYODIDE,
    Call,
    PhoneRuntime,
    a_game,
    differences,
    engine_cases,
    node,
    phone_round,
    snapshot,
    stored,
    waiting,
)

# The phone tests' Baskets game (tests/scorekeeper/portable/test_phone.py): Bob deals first.
BASKETS_START = {"side0-player0": "Ann", "side1-player0": "Bob", "first_dealer": "1-0"}
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
# Ann goes out with three natural canastas and 300 melded: 2,050 a round, so the third ends a
# game to 5,000.
ANN_OUT = {
    "ended_by": "going_out",
    "entry": [{"went_out": True, "canastas": {"natural": 3}, "melded_points": 300}, {}],
}
# What a person may type into a house-rule field.
RULE_VALUES = ["", "0", "1", "-5", "abc", "12.5", "99999999999", "yes", "no", "[[null, 15]]"]


@pytest.fixture(scope="session")
def runtime(tmp_path_factory):
    """The phone's runtime, started once: the vendored Pyodide and the engine zip the server
    serves. Stopped at the end (killed if it does not stop)."""
    required = os.environ.get("E2E_REQUIRED") == "1"
    missing = (
        "node is not installed (set NODE to its path)"
        if node() is None
        else None
        if (PYODIDE / "pyodide.mjs").is_file()
        else "Pyodide is not vendored (make vendor-pyodide)"
    )
    if missing:
        if required:
            pytest.fail(f"The phone's runtime cannot run: {missing}, and E2E_REQUIRED=1.")
        pytest.skip(f"The phone's runtime cannot run: {missing}.")
    folder = tmp_path_factory.mktemp("phone-runtime")
    zip_path = folder / "engine.zip"
    zip_path.write_bytes(pack.engine_zip()[0])
    stdlib = os.environ.get("PHONE_STDLIB")
    started = PhoneRuntime(zip_path, folder / "stderr.log", Path(stdlib) if stdlib else None)
    try:
        answer = started.ask("ping")
        assert answer == {"ok": True, "result": "ready"}, answer
        yield started
        record = os.environ.get("PHONE_RUNTIME_LOADED")
        if record:
            Path(record).write_text(json.dumps(started.ask("loaded")["result"], indent=1))
    finally:
        started.close()


def assert_alike(runtime, calls: list[Call]) -> None:
    found = differences(runtime, calls)
    shown = "\n".join(found[:20]) + (f"\n... and {len(found) - 20} more" if found[20:] else "")
    assert not found, f"{len(found)} of {len(calls)} calls differ:\n{shown}"


def form_for(rules: engine.RuleSet, played: dict, number: int) -> dict[str, str]:
    """A phone round (ended_by, entry) as the round form posts it for round `number`."""
    data = round_fields.values_from_entry(rules, played["ended_by"], played["entry"])
    return {**data, "round_number": str(number)}


@functools.cache
def played_through(preset: str, plan=planned_rounds) -> list[dict]:
    """The demo rounds the offline tests play (tests/helpers/offline_games.py), as phone rounds:
    the game they store three rounds of, or the one played to its end."""
    return [{"ended_by": ended_by, "entry": entry} for ended_by, entry in plan(preset)]


def game_calls(label: str, game: dict, rounds: list[dict], rules: engine.RuleSet) -> list[Call]:
    """The phone's calls at every point of a game: each round stored or waiting, the round form
    and the breakdown of the next round and of a correction, and the game's page."""
    calls = []
    for count in range(len(rounds) + 1):
        kept = {**game, "rounds": stored(rounds[:count])}
        rest = waiting(rounds[count:], count + 1)
        here = f"{label}, {count} rounds stored"
        calls += [
            Call(here, "game_view", [kept, []]),
            Call(here, "game_view", [kept, rest]),
            Call(here, "game_view", [kept, rest[:1]]),
            Call(here, "round_form", [kept, []]),
            Call(here, "round_form", [kept, rest[:1]]),
        ]
        if count < len(rounds):
            typed = form_for(rules, rounds[count], count + 1)
            calls.append(Call(here, "round_preview", [kept, [], typed]))
            calls.append(Call(here, "round_preview", [kept, rest[1:2], typed]))
        if count:
            # A correction of the last stored round, typed as the first round was played.
            typed = form_for(rules, rounds[0], count)
            calls.append(Call(here, "round_preview", [kept, rest, typed]))
            # Both versions of the last stored round, as a conflict shows them: the stored one
            # and another phone's, played as the first round was.
            calls += [
                Call(here, "round_lines", [kept, [], kept["rounds"][count - 1]]),
                Call(here, "round_lines", [kept, rest, {**rounds[0], "number": count}]),
            ]
        if rest:
            calls.append(Call(here, "round_lines", [kept, rest, rest[0]]))
    return calls


# -- the harness itself -------------------------------------------------------------------------


def test_a_call_that_raises_is_answered_with_its_reason_and_never_counts_as_equal(runtime):
    answer = runtime.ask("game_view", [{}, []])
    assert (answer["ok"], answer["error"]) == (False, "KeyError: 'sides'")
    assert answer["traceback"].startswith("Traceback (most recent call last):")
    assert differences(runtime, [Call("no snapshot", "game_view", [{}, []])]) == [
        "no snapshot: game_view raised (Pyodide: KeyError: 'sides'; CPython: KeyError: 'sides')"
    ]


def test_only_the_phones_functions_are_called(runtime):
    assert runtime.ask("exec", ["print(1)"])["error"] == "The engine has no function exec."


# -- the phone tests' games ---------------------------------------------------------------------


def test_the_phone_tests_game_answers_alike(runtime):
    game = {**phone.start_game("baskets", BASKETS_START, "g1")["snapshot"], "rounds": [ROUND_1]}
    rules = engine.RULESETS["baskets"]
    refused = {**WAITING_2, "entry": [{"melded_points": 7}, {}]}
    later = {**WAITING_2, "key": "k3", "number": 3}
    forms = [
        {
            "round_number": "2",
            "went_out": "stock",
            "s0-melded_points": "100",
            "s0-hand_points": "5",
            "s1-melded_cards-K": "3",
            "s1-hand_points": "15",
        },
        {"round_number": "2", "s0-melded_points": "abc"},
        {**round_fields.values_from_entry(rules, "stock_exhausted", [{"melded_points": 60}, {}])},
        {"round_number": "4", "went_out": "stock"},
        {},
    ]
    calls = [Call("started", "start_game", ["baskets", BASKETS_START, "g1"])]
    for queue in (
        [],
        [WAITING_2],
        [refused, later],
        [WAITING_2, {**refused, "key": "k3", "number": 3}],
    ):
        calls += [
            Call(str(queue), "game_view", [game, queue]),
            Call(str(queue), "round_form", [game, queue]),
        ]
        calls += [Call(str(queue), "round_preview", [game, queue, form]) for form in forms]
        calls.append(
            Call(str(queue), "round_preview", [game, queue, {**forms[2], "round_number": "1"}])
        )
        calls += [Call(str(queue), "round_lines", [game, queue, r]) for r in [ROUND_1, *queue]]
    calls += [
        Call("a gap", "round_lines", [game, [], {**WAITING_2, "number": 4}]),
        Call("no entry", "round_lines", [game, [], {"number": 2, "ended_by": "going_out"}]),
    ]
    assert_alike(runtime, calls)


def test_the_start_page_answers_alike_with_any_house_rule_typed(runtime):
    calls = [
        Call(
            "problems",
            "start_game",
            ["baskets", {"side0-player0": "Ann", "rule-target_score": "-5"}, "g"],
        ),
        Call("unknown", "start_game", ["poker", {}, "g"]),
        Call("empty", "start_game", ["baskets", {}, "g"]),
    ]
    for preset in PRESETS:
        rules = engine.RULESETS[preset]
        form = start_form(preset)
        calls.append(Call(preset, "start_game", [preset, form, "Zq3"]))
        calls.append(
            Call(preset, "start_game", [preset, {**form, **start_fields.rule_values(rules)}, "Zq3"])
        )
        first = played_through(preset)[0]
        for key in start_fields.rule_values(rules):
            for value in RULE_VALUES:
                typed = {**form, key: value}
                calls.append(
                    Call(f"{preset} {key}={value!r}", "start_game", [preset, typed, "Zq3"])
                )
                started = phone.start_game(preset, typed, "Zq3")
                if started["ok"] and value in ("1", "abc"):
                    house = started["snapshot"]
                    calls += [
                        Call(f"{preset} {key}={value!r}", "round_form", [house, []]),
                        Call(
                            f"{preset} {key}={value!r}",
                            "round_preview",
                            [house, [], form_for(engine.resolve_rules(house["rules"]), first, 1)],
                        ),
                    ]
    assert_alike(runtime, calls)


@pytest.mark.parametrize(
    "plan", [planned_rounds, planned_to_the_end], ids=["planned", "to-the-end"]
)
@pytest.mark.parametrize("preset", PRESETS)
def test_each_preset_played_through_answers_alike_at_every_round(runtime, preset, plan):
    game = phone.start_game(preset, start_form(preset), "Zq3")["snapshot"]
    rounds = played_through(preset, plan)
    assert_alike(runtime, game_calls(preset, game, rounds, engine.RULESETS[preset]))


def test_a_waiting_round_that_ends_the_game_answers_alike(runtime):
    game = phone.start_game("baskets", start_form("baskets"), "g")["snapshot"]
    rules = engine.RULESETS["baskets"]
    two = {**game, "rounds": stored([ANN_OUT, ANN_OUT])}
    three = {**game, "rounds": stored([ANN_OUT] * 3)}
    third = waiting([ANN_OUT], 3)
    assert_alike(
        runtime,
        [
            Call("two stored, the third waiting", "game_view", [two, third]),
            Call("two stored, the third waiting", "round_form", [two, third]),
            Call(
                "two stored, the third typed",
                "round_preview",
                [two, [], form_for(rules, ANN_OUT, 3)],
            ),
            Call("three stored", "game_view", [three, []]),
            Call("three stored", "round_form", [three, []]),
            Call("none stored, three waiting", "game_view", [game, waiting([ANN_OUT] * 3, 1)]),
        ],
    )


# -- the engine tests' rounds and games ----------------------------------------------------------


def engine_case_calls(preset: str) -> list[Call]:
    """Each round of the engine tests as a waiting round and as typed fields, and each of their
    games with as many rounds stored as the engine takes and the rest waiting, in this preset:
    the rounds made for it, and those made for no preset in particular."""
    rules = engine.RULESETS[preset]
    calls = []
    for case in engine_cases():
        if case.preset not in (preset, None) or not a_game(preset, case.names, case.decks):
            continue
        label = f"{case.label} in {preset}"
        rounds = [phone_round(r, case.names) for r in case.rounds]
        count = 0
        while count < len(case.rounds) and a_game_after(preset, case, count + 1):
            count += 1
        game = snapshot(preset, case.names, rounds[:count], decks=case.decks)
        rest = waiting(rounds[count:], count + 1)
        calls += [
            Call(label, "game_view", [game, rest]),
            Call(label, "game_view", [game, []]),
            Call(label, "round_form", [game, rest]),
        ]
        if rest:
            try:
                form = form_for(rules, rest[0], count + 1)
            except (AttributeError, TypeError):
                continue  # a round no form could post (canastas that are no mapping, say)
            calls.append(Call(label, "round_preview", [game, [], form]))
    return calls


def a_game_after(preset: str, case, count: int) -> bool:
    """Whether the engine takes the case's first `count` rounds as a game (so the server could
    have stored them)."""
    inputs = [
        {
            "ended_by": r["ended_by"],
            "sides": [{"name": n, **s} for n, s in zip(case.names, r["entry"], strict=False)],
        }
        for r in (phone_round(r, case.names) for r in case.rounds[:count])
    ]
    try:
        engine.game_status(preset, case.names, inputs, decks=case.decks)
    except (engine.RoundError, TypeError, AttributeError):
        return False
    return True


def test_the_engine_tests_rounds_and_games_are_all_read_from_their_source():
    cases = engine_cases()
    files = {case.label.split(":")[0] for case in cases}
    assert {
        "test_game.py",
        "test_published_four_round_games.py",
        "test_published_target_games.py",
        "test_round_decks.py",
        "test_round_going_out.py",
        "test_round_rule_fields.py",
        "test_round_shape.py",
        "test_round_sides.py",
        "test_worked_examples.py",
    } <= files
    assert len(cases) > 150
    assert sum(len(case.rounds) > 1 for case in cases) >= 10  # games, not rounds only
    assert {case.preset for case in cases} == {None, *PRESETS}


@pytest.mark.parametrize("preset", PRESETS)
def test_the_engine_tests_rounds_and_games_answer_alike(runtime, preset):
    calls = engine_case_calls(preset)
    assert len(calls) > 20
    assert_alike(runtime, calls)


# -- typed round fields --------------------------------------------------------------------------

TYPED = st.one_of(
    st.just(""),
    st.integers(-(10**13), 10**13).map(str),
    st.integers(0, 400).map(lambda n: str(5 * n)),
    st.sampled_from(["on", "1", "0", "-0", " 15 ", "1e3", "5.0", "٣", "0x10", "+5", "½", "NaN"]),
    st.text(max_size=8),
)
WENT_OUT = st.sampled_from(["", "stock", "s0", "s1", "s2", "S0", "stock "]) | st.text(max_size=4)
ROUND_NUMBER = st.sampled_from(["", "1", "2", "3", "4", "5", "99", "0", "-1", "x", "1000000"])


def field_keys(game: dict) -> list[str]:
    """Every field the phone's round form has for this game."""
    drawn = phone.round_form(game, [])
    keys = set()
    for side in drawn["sides"]:
        keys |= {f["key"] for f in side["fields"]}
        keys |= {card["key"] for pile in ("melded", "hand") for card in side[pile]["cards"]}
        keys |= {key for book in side["open_books"] for key in book.values()}
    return sorted(keys)


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_typed_round_fields_preview_alike(runtime, preset, data):
    rounds = played_through(preset)
    game = phone.start_game(preset, start_form(preset), "Zq3")["snapshot"]
    count = data.draw(st.integers(0, min(3, len(rounds) - 1)), label="stored")
    kept = {**game, "rounds": stored(rounds[:count])}
    queue = waiting(
        rounds[count : count + data.draw(st.integers(0, 1), label="waiting")], count + 1
    )
    keys = field_keys(kept)
    form = data.draw(
        st.fixed_dictionaries(
            {"went_out": WENT_OUT},
            optional={"round_number": ROUND_NUMBER, **dict.fromkeys(keys, TYPED)},
        ),
        label="form",
    )
    assert_alike(runtime, [Call(f"{preset} {form}", "round_preview", [kept, queue, form])])
