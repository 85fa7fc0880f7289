"""Words and numbers about a rule set for people: the rules picker's key numbers."""

from dataclasses import dataclass

from scorekeeper import engine
from scorekeeper.formatting import number as _n
from scorekeeper.formatting import signed


@dataclass(frozen=True)
class RulesCard:
    rules: engine.RuleSet
    facts: list[tuple[str, str]]


def end_condition(rules: engine.RuleSet) -> str:
    """`First to 10,000` or `After 4 rounds`."""
    if rules.rounds:
        return f"After {rules.rounds} rounds, highest total wins"
    if rules.target_score is not None:
        return f"First to {_n(rules.target_score)}, highest total wins"
    return "When you end it, highest total wins"


def opening_meld(rules: engine.RuleSet) -> str:
    if rules.opening_meld_by == "round":
        return "By round: " + ", ".join(_n(points) for points in rules.opening_meld)
    parts = []
    for floor, points in rules.opening_meld:
        parts.append(f"{_n(points)}" if floor is None else f"{_n(points)} from {_n(floor)}")
    return "By score: " + ", ".join(parts)


def rules_card(rules: engine.RuleSet) -> RulesCard:
    """The key numbers of a rule set, in its own words."""
    words = rules.words
    bonuses = ", ".join(
        f"{words[kind]} {_n(points)}" for kind, points in rules.canasta_bonus.items()
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
