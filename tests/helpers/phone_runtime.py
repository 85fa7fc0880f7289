"""The phone's runtime under node: tests/js/phone_runtime.mjs runs scorekeeper/portable/phone.py
in the vendored Pyodide, as the phone's engine worker does, and answers one JSON line per call.
Here: the process and its calls (each with a time limit, so a hung runtime fails a test rather
than hanging the run), the same call in CPython, and the cases the two are compared on: the engine
tests' own rounds and games, read from their source as data (tests/scorekeeper/engine/)."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import queue
import shutil
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper import engine
from scorekeeper.portable import phone
from tests.helpers import engine_rounds, round_inputs
from tests.helpers.paths import REPO

HARNESS = REPO / "tests" / "js" / "phone_runtime.mjs"
PYODIDE = REPO / "static" / "vendor" / "pyodide"
ENGINE_TESTS = REPO / "tests" / "scorekeeper" / "engine"
# Loading Pyodide takes a few seconds; a call, milliseconds. Past these, the runtime is hung.
LOAD_SECONDS = 90
CALL_SECONDS = 20


def node() -> str | None:
    return shutil.which(os.environ.get("NODE", "node"))


class RuntimeFailed(AssertionError):
    """The runtime quit or did not answer in time."""


class PhoneRuntime:
    """One node process running phone.py in Pyodide, asked one call at a time."""

    def __init__(self, engine_zip: Path, log: Path, stdlib: Path | None = None):
        command = [node(), str(HARNESS), "--index", str(PYODIDE), "--engine", str(engine_zip)]
        if stdlib is not None:
            command += ["--stdlib", str(stdlib)]
        self.log = log
        self._log_file = log.open("w", encoding="utf-8")
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log_file,
            encoding="utf-8",
            cwd=REPO,
        )
        self._answers: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._loaded = False

    def _read(self) -> None:
        for line in self.process.stdout:
            self._answers.put(line)
        self._answers.put(None)

    def ask(self, fn: str, args: list | None = None) -> dict:
        """The runtime's answer, {"ok": true, "result"} or {"ok": false, "error", ...}."""
        limit = CALL_SECONDS if self._loaded else LOAD_SECONDS
        if self.process.stdin.closed:
            raise RuntimeFailed(f"the runtime was stopped by an earlier failure; {self.log_tail()}")
        try:
            self.process.stdin.write(json.dumps({"fn": fn, "args": args or []}) + "\n")
            self.process.stdin.flush()
            line = self._answers.get(timeout=limit)
        except (OSError, queue.Empty) as error:
            self.close(kill=True)
            raise RuntimeFailed(f"no answer to {fn} within {limit} s; {self.log_tail()}") from error
        if line is None:
            self.close(kill=True)
            raise RuntimeFailed(f"the runtime quit when asked {fn}; {self.log_tail()}")
        self._loaded = True
        return json.loads(line)

    def log_tail(self) -> str:
        if not self._log_file.closed:
            self._log_file.flush()
        text = self.log.read_text(encoding="utf-8", errors="replace").strip()
        return f"its stderr ends: {text[-2000:]}" if text else "it wrote nothing to stderr"

    def close(self, *, kill: bool = False) -> None:
        """Stop the runtime: its input closed, which ends it, or killed if it is hung (or
        still running 5 s later)."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        if kill:
            self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)
        self._log_file.close()


def in_cpython(fn: str, args: list) -> dict:
    """The same call in this process, answered as the runtime answers: the arguments as JSON
    gives them, the result as it is returned, or the exception's type and message."""
    try:
        result = getattr(phone, fn)(*json.loads(json.dumps(args)))
    except Exception as error:  # the runtime reports any exception; so does this
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    return {"ok": True, "result": result}


@dataclass(frozen=True)
class Call:
    label: str
    fn: str
    args: list


def differences(runtime: PhoneRuntime, calls: list[Call]) -> list[str]:
    """Each call whose answers differ, in words. An exception on either side is a difference
    even when both raise alike: the phone's functions answer every call they are given."""
    found = []
    for call in calls:
        phone_answer = runtime.ask(call.fn, call.args)
        server_answer = in_cpython(call.fn, call.args)
        if not (phone_answer["ok"] and server_answer["ok"]):
            found.append(
                f"{call.label}: {call.fn} raised (Pyodide: "
                f"{phone_answer.get('error', 'answered')}; CPython: "
                f"{server_answer.get('error', 'answered')})"
            )
        elif phone_answer["result"] != server_answer["result"]:
            where = first_difference(phone_answer["result"], server_answer["result"])
            found.append(f"{call.label}: {call.fn} answers differ at {where}")
    return found


