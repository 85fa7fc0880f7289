"""Card values and what the decks hold: card_points, and the arithmetic behind the deck checks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import Errors, is_whole, join_path, listing, shown
from .rules import RuleSet, resolve_rules

_RANK_NAMES = {
    "A": ("ace", "aces"),
    "K": ("king", "kings"),
    "Q": ("queen", "queens"),
    "J": ("jack", "jacks"),
    "2": ("deuce", "deuces"),
    "3": ("three", "threes"),
    "joker": ("joker", "jokers"),
    "black3": ("black three", "black threes"),
    "red3": ("red three", "red threes"),
}


# Canastas of one rank (or, in Buraco, a sequence) without wild cards, and those with some.
NATURAL_KINDS = ("natural", "clean")
# Samba's samba: seven cards in sequence in one suit, from the four up to the ace, no wild card.
SEQUENCE_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def rank_name(rank: str, count: int = 2) -> str:
    """`king`, `kings`, `7s`, `black threes`."""
    singular, plural = _RANK_NAMES.get(rank, (rank, rank + "s"))
    return singular if count == 1 else plural


def card_points(rules: Any, cards: Any) -> int:
    """The card value of a set of cards given by rank, e.g. {"K": 3, "7": 4, "2": 1}."""
    ruleset = resolve_rules(rules)
    errors = Errors()
    counts = read_cards(ruleset, cards, "cards", errors, "the cards", "cards")
    errors.raise_if_any()
    assert counts is not None
    return points_of(ruleset, counts)


def points_of(rules: RuleSet, counts: Mapping[str, int]) -> int:
    """The value of cards already checked by read_cards."""
    return sum(rules.card_values[rank] * count for rank, count in counts.items())


def allowed_ranks(rules: RuleSet, pile: str) -> set[str]:
    """The ranks a pile may hold: "melded", "hand" or plain "cards" (card_points)."""
    ranks = set(rules.card_values)
    if (pile == "hand" and rules.threes_apart) or (
        pile == "melded" and not rules.black_threes_meld
    ):
        # Where threes in hand are counted apart, they are their own fields, and black threes
        # reach the table only where the rules let them be melded; Canasta's black three in
        # hand is an ordinary card.
        ranks.discard("black3")
    return ranks


def read_cards(
    rules: RuleSet, cards: Any, path: str, errors: Errors, owner: str, pile: str
) -> dict[str, int] | None:
    """Check a {rank: count} pile; its counts, or None when something in it failed.

    owner names the pile inside a sentence: "Bob's melded cards", "the cards".
    """
    if not isinstance(cards, Mapping):
        errors.add(
            path,
            f"{owner[0].upper()}{owner[1:]} must be given as {{rank: count}}, "
            f'e.g. {{"K": 3, "2": 1}}, not {shown(cards)}.',
        )
        return None
    allowed = allowed_ranks(rules, pile)
    counts: dict[str, int] = {}
    good = True
    for rank, count in cards.items():
        where = join_path(path, rank)
        if rank not in allowed:
            errors.add(where, _refusal(rules, rank, pile, allowed))
            good = False
        elif not is_whole(count) or count < 0:
            errors.add(
                where,
                f"The number of {rank_name(rank)} in {owner} must be a "
                f"whole number of 0 or more, not {shown(count)}.",
            )
            good = False
        else:
            counts[rank] = count
    return counts if good else None


def _refusal(rules: RuleSet, rank: Any, pile: str, allowed: set[str]) -> str:
    threes = ("3", "red3", "black3")
    if rules.threes_apart and pile == "hand" and rank in threes:
        return (
            f"{rules.name} counts the threes left in hand on their own: give them as "
            "red_threes_in_hand and black_threes_in_hand, not as cards."
        )
    if rank in ("red3", "black3") and not rules.special_threes:
        return f"Threes are ordinary cards in {rules.name}: count them as 3."
    if rank == "red3":
        held = " and those left in hand as red_threes_in_hand" if rules.threes_apart else ""
        return (
            f"A red three is never counted as a card in {rules.name}: give red threes laid down "
            f"as red_threes{held}."
        )
    if rank == "3":
        if pile == "melded" and not rules.black_threes_meld:
            return (
                f"{rules.name} does not let threes be melded: give red threes laid down as "
                "red_threes."
            )
        return f"{rules.name} counts threes on their own: a black three is black3."
    if rank == "black3":
        return f"{rules.name} does not let black threes be melded."
    if rank == "joker":
        return f"{rules.name} is played without jokers."
    order = [r for r in (*rules.card_values, "black3") if r in allowed]
    return f"{shown(rank)} is not a rank of card; the ranks are {listing(dict.fromkeys(order))}."


# -- what the decks hold ------------------------------------------------------------------------


def rank_supply(rules: RuleSet, decks: int) -> dict[str, int]:
    """How many cards of each rank the decks hold, red threes apart."""
    supply = {rank: 4 * decks for rank in rules.card_values if rank not in ("black3", "joker")}
    if rules.special_threes:
        supply["black3"] = 2 * decks
    if rules.jokers_per_deck:
        supply["joker"] = rules.jokers_per_deck * decks
    return supply


def deck_points(rules: RuleSet, decks: int) -> int:
    """The most card points the sides can have melded and in hand together."""
    supply = rank_supply(rules, decks)
    # Black threes that cannot be melded and are counted apart in hand never enter melded or
    # hand points.
    return sum(
        supply[rank] * value
        for rank, value in rules.card_values.items()
        if rank != "black3" or rules.black_threes_meld or not rules.threes_apart
    )


def wild_count(rules: RuleSet, decks: int) -> int:
    """Deuces and jokers in the decks."""
    supply = rank_supply(rules, decks)
    return sum(supply.get(rank, 0) for rank in ("2", "joker"))


def _natural_ranks(rules: RuleSet, decks: int, kind: str) -> dict[str, int]:
    """The ranks a natural or mixed canasta can be made of, with their supply."""
    supply = rank_supply(rules, decks)
    ranks = {}
    for rank, count in supply.items():
        if rank in ("2", "joker"):
            continue
        if rank == "black3" and not rules.black_threes_meld:
            continue
        # Where sevens have a canasta of their own, seven sevens are that, not a natural one.
        if rank == "7" and kind in NATURAL_KINDS and "sevens" in rules.canasta_bonus:
            continue
        ranks[rank] = count
    return ranks


def _max_wild_in_mixed(rules: RuleSet) -> int:
    # "Fewer wild cards than natural ones" allows 3 in seven cards; a fixed limit is capped at 6
    # because a canasta of seven wild cards is a wild one, not a mixed one.
    return 3 if rules.mixed_max_wild is None else min(rules.mixed_max_wild, 6)


def _cheapest_wilds(rules: RuleSet, decks: int, count: int) -> int | None:
    supply = rank_supply(rules, decks)
    wilds = sorted(
        (rules.card_values[rank], supply[rank]) for rank in ("2", "joker") if rank in supply
    )
    total = 0
    for value, available in wilds:
        used = min(available, count)
        total += used * value
        count -= used
    return total if count == 0 else None


def canasta_minimums(rules: RuleSet, decks: int) -> dict[str, int | None]:
    """The least card value a canasta of each kind can have; None where the decks make none.

    Every canasta has at least seven cards, and a longer one always contains a valid seven-card
    canasta of the same kind (card values are never negative), so the cheapest seven-card one
    is a true lower bound:
    - natural: seven cards of the cheapest rank that can form one; threes count only where they
      are ordinary cards (Baskets) or black threes may be melded (Ten Thousand, Cutthroat), and
      not sevens where sevens have their own canasta. Four Rounds' black three (0) cannot be
      melded, so its cheapest natural canasta is seven 4s to 7s: 35.
    - sevens: seven sevens, no wild cards: 35.
    - samba: the cheapest seven ranks in a row from the four up to the ace: 4 to 10, 50.
    - clean (Buraco) as natural, dirty as mixed: Buraco melds groups as well as sequences, and
      seven threes (35) are cheaper than any seven in sequence.
    - wild: the seven cheapest wild cards the decks hold: seven deuces (140) rather than jokers.
    - mixed: w wild cards (at least 1, at most the ruleset's limit, 3 where wild cards must be
      fewer than natural ones) plus 7 - w natural cards of one rank. Wild cards cost more than
      the cheapest natural ones in every preset, so the least is one deuce and six 5-point cards:
      50, not three deuces and four naturals (80). The minimum over w still covers house rules
      that make deuces cheap. A rank qualifies only if the decks hold 7 - w of it.
    """
    minimums: dict[str, int | None] = {}
    for kind in rules.canasta_bonus:
        if kind == "wild":
            minimums[kind] = _cheapest_wilds(rules, decks, 7)
        elif kind == "sevens":
            supply = rank_supply(rules, decks).get("7", 0)
            minimums[kind] = 7 * rules.card_values["7"] if supply >= 7 else None
        elif kind in NATURAL_KINDS:
            values = [
                7 * rules.card_values[rank]
                for rank, count in _natural_ranks(rules, decks, kind).items()
                if count >= 7
            ]
            minimums[kind] = min(values, default=None)
        elif kind == "samba":
            minimums[kind] = _cheapest_sequence(rules)
        else:
            candidates = []
            for wild in range(1, _max_wild_in_mixed(rules) + 1):
                wild_points = _cheapest_wilds(rules, decks, wild)
                if wild_points is None:
                    continue
                candidates.extend(
                    (7 - wild) * rules.card_values[rank] + wild_points
                    for rank, count in _natural_ranks(rules, decks, kind).items()
                    if count >= 7 - wild
                )
            minimums[kind] = min(candidates, default=None)
    return minimums


def _cheapest_sequence(rules: RuleSet) -> int | None:
    """The least card value of seven cards in sequence in one suit (a samba)."""
    values = [rules.card_values.get(rank) for rank in SEQUENCE_RANKS]
    windows = [values[start : start + 7] for start in range(len(values) - 6)]
    return min((sum(w) for w in windows if None not in w), default=None)


def canasta_capacity(rules: RuleSet, decks: int) -> dict[str, int]:
    """The most canastas of each kind the decks can make over all sides together."""
    wilds = wild_count(rules, decks)
    capacity: dict[str, int] = {}
    for kind in rules.canasta_bonus:
        if kind == "wild":
            capacity[kind] = wilds // 7
        elif kind == "sevens":
            capacity[kind] = rank_supply(rules, decks).get("7", 0) // 7
        elif kind == "natural":
            capacity[kind] = sum(c // 7 for c in _natural_ranks(rules, decks, kind).values())
        elif kind == "samba":
            # Seven distinct ranks of one suit each: a suit holds `decks` of each of 11 ranks.
            capacity[kind] = 4 * (decks * len(SEQUENCE_RANKS) // 7)
        elif kind == "clean":
            # Buraco's canastas are sequences as well as groups, and a deuce in its natural
            # place is no wild card: at most every card but the jokers, seven at a time.
            capacity[kind] = (
                sum(n for rank, n in rank_supply(rules, decks).items() if rank != "joker") // 7
            )
        elif kind == "dirty":
            # One wild card each at least, seven cards each at most.
            capacity[kind] = min(wilds, sum(rank_supply(rules, decks).values()) // 7)
        else:
            capacity[kind] = _mixed_capacity(rules, decks, wilds)
    return capacity


def _mixed_capacity(rules: RuleSet, decks: int, wilds: int) -> int:
    """The most mixed canastas the decks make: each needs 7 - w naturals of a rank and w wilds.

    Making c of them from a rank the decks hold s of takes at least max(7c - s, c) wild cards
    (one each at least, more once the rank runs short), and no more than s // (7 - limit) can be
    made at all. Each further canasta of a rank costs at least as many wild cards as the one
    before, so taking the cheapest further canastas first over all ranks gives the most.
    """
    least_naturals = 7 - _max_wild_in_mixed(rules)
    steps = []
    for supply in _natural_ranks(rules, decks, "mixed").values():
        for made in range(supply // least_naturals):
            before = max(7 * made - supply, made)
            steps.append(max(7 * (made + 1) - supply, made + 1) - before)
    count = 0
    for step in sorted(steps):
        if step > wilds:
            break
        wilds -= step
        count += 1
    return count
