"""A game so far: running totals, the next opening meld, the end of the game and its winner."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Errors, FrozenMap, counted, is_whole, listing, number, shown
from .reading import NAME_MAX, parse_round
from .rules import DECKS_MAX, ROUND_MAX, RuleSet, resolve_rules
from .scoring import RoundResult, score_parsed

NAMES_LISTED = 12


@dataclass(frozen=True, slots=True)
class GameRound:
    """One round of a game: each side's score for it and the totals after it."""

    round: int
    scores: FrozenMap
    totals: FrozenMap
    result: RoundResult

    def to_dict(self) -> dict[str, Any]:
        """The round as the contract's game JSON."""
        return {"round": self.round, "scores": dict(self.scores), "totals": dict(self.totals)}


@dataclass(frozen=True, slots=True)
class GameStatus:
    """Where a game stands after its rounds so far."""

    rules: RuleSet
    sides: tuple[str, ...]
    totals: FrozenMap
    rounds: tuple[GameRound, ...]
    next_round: int | None
    meld_requirement: FrozenMap | None
    finished: bool
    winner: str | None
    tie: bool

    def to_dict(self) -> dict[str, Any]:
        """The game as the contract's JSON."""
        return {
            "totals": dict(self.totals),
            "rounds": [game_round.to_dict() for game_round in self.rounds],
            "next_round": self.next_round,
            "meld_requirement": (
                None if self.meld_requirement is None else dict(self.meld_requirement)
            ),
            "finished": self.finished,
            "winner": self.winner,
            "tie": self.tie,
        }


def game_status(
    rules: Any,
    sides: Any,
    rounds: Any,
    finished: Any = False,
    decks: Any = None,
) -> GameStatus:
    """Score every round of a game; raises RoundError listing every problem in any round."""
    return game_status_after(rules, sides, None, rounds, finished, decks)


def game_status_after(
    rules: Any,
    sides: Any,
    before: Any,
    rounds: Any,
    finished: Any = False,
    decks: Any = None,
) -> GameStatus:
    """The game after more rounds, from where it stood before them, scoring only the new ones.

    `before` is `{"totals": {name: total}, "rounds": rounds played}` as an earlier status of the
    same game gave them (None: the game's start). The answer is game_status's over every round,
    except that its `rounds` holds only the new ones, each numbered as in the whole game, and an
    error names a new round by its place in the whole game (`rounds[20].sides[1]...`)."""
    ruleset = resolve_rules(rules)
    errors = Errors()
    names = _read_names(ruleset, sides, errors)
    start, played = _read_before(before, names, errors)
    if not isinstance(finished, bool):
        errors.add(
            "finished",
            f"Whether the game is finished must be true or false, not {shown(finished)}.",
        )
        finished = False
    if decks is not None and not (is_whole(decks) and 1 <= decks <= DECKS_MAX):
        errors.add(
            "decks",
            f"The number of decks must be a whole number from 1 to {DECKS_MAX}, "
            f"not {shown(decks)}.",
        )
        decks = None
    if not isinstance(rounds, list | tuple):
        errors.add(
            "rounds", f"The rounds must be a list, one entry per round played, not {shown(rounds)}."
        )
        rounds = []
    parsed = []
    for index, data in enumerate(rounds, start=played):
        prefix = f"rounds[{index}]."
        round_ = parse_round(
            ruleset, data, errors, prefix, default_decks=decks, game_round=index + 1
        )
        parsed.append(round_)
        if round_ is not None and round_.sides is not None and names is not None:
            _check_round_sides(ruleset, names, round_.sides, index, errors)
    if finished and not rounds and not played:
        errors.add("finished", "No round has been played yet, so the game cannot be finished.")
    errors.raise_if_any()
    assert names is not None

    totals = dict.fromkeys(names, 0) if start is None else {name: start[name] for name in names}
    scored: list[GameRound] = []
    over_after: int | None = None
    if played and _end_reached(ruleset, totals, played):
        over_after = played
    for index, round_ in enumerate(parsed, start=played):
        assert round_ is not None
        if over_after is not None:
            errors.add(
                f"rounds[{index}]",
                f"The game was over after round {over_after}"
                f"{_end_reason(ruleset, totals, over_after)}; "
                f"no round can follow it.",
            )
            break
        result = score_parsed(round_)
        scores = result.scores
        for name in names:
            totals[name] += scores[name]
        scored.append(
            GameRound(
                index + 1,
                FrozenMap((name, scores[name]) for name in names),
                FrozenMap(totals),
                result,
            )
        )
        if _end_reached(ruleset, totals, index + 1):
            over_after = index + 1
    errors.raise_if_any()

    done = finished or over_after is not None
    winner, tie = None, False
    if done:
        top = max(totals.values())
        leaders = [name for name in names if totals[name] == top]
        winner = leaders[0] if len(leaders) == 1 else None
        tie = winner is None
    next_round = None if done else played + len(scored) + 1
    meld = None
    if next_round is not None:
        meld = FrozenMap(
            (name, ruleset.opening_meld_for(next_round, totals[name])) for name in names
        )
    return GameStatus(
        ruleset,
        tuple(names),
        FrozenMap(totals),
        tuple(scored),
        next_round,
        meld,
        done,
        winner,
        tie,
    )