def first_difference(phone_value: Any, server_value: Any, path: str = "") -> str:
    """Where two JSON values first differ, and what each holds there."""
    if isinstance(phone_value, dict) and isinstance(server_value, dict):
        for key in sorted(phone_value.keys() | server_value.keys(), key=str):
            if phone_value.get(key, ...) != server_value.get(key, ...):
                return first_difference(
                    phone_value.get(key, "(missing)"),
                    server_value.get(key, "(missing)"),
                    f"{path}.{key}",
                )
    if (
        isinstance(phone_value, list)
        and isinstance(server_value, list)
        and len(phone_value) == len(server_value)
    ):
        for index, (a, b) in enumerate(zip(phone_value, server_value, strict=True)):
            if a != b:
                return first_difference(a, b, f"{path}[{index}]")
    return f"{path or 'the top'}: Pyodide {phone_value!r}, CPython {server_value!r}"


# -- games and rounds as the phone keeps them ---------------------------------------------------


def snapshot(
    preset: str,
    names: list[str],
    rounds: list[dict] = (),
    *,
    rules: dict | None = None,
    decks: int | None = None,
    ended_by_hand: bool = False,
) -> dict:
    """A game as /g/<id>/offline.json gives it, with these stored rounds (phone rounds)."""
    return {
        "id": f"g-{preset}",
        "preset": preset,
        "rules": rules or {"base": preset, "overrides": engine.RULESETS[preset].parameters()},
        "sides": list(names),
        "players": [[] for _ in names],
        "decks": decks,
        "first_dealer": 0,
        "ended_by_hand": ended_by_hand,
        "finished": False,
        "rounds": stored(rounds),
        "version": None,
        "title": " vs ".join(names),
    }


def stored(rounds: list[dict]) -> list[dict]:
    """Rounds (ended_by, entry) as a snapshot holds the ones the server stored."""
    return [{**r, "number": number, "key": None} for number, r in enumerate(rounds, start=1)]


def waiting(rounds: list[dict], first_number: int) -> list[dict]:
    """Rounds saved on the phone and not sent, numbered from first_number."""
    return [
        {**r, "number": number, "key": f"k{number}"}
        for number, r in enumerate(rounds, start=first_number)
    ]


def phone_round(round_input: dict, names: list[str]) -> dict:
    """An engine round input as the phone keeps a round: ended_by, and each side's fields in the
    game's seating order without its name (sides the game does not name keep their place)."""
    sides = [side if isinstance(side, dict) else {} for side in round_input.get("sides") or []]
    by_name = {side.get("name"): side for side in sides}
    if sorted(map(str, by_name)) == sorted(names) and len(by_name) == len(sides):
        sides = [by_name[name] for name in names]
    return {
        "ended_by": round_input.get("ended_by", "going_out"),
        "entry": [{k: v for k, v in side.items() if k != "name"} for side in sides],
    }


def a_game(preset: str, names: list[str], decks: int | None = None) -> bool:
    """Whether the engine takes these names as a game of the preset (the start page checks it)."""
    try:
        engine.game_status(preset, names, [], decks=decks)
    except engine.RoundError:
        return False
    return True


# -- the engine tests' rounds and games, read from their source ---------------------------------


@dataclass(frozen=True)
class EngineCase:
    """A round (`rounds` of one) or a game the engine tests score, with the preset they score it
    under (None: any preset)."""

    label: str
    preset: str | None
    names: list[str]
    rounds: list[dict]
    decks: int | None = None


def _names(round_input: Any) -> list[str] | None:
    if not (isinstance(round_input, dict) and isinstance(round_input.get("sides"), list)):
        return None
    sides = round_input["sides"]
    if not sides or not all(isinstance(s, dict) and isinstance(s.get("name"), str) for s in sides):
        return None
    return [side["name"] for side in sides]


def _namespace() -> dict[str, Any]:
    """What the engine tests build their rounds from: the shared rounds and their builders."""
    shared = {
        name: value
        for module in (engine_rounds, round_inputs)
        for name, value in vars(module).items()
        if not name.startswith("_") and name not in {"errors_of", "lines", "pytest"}
    }
    allowed = {"dict": dict, "list": list, "range": range, "str": str, "int": int, "len": len}
    return {**shared, "__builtins__": allowed}


