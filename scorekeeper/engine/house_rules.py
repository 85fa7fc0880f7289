"""House rules in words: what a rule set changes against its preset, in the rule set's own words.

Where a league, season, game, score sheet or club-night pack plays with house rules, it says
which ones through `house_rules_text`, so a page and a printed sheet read the same:
"House rules: 4 decks (the rule set's: 3); going-out bonus 200 (the rule set's: 100)".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .errors import counted, number
from .rules import RULESETS, RuleSet

RANK_NAMES = {
    "A": "an ace",
    "K": "a king",
    "Q": "a queen",
    "J": "a jack",
    "8": "an 8",
    "joker": "a joker",
    "red3": "a red 3",
    "black3": "a black 3",
}
WENT_OUT_HAND_WORDS = {
    "counts": "count",
    "dismissed": "are dismissed",
    "must_be_zero": "must be none",
}
OPENING_MELD_BY_WORDS = {"score": "the side's score", "round": "the round"}
RED_THREES_AGAINST_WORDS = {
    "never": "never",
    "without_meld": "when the side melded nothing",
    "without_canastas": "when the side has too few canastas",
}
THREES_IN_HAND_WORDS = {
    "counted_apart": "counted apart",
    "in_hand_points": "in the points left in hand",
}


def _yes_no(value: Any) -> str:
    return "yes" if value else "no"


def opening_meld_words(levels: Any) -> str:
    """The opening meld's levels in words, as the house rules and the start form's preset
    value write them: `50 in round 1, 90 from round 2` by round; `50 below 1,500, 90 from
    1,500` by score."""
    if all(isinstance(level, int) for level in levels):
        # The last level holds for every round after it too.
        last = len(levels) - 1
        return ", ".join(
            f"{number(points)} {'from' if index == last and index else 'in'} round {index + 1}"
            for index, points in enumerate(levels)
        )
    parts = []
    for index, (floor, points) in enumerate(levels):
        upper = levels[index + 1][0] if index + 1 < len(levels) else None
        if floor is None:
            parts.append(
                number(points) if upper is None else f"{number(points)} below {number(upper)}"
            )
        else:
            parts.append(f"{number(points)} from {number(floor)}")
    return ", ".join(parts)


def _whole(rules: RuleSet) -> dict[str, tuple[Callable[[Any], str], Callable[[Any], str]]]:
    """Each plain parameter: how its value reads in full, and how the preset's reads."""
    words = rules.words

    def bare(value: Any) -> str:
        return "none" if value is None else number(value)

    def phrase(text: str) -> Callable[[Any], str]:
        return lambda value: f"{text} {number(value)}"

    return {
        "min_sides": (lambda v: f"at least {counted(v, words['side'], words['sides'])}", bare),
        "max_sides": (
            lambda v: (
                f"any number of {words['sides']}"
                if v is None
                else f"at most {counted(v, words['side'], words['sides'])}"
            ),
            lambda v: "no limit" if v is None else number(v),
        ),
        "decks": (lambda v: counted(v, "deck"), bare),
        "jokers_per_deck": (lambda v: f"{counted(v, 'joker')} in each deck", bare),
        "going_out_canastas": (
            lambda v: f"{counted(v, words['canasta'], words['canastas'])} to go out",
            bare,
        ),
        "going_out_bonus": (phrase("going-out bonus"), bare),
        "cut_bonus": (phrase("exact-cut bonus"), bare),
        "special_threes": (lambda v: f"threes score on their own: {_yes_no(v)}", _yes_no),
        "red_three_bonus": (phrase("red three laid down"), bare),
        "red_three_in_hand_penalty": (phrase("penalty for a red three in hand"), bare),
        "black_three_in_hand_penalty": (phrase("penalty for a black three in hand"), bare),
        "black_threes_meld": (
            lambda v: f"black threes melded when going out: {_yes_no(v)}",
            _yes_no,
        ),
        "foot_penalty": (phrase(f"penalty for never picking up the {words['foot']}"), bare),
        "went_out_hand": (
            lambda v: f"cards held by the side that went out {WENT_OUT_HAND_WORDS[v]}",
            lambda v: WENT_OUT_HAND_WORDS[v],
        ),
        "opening_meld_by": (
            lambda v: f"opening meld set by {OPENING_MELD_BY_WORDS[v]}",
            lambda v: OPENING_MELD_BY_WORDS[v],
        ),
        "opening_meld": (lambda v: f"opening meld {opening_meld_words(v)}", opening_meld_words),
        "target_score": (
            lambda v: "no target score" if v is None else f"target score {number(v)}",
            bare,
        ),
        "rounds": (
            lambda v: "no fixed number of rounds" if v is None else counted(v, "round"),
            bare,
        ),
        "mixed_max_wild": (
            lambda v: (
                f"fewer wild cards than naturals in a {words['mixed']} {words['canasta']}"
                if v is None
                else f"at most {counted(v, 'wild card')} in a {words['mixed']} {words['canasta']}"
            ),
            lambda v: "fewer than naturals" if v is None else number(v),
        ),
        "open_books_change_sides": (
            lambda v: f"open books go to the other team: {_yes_no(v)}",
            _yes_no,
        ),
        "concealed_bonus": (phrase("going out concealed"), bare),
        "red_threes_all_bonus": (phrase("all the red threes"), bare),
        "red_threes_against": (
            lambda v: f"red threes count against a side {RED_THREES_AGAINST_WORDS[v]}",
            lambda v: RED_THREES_AGAINST_WORDS[v],
        ),
        "red_threes_canastas_needed": (
            lambda v: (
                f"red threes need {counted(v, words['canasta'], words['canastas'])} "
                "to count for a side"
            ),
            bare,
        ),
        "threes_in_hand": (
            lambda v: f"threes left in hand {THREES_IN_HAND_WORDS[v]}",
            lambda v: THREES_IN_HAND_WORDS[v],
        ),
    }


