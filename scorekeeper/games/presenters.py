"""Words and numbers for people: the rules picker's key numbers, what a side needs to win, a
game on the games list."""

from dataclasses import dataclass

from scorekeeper import engine
from scorekeeper.engine.formatting import counted, number, rule_set_name, signed
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
    """`By score: 50, 90 from 1,500`, `By round: 60, 90`, or `None` (Buraco)."""
    if not rules.opening_minimum:
        return "None"
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
    needed = counted(rules.going_out_canastas, words["canasta"], words["canastas"])
    going_out = f"{needed} ({need}), " if need else f"{needed}, "
    going_out += signed(rules.going_out_bonus)
    if rules.concealed_bonus:
        going_out += f"; concealed {signed(rules.going_out_bonus + rules.concealed_bonus)}"
    facts = [
        (words["sides"].capitalize(), sides),
        ("Decks", str(rules.decks)),
        (f"{words['canasta'].capitalize()} bonus", bonuses),
        ("Going out", going_out),
        ("Opening meld", opening_meld(rules)),
        ("Game ends", end_condition(rules)),
    ]
    if rules.cut_bonus:
        facts.append(("Exact cut", signed(rules.cut_bonus)))
    if rules.red_three_bonus:
        facts.append(("Red threes", red_threes_fact(rules)))
    if rules.foot_penalty:
        facts.append((f"{words['foot'].capitalize()} never picked up", signed(-rules.foot_penalty)))
    return RulesCard(rules, facts)


def red_threes_fact(rules: engine.RuleSet) -> str:
    """`+100 laid down, −300 in hand`, or Canasta's `+100 each, 800 for all 4; against a side
    that melded nothing`."""
    if rules.threes_apart:
        text = (
            f"{signed(rules.red_three_bonus)} laid down, "
            f"{signed(-rules.red_three_in_hand_penalty)} in hand"
        )
    else:
        text = f"{signed(rules.red_three_bonus)} each"
    if rules.red_threes_all_bonus:
        text += f", {number(rules.red_threes_all_bonus)} for all {number(2 * rules.decks)}"
    if rules.red_threes_against == "without_meld":
        text += "; against a side that melded nothing"
    elif rules.red_threes_against == "without_canastas":
        fewer = counted(
            rules.red_threes_canastas_needed, rules.words["canasta"], rules.words["canastas"]
        )
        text += f"; against a side with fewer than {fewer}"
    return text


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
