"""Scoring one round: score_round and the result it returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import (
    Errors,
    RoundError,
    shown,
)
from .parsed import ParsedRound, ParsedSide
from .reading import parse_round
from .rules import RuleSet, resolve_rules


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a side's score sheet; penalties are negative."""

    item: str
    label: str
    points: int
    count: int | None = None
    each: int | None = None
    # Why a line scores as it does where its label alone does not say: "all 4", "counted
    # against: nothing melded". The label stays the score sheet's row.
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The line as the contract's JSON."""
        out: dict[str, Any] = {"item": self.item, "label": self.label}
        if self.count is not None:
            out["count"] = self.count
            out["each"] = self.each
        if self.note:
            out["note"] = self.note
        out["points"] = self.points
        return out


@dataclass(frozen=True, slots=True)
class SideScore:
    """A side's score for one round, line by line."""

    name: str
    total: int
    lines: tuple[Line, ...]

    def to_dict(self) -> dict[str, Any]:
        """The side as the contract's JSON."""
        return {
            "name": self.name,
            "total": self.total,
            "lines": [line.to_dict() for line in self.lines],
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round: every side's lines and total."""

    rules: RuleSet
    round: int
    decks: int
    ended_by: str
    went_out: str | None
    sides: tuple[SideScore, ...]

    @property
    def scores(self) -> dict[str, int]:
        """Each side's total for the round, by name."""
        return {side.name: side.total for side in self.sides}

    def to_dict(self) -> dict[str, Any]:
        """The round as the contract's JSON."""
        return {
            "rules": self.rules.spec(),
            "round": self.round,
            "sides": [side.to_dict() for side in self.sides],
        }


def score_round(rules: Any, round_input: Any) -> RoundResult:
    """Check a round (a JSON-shaped dict) and score it; raises RoundError listing every problem."""
    ruleset = resolve_rules(rules)
    errors = Errors()
    parsed = parse_round(ruleset, round_input, errors)
    if parsed is not None and isinstance(round_input, Mapping) and "rules" in round_input:
        _check_same_rules(ruleset, round_input["rules"], errors)
    errors.raise_if_any()
    assert parsed is not None
    return score_parsed(parsed)


def _check_same_rules(ruleset: RuleSet, named: Any, errors: Errors) -> None:
    try:
        same = resolve_rules(named) == ruleset
    except RoundError as error:
        errors.items.extend(error.errors)
        return
    if not same:
        named_text = shown(named) if isinstance(named, str) else "house rules"
        errors.add(
            "rules",
            f"This round names other rules ({named_text}) than the {ruleset.name} rules it is "
            "being scored with.",
        )


def score_parsed(parsed: ParsedRound) -> RoundResult:
    """Score a round whose every check passed."""
    assert parsed.round is not None and parsed.decks is not None and parsed.ended_by is not None
    assert parsed.sides is not None
    rules = parsed.rules
    sides = parsed.sides
    words = rules.words
    results = []
    for side in sides:
        lines: list[Line] = []
        for kind, bonus in rules.canasta_bonus.items():
            count = side.canastas.get(kind, 0)
            lines.append(Line(f"{kind}_canastas", rules.label(kind), count * bonus, count, bonus))
        taken = []
        if rules.open_books_change_sides:
            taken = [book for other in sides if other is not side for book in other.open_books]
            for kind, bonus in rules.canasta_bonus.items():
                count = sum(1 for k, _ in taken if k == kind)
                lines.append(
                    Line(
                        f"taken_{kind}_canastas",
                        f"{rules.label(kind)} taken from open books",
                        count * bonus,
                        count,
                        bonus,
                    )
                )
        lines.append(_red_threes(rules, side, parsed.decks))
        bonus = rules.cut_bonus
        lines.append(
            Line("exact_cuts", "Exact cut", side.exact_cuts * bonus, side.exact_cuts, bonus)
        )
        if side.went_out:
            lines.append(Line("going_out", "Going out", rules.going_out_bonus))
            if side.concealed:
                lines.append(
                    Line("going_out_concealed", "Going out concealed", rules.concealed_bonus)
                )
        lines.append(Line("melded_cards", "Cards melded", side.melded))
        lines.append(Line("taken_cards", "Cards in open books taken", sum(p for _, p in taken)))
        lines.append(
            Line("open_books_given", "Open books given away", -sum(p for _, p in side.open_books))
        )
        if not (side.went_out and rules.went_out_hand == "dismissed"):
            lines.append(Line("hand_cards", f"Cards left in {words['held']}", -side.hand))
            penalty = -rules.red_three_in_hand_penalty
            lines.append(
                Line(
                    "red_threes_in_hand",
                    "Red threes in hand",
                    side.red_in_hand * penalty,
                    side.red_in_hand,
                    penalty,
                )
            )
            penalty = -rules.black_three_in_hand_penalty
            lines.append(
                Line(
                    "black_threes_in_hand",
                    "Black threes in hand",
                    side.black_in_hand * penalty,
                    side.black_in_hand,
                    penalty,
                )
            )
        if not side.went_out and not side.foot_picked_up:
            lines.append(
                Line(
                    "foot_not_picked_up",
                    f"{words['foot'].capitalize()} never picked up",
                    -rules.foot_penalty,
                )
            )
        kept = tuple(line for line in lines if line.points or line.count)
        results.append(SideScore(side.name, sum(line.points for line in kept), kept))
    went_out = next((side.name for side in sides if side.went_out), None)
    return RoundResult(rules, parsed.round, parsed.decks, parsed.ended_by, went_out, tuple(results))


def _red_threes(rules: RuleSet, side: ParsedSide, decks: int) -> Line:
    """The red threes' line: each at the bonus, or all of them (every red three the decks hold)
    at the bonus for all; negative where the rules count them against this side."""
    count, each = side.red_threes, rules.red_three_bonus
    notes = []
    if count and rules.red_threes_all_bonus and count == 2 * decks:
        # The bonus for all of them need not divide by the count (Samba's 1,000 for six).
        points, each = rules.red_threes_all_bonus, None
        notes.append(f"all {count}")
    else:
        points = count * each
    against = _red_threes_against(rules, side)
    if count and against:
        points, each = -points, None if each is None else -each
        notes.append(f"counted against: {against}")
    shown_count = count if each is not None else None
    return Line("red_threes", "Red threes", points, shown_count, each, "; ".join(notes))


def _red_threes_against(rules: RuleSet, side: ParsedSide) -> str:
    """Why this side's red threes count against it ("" where they do not)."""
    if rules.red_threes_against == "without_meld" and not side.melded:
        return "nothing melded"
    needed = rules.red_threes_canastas_needed
    if rules.red_threes_against == "without_canastas" and sum(side.canastas.values()) < needed:
        words = rules.words
        return f"fewer than {needed} {words['canasta'] if needed == 1 else words['canastas']}"
    return ""
