"""Checking and scoring one round: score_round and the result it returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .cards import (
    canasta_capacity,
    canasta_minimums,
    deck_points,
    points_of,
    rank_name,
    rank_supply,
    read_cards,
    wild_count,
)
from .errors import (
    Errors,
    RoundError,
    counted,
    is_whole,
    join_path,
    listing,
    number,
    owned,
    shown,
)
from .rules import DECKS_MAX, KINDS, RuleSet, resolve_rules

ROUND_FIELDS = ("rules", "round", "decks", "ended_by", "sides")
SIDE_FIELDS = (
    "name",
    "went_out",
    "canastas",
    "melded_points",
    "melded_cards",
    "hand_points",
    "hand_cards",
    "red_threes",
    "red_threes_in_hand",
    "black_threes_in_hand",
    "foot_picked_up",
    "exact_cuts",
    "open_books",
)
ENDED_BY = ("going_out", "stock_exhausted")
ROUND_MAX = 10_000
NAME_MAX = 100


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a side's score sheet; penalties are negative."""

    item: str
    label: str
    points: int
    count: int | None = None
    each: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The line as the contract's JSON."""
        out: dict[str, Any] = {"item": self.item, "label": self.label}
        if self.count is not None:
            out["count"] = self.count
            out["each"] = self.each
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
    return parsed.score()


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


# -- reading a round -----------------------------------------------------------------------------


@dataclass
class ParsedSide:
    """One side of a round as read from the input; a field is None where its check failed."""

    index: int
    path: str
    who: str
    name: str | None = None
    went_out: bool | None = False
    foot_picked_up: bool | None = True
    canastas: dict[str, int] | None = field(default_factory=dict)
    melded: int | None = 0
    melded_path: str = ""
    melded_by_cards: bool = False
    hand: int | None = 0
    hand_path: str = ""
    red_threes: int | None = 0
    red_in_hand: int | None = 0
    black_in_hand: int | None = 0
    exact_cuts: int | None = 0
    open_books: list[tuple[str, int]] | None = field(default_factory=list)
    # rank -> [(count, path)] from melded_cards and hand_cards, for the checks on what decks hold
    cards: dict[str, list[tuple[int, str]]] | None = field(default_factory=dict)
    # Black threes given in melded_cards, where the rules let them be melded when going out.
    melded_black_threes: int = 0


@dataclass
class ParsedRound:
    """A round that has been read and checked; score() turns it into a RoundResult."""

    rules: RuleSet
    round: int | None
    decks: int | None
    ended_by: str | None
    sides: list[ParsedSide] | None

    def score(self) -> RoundResult:
        """Score a round whose every check passed."""
        assert self.round is not None and self.decks is not None and self.ended_by is not None
        assert self.sides is not None
        return _score(self)


def parse_round(
    rules: RuleSet,
    data: Any,
    errors: Errors,
    prefix: str = "",
    *,
    default_decks: int | None = None,
    game_round: int | None = None,
) -> ParsedRound | None:
    """Read and check a round, adding every failed check to errors.

    In a game, game_round is the round's place in the game and the round may not name rules.
    """
    if not isinstance(data, Mapping):
        errors.add(
            prefix.rstrip(".") or "",
            f"A round must be an object with its sides, not {shown(data)}.",
        )
        return None
    fields = ROUND_FIELDS if game_round is None else ROUND_FIELDS[1:]
    for key in data:
        if key not in fields:
            errors.add(
                prefix + str(key),
                f"A round has no field {shown(key)}; its fields are {listing(fields)}.",
            )
    number_ = _read_round_number(rules, data, errors, prefix, game_round)
    decks = default_decks if default_decks is not None else rules.decks
    if "decks" in data:
        decks = data["decks"]
        if not (is_whole(decks) and 1 <= decks <= DECKS_MAX):
            errors.add(
                prefix + "decks",
                f"The number of decks must be a whole number from 1 to {DECKS_MAX}, "
                f"not {shown(decks)}.",
            )
            decks = None
    ended_by = data.get("ended_by", "going_out")
    if not (isinstance(ended_by, str) and ended_by in ENDED_BY):
        errors.add(
            prefix + "ended_by",
            f"A round ends by going_out or stock_exhausted, not {shown(ended_by)}.",
        )
        ended_by = None
    sides = _read_sides(rules, data, errors, prefix)
    parsed = ParsedRound(rules, number_, decks, ended_by, sides)
    if sides is not None:
        _check_round(parsed, errors, prefix)
    return parsed