def _value(node: ast.AST, namespace: dict[str, Any], path: Path) -> Any:
    """The value of an expression of the test's source, or ... when it is not plain data."""
    try:
        code = compile(ast.Expression(node), str(path), "eval")
        return eval(code, dict(namespace))  # only the helpers' builders and plain data
    except Exception:
        return ...


def _bind(statements: list[ast.stmt], namespace: dict[str, Any], path: Path) -> None:
    """The plain assignments `NAME = data` among statements, added to the namespace in order."""
    for statement in statements:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            value = _value(statement.value, namespace, path)
            if value is not ...:
                namespace[statement.targets[0].id] = value


def _preset(value: Any) -> str | None:
    return value if isinstance(value, str) and value in engine.RULESETS else None


def _cases_in(path: Path) -> Iterator[EngineCase]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = _namespace()
    _bind(tree.body, module, path)
    scopes = [(tree, module)]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            local = dict(module)
            _bind(node.body, local, path)
            scopes.append((node, local))
    for scope, namespace in scopes:
        for node in ast.walk(scope):
            line = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "game_status":
                args = [_value(arg, namespace, path) for arg in node.args[:3]]
                keywords = {k.arg: _value(k.value, namespace, path) for k in node.keywords}
                decks = keywords.get("decks") if isinstance(keywords.get("decks"), int) else None
                if len(args) == 3 and _preset(args[0]) and isinstance(args[2], list):
                    names, rounds = args[1], [r for r in args[2] if isinstance(r, dict)]
                    if isinstance(names, list) and all(isinstance(n, str) for n in names):
                        yield EngineCase(line, args[0], names, rounds, decks)
            elif isinstance(node, ast.Tuple) and isinstance(node.ctx, ast.Load) and node.elts[1:]:
                # A table's row: (preset, round, ...), or (preset, names, rounds) of a game.
                values = [_value(e, namespace, path) for e in node.elts[:3]]
                if not _preset(values[0]):
                    continue
                if names := _names(values[1]):
                    yield EngineCase(line, values[0], names, [values[1]])
                elif (
                    len(values) == 3
                    and isinstance(values[1], list)
                    and all(isinstance(n, str) for n in values[1])
                    and isinstance(values[2], list)
                ):
                    rounds = [r for r in values[2] if isinstance(r, dict)]
                    yield EngineCase(line, values[0], values[1], rounds)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "score_round":
                args = [_value(arg, namespace, path) for arg in node.args[:2]]
                if len(args) == 2 and _preset(args[0]) and (names := _names(args[1])):
                    yield EngineCase(line, args[0], names, [args[1]])
            if isinstance(node, ast.Dict | ast.Call) and not isinstance(node, ast.Tuple):
                round_input = _value(node, namespace, path) if _looks_like_a_round(node) else ...
                if names := _names(round_input):
                    yield EngineCase(line, _preset(round_input.get("rules")), names, [round_input])


def _looks_like_a_round(node: ast.AST) -> bool:
    if isinstance(node, ast.Dict):
        return any(isinstance(k, ast.Constant) and k.value == "sides" for k in node.keys)
    return isinstance(node, ast.Call) and getattr(node.func, "id", "") in {
        "baskets",
        "ten_thousand",
        "dict",
    }


def engine_cases() -> list[EngineCase]:
    """Every round and game the engine tests score, once each, from their source: literal
    rounds, rounds built by tests/helpers/round_inputs.py, and the calls of score_round and
    game_status whose arguments are plain data. Not the games of thousands of sides that time
    the engine: the start page seats at most TABLE_SIDES_MAX."""
    seen: dict[str, EngineCase] = {}
    for path in sorted(ENGINE_TESTS.glob("test_*.py")):
        for case in _cases_in(path):
            if len(case.names) <= engine.TABLE_SIDES_MAX and crosses_json(case.rounds):
                key = json.dumps([case.preset, case.names, case.rounds, case.decks], sort_keys=True)
                seen.setdefault(key, case)
    return list(seen.values())


def crosses_json(value: Any, depth: int = 0) -> bool:
    """Whether a value reaches Python in the browser as it left: JSON with no floats (JavaScript
    writes 5.0 as 5) and no integers past 2**53 (it rounds them). A phone's rounds are made of
    typed fields, whole numbers of at most 12 digits and text, which always do."""
    if depth > 50:
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and crosses_json(v, depth + 1) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(crosses_json(item, depth + 1) for item in value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    return isinstance(value, int) and abs(value) < 2**53
