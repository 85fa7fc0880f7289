"""The command line: JSON in on stdin, JSON out on stdout; exit 0, or 2 on invalid input."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, BinaryIO, TextIO

from .errors import FieldError, RoundError, listing, shown
from .game import game_status
from .rules import RULESETS, resolve_rules
from .scoring import score_round

COMMANDS = ("rulesets", "round", "game", "bench")
GAME_FIELDS = ("rules", "sides", "rounds", "finished", "decks")
USAGE = "python -m scorekeeper.engine rulesets | round < round.json | game < game.json | bench"


def main(
    argv: list[str] | None = None,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run one command; return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    try:
        if len(args) != 1 or args[0] not in COMMANDS:
            raise RoundError(
                [
                    FieldError(
                        "command",
                        f"Say what to do: {listing(COMMANDS, 'or')} (usage: {USAGE}); "
                        f"got {' '.join(args) or 'nothing'}.",
                    )
                ]
            )
        command = args[0]
        if command == "bench":
            from .bench import run

            run(stdout)
            return 0
        if command == "rulesets":
            output: Any = {"rulesets": [ruleset.to_dict() for ruleset in RULESETS.values()]}
        elif command == "round":
            output = _round(_read(stdin)).to_dict()
        else:
            output = _game(_read(stdin)).to_dict()
    except RoundError as error:
        _write(stdout, error.to_dict())
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # noqa: BLE001 - a user must never see a traceback
        _write(
            stdout,
            {"errors": [{"path": "", "message": f"The engine failed unexpectedly: {error!r}."}]},
        )
        return 1
    _write(stdout, output)
    return 0


def _write(stdout: TextIO, document: Any) -> None:
    stdout.write(json.dumps(document, indent=2) + "\n")


def _read(stdin: BinaryIO) -> Any:
    raw = stdin.read()
    try:
        return json.loads(raw)
    except RecursionError:
        message = "The input is not JSON the engine can read: it is nested too deeply."
    except ValueError as error:  # JSONDecodeError, bad UTF-8, a number too long to convert
        message = f"The input is not valid JSON: {error}."
    raise RoundError([FieldError("", message)])


def _require_object(document: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(document, Mapping):
        raise RoundError(
            [
                FieldError(
                    "", f"The input must be a JSON object describing {what}, not {shown(document)}."
                )
            ]
        )
    if "rules" not in document:
        raise RoundError(
            [
                FieldError(
                    "rules",
                    f"Say which rules to use: one of {listing(RULESETS)}, or "
                    '{"base": id, "overrides": {...}} for house rules.',
                )
            ]
        )
    return document


def _round(document: Any):
    document = _require_object(document, "a round")
    rules = resolve_rules(document["rules"])
    return score_round(rules, {k: v for k, v in document.items() if k != "rules"})


def _game(document: Any):
    document = _require_object(document, "a game")
    rules = resolve_rules(document["rules"])
    errors = [
        FieldError(
            str(key), f"A game has no field {shown(key)}; its fields are {listing(GAME_FIELDS)}."
        )
        for key in document
        if key not in GAME_FIELDS
    ]
    try:
        status = game_status(
            rules,
            document.get("sides"),
            document.get("rounds", []),
            document.get("finished", False),
            document.get("decks"),
        )
    except RoundError as error:
        raise RoundError(errors + error.errors) from None
    if errors:
        raise RoundError(errors)
    return status