def _read_round_number(
    rules: RuleSet, data: Mapping[str, Any], errors: Errors, prefix: str, game_round: int | None
) -> int | None:
    path = prefix + "round"
    if game_round is not None:
        if "round" in data and not (is_whole(data["round"]) and data["round"] == game_round):
            errors.add(
                path,
                f"This is round {game_round} of the game, so its round number must be "
                f"{game_round}, not {shown(data['round'])}.",
            )
        return game_round
    value = data.get("round", 1)
    if not (is_whole(value) and 1 <= value <= ROUND_MAX):
        errors.add(
            path,
            f"The round number must be a whole number from 1 to {number(ROUND_MAX)}, "
            f"not {shown(value)}.",
        )
        return None
    if rules.rounds is not None and value > rules.rounds:
        errors.add(
            path,
            f"{rules.name} is played over {counted(rules.rounds, 'round')}; "
            f"there is no round {number(value)}.",
        )
        return None
    return value


def _read_sides(
    rules: RuleSet, data: Mapping[str, Any], errors: Errors, prefix: str
) -> list[ParsedSide] | None:
    path = prefix + "sides"
    raw = data.get("sides")
    sides_word = rules.words["sides"]
    if not isinstance(raw, list | tuple):
        errors.add(
            path,
            f"A round needs its {sides_word} as a list, one entry each"
            + ("." if raw is None else f", not {shown(raw)}."),
        )
        return None
    count = len(raw)
    low, high = rules.min_sides, rules.max_sides
    if count < low or (high is not None and count > high):
        if high == low:
            allowed = f"exactly {low} {sides_word}"
        elif high is None:
            allowed = f"at least {low} {sides_word}"
        else:
            allowed = f"{low} to {high} {sides_word}"
        errors.add(path, f"{rules.name} is played by {allowed}; this round has {number(count)}.")
    sides = []
    for index, entry in enumerate(raw):
        side = _read_side(rules, entry, index, f"{path}[{index}]", errors)
        if side is not None:
            sides.append(side)
    return sides if len(sides) == count else None


def _read_side(
    rules: RuleSet, data: Any, index: int, path: str, errors: Errors
) -> ParsedSide | None:
    side_word = rules.words["side"]
    if not isinstance(data, Mapping):
        errors.add(
            path,
            f"{side_word.capitalize()} {index + 1} must be an object with a name and its scores, "
            f"not {shown(data)}.",
        )
        return None
    side = ParsedSide(index, path, f"{side_word.capitalize()} {index + 1}")
    name = data.get("name")
    if name is None or (isinstance(name, str) and not name.strip()):
        errors.add(f"{path}.name", f"{side.who} needs a name.")
    elif not isinstance(name, str):
        errors.add(
            f"{path}.name",
            f"{owned(side.who, 'name', start=True)} must be text, not {shown(name)}.",
        )
    elif len(name) > NAME_MAX:
        errors.add(
            f"{path}.name",
            f"{owned(side.who, 'name', start=True)} has {number(len(name))} characters; "
            f"a name has at most {NAME_MAX}.",
        )
    else:
        side.name = name
        side.who = name
    who = side.who
    for key in data:
        if key not in SIDE_FIELDS:
            errors.add(
                join_path(path, key),
                f"{owned(who, 'entry', start=True)} has no field {shown(key)}; "
                f"its fields are {listing(SIDE_FIELDS)}.",
            )

    side.went_out = _flag(data, "went_out", False, f"Whether {who} went out", path, errors)
    side.foot_picked_up = _flag(
        data,
        "foot_picked_up",
        True,
        f"Whether {who} picked up the {rules.words['foot']}",
        path,
        errors,
    )
    side.canastas = _read_canastas(rules, data.get("canastas", {}), who, f"{path}.canastas", errors)
    side.melded, side.melded_path, side.melded_by_cards = _read_pile(
        rules, data, side, "melded", owned(who, "melded points", start=True), errors
    )
    side.hand, side.hand_path, _ = _read_pile(
        rules, data, side, "hand", owned(who, "points left in hand", start=True), errors
    )
    side.red_threes = _count(
        data, "red_threes", f"The number of red threes {who} laid down", path, errors
    )
    side.red_in_hand = _count(
        data,
        "red_threes_in_hand",
        f"The number of red threes left in {owned(who, 'hand')}",
        path,
        errors,
    )
    side.black_in_hand = _count(
        data,
        "black_threes_in_hand",
        f"The number of black threes left in {owned(who, 'hand')}",
        path,
        errors,
    )
    side.exact_cuts = _count(
        data, "exact_cuts", f"The number of exact cuts by {owned(who, 'dealer')}", path, errors
    )
    side.open_books = _read_open_books(rules, data.get("open_books", []), who, path, errors)
    _check_unused(rules, side, errors)
    return side


