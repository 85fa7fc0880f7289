"""The checks of a round across its sides: names, who went out, what the decks hold, the melds
each side needs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from .cards import (
    canasta_capacity,
    canasta_minimums,
    deck_points,
    rank_name,
    rank_supply,
    wild_count,
)
from .errors import (
    Errors,
    counted,
    listing,
    number,
    owned,
    says,
    verb,
)
from .parsed import ParsedRound, ParsedSide
from .rules import RuleSet


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
    """`Ann has`, `Ann & Carl have` / `Ann and Bob have ... between them` helpers."""
    return says(names[0], "has") if len(names) == 1 else f"{listing(names)} have"


def _between(names: list[str]) -> str:
    return " between them" if len(names) > 1 else ""


def _decks(decks: int) -> str:
    return f"{counted(decks, 'deck')} {'holds' if decks == 1 else 'hold'}"


def check_round(parsed: ParsedRound, errors: Errors, prefix: str) -> None:
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
        if side.concealed and side.went_out is False:
            errors.add(
                f"{side.path}.went_out_concealed",
                f"{side.who} cannot have gone out concealed without going out: mark "
                f"{side.who} as the {words['side']} that went out, or clear “went out "
                "concealed”.",
            )
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
                    f"{who} went out, so {says(who, 'holds')} no cards; {what} must be 0, "
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
        message = f"{who} went out but {verb(who, 'has')} {canastas}; going out needs {need}."
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
    # In the rules' rank order, not the input's: a phone's JSON passes through JavaScript,
    # whose objects put keys like "10" first.
    order = {rank: index for index, rank in enumerate((*rules.card_values, "red3", "black3"))}
    for rank, found in sorted(entries.items(), key=lambda item: order.get(item[0], len(order))):
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