def _read_before(
    before: Any, names: list[str] | None, errors: Errors
) -> tuple[dict[str, int] | None, int]:
    """Where the game stood before the rounds given: (totals by name or None, rounds played)."""
    if before is None:
        return None, 0
    if not isinstance(before, Mapping) or set(before) != {"totals", "rounds"}:
        errors.add(
            "before",
            "Where the game stood must say its totals and how many rounds were played, "
            f"not {shown(before)}.",
        )
        return None, 0
    played, totals = before["rounds"], before["totals"]
    if not (is_whole(played) and 0 <= played <= ROUND_MAX):
        errors.add(
            "before.rounds",
            f"The rounds played must be a whole number from 0 to {number(ROUND_MAX)}, "
            f"not {shown(played)}.",
        )
        played = 0
    if names is None:
        return None, played
    if (
        not isinstance(totals, Mapping)
        or set(totals) != set(names)
        or not all(is_whole(total) for total in totals.values())
    ):
        errors.add(
            "before.totals",
            f"The totals must give each of {_some(names)} a whole number, not {shown(totals)}.",
        )
        return None, played
    return dict(totals), played


def _read_names(rules: RuleSet, sides: Any, errors: Errors) -> list[str] | None:
    words = rules.words
    if not isinstance(sides, list | tuple):
        errors.add(
            "sides",
            f"A game needs its {words['sides']} as a list of names, not {shown(sides)}.",
        )
        return None
    names: list[str] = []
    seen: set[str] = set()
    for index, name in enumerate(sides):
        path = f"sides[{index}]"
        if not isinstance(name, str) or not name.strip():
            errors.add(
                path,
                f"The name of {words['side']} {index + 1} must be text, not {shown(name)}.",
            )
        elif len(name) > NAME_MAX:
            errors.add(
                path,
                f"The name of {words['side']} {index + 1} has {number(len(name))} characters; "
                f"a name has at most {NAME_MAX}.",
            )
        elif name.strip().casefold() in seen:
            errors.add(
                path,
                f"{name} is already the name of another {words['side']}; every {words['side']} "
                "needs its own name.",
            )
        else:
            seen.add(name.strip().casefold())
            names.append(name)
    low, high = rules.min_sides, rules.max_sides
    count = len(sides)
    if count < low or (high is not None and count > high):
        allowed = (
            f"exactly {low}"
            if high == low
            else f"at least {low}"
            if high is None
            else f"{low} to {high}"
        )
        errors.add(
            "sides",
            f"{rules.name} is played by {allowed} {words['sides']}; this game has {number(count)}.",
        )
        return None
    return names if len(names) == count else None


def _check_round_sides(
    rules: RuleSet, names: list[str], round_sides: list[Any], index: int, errors: Errors
) -> None:
    words = rules.words
    # Sets, not lists: a game of 30,000 sides would otherwise compare every name with every other.
    game_names = set(names)
    known = {side.name for side in round_sides if side.name is not None}
    for side in round_sides:
        if side.name is not None and side.name not in game_names:
            errors.add(
                f"{side.path}.name",
                f"{side.name} is not a {words['side']} of this game; its {words['sides']} are "
                f"{_some(names)}.",
            )
    if any(side.name is None for side in round_sides):
        return
    missing = [name for name in names if name not in known]
    if missing:
        errors.add(
            f"rounds[{index}].sides",
            f"Round {index + 1} has no score for {_some(missing)}; every {words['side']} of "
            "the game plays every round.",
        )


def _some(names: list[str]) -> str:
    """`Ann, Bob and Cy`; past a dozen names, the first ten and how many more, so that a
    message repeated for each of 30,000 sides stays a sentence, not the whole list."""
    if len(names) <= NAMES_LISTED:
        return listing(names)
    return f"{', '.join(names[:10])} and {number(len(names) - 10)} more"


def _end_reached(rules: RuleSet, totals: Mapping[str, int], played: int) -> bool:
    if played >= ROUND_MAX:
        # Whatever the rules, so that no game grows without bound; the highest total wins.
        return True
    if rules.rounds is not None and played >= rules.rounds:
        return True
    if rules.target_score is not None:
        top = max(totals.values())
        leaders = [name for name, total in totals.items() if total == top]
        # Leaders tied at or above the target play on until one of them is ahead.
        return top >= rules.target_score and len(leaders) == 1
    return False


def _end_reason(rules: RuleSet, totals: Mapping[str, int], played: int) -> str:
    if rules.target_score is not None:
        top = max(totals.values())
        leaders = [name for name, total in totals.items() if total == top]
        if top >= rules.target_score and len(leaders) == 1:
            return (
                f", when {leaders[0]} reached {number(top)} "
                f"(the target is {number(rules.target_score)})"
            )
    if rules.rounds is not None and played >= rules.rounds:
        return f" ({rules.name} is played over {counted(rules.rounds, 'round')})"
    return f" (a game holds at most {counted(ROUND_MAX, 'round')}; the highest total wins)"