def _flag(
    data: Mapping[str, Any], key: str, default: bool, subject: str, path: str, errors: Errors
) -> bool | None:
    value = data.get(key, default)
    if isinstance(value, bool):
        return value
    errors.add(f"{path}.{key}", f"{subject} must be true or false, not {shown(value)}.")
    return None


def _whole(
    value: Any, subject: str, path: str, errors: Errors, *, points: bool = False
) -> int | None:
    if not is_whole(value) or value < 0:
        errors.add(path, f"{subject} must be a whole number of 0 or more, not {shown(value)}.")
        return None
    if points and value % 5:
        errors.add(
            path,
            f"{subject} must be a multiple of 5, since every card is, not {number(value)}.",
        )
        return None
    return value


def _count(
    data: Mapping[str, Any], key: str, subject: str, path: str, errors: Errors
) -> int | None:
    return _whole(data.get(key, 0), subject, f"{path}.{key}", errors)


def _read_canastas(
    rules: RuleSet, value: Any, who: str, path: str, errors: Errors
) -> dict[str, int] | None:
    words = rules.words
    if not isinstance(value, Mapping):
        errors.add(
            path,
            f"{owned(who, words['canastas'], start=True)} must be given as {{kind: count}}, "
            f'e.g. {{"natural": 1}}, not {shown(value)}.',
        )
        return None
    counts: dict[str, int] = {}
    good = True
    for kind, count in value.items():
        where = join_path(path, kind)
        if kind not in KINDS:
            errors.add(
                where,
                f"{shown(kind)} is not a kind of {words['canasta']}; {rules.name} has "
                f"{rules.kind_names()} {words['canastas']}.",
            )
            good = False
            continue
        subject = f"The number of {words.get(kind, kind)} {words['canastas']} {who} completed"
        checked = _whole(count, subject, where, errors)
        if checked is None:
            good = False
        elif kind not in rules.canasta_bonus:
            if checked:
                errors.add(
                    where,
                    f"{who} has {rules.canastas_of(kind, checked)}, but {rules.name} has no "
                    f"{words[kind]} {words['canastas']}; its {words['canastas']} are "
                    f"{rules.kind_names()}.",
                )
                good = False
        else:
            counts[kind] = checked
    return counts if good else None


