"""Reading a round: every field of a round's input read and checked, each failed check added to
the errors at its path; the checks across the sides are in `checks`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import (
    points_of,
    read_cards,
)
from .checks import check_round
from .errors import (
    Errors,
    counted,
    is_whole,
    join_path,
    listing,
    number,
    owned,
    says,
    shown,
)
from .parsed import ParsedRound, ParsedSide
from .rules import DECKS_MAX, KINDS, ROUND_MAX, RuleSet

ROUND_FIELDS = ("rules", "round", "decks", "ended_by", "sides")
SIDE_FIELDS = (
    "name",
    "went_out",
    "went_out_concealed",
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
NAME_MAX = 100


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
        check_round(parsed, errors, prefix)
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
    side.concealed = _flag(
        data, "went_out_concealed", False, f"Whether {who} went out concealed", path, errors
    )
    side.foot_picked_up = _flag(
        data,
        "foot_picked_up",
        True,
        f"Whether {who} picked up the {rules.words['foot'] or 'foot'}",
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
                    f"{says(who, 'has')} {rules.canastas_of(kind, checked)}, but {rules.name} "
                    f"has no {words[kind]} {words['canastas']}; its {words['canastas']} are "
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
            f"{says(who, 'has')} {counted(len(value), 'open book')}, but in {rules.name} open "
            "books stay where they are: their cards count in melded points only.",
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
            f"The points of {owned(who, f'open book {number_}')}",
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
                    f"{says(who, 'has')} {counted(value, what)} {where}, but {name} has no {text}.",
                )
                setattr(side, attr, None)
    if rules.special_threes and not rules.threes_apart:
        if side.red_in_hand:
            errors.add(
                f"{path}.red_threes_in_hand",
                f"{says(who, 'has')} {counted(side.red_in_hand, 'red three')} in hand, but in "
                f"{name} a red three is laid down as soon as it comes, so none stays in hand.",
            )
            side.red_in_hand = None
        if side.black_in_hand:
            errors.add(
                f"{path}.black_threes_in_hand",
                f"{says(who, 'has')} {counted(side.black_in_hand, 'black three')} in hand, but "
                f"{name} counts a black three left in hand as an ordinary card: add its "
                f"{number(rules.card_values.get('black3', 0))} points to the points left in hand.",
            )
            side.black_in_hand = None
    if side.concealed and not rules.concealed_bonus:
        errors.add(
            f"{path}.went_out_concealed",
            f"{who} went out concealed, but {name} has no bonus for going out concealed.",
        )
        side.concealed = None
    if side.foot_picked_up is False and not rules.has_foot:
        errors.add(
            f"{path}.foot_picked_up",
            f"{name} has no foot to pick up, so {who} cannot have missed it: leave "
            "foot_picked_up out, or true.",
        )
        side.foot_picked_up = None
    if side.exact_cuts:
        if not rules.cut_bonus:
            errors.add(
                f"{path}.exact_cuts",
                f"{says(who, 'has')} {counted(side.exact_cuts, 'exact cut')}, but {name} has no "
                "exact-cut bonus.",
            )
            side.exact_cuts = None
        elif side.exact_cuts > 1:
            errors.add(
                f"{path}.exact_cuts",
                f"{says(who, 'has')} {number(side.exact_cuts)} exact cuts, but a round has one "
                "deal, so at most 1.",
            )
            side.exact_cuts = None
