"""Seating for a club night: who sits out, who plays at which table, who partners whom.

Plain Python on purpose (no Django), so views and commands can call it and tests need no database.

`history` is newest first: `history[0]` is last night. A past night's recency weight is
1 for last night, 1/2 for the night before, then 1/4, 1/8 and so on.

An arrangement's cost has two tiers, compared in order (lexicographically):

1. Repeated partners: for every pair on the same side tonight, the sum of the recency weights of
   the past nights they shared a side. Compared first, so it dominates absolutely: no partner is
   repeated whenever the search finds an arrangement without a repeat, and when one must repeat,
   a partner from three nights ago (1/4) is chosen over one from last night (1).
2. Everything else, added up:
   - repeated opponents, weight OPPONENT_WEIGHT (1): for every pair at the same table on
     different sides tonight, the sum of the recency weights of the past nights they met that way;
   - rating balance, weight RATING_WEIGHT (1/4) per table: the highest side's mean rating minus the
     lowest side's, divided by the spread (highest minus lowest) of tonight's ratings. Means, not
     sums, so a team of two meets a team of three fairly; dividing by the spread makes the weight
     mean the same whatever scale the ratings use. A lopsided table (strongest pair against the
     weakest) therefore costs about as much as meeting an opponent from three nights ago. In
     individual play the sides are single players, so balance seats similar ratings together.

Nights more than about 30 back weigh under 1e-9 and no longer tell arrangements apart.

Table shapes for partnership play: as many tables of two pairs ([2, 2]) as possible, the
rest taken by a pair against a team of three ([2, 3]) and three against three ([3, 3]); at
most one of each is ever needed (n mod 4 = 1, 2, 3 leaves 5, 6, 11 players). Only when no
such split exists (1, 2, 3 or 7 players) do individual tables ([1, 1, 1], [1, 1]) take the
remainder, or, when those are not allowed, the fewest players sit out.
"""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

OPPONENT_WEIGHT = 1.0
RATING_WEIGHT = 0.25
# Search effort: independent random starts, each improved by rounds of kick-and-descend.
RESTARTS = 3
KICK_SWAPS = 3
MIN_ROUNDS = 3
MAX_ROUNDS = 40
SWAP_BUDGET = 10_000
# Costs are sums of powers of two and normalised ratings; differences below this are noise.
EPS = 1e-9

# Players left over after the [2, 2] tables, for each remainder mod 4: 5 = [2, 3], 6 = [3, 3].
_TEAM_REMAINDER_TABLES = {0: [], 1: [[2, 3]], 2: [[3, 3]], 3: [[2, 3], [3, 3]]}


@dataclass(frozen=True)
class PastNight:
    """One earlier night: its tables, each a tuple of sides, each side a tuple of player ids."""

    tables: tuple[tuple[tuple[int, ...], ...], ...]
    sitting_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class Table:
    """One table tonight: its sides in seating order, each a sorted tuple of player ids."""

    sides: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Seating:
    """Tonight's tables, ordered by their smallest player id, and who sits out."""

    tables: tuple[Table, ...]
    sitting_out: tuple[int, ...]


