"""Words and numbers for people: the rules picker's key numbers, what a side needs to win, a
game on the games list."""

from dataclasses import dataclass

from scorekeeper import engine
from scorekeeper.engine.formatting import number, rule_set_name, signed
from scorekeeper.engine.house_rules import house_rules_text
from scorekeeper.models import Game, Side
from scorekeeper.portable.phone import standing, to_win

__all__ = [
    "GameLine",
    "RulesCard",
    "end_condition",
    "game_line",
    "opening_meld",
    "rules_card",
    "to_win",
]


@dataclass(frozen=True)
class RulesCard:
    rules: engine.RuleSet
    facts: list[tuple[str, str]]


def end_condition(rules: engine.RuleSet) -> str:
    """`First to 10,000` or `After 4 rounds`."""
    if rules.rounds:
        return f"After {rules.rounds} rounds, highest total wins"
    if rules.target_score is not None:
        return f"First to {number(rules.target_score)}, highest total wins"
    return f"When you end it (at most {engine.ROUND_MAX} rounds), highest total wins"


def opening_meld(rules: engine.RuleSet) -> str:
    if rules.opening_meld_by == "round":
        return "By round: " + ", ".join(number(points) for points in rules.opening_meld)
    parts = []
    for floor, points in rules.opening_meld:
        parts.append(
            f"{number(points)}" if floor is None else f"{number(points)} from {number(floor)}"
        )
    return "By score: " + ", ".join(parts)


def rules_card(rules: engine.RuleSet) -> RulesCard:
    """The key numbers of a rule set, in its own words."""
    words = rules.words
    bonuses = ", ".join(
        f"{words[kind]} {number(points)}" for kind, points in rules.canasta_bonus.items()
    )
    need = ", ".join(
        f"{count} {words[kind]}" for kind, count in rules.going_out_minimum.items() if count
    )
    sides = (
        f"exactly {rules.min_sides}"
        if rules.min_sides == rules.max_sides
        else f"{rules.min_sides} or more"
        if rules.max_sides is None
        else f"{rules.min_sides} to {rules.max_sides}"
    )
    facts = [
        (words["sides"].capitalize(), sides),
        ("Decks", str(rules.decks)),
        (f"{words['canasta'].capitalize()} bonus", bonuses),
        (
            "Going out",
            f"{rules.going_out_canastas} {words['canastas']} ({need}), "
            f"{signed(rules.going_out_bonus)}",
        ),
        ("Opening meld", opening_meld(rules)),
        ("Game ends", end_condition(rules)),
    ]
    if rules.cut_bonus:
        facts.append(("Exact cut", signed(rules.cut_bonus)))
    if rules.red_three_bonus:
        facts.append(
            (
                "Red threes",
                f"{signed(rules.red_three_bonus)} laid down, "
                f"{signed(-rules.red_three_in_hand_penalty)} in hand",
            )
        )
    return RulesCard(rules, facts)


@dataclass(frozen=True)
class GameLine:
    """A game as the games list shows it: who plays, which rules, how far, the score."""

    names: str
    rules: str
    stage: str
    totals: str
    standing: str


def game_line(game: Game, sides: list[Side], rounds_played: int) -> GameLine:
    """`Ann vs Bob`, `Baskets` (with its house rules, if any), `Round 3`, `Ann 1,990 · Bob 625`,
    `Ann leads by 1,365`."""
    rules = rule_set_name(game.preset)
    if game.house_rules:
        rules += " · " + house_rules_text(engine.resolve_rules(game.rules))
    stage = "Finished" if game.finished else f"Round {number(rounds_played + 1)}"
    winner = next((side.name for side in sides if side.pk == game.winner_id), None)
    standing_text = standing(
        [side.name for side in sides],
        [side.total for side in sides],
        rounds_played,
        finished=game.finished,
        winner=winner,
        tie=game.tie,
    )
    return GameLine(
        names=" vs ".join(side.name for side in sides),
        rules=rules,
        stage=stage,
        totals=" · ".join(f"{side.name} {number(side.total)}" for side in sides),
        standing=standing_text,
    )