def _read_pile(
    rules: RuleSet,
    data: Mapping[str, Any],
    side: ParsedSide,
    pile: str,
    subject: str,
    errors: Errors,
) -> tuple[int | None, str, bool]:
    """melded_points or melded_cards (hand likewise): the points, the path used, by cards."""
    points_key, cards_key = f"{pile}_points", f"{pile}_cards"
    points_path, cards_path = f"{side.path}.{points_key}", f"{side.path}.{cards_key}"
    if cards_key not in data:
        return (
            _whole(data.get(points_key, 0), subject, points_path, errors, points=True),
            points_path,
            False,
        )
    owner = owned(side.who, "melded cards" if pile == "melded" else "cards in hand")
    if points_key in data:
        errors.add(
            cards_path,
            f"Give {owner} either as points or card by card, not both.",
        )
        return None, cards_path, True
    counts = read_cards(rules, data[cards_key], cards_path, errors, owner, pile)
    if counts is None:
        side.cards = None
        return None, cards_path, True
    if pile == "melded":
        side.melded_black_threes = counts.get("black3", 0)
    if side.cards is not None:
        for rank, count in counts.items():
            if count:
                side.cards.setdefault(rank, []).append((count, join_path(cards_path, rank)))
    return points_of(rules, counts), cards_path, True


def _read_open_books(
    rules: RuleSet, value: Any, who: str, path: str, errors: Errors
) -> list[tuple[str, int]] | None:
    path = f"{path}.open_books"
    if not isinstance(value, list | tuple):
        errors.add(
            path,
            f"{owned(who, 'open books', start=True)} must be a list of "
            f'{{"kind": ..., "points": ...}}, not {shown(value)}.',
        )
        return None
    if value and not rules.open_books_change_sides:
        errors.add(
            path,
            f"{who} has {counted(len(value), 'open book')}, but in {rules.name} open books stay "
            "where they are: their cards count in melded points only.",
        )
        return None
    books: list[tuple[str, int]] = []
    for number_, book in enumerate(value, start=1):
        where = f"{path}[{number_ - 1}]"
        title = owned(who, f"open book {number_}", start=True)
        if not isinstance(book, Mapping):
            errors.add(
                where, f"{title} must be an object with a kind and points, not {shown(book)}."
            )
            continue
        for key in book:
            if key not in ("kind", "points"):
                errors.add(
                    join_path(where, key),
                    f"{title} has no field {shown(key)}; give kind and points.",
                )
        kind = book.get("kind")
        if kind not in rules.canasta_bonus:
            errors.add(
                f"{where}.kind",
                f"{title} needs a kind, {rules.kind_names()}, not {shown(kind)}.",
            )
            kind = None
        points = _whole(
            book.get("points"),
            f"The points of {title}",
            f"{where}.points",
            errors,
            points=True,
        )
        if kind is not None and points is not None:
            books.append((kind, points))
    return books if len(books) == len(value) else None


def _check_unused(rules: RuleSet, side: ParsedSide, errors: Errors) -> None:
    """A field the ruleset does not use must be absent or zero."""
    who, name, path = side.who, rules.name, side.path
    if not rules.special_threes:
        in_hand = "threes are ordinary cards, so count them in points left in hand"
        for attr, key, what, where, text in (
            (
                "red_threes",
                "red_threes",
                "red three",
                "laid down",
                "red-three bonus: threes are ordinary cards",
            ),
            (
                "red_in_hand",
                "red_threes_in_hand",
                "red three",
                "in hand",
                f"red-three penalty: {in_hand}",
            ),
            (
                "black_in_hand",
                "black_threes_in_hand",
                "black three",
                "in hand",
                f"black-three penalty: {in_hand}",
            ),
        ):
            value = getattr(side, attr)
            if value:
                errors.add(
                    f"{path}.{key}",
                    f"{who} has {counted(value, what)} {where}, but {name} has no {text}.",
                )
                setattr(side, attr, None)
    if side.exact_cuts:
        if not rules.cut_bonus:
            errors.add(
                f"{path}.exact_cuts",
                f"{who} has {counted(side.exact_cuts, 'exact cut')}, but {name} has no "
                "exact-cut bonus.",
            )
            side.exact_cuts = None
        elif side.exact_cuts > 1:
            errors.add(
                f"{path}.exact_cuts",
                f"{who} has {number(side.exact_cuts)} exact cuts, but a round has one deal, "
                "so at most 1.",
            )
            side.exact_cuts = None


# -- checks across the sides ---------------------------------------------------------------------


