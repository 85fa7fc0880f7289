"""The command line: JSON in, JSON out, exit 0 on success and 2 on any invalid input."""

import io
import json
import subprocess
import sys

import pytest

from scorekeeper.engine import cli
from tests.helpers.paths import REPO

ROOT = REPO

ROUND = {
    "rules": "baskets",
    "round": 1,
    "ended_by": "going_out",
    "sides": [
        {
            "name": "Ann",
            "went_out": True,
            "canastas": {"natural": 1, "mixed": 2},
            "melded_points": 640,
            "hand_points": 0,
        },
        {
            "name": "Bob",
            "canastas": {"natural": 1},
            "melded_points": 310,
            "hand_points": 85,
            "foot_picked_up": False,
        },
    ],
}
GAME = {
    "rules": "baskets",
    "sides": ["Ann", "Bob"],
    "finished": False,
    "rounds": [{k: v for k, v in ROUND.items() if k != "rules"}],
}


def run(*args, stdin=""):
    """The engine's command line in a fresh interpreter, from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper.engine", *args],
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_rulesets_prints_every_preset_with_all_its_parameters():
    done = run("rulesets")
    assert done.returncode == 0, done.stderr
    rulesets = json.loads(done.stdout)["rulesets"]
    assert [r["id"] for r in rulesets] == [
        "baskets",
        "four-rounds",
        "sevens",
        "ten-thousand",
        "cutthroat",
        "contract",
        "canasta",
        "samba",
        "buraco",
    ]
    assert rulesets[0]["going_out_bonus"] == 250
    assert rulesets[0]["canasta_bonus"] == {"natural": 500, "mixed": 300}


def test_round_scores_the_first_worked_example():
    done = run("round", stdin=json.dumps(ROUND))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert [(side["name"], side["total"]) for side in output["sides"]] == [
        ("Ann", 1990),
        ("Bob", 625),
    ]
    assert output["rules"] == "baskets" and output["round"] == 1


def test_round_with_house_rules_names_them_in_its_output():
    house = dict(ROUND, rules={"base": "baskets", "overrides": {"going_out_bonus": 300}})
    done = run("round", stdin=json.dumps(house))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["rules"] == {"base": "baskets", "overrides": {"going_out_bonus": 300}}
    assert output["sides"][0]["total"] == 2040


def test_game_prints_totals_and_the_next_opening_meld():
    done = run("game", stdin=json.dumps(GAME))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["totals"] == {"Ann": 1990, "Bob": 625}
    assert output["meld_requirement"] == {"Ann": 70, "Bob": 50}
    assert (output["next_round"], output["finished"], output["winner"], output["tie"]) == (
        2,
        False,
        None,
        False,
    )


def test_an_invalid_round_exits_2_with_every_error_and_no_traceback():
    bad = json.loads(json.dumps(ROUND))
    bad["sides"][1]["red_threes"] = 2
    bad["sides"][0]["canastas"] = {"mixed": 2}
    done = run("round", stdin=json.dumps(bad))
    assert done.returncode == 2
    assert done.stderr == b""
    assert json.loads(done.stdout) == {
        "errors": [
            {
                "path": "sides[1].red_threes",
                "message": "Bob has 2 red threes laid down, but Baskets has no red-three bonus: "
                "threes are ordinary cards.",
            },
            {
                "path": "sides[0].canastas.natural",
                "message": "Ann went out but has 2 baskets; going out needs 3, at least 1 of them "
                "wicker.",
            },
        ]
    }


@pytest.mark.parametrize("command", ["round", "game"])
def test_malformed_json_exits_2_with_an_error_not_a_traceback(command):
    done = run(command, stdin='{"rules": "baskets", ')
    assert done.returncode == 2
    assert b"Traceback" not in done.stdout + done.stderr
    errors = json.loads(done.stdout)["errors"]
    assert errors == [
        {
            "path": "",
            "message": "The input is not valid JSON: Expecting property name enclosed "
            "in double quotes: line 1 column 22 (char 21).",
        }
    ]


def test_input_that_is_not_utf8_exits_2():
    done = run("round", stdin=b"\xff\xfe\x00{")
    assert done.returncode == 2
    assert json.loads(done.stdout)["errors"][0]["path"] == ""


def test_an_unknown_ruleset_or_game_field_exits_2():
    done = run("game", stdin=json.dumps(dict(GAME, rules="poker")))
    assert done.returncode == 2
    assert json.loads(done.stdout)["errors"] == [
        {
            "path": "rules",
            "message": 'There are no rules called "poker"; the rulesets are '
            "baskets, four-rounds, sevens, ten-thousand, cutthroat, contract, canasta, "
            "samba and buraco.",
        }
    ]
    done = run("game", stdin=json.dumps(dict(GAME, venue="club", sides="Ann")))
    assert done.returncode == 2
    assert json.loads(done.stdout)["errors"] == [
        {
            "path": "venue",
            "message": 'A game has no field "venue"; its fields are rules, sides, '
            "rounds, finished and decks.",
        },
        {"path": "sides", "message": 'A game needs its players as a list of names, not "Ann".'},
    ]


def test_an_unknown_command_exits_2():
    done = run("score")
    assert done.returncode == 2
    assert json.loads(done.stdout)["errors"] == [
        {
            "path": "command",
            "message": "Say what to do: rulesets, round, game or bench (usage: "
            "python -m scorekeeper.engine rulesets | round < "
            "round.json | game < game.json | bench); got score.",
        }
    ]


# -- the same code in this process, so that coverage sees it -----------------------------------


def main(args, stdin=""):
    out = io.StringIO()
    status = cli.main(args, io.BytesIO(stdin.encode()), out)
    return status, json.loads(out.getvalue()) if out.getvalue().startswith("{") else out.getvalue()


def test_main_scores_a_round_and_a_game():
    assert main(["round"], json.dumps(ROUND))[1]["sides"][0]["total"] == 1990
    assert main(["game"], json.dumps(GAME))[1]["totals"] == {"Ann": 1990, "Bob": 625}
    assert main(["rulesets"])[0] == 0


@pytest.mark.parametrize(
    "args, stdin, expected",
    [
        (
            ["round"],
            "[1]",
            [
                {
                    "path": "",
                    "message": "The input must be a JSON object describing a round, not a list.",
                }
            ],
        ),
        (
            ["game"],
            '{"sides": []}',
            [
                {
                    "path": "rules",
                    "message": "Say which rules to use: one "
                    "of baskets, four-rounds, sevens, ten-thousand, cutthroat, "
                    "contract, canasta, samba and buraco, or "
                    '{"base": id, "overrides": {...}} for house rules.',
                }
            ],
        ),
        (
            ["round"],
            "[" * 100_000,
            [
                {
                    "path": "",
                    "message": "The input is not JSON the engine "
                    "can read: it is nested too "
                    "deeply.",
                }
            ],
        ),
        (
            [],
            "",
            [
                {
                    "path": "command",
                    "message": "Say what to do: rulesets, round, game or bench "
                    "(usage: python -m scorekeeper.engine rulesets "
                    "| round < round.json | game < game.json | "
                    "bench); got nothing.",
                }
            ],
        ),
    ],
)
def test_main_refuses_input_it_cannot_use(args, stdin, expected):
    assert main(args, stdin) == (2, {"errors": expected})


def test_main_reports_an_unexpected_failure_without_a_traceback(monkeypatch):
    def broken(*args):
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(cli, "score_round", broken)
    assert main(["round"], json.dumps(ROUND)) == (
        1,
        {
            "errors": [
                {"path": "", "message": "The engine failed unexpectedly: ZeroDivisionError('bug')."}
            ]
        },
    )


def test_main_stops_quietly_on_ctrl_c(monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "game_status", interrupted)
    assert main(["game"], json.dumps(GAME)) == (130, "")


def test_main_runs_the_benchmark(monkeypatch):
    from scorekeeper.engine import bench

    monkeypatch.setattr(bench, "run", lambda stdout: stdout.write("measured\n"))
    assert main(["bench"]) == (0, "measured\n")


def test_main_reports_an_unknown_game_field_even_when_the_game_is_valid():
    assert main(["game"], json.dumps(dict(GAME, venue="club"))) == (
        2,
        {
            "errors": [
                {
                    "path": "venue",
                    "message": 'A game has no field "venue"; its fields are '
                    "rules, sides, rounds, finished and decks.",
                }
            ]
        },
    )


def test_a_house_rule_nested_986_levels_deep_exits_2_with_the_rules_path():
    # Shallow enough for json.loads, deep enough to break any recursive walk of the value.
    meld = "[" * 986 + "60" + "]" * 986
    document = json.dumps({**ROUND, "rules": {"base": "four-rounds", "overrides": {}}})
    document = document.replace('"overrides": {}', f'"overrides": {{"opening_meld": {meld}}}')
    done = run("round", stdin=document)
    assert done.returncode == 2, done.stdout
    assert json.loads(done.stdout) == {
        "errors": [
            {
                "path": "rules.overrides.opening_meld",
                "message": "The house rule opening_meld is nested too deeply; its value is a "
                "number, true or false, text, or lists and objects at most 2 levels deep.",
            }
        ]
    }
    assert main(["round"], document)[0] == 2