def _keyed(rules: RuleSet, name: str, key: str, value: Any) -> str:
    """A change to one key of a mapping parameter, in full."""
    words = rules.words
    if name == "canasta_bonus":
        if value is None:
            return f"no {words[key]} {words['canastas']}"
        return f"{words[key]} {words['canasta']} bonus {number(value)}"
    if name == "going_out_minimum":
        one, many = (f"{words[key]} {words[noun]}" for noun in ("canasta", "canastas"))
        return f"{counted(value or 0, one, many)} needed to go out"
    card = RANK_NAMES.get(key, f"a {key}")
    return f"no value for {card}" if value is None else f"{card} counts {number(value)}"


def _shown_key(name: str, value: Any) -> str:
    if value is None:
        return "none" if name != "going_out_minimum" else "0"
    return number(value)


def house_rule_changes(rules: RuleSet) -> tuple[str, ...]:
    """Each value these rules change against their preset, in the rule set's words and with
    the preset's value beside it: `4 decks (the rule set's: 3)`. Empty for a preset."""
    preset = RULESETS[rules.id].parameters()
    current = rules.parameters()
    whole = _whole(rules)
    changes = []
    for name, value in current.items():
        before = preset[name]
        if value == before:
            continue
        if isinstance(value, Mapping):
            for key in [*before, *(k for k in value if k not in before)]:
                now, was = value.get(key), before.get(key)
                if now != was:
                    text = _keyed(rules, name, key, now)
                    changes.append(f"{text} (the rule set's: {_shown_key(name, was)})")
            continue
        full, short = whole[name]
        changes.append(f"{full(value)} (the rule set's: {short(before)})")
    return tuple(changes)


def house_rules_text(rules: RuleSet) -> str:
    """`House rules: 4 decks (the rule set's: 3); going-out bonus 200 (the rule set's: 100)`,
    or "" where the rules are the preset's."""
    changes = house_rule_changes(rules)
    return "House rules: " + "; ".join(changes) if changes else ""
