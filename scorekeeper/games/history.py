"""The game's history of changes as sentences in the round form's own words.

An event stores the values before and after (`GameEvent.before`/`after`); this turns them into
"Round 1 corrected: Ann's points laid down 640 → 540; totals Ann 1,990 → 1,890, Bob 625." with
the rule set's words (wicker, not natural) and the sides' names, never a field name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from scorekeeper import engine
from scorekeeper.engine.errors import is_whole
from scorekeeper.engine.formatting import change, number, owned, rule_set_name, says

# The round form's counts, in the form's order, with its words.
COUNTS = (
    ("red_threes", "red threes laid down"),
    ("red_threes_in_hand", "red threes left in hand"),
    ("black_threes_in_hand", "black threes left in hand"),
)
PILES = (("melded", "points laid down"), ("hand", "points left in hand"))


class Event(Protocol):
    kind: str
    round_number: int | None
    before: Any
    after: Any


def history_sentence(event: Event, rules: engine.RuleSet, sides: Sequence[str]) -> str:
    """One change to a game as a sentence a player reads; `sides` are the names in seat order."""
    before = event.before if isinstance(event.before, Mapping) else {}
    after = event.after if isinstance(event.after, Mapping) else {}
    number_ = event.round_number
    if event.kind == "started":
        started = "Rematch started" if after.get("rematch_of") else "Game started"
        names = after.get("sides") or list(sides)
        return f"{started}: {rule_set_name(rules.id)}, {' vs '.join(names)}."
    if event.kind == "round_added":
        return _with_totals(
            f"Round {number_} entered: {_ending(after, rules, sides)}", before, after
        )
    if event.kind == "round_changed":
        changes = _changes(before, after, rules, sides) or ["nothing changed"]
        return _with_totals(f"Round {number_} corrected: {'; '.join(changes)}", before, after)
    if event.kind == "round_deleted":
        return _with_totals(
            f"Round {number_} deleted ({_ending(before, rules, sides)})", before, after
        )
    if event.kind == "round_restored":
        return _with_totals(
            f"Round {number_} restored ({_ending(after, rules, sides)})", before, after
        )
    if event.kind == "round_confirmed":
        return f"Round {number_} confirmed by {after.get('by') or 'the other side'}."
    if event.kind == "round_disputed":
        return (
            f"Round {number_} disputed by {after.get('by') or 'the other side'}: "
            f"“{after.get('reason', '')}”"
        )
    if event.kind == "ended":
        return f"Game ended by hand: {_result(after, rules)}."
    if event.kind == "reopened":
        return f"Game reopened: {_result(before, rules, undone=True)}."
    if event.kind == "claimed":
        return f"Game claimed: it is now under the account {after.get('owner', '')}."
    return "Game changed."


def _ending(snapshot: Mapping[str, Any], rules: engine.RuleSet, sides: Sequence[str]) -> str:
    """`Ann went out`, `the stock ran out`."""
    if snapshot.get("ended_by") == "stock_exhausted":
        return "the stock ran out"
    for index, entry in enumerate(_entries(snapshot)):
        if entry.get("went_out"):
            return f"{_name(sides, index, rules)} went out"
    return f"no {rules.words['side']} went out"


def _changes(
    before: Mapping[str, Any], after: Mapping[str, Any], rules: engine.RuleSet, sides: Sequence[str]
) -> list[str]:
    changes = []
    ending = (_ending(before, rules, sides), _ending(after, rules, sides))
    if ending[0] != ending[1]:
        changes.append(f"{ending[0]} → {ending[1]}")
    old, new = _entries(before), _entries(after)
    for index in range(max(len(old), len(new))):
        name = _name(sides, index, rules)
        was = old[index] if index < len(old) else {}
        now = new[index] if index < len(new) else {}
        for kind in rules.kinds:
            a, b = _count(was.get("canastas"), kind), _count(now.get("canastas"), kind)
            if a != b:
                changes.append(f"{owned(name, rules.label(kind).lower())} {change(a, b)}")
        for pile, words in PILES:
            a, b = _pile(rules, was, pile), _pile(rules, now, pile)
            if a != b:
                changes.append(f"{owned(name, words)} {change(a, b)}")
        for key, words in COUNTS:
            a, b = _count(was, key), _count(now, key)
            if a != b:
                changes.append(f"{owned(name, words)} {change(a, b)}")
        a, b = bool(_count(was, "exact_cuts")), bool(_count(now, "exact_cuts"))
        if a != b:
            changes.append(f"{name} {'cut the deck exactly' if b else 'no longer cut exactly'}")
        a, b = was.get("foot_picked_up") is False, now.get("foot_picked_up") is False
        if a != b:
            foot = rules.words["foot"]
            changes.append(
                f"{name} never picked up the {foot}" if b else f"{name} picked up the {foot}"
            )
        a, b = _books(was), _books(now)
        if a != b:
            changes.append(f"{owned(name, 'open books')} {change(a, b)} points")
    return changes


def _with_totals(opening: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """`…; totals Ann 1,990 → 1,890, Bob 625.` (older events stored no totals)."""
    new = after.get("totals")
    old = before.get("totals") or {}
    if not isinstance(new, Mapping) or not new:
        return f"{opening}."
    parts = [
        f"{name} {change(old[name], total) if name in old else number(total)}"
        for name, total in new.items()
    ]
    return f"{opening}; totals {', '.join(parts)}."


def _result(result: Mapping[str, Any], rules: engine.RuleSet, *, undone: bool = False) -> str:
    winner = result.get("winner")
    if result.get("tie"):
        return "the tie is undone" if undone else "a tie"
    if winner:
        return f"{owned(winner, 'win')} is undone" if undone else says(winner, "wins")
    return f"no {rules.words['side']} had won" if undone else f"no {rules.words['side']} wins"


def _entries(snapshot: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    entry = snapshot.get("entry")
    if not isinstance(entry, list):
        return []
    return [side if isinstance(side, Mapping) else {} for side in entry]


def _name(sides: Sequence[str], index: int, rules: engine.RuleSet) -> str:
    return sides[index] if index < len(sides) else f"{rules.words['side'].capitalize()} {index + 1}"


def _count(values: Any, key: str) -> int:
    value = values.get(key, 0) if isinstance(values, Mapping) else 0
    return value if is_whole(value) else 0


def _pile(rules: engine.RuleSet, entry: Mapping[str, Any], pile: str) -> int:
    """A pile's points, typed or counted from its cards with the game's card values."""
    cards = entry.get(f"{pile}_cards")
    if isinstance(cards, Mapping) and cards:
        try:
            return engine.card_points(rules, dict(cards))
        except engine.RoundError:
            return 0
    return _count(entry, f"{pile}_points")


def _books(entry: Mapping[str, Any]) -> int:
    books = entry.get("open_books")
    if not isinstance(books, list):
        return 0
    return sum(_count(book, "points") for book in books)