def _team_tables(count: int) -> list[list[int]] | None:
    """Partnership tables for exactly `count` players, or None when no split exists."""
    remainder_tables = _TEAM_REMAINDER_TABLES[count % 4]
    leftover = sum(sum(table) for table in remainder_tables)
    if count < leftover:
        return None
    return [[2, 2] for _ in range((count - leftover) // 4)] + [list(t) for t in remainder_tables]


def table_sizes(count: int, *, teams: bool, max_sides: int | None) -> tuple[list[list[int]], int]:
    """How `count` players split into tables (each a list of side sizes) and how many sit out."""
    if count < 0:
        raise ValueError("count cannot be negative")
    if max_sides is not None and max_sides < 2:
        raise ValueError("a table needs at least two sides")
    three_sides = max_sides is None or max_sides >= 3
    if not teams:
        if count % 2 == 0:
            return [[1, 1] for _ in range(count // 2)], 0
        if three_sides and count >= 3:
            return [[1, 1] for _ in range((count - 3) // 2)] + [[1, 1, 1]], 0
        return [[1, 1] for _ in range(count // 2)], 1
    tables = _team_tables(count)
    if tables is not None:
        return tables, 0
    # Only 1, 2, 3 and 7 get here.
    if three_sides:
        # Allowing three sides means the game is not strictly two teams, so individual tables
        # may take the players the pairs cannot.
        if count in (3, 7):
            return (_team_tables(count - 3) or []) + [[1, 1, 1]], 0
        if count == 2:
            return [[1, 1]], 0
    for out in range(1, count + 1):
        tables = _team_tables(count - out)
        if tables is not None:
            return tables, out
    return [], count  # unreachable: zero players always split


def _recency(index: int) -> float:
    return 0.5**index


def _sitting_out(
    players: list[int], out: int, history: Sequence[PastNight], rng: random.Random
) -> list[int]:
    """The `out` players who sat out least: fewest nights, then least recently, then by lot."""
    lot = players[:]
    rng.shuffle(lot)
    rank = {player: place for place, player in enumerate(lot)}
    times = dict.fromkeys(players, 0)
    recency = dict.fromkeys(players, 0.0)
    for index, night in enumerate(history):
        for player in set(night.sitting_out):
            if player in times:
                times[player] += 1
                recency[player] += _recency(index)
    # Count first so that over a season everyone takes a turn; recency only orders equal counts.
    order = sorted(players, key=lambda p: (times[p], recency[p], rank[p]))
    return order[:out]


def _pair_weights(
    players: list[int], history: Sequence[PastNight]
) -> tuple[list[list[float]], list[list[float]]]:
    """Recency-weighted partner and opponent matrices over the indices of `players`."""
    index_of = {player: i for i, player in enumerate(players)}
    n = len(players)
    partner = [[0.0] * n for _ in range(n)]
    opponent = [[0.0] * n for _ in range(n)]
    for night_index, night in enumerate(history):
        weight = _recency(night_index)
        for table in night.tables:
            sides = [[index_of[p] for p in side if p in index_of] for side in table]
            for s, side in enumerate(sides):
                for a in side:
                    for b in side:
                        if a != b:
                            partner[a][b] += weight
                    for other in sides[s + 1 :]:
                        for b in other:
                            opponent[a][b] += weight
                            opponent[b][a] += weight
    return partner, opponent


class _Search:
    """Seats as mutable side lists, with side rating sums and table imbalances kept current."""

    def __init__(
        self,
        shapes: list[list[int]],
        partner: list[list[float]],
        opponent: list[list[float]],
        rating: list[float],
    ):
        self.partner = partner
        self.opponent = opponent
        self.rating = rating
        self.use_rating = any(rating)
        self.inverse_size: list[float] = []
        self.side_table: list[int] = []
        self.table_sides: list[list[int]] = []
        for t, shape in enumerate(shapes):
            first = len(self.side_table)
            self.table_sides.append(list(range(first, first + len(shape))))
            self.inverse_size.extend(1 / size for size in shape)
            self.side_table.extend([t] * len(shape))
        self.other_sides = [
            [o for o in self.table_sides[t] if o != s] for s, t in enumerate(self.side_table)
        ]
        self.side_size = [size for shape in shapes for size in shape]

    def place(self, order: list[int]) -> None:
        """Seat players in the given order, side by side, table by table."""
        self.members: list[list[int]] = []
        self.side_of = [0] * len(order)
        it = iter(order)
        for s, size in enumerate(self.side_size):
            side = [next(it) for _ in range(size)]
            self.members.append(side)
            for p in side:
                self.side_of[p] = s
        self._rate()

    def _rate(self) -> None:
        self.sums = [sum(self.rating[p] for p in side) for side in self.members]
        self.imbalance = [self._imbalance(t) for t in range(len(self.table_sides))]

    def _imbalance(self, t: int) -> float:
        sides = self.table_sides[t]
        sums, inverse = self.sums, self.inverse_size
        if len(sides) == 2:
            first, second = sides
            return abs(sums[first] * inverse[first] - sums[second] * inverse[second])
        means = [sums[s] * inverse[s] for s in sides]
        return max(means) - min(means)

    def cost(self) -> tuple[float, float]:
        """Both tiers computed from scratch, free of drift from summed deltas."""
        hard = soft = 0.0
        for sides in self.table_sides:
            for i, s in enumerate(sides):
                side = self.members[s]
                for k, a in enumerate(side):
                    for b in side[k + 1 :]:
                        hard += self.partner[a][b]
                    for other in sides[i + 1 :]:
                        for b in self.members[other]:
                            soft += OPPONENT_WEIGHT * self.opponent[a][b]
        return hard, soft + RATING_WEIGHT * sum(self.imbalance)

    def try_swap(self, a: int, b: int) -> bool:
        """Swap players a and b if that lowers the cost; say whether it did."""
        side_of = self.side_of
        S, V = side_of[a], side_of[b]
        if S == V:
            return False
        members = self.members
        pa, pb = self.partner[a], self.partner[b]
        side_s, side_v = members[S], members[V]
        hard = 0.0
        for x in side_s:
            hard += pb[x] - pa[x]
        for y in side_v:
            hard += pa[y] - pb[y]
        # The loops ran over a and b themselves too; the two stay apart, so take those terms out.
        hard -= pb[a] - pa[a] + pa[b] - pb[b]
        if hard > EPS:
            return False
        oa, ob = self.opponent[a], self.opponent[b]
        soft = 0.0
        T, U = self.side_table[S], self.side_table[V]
        if T != U:
            for s in self.other_sides[S]:
                for x in members[s]:
                    soft += ob[x] - oa[x]
            for s in self.other_sides[V]:
                for y in members[s]:
                    soft += oa[y] - ob[y]
        else:
            # Same table: a's partners become its opponents and b's partners become a's.
            for x in side_s:
                soft += oa[x] - ob[x]
            for y in side_v:
                soft += ob[y] - oa[y]
            soft -= oa[a] - ob[a] + ob[b] - oa[b]
        soft *= OPPONENT_WEIGHT
        if self.use_rating:
            shift = self.rating[b] - self.rating[a]
            self.sums[S] += shift
            self.sums[V] -= shift
            new_t = self._imbalance(T)
            new_u = self._imbalance(U) if U != T else new_t
            soft += RATING_WEIGHT * (new_t - self.imbalance[T])
            if U != T:
                soft += RATING_WEIGHT * (new_u - self.imbalance[U])
            if hard >= -EPS and soft >= -EPS:
                self.sums[S] -= shift
                self.sums[V] += shift
                return False
            self.imbalance[T], self.imbalance[U] = new_t, new_u
        elif hard >= -EPS and soft >= -EPS:
            return False
        self._move(a, b)
        return True

    def _move(self, a: int, b: int) -> None:
        S, V = self.side_of[a], self.side_of[b]
        side_s, side_v = self.members[S], self.members[V]
        side_s[side_s.index(a)] = b
        side_v[side_v.index(b)] = a
        self.side_of[a], self.side_of[b] = V, S

    def seats(self) -> list[int]:
        """Players in seat order, as `place` takes them."""
        return [p for side in self.members for p in side]

    def kick(self, rng: random.Random, swaps: int) -> list[int]:
        """Swap a few random players regardless of cost, to leave a local optimum; return them."""
        touched = []
        for _ in range(swaps):
            a, b = rng.sample(range(len(self.side_of)), 2)
            self._move(a, b)
            touched += [a, b]
        # Recomputed rather than tracked: kicks are rare next to the swaps tried in a descent.
        self._rate()
        return touched

    def _table_players(self, a: int) -> list[int]:
        return [
            p for s in self.table_sides[self.side_table[self.side_of[a]]] for p in self.members[s]
        ]

    def descend(self, rng: random.Random, dirty: list[int] | None = None) -> None:
        """Swap pairs until no swap of two players lowers the cost."""
        players = list(range(len(self.side_of)))
        rng.shuffle(players)
        # A swap between two players whose tables are unchanged since each was last scanned was
        # already found not to help, so only players at changed tables need scanning again.
        if dirty is None:
            queue = players[:]
        else:
            queue = list(dict.fromkeys(q for p in dirty for q in self._table_players(p)))
        queued = set(queue)
        while queue:
            a = queue.pop()
            queued.discard(a)
            for b in players:
                if self.try_swap(a, b):
                    # a and b have both moved, so their new tables hold everyone affected.
                    for p in self._table_players(a) + self._table_players(b):
                        if p not in queued:
                            queued.add(p)
                            queue.append(p)
                    break


def _better(cost: tuple[float, float], best: tuple[float, float] | None) -> bool:
    if best is None:
        return True
    if cost[0] < best[0] - EPS:
        return True
    return cost[0] <= best[0] + EPS and cost[1] < best[1] - EPS


def propose(
    players: Sequence[int],
    *,
    teams: bool,
    max_sides: int | None = None,
    ratings: Mapping[int, float] | None = None,
    history: Sequence[PastNight] = (),
    seed: int = 0,
) -> Seating:
    """Tables for tonight that avoid recent partners and opponents and balance teams by rating."""
    present = sorted(players)
    if len(set(present)) != len(present):
        raise ValueError("a player is listed twice")
    rng = random.Random(seed)
    shapes, out = table_sizes(len(present), teams=teams, max_sides=max_sides)
    sitting_out = _sitting_out(present, out, history, rng)
    out_set = set(sitting_out)
    seated = [p for p in present if p not in out_set]

    ratings = ratings or {}
    raw = [float(ratings.get(p, 0.0)) for p in seated]
    spread = max(raw, default=0.0) - min(raw, default=0.0)
    rating = [(r - min(raw)) / spread for r in raw] if spread > 0 else [0.0] * len(raw)
    partner, opponent = _pair_weights(seated, history)

    search = _Search(shapes, partner, opponent, rating)
    best_cost: tuple[float, float] | None = None
    best_seats: list[int] = []
    size = len(seated)
    # Each descent checks about n^2 / 2 swaps per pass, so big nights get fewer rounds.
    rounds = max(MIN_ROUNDS, min(MAX_ROUNDS, SWAP_BUDGET // max(size * size, 1)))
    for _ in range(RESTARTS if size else 0):
        order = list(range(size))
        rng.shuffle(order)
        search.place(order)
        search.descend(rng)
        current, current_seats = search.cost(), search.seats()
        # Iterated local search: kick the current optimum, descend again, keep it if no worse.
        for _ in range(rounds):
            search.descend(rng, search.kick(rng, KICK_SWAPS))
            cost = search.cost()
            if not _better(current, cost):
                current, current_seats = cost, search.seats()
            else:
                search.place(current_seats)
        if _better(current, best_cost):
            best_cost, best_seats = current, current_seats
    search.place(best_seats)

    tables = []
    for sides in search.table_sides:
        table_sides = sorted(tuple(sorted(seated[i] for i in search.members[s])) for s in sides)
        tables.append(Table(sides=tuple(table_sides)))
    tables.sort(key=lambda table: min(p for side in table.sides for p in side))
    return Seating(tables=tuple(tables), sitting_out=tuple(sorted(sitting_out)))