@dataclass(frozen=True)
class _DeckFacts:
    points: int
    supply: Mapping[str, int]
    wilds: int
    capacity: Mapping[str, int]
    minimums: Mapping[str, int | None]


@lru_cache(maxsize=256)
def _deck_facts(rules: RuleSet, decks: int) -> _DeckFacts:
    return _DeckFacts(
        deck_points(rules, decks),
        rank_supply(rules, decks),
        wild_count(rules, decks),
        canasta_capacity(rules, decks),
        canasta_minimums(rules, decks),
    )


def _holders(names: list[str]) -> str:
    """`Ann has` / `Ann and Bob have ... between them` helpers."""
    return listing(names) + (" has" if len(names) == 1 else " have")


def _between(names: list[str]) -> str:
    return " between them" if len(names) > 1 else ""


def _decks(decks: int) -> str:
    return f"{counted(decks, 'deck')} {'holds' if decks == 1 else 'hold'}"


def _check_round(parsed: ParsedRound, errors: Errors, prefix: str) -> None:
    rules, sides = parsed.rules, parsed.sides
    assert sides is not None
    words = rules.words
    seen: dict[str, ParsedSide] = {}
    for side in sides:
        if side.name is None:
            continue
        key = side.name.strip().casefold()
        if key in seen:
            errors.add(
                f"{side.path}.name",
                f"{side.name} is already the name of {words['side']} {seen[key].index + 1}; "
                f"every {words['side']} needs its own name.",
            )
        else:
            seen[key] = side

    went_out = [side for side in sides if side.went_out]
    for extra in went_out[1:]:
        errors.add(
            f"{extra.path}.went_out",
            f"{extra.who} cannot have gone out too: {went_out[0].who} already went out, and only "
            f"one {words['side']} goes out in a round.",
        )
    if parsed.ended_by == "stock_exhausted":
        for side in went_out:
            errors.add(
                f"{side.path}.went_out",
                f"{side.who} cannot have gone out: the round ended when the stock ran out.",
            )
    elif (
        parsed.ended_by == "going_out"
        and not went_out
        and all(side.went_out is not None for side in sides)
    ):
        errors.add(
            prefix + "ended_by",
            f"The round ended by going out, but no {words['side']} went out: mark the "
            f"{words['side']} that went out, or say that the stock ran out.",
        )
    for side in went_out:
        _check_went_out(rules, side, errors, first=side is went_out[0])
    for side in sides:
        # The rule text (Ten Thousand, Cutthroat): black threes can be melded only by the
        # player going out, just before the last discard.
        if side.melded_black_threes and side.went_out is False:
            errors.add(
                f"{side.path}.melded_cards.black3",
                f"Black threes can be melded only when going out: {side.who} did not go out.",
            )
    if all(side.exact_cuts is not None for side in sides):
        cutters = [side for side in sides if side.exact_cuts]
        if len(cutters) > 1:
            names = [side.who for side in cutters]
            errors.add(
                f"{cutters[-1].path}.exact_cuts",
                f"{_holders(names)} {counted(len(cutters), 'exact cut')} between them, but a "
                "round has one deal, so at most 1.",
            )

    if parsed.decks is not None:
        facts = _deck_facts(rules, parsed.decks)
        _check_decks(rules, sides, parsed.decks, facts, errors, prefix)
        for side in sides:
            _check_open_books(rules, side, facts, errors)
            _check_melded_minimum(rules, side, facts, errors)


