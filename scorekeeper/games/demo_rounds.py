"""Realistic, valid round inputs for any rule set, to seed demo leagues and to feed benchmarks.

Plain Python (no Django). `random_round` builds one round as the engine takes it (the contract's
`round` without `"rules"`); `random_game` plays rounds until the rules end the game. Every round
is valid by construction, because it is built from the same facts the engine checks against:

- the side that went out holds the ruleset's going-out requirement, and only where the decks can
  make it within their card points (otherwise the stock runs out instead);
- no kind of canasta over all sides beyond what the decks can make (`canasta_capacity`), open
  books included;
- every side's `melded_points` at least the least its canastas can be worth
  (`canasta_minimums`) plus its open books, and all card points together within what the decks
  hold (`deck_points`): realistic values are scaled down to fit, never the floors;
- every point figure a multiple of 5 (sums of card values, which the rules keep multiples of 5);
- the threes fields only where threes score on their own, within the red and black threes the
  decks hold; an exact cut only for the dealer's side and only where it scores; a foot never
  picked up only where it costs something and never for the side that went out; open books only
  where they change sides (Cutthroat); a hand of 0 for the side that went out where the rules
  say it holds nothing (Baskets), and nothing for it where its partners' cards are dismissed.

Scores look like real games: the side that went out usually scores a few thousand in the
10,000-point games (about 1,900 in Baskets, 9,000 or more in Sevens), the others a few hundred to
a couple of thousand, and a target game ends in about 4 to 10 rounds. The same `random.Random`
seed gives the same rounds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate

from scorekeeper import engine
from scorekeeper.engine.cards import canasta_capacity, canasta_minimums, deck_points

# About this share of rounds end with somebody going out; in the rest the stock runs out.
GOING_OUT_SHARE = 0.85
EXACT_CUT_SHARE = 0.1
# A side that did not go out has not reached its foot this often (when the round ends by going
# out; when the stock runs out, everybody has). It still holds the foot, and where the rules
# charge for that (Baskets' buns), it is marked foot_picked_up: false.
FOOT_NOT_REACHED_SHARE = 0.3
OPEN_BOOK_SHARE = 0.12
# The share of a side's canastas, when it did not go out, taken from the going-out requirement.
AIM_SHARE = 0.5

WILD_RANKS = ("2", "joker")
# How often a side builds each kind of canasta, before the going-out requirement adds weight.
KIND_WEIGHT = {
    "natural": 6.0,
    "mixed": 5.0,
    "wild": 0.8,
    "sevens": 0.8,
    "samba": 1.5,
    "clean": 4.0,
    "dirty": 6.0,
}
# Going out concealed, where it scores (Classic Canasta): a rare, proud moment.
CONCEALED_SHARE = 0.05


@dataclass(frozen=True)
class _Table:
    """What the decks of a ruleset hold, worked out once per ruleset."""

    capacity: Mapping[str, int]
    minimum: Mapping[str, int]
    points: int
    natural_values: tuple[int, ...]
    wild_values: tuple[int, ...]
    wild_cum_weights: tuple[int, ...]
    hand_values: tuple[int, ...]
    hand_cum_weights: tuple[int, ...]
    max_wild_in_mixed: int
    requirement: tuple[str, ...]  # the canastas going out needs by kind, one entry each
    goal: int  # how many canastas going out needs in all
    kind_weights: tuple[tuple[str, float], ...]
    can_go_out: bool
    # number of sides -> cumulative chances of laying down 0, 1, 2... red threes
    red_three_odds: dict[int, tuple[float, ...]] = field(default_factory=dict)


# Tables by the identity of their ruleset: hashing a RuleSet on every round would cost more
# than the round itself.
_TABLES: dict[int, tuple[engine.RuleSet, _Table]] = {}


def _table(rules: engine.RuleSet) -> _Table:
    known = _TABLES.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_TABLES) >= 64:
        _TABLES.clear()
    table = _make_table(rules)
    _TABLES[id(rules)] = (rules, table)
    return table


def _make_table(rules: engine.RuleSet) -> _Table:
    decks = rules.decks
    minimums = canasta_minimums(rules, decks)
    capacity = {
        kind: (count if minimums[kind] is not None else 0)
        for kind, count in canasta_capacity(rules, decks).items()
    }
    minimum = {kind: value or 0 for kind, value in minimums.items()}
    values = rules.card_values
    requirement = tuple(
        kind for kind, count in rules.going_out_minimum.items() for _ in range(count)
    )
    natural_ranks = [
        rank
        for rank in values
        if rank not in WILD_RANKS
        and rank != "black3"
        and not (rank == "7" and "sevens" in rules.canasta_bonus)
    ]
    wild = [(values.get(rank), 4 if rank == "2" else rules.jokers_per_deck) for rank in WILD_RANKS]
    wild = [(value, weight) for value, weight in wild if weight and value is not None]
    # Cards left in hand: every rank by how many the decks hold; threes apart where they score
    # on their own (their own fields say how many are held).
    hand = [
        (value, rules.jokers_per_deck if rank == "joker" else 4)
        for rank, value in values.items()
        if rank != "black3" and (rank != "joker" or rules.jokers_per_deck)
    ]
    table = _Table(
        capacity=capacity,
        minimum=minimum,
        points=deck_points(rules, decks),
        natural_values=tuple(values[rank] for rank in natural_ranks),
        wild_values=tuple(value for value, _ in wild),
        wild_cum_weights=tuple(accumulate(weight for _, weight in wild)),
        hand_values=tuple(value for value, _ in hand),
        hand_cum_weights=tuple(accumulate(weight for _, weight in hand)),
        max_wild_in_mixed=3 if rules.mixed_max_wild is None else min(rules.mixed_max_wild, 6),
        requirement=requirement,
        goal=max(rules.going_out_canastas, len(requirement)),
        # Players build natural and mixed canastas most; the kinds going out needs a little more.
        kind_weights=tuple(
            (kind, KIND_WEIGHT.get(kind, 1.0) + rules.going_out_minimum.get(kind, 0))
            for kind in rules.kinds
        ),
        can_go_out=False,
    )
    budget = _Budget(dict(capacity), table.points)
    feasible = all(budget.take(kind, table.minimum[kind]) for kind in requirement)
    feasible = feasible and budget.can_fill(table, table.goal - len(requirement))
    return replace(table, can_go_out=feasible)


@dataclass
class _Budget:
    """Canastas the decks can still make, and card points not yet spoken for by floors."""

    capacity: dict[str, int]
    points: int

    def fits(self, kind: str, floor: int) -> bool:
        return self.capacity.get(kind, 0) > 0 and floor <= self.points

    def take(self, kind: str, floor: int) -> bool:
        if not self.fits(kind, floor):
            return False
        self.capacity[kind] -= 1
        self.points -= floor
        return True

    def can_fill(self, table: _Table, count: int) -> bool:
        """Whether `count` more canastas of any kinds still fit: the cheapest kinds first."""
        capacity, points = dict(self.capacity), self.points
        for kind in sorted(capacity, key=lambda k: table.minimum[k]):
            while count > 0 and capacity[kind] > 0 and table.minimum[kind] <= points:
                capacity[kind] -= 1
                points -= table.minimum[kind]
                count -= 1
        return count <= 0


@dataclass
class _Side:
    name: str
    went_out: bool = False
    reached_foot: bool = True
    canastas: dict[str, int] = field(default_factory=dict)
    floor: int = 0  # the least melded_points its canastas and open books allow
    extra: int = 0  # realistic melded card points above the floor
    hand: int = 0
    open_books: list[tuple[str, int]] = field(default_factory=list)
    concealed: bool = False
    red_threes: int = 0
    red_in_hand: int = 0
    black_in_hand: int = 0
    exact_cuts: int = 0


def random_round(
    rules: engine.RuleSet,
    sides: Sequence[str],
    *,
    number: int,
    rng: random.Random,
    dealer_side: int = 0,
    totals: Mapping[str, int] | None = None,
) -> dict:
    """A plausible round input for the engine (the dict of the contract's `round` minus "rules"):
    {"round": number, "ended_by": ..., "sides": [{"name": ..., ...}, ...]}

    The sides are listed as `sides` names them; `dealer_side` (an index into them) is the only
    side that can have an exact cut. `totals`, the game's totals before this round, only sets how
    likely each side is to go out: a side whose total asks for a bigger opening meld gets down
    later. Without it every side is as likely.
    """
    table = _table(rules)
    count = len(sides)
    went_out = None
    if table.can_go_out and rng.random() < GOING_OUT_SHARE:
        went_out = _who_goes_out(rules, sides, number, totals, rng)
    players = [_Side(name, went_out=index == went_out) for index, name in enumerate(sides)]
    budget = _Budget(dict(table.capacity), table.points)
    # What the decks allow goes first to the side that went out, whose canastas are required.
    order = sorted(range(count), key=lambda index: index != went_out)
    for index in order:
        side = players[index]
        if side.went_out:
            _went_out_canastas(table, budget, side, rng)
        else:
            if went_out is not None and rules.has_foot and rng.random() < FOOT_NOT_REACHED_SHARE:
                side.reached_foot = False
            _other_canastas(table, budget, side, rng, went_out is None)
    if rules.open_books_change_sides:
        for side in players:
            share = OPEN_BOOK_SHARE / 4 if side.went_out else OPEN_BOOK_SHARE
            if rng.random() < share:
                kind = _pick_kind(table, budget, rng)
                if kind is not None:
                    points = _canasta_value(kind, table, rng)
                    if budget.take(kind, points):
                        side.open_books.append((kind, points))
                        side.floor += points
    for side in players:
        _cards(rules, table, side, rng, went_out is None)
    _fit_in_decks(table, players)
    if rules.special_threes:
        _threes(rules, table, players, rng)
    if rules.cut_bonus and rng.random() < EXACT_CUT_SHARE:
        players[dealer_side % count].exact_cuts = 1
    if went_out is not None and rules.concealed_bonus and rng.random() < CONCEALED_SHARE:
        players[went_out].concealed = True
    return {
        "round": number,
        "ended_by": "stock_exhausted" if went_out is None else "going_out",
        "sides": [_side_dict(rules, side) for side in players],
    }


def random_game(
    rules: engine.RuleSet,
    sides: Sequence[str],
    *,
    rng: random.Random,
    first_dealer_side: int = 0,
    max_rounds: int = 12,
) -> list[dict]:
    """Rounds until the game ends by its rules (or max_rounds, for target games that run long).

    The deal passes to the next side each round, starting with `first_dealer_side`.
    """
    rounds: list[dict] = []
    totals = dict.fromkeys(sides, 0)
    number = 0
    while True:
        number += 1
        dealer = (first_dealer_side + number - 1) % len(sides)
        round_ = random_round(
            rules, sides, number=number, rng=rng, dealer_side=dealer, totals=dict(totals)
        )
        rounds.append(round_)
        if rules.target_score is not None or rules.opening_meld_by == "score":
            # The totals decide the end and the opening melds; a game of fixed rounds with
            # melds by round needs neither, and is spared the scoring.
            for name, score in engine.score_round(rules, round_).scores.items():
                totals[name] += score
        if _game_over(rules, totals, number):
            return rounds
        if rules.rounds is None and number >= max_rounds:
            return rounds


def _who_goes_out(
    rules: engine.RuleSet,
    sides: Sequence[str],
    number: int,
    totals: Mapping[str, int] | None,
    rng: random.Random,
) -> int:
    """The side that goes out: a side facing a bigger opening meld gets down later, so it goes
    out less often (that is what keeps a leader from running away with a target game)."""
    if not totals:
        return rng.randrange(len(sides))
    weights = [
        1 / max(rules.opening_meld_for(number, totals.get(name, 0)), 10) ** 2 for name in sides
    ]
    return rng.choices(range(len(sides)), weights)[0]


def _game_over(rules: engine.RuleSet, totals: Mapping[str, int], played: int) -> bool:
    """The contract's end condition: after the last round, or one side alone at the target."""
    if rules.rounds is not None and played >= rules.rounds:
        return True
    if rules.target_score is None:
        return False
    top = max(totals.values())
    return top >= rules.target_score and list(totals.values()).count(top) == 1


# -- canastas -------------------------------------------------------------------------------


def _pick_kind(
    table: _Table,
    budget: _Budget,
    rng: random.Random,
    *,
    still_needed: int = 0,
) -> str | None:
    """A kind of canasta the decks can still make, weighted as players build them.

    With still_needed, only kinds that leave room for that many more canastas afterwards.
    """
    options = []
    for kind, weight in table.kind_weights:
        floor = table.minimum[kind]
        if not budget.fits(kind, floor):
            continue
        if still_needed:
            after = _Budget(dict(budget.capacity), budget.points)
            after.take(kind, floor)
            if not after.can_fill(table, still_needed):
                continue
        options.append((kind, weight))
    if not options:
        return None
    return rng.choices([k for k, _ in options], [w for _, w in options])[0]


def _add_canasta(table: _Table, budget: _Budget, side: _Side, kind: str, rng: random.Random):
    floor = table.minimum[kind]
    taken = budget.take(kind, floor)
    assert taken
    side.canastas[kind] = side.canastas.get(kind, 0) + 1
    side.floor += floor
    side.extra += _canasta_value(kind, table, rng) - floor


def _went_out_canastas(table: _Table, budget: _Budget, side: _Side, rng: random.Random) -> None:
    for kind in table.requirement:
        _add_canasta(table, budget, side, kind, rng)
    short = table.goal - len(table.requirement)
    while short > 0:
        kind = _pick_kind(table, budget, rng, still_needed=short - 1)
        assert kind is not None  # _table checked that the decks can make the requirement
        _add_canasta(table, budget, side, kind, rng)
        short -= 1
    extras = rng.choices((0, 1, 2, 3), cum_weights=(70, 92, 99, 100))[0]
    for _ in range(extras):
        kind = _pick_kind(table, budget, rng)
        if kind is None:
            break
        _add_canasta(table, budget, side, kind, rng)


def _other_canastas(
    table: _Table, budget: _Budget, side: _Side, rng: random.Random, stock_ran_out: bool
) -> None:
    goal = max(table.goal, 1)
    if not side.reached_foot:
        wanted = rng.choices((0, 1, 2), cum_weights=(60, 90, 100))[0]
    elif stock_ran_out:
        wanted = round(rng.triangular(0, goal, goal * 0.35))
    else:
        wanted = round(rng.triangular(0, max(goal - 1, 1), 0.5))
    # Players build towards what going out needs: some canastas come from that list.
    aims = list(table.requirement)
    rng.shuffle(aims)
    for _ in range(wanted):
        kind = None
        if aims and rng.random() < AIM_SHARE:
            aim = aims.pop()
            if budget.fits(aim, table.minimum[aim]):
                kind = aim
        if kind is None:
            kind = _pick_kind(table, budget, rng)
        if kind is None:
            break
        _add_canasta(table, budget, side, kind, rng)


def _canasta_value(kind: str, table: _Table, rng: random.Random) -> int:
    """The card points of a plausible canasta of this kind, never below the least possible."""
    chance = rng.random()
    length = 7 if chance < 0.7 else 8 if chance < 0.92 else 9
    value = 0
    if kind == "sevens":
        value = 0  # exactly seven sevens: the minimum
    elif kind == "wild" and table.wild_values:
        value = sum(rng.choices(table.wild_values, cum_weights=table.wild_cum_weights, k=length))
    elif kind == "samba":
        # Seven in a row from 4-10 (50) up to 8-A (80): never longer.
        return table.minimum[kind] + 5 * rng.randint(0, 6)
    elif kind in ("natural", "clean") and table.natural_values:
        value = length * rng.choice(table.natural_values)
    elif kind in ("mixed", "dirty") and table.natural_values and table.wild_values:
        wilds = rng.randint(1, table.max_wild_in_mixed)
        value = (length - wilds) * rng.choice(table.natural_values)
        value += sum(rng.choices(table.wild_values, cum_weights=table.wild_cum_weights, k=wilds))
    return max(value, table.minimum[kind])


# -- cards and threes -----------------------------------------------------------------------


def _card_points(table: _Table, rng: random.Random, cards: int) -> int:
    if cards <= 0 or not table.hand_values:
        return 0
    return sum(rng.choices(table.hand_values, cum_weights=table.hand_cum_weights, k=cards))


def _cards(
    rules: engine.RuleSet, table: _Table, side: _Side, rng: random.Random, stock_ran_out: bool
) -> None:
    """Cards melded outside canastas, and the cards left in hand and foot."""
    if side.went_out:
        side.extra += _card_points(table, rng, rng.randint(0, 6))
        # The player who went out holds nothing; partners may still hold cards where they count.
        if rules.went_out_hand == "counts" and rng.random() < 0.3:
            side.hand = _card_points(table, rng, rng.randint(1, 8))
        return
    side.extra += _card_points(table, rng, rng.randint(0, 9 if side.reached_foot else 5))
    held = rng.randint(2, 12) if stock_ran_out else rng.randint(3, 16)
    if not side.reached_foot:
        held += rng.randint(9, 13)  # the whole foot, never reached
    side.hand = _card_points(table, rng, held)


def _fit_in_decks(table: _Table, players: list[_Side]) -> None:
    """Scale card points above the floors down until all sides fit in what the decks hold."""
    floors = sum(side.floor for side in players)
    loose = sum(side.extra + side.hand for side in players)
    room = table.points - floors
    if loose <= room:
        return
    for side in players:
        side.extra = 5 * (side.extra * room // loose // 5)
        side.hand = 5 * (side.hand * room // loose // 5)


def _threes(rules: engine.RuleSet, table: _Table, players: list[_Side], rng: random.Random):
    red = 2 * rules.decks  # red threes in the decks, laid down and in hand together
    black = 2 * rules.decks
    odds = table.red_three_odds.get(len(players))
    if odds is None:
        # Each red three in the decks reaches a given side's table with this chance.
        chance = min(0.3, 0.6 / len(players))
        odds = tuple(
            accumulate(
                math.comb(red, k) * chance**k * (1 - chance) ** (red - k) for k in range(red + 1)
            )
        )
        table.red_three_odds[len(players)] = odds
    for side in players:
        laid = rng.choices(range(len(odds)), cum_weights=odds)[0]
        side.red_threes = min(laid, red)
        red -= side.red_threes
        if side.went_out:
            continue
        if rules.threes_apart and red and rng.random() < 0.08:
            side.red_in_hand = 1
            red -= 1
        if rules.black_three_in_hand_penalty and black and rng.random() < 0.25:
            side.black_in_hand = min(black, rng.randint(1, 2))
            black -= side.black_in_hand


def _side_dict(rules: engine.RuleSet, side: _Side) -> dict:
    out: dict = {"name": side.name}
    if side.went_out:
        out["went_out"] = True
    if side.concealed:
        out["went_out_concealed"] = True
    out["canastas"] = {kind: n for kind, n in side.canastas.items() if n}
    out["melded_points"] = side.floor + side.extra
    out["hand_points"] = side.hand
    if rules.special_threes:
        out["red_threes"] = side.red_threes
        if side.red_in_hand:
            out["red_threes_in_hand"] = side.red_in_hand
        if side.black_in_hand:
            out["black_threes_in_hand"] = side.black_in_hand
    if not side.reached_foot and rules.foot_penalty:
        out["foot_picked_up"] = False
    if side.exact_cuts:
        out["exact_cuts"] = side.exact_cuts
    if side.open_books:
        out["open_books"] = [{"kind": kind, "points": points} for kind, points in side.open_books]
    return out