def _check_went_out(rules: RuleSet, side: ParsedSide, errors: Errors, *, first: bool) -> None:
    who, words = side.who, rules.words
    if side.foot_picked_up is False:
        errors.add(
            f"{side.path}.foot_picked_up",
            f"{who} went out, so {who} reached the {words['foot']}; foot_picked_up must be true.",
        )
    if rules.went_out_hand == "must_be_zero":
        for value, path, what in (
            (side.hand, side.hand_path, "points left in hand"),
            (side.red_in_hand, f"{side.path}.red_threes_in_hand", "red threes in hand"),
            (side.black_in_hand, f"{side.path}.black_threes_in_hand", "black threes in hand"),
        ):
            if value:
                errors.add(
                    path,
                    f"{who} went out, so {who} holds no cards; {what} must be 0, "
                    f"not {number(value)}.",
                )
    if not first or side.canastas is None:
        return
    total_needed = rules.going_out_canastas
    minimum = [(kind, n) for kind, n in rules.going_out_minimum.items() if n]
    have = sum(side.canastas.values())
    short_kinds = [kind for kind, n in minimum if side.canastas.get(kind, 0) < n]
    if have >= total_needed and not short_kinds:
        return
    need = number(total_needed)
    if minimum:
        parts = [f"{n} {words[kind]}" for kind, n in minimum]
        parts[0] = f"{minimum[0][1]} of them {words[minimum[0][0]]}"
        need += f", at least {listing(parts)}"
    canastas = counted(have, words["canasta"], words["canastas"])
    if have < total_needed:
        message = f"{who} went out but has {canastas}; going out needs {need}."
    else:
        parts = [f"{side.canastas.get(kind, 0)} {words[kind]}" for kind in short_kinds]
        parts[0] = f"{side.canastas.get(short_kinds[0], 0)} of them {words[short_kinds[0]]}"
        message = f"{who} went out with {canastas} but {listing(parts)}; going out needs {need}."
    path = f"{side.path}.canastas"
    errors.add(f"{path}.{short_kinds[0]}" if short_kinds else path, message)


def _check_decks(
    rules: RuleSet,
    sides: list[ParsedSide],
    decks: int,
    facts: _DeckFacts,
    errors: Errors,
    prefix: str,
) -> None:
    words = rules.words
    if all(s.canastas is not None and s.open_books is not None for s in sides):
        for kind in rules.canasta_bonus:
            per_side = [
                (s, s.canastas.get(kind, 0), sum(1 for k, _ in s.open_books if k == kind))
                for s in sides
            ]
            total = sum(closed + open_ for _, closed, open_ in per_side)
            capacity = facts.capacity[kind]
            if total <= capacity:
                continue
            holders = [s for s, closed, open_ in per_side if closed + open_]
            last, closed, _ = next((s, c, o) for s, c, o in reversed(per_side) if c + o)
            path = f"{last.path}.canastas.{kind}" if closed else f"{last.path}.open_books"
            books = " (open books included)" if any(o for _, _, o in per_side) else ""
            if kind == "sevens":
                why = f"hold {number(facts.supply.get('7', 0))} sevens, enough for"
            elif kind == "wild":
                why = f"hold {number(facts.wilds)} wild cards, enough for"
            else:
                why = "can make"
            errors.add(
                path,
                f"{_holders([s.who for s in holders])} {rules.canastas_of(kind, total)}{books}"
                f"{_between([s.who for s in holders])}; {counted(decks, 'deck')} "
                f"{why.replace('hold ', 'holds ') if decks == 1 else why} at most "
                f"{number(capacity)}.",
            )
    _check_supply(rules, sides, decks, facts, errors)
    if all(s.melded is not None and s.hand is not None for s in sides):
        total = sum(s.melded + s.hand for s in sides)
        if total > facts.points:
            # Beside the pile holding the most points (the last of equals): the likeliest typo.
            piles = [
                pile for s in sides for pile in ((s.melded, s.melded_path), (s.hand, s.hand_path))
            ]
            _, path = max(reversed(piles), key=lambda pile: pile[0])
            errors.add(
                path,
                f"The {words['sides']} have {number(total)} points of cards melded and in hand "
                f"between them, but {_decks(decks)} only {number(facts.points)}.",
            )


def _check_supply(
    rules: RuleSet, sides: list[ParsedSide], decks: int, facts: _DeckFacts, errors: Errors
) -> None:
    """No more cards of a rank, threes included, than the decks hold, over all sides."""
    # rank -> [(side, count, path)]; a rank is skipped when a field it depends on failed
    entries: dict[str, list[tuple[ParsedSide, int, str]]] = {}
    skipped: set[str] = set()
    cards_known = all(side.cards is not None for side in sides)
    for side in sides:
        for rank, found in (side.cards or {}).items():
            entries.setdefault(rank, []).extend((side, count, path) for count, path in found)
    if rules.special_threes:
        for rank, attrs in (
            ("red3", (("red_threes", "red_threes"), ("red_in_hand", "red_threes_in_hand"))),
            ("black3", (("black_in_hand", "black_threes_in_hand"),)),
        ):
            for side in sides:
                for attr, key in attrs:
                    count = getattr(side, attr)
                    if count is None:
                        skipped.add(rank)
                    elif count:
                        entries.setdefault(rank, []).append((side, count, f"{side.path}.{key}"))
    if not cards_known:
        skipped.update(rank for rank in entries if rank != "red3")
    for rank, found in entries.items():
        supply = 2 * decks if rank == "red3" else facts.supply[rank]
        total = sum(count for _, count, _ in found)
        if rank in skipped or total <= supply:
            continue
        names = list(dict.fromkeys(side.who for side, _, _ in found))
        errors.add(
            found[-1][2],
            f"{_holders(names)} {number(total)} {rank_name(rank, total)} laid down and in hand"
            f"{_between(names)}; {_decks(decks)} only {number(supply)}.",
        )


def _check_open_books(rules: RuleSet, side: ParsedSide, facts: _DeckFacts, errors: Errors) -> None:
    for index, (kind, points) in enumerate(side.open_books or ()):
        minimum = facts.minimums[kind]
        if minimum is not None and points < minimum:
            word = rules.words[kind]
            errors.add(
                f"{side.path}.open_books[{index}].points",
                f"{owned(side.who, f'open book {index + 1}', start=True)} ({word}) has "
                f"{number(points)} points, but an open book has seven cards or more, "
                f"so a {word} one holds at least {number(minimum)}.",
            )


def _check_melded_minimum(
    rules: RuleSet, side: ParsedSide, facts: _DeckFacts, errors: Errors
) -> None:
    if side.canastas is None or side.open_books is None or side.melded is None:
        return
    least = 0
    parts = []
    for kind, count in side.canastas.items():
        if not count:
            continue
        minimum = facts.minimums[kind]
        if minimum is None:
            return  # the decks cannot make this kind at all; the capacity check says so
        least += count * minimum
        parts.append(rules.canastas_of(kind, count))
    if side.open_books:
        books = sum(points for _, points in side.open_books)
        least += books
        parts.append(f"open books of {number(books)} points")
    if side.melded >= least:
        return
    got = (
        f"{owned(side.who, 'melded cards', start=True)} are worth {number(side.melded)}"
        if side.melded_by_cards
        else f"{owned(side.who, 'melded points', start=True)} are {number(side.melded)}"
    )
    errors.add(
        side.melded_path,
        f"{got}, but it takes at least {number(least)} points of cards to make "
        f"{owned(side.who, listing(parts))} (seven cards or more each); melded points "
        "count every card laid down.",
    )


# -- scoring -------------------------------------------------------------------------------------


def _score(parsed: ParsedRound) -> RoundResult:
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
        bonus = rules.red_three_bonus
        lines.append(
            Line("red_threes", "Red threes", side.red_threes * bonus, side.red_threes, bonus)
        )
        bonus = rules.cut_bonus
        lines.append(
            Line("exact_cuts", "Exact cut", side.exact_cuts * bonus, side.exact_cuts, bonus)
        )
        if side.went_out:
            lines.append(Line("going_out", "Going out", rules.going_out_bonus))
        lines.append(Line("melded_cards", "Cards melded", side.melded))
        lines.append(Line("taken_cards", "Cards in open books taken", sum(p for _, p in taken)))
        lines.append(
            Line("open_books_given", "Open books given away", -sum(p for _, p in side.open_books))
        )
        if not (side.went_out and rules.went_out_hand == "dismissed"):
            lines.append(
                Line("hand_cards", f"Cards left in {words['hand']} and {words['foot']}", -side.hand)
            )
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
