"""A club night's results, as the organiser prints or shares them after the night: each table's
result, the night's best (the highest total and the widest win) and how the season's standings
moved that night, the standings before its games against the standings after them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from leagues import player_stats, selectors
from leagues.models import ClubNight, League, LeagueEvent, Membership
from scorekeeper.engine.formatting import number, signed

# A counted participation as the movement reads it.
_FIELDS = ("player_id", "player__name", "outcome", "points_for", "points_against")


@dataclass(frozen=True)
class SideResult:
    names: str
    total: int | None
    won: bool


@dataclass(frozen=True)
class TableResult:
    number: int
    sides: tuple[SideResult, ...]
    # "finished", "tie", "voided", "playing" or "not started"
    state: str
    rounds: int


@dataclass(frozen=True)
class Best:
    """One of the night's best: who, their figure, at which table."""

    names: str
    points: int
    table: int


@dataclass(frozen=True)
class Move:
    """A player of the night in the season's standings: the rank before the night's games (None
    for a first game) and after them, and the league points the night gave."""

    player_id: int
    name: str
    before: str | None
    after: str
    places: int  # how many places up (down when negative); 0 for a first game
    gained: int
    games: int


@dataclass(frozen=True)
class NightResults:
    tables: tuple[TableResult, ...]
    highest: Best | None
    widest: Best | None
    moves: tuple[Move, ...]

    @property
    def finished(self) -> int:
        """How many tables have a result: a finished game, or a tie."""
        return sum(t.state in ("finished", "tie") for t in self.tables)


def _tables(night: ClubNight) -> list[TableResult]:
    tables = []
    for table in player_stats.night_view(night).tables:
        sides = tuple(
            SideResult(" & ".join(side.players), side.total, side.won) for side in table.sides
        )
        tables.append(TableResult(table.number, sides, table.state, table.rounds))
    return tables


def _best(tables: Iterable[TableResult]) -> tuple[Best | None, Best | None]:
    highest = widest = None
    for table in tables:
        if table.state not in ("finished", "tie"):
            continue
        ordered = sorted(table.sides, key=lambda side: side.total or 0, reverse=True)
        top = ordered[0]
        if highest is None or (top.total or 0) > highest.points:
            highest = Best(top.names, top.total or 0, table.number)
        if table.state == "finished" and len(ordered) > 1:
            margin = (top.total or 0) - (ordered[1].total or 0)
            if widest is None or margin > widest.points:
                widest = Best(top.names, margin, table.number)
    return highest, widest


def _rows(league: League, records: dict[int, dict]) -> list[selectors.StandingRow]:
    return selectors.ranked(
        [
            selectors.StandingRow(
                player_id=player_id,
                name=r["name"],
                games=r["games"],
                wins=r["W"],
                ties=r["T"],
                losses=r["L"],
                points_for=r["for"],
                points_against=r["against"],
                league_points=selectors.league_points(league, r["W"], r["T"], r["L"], r["for"]),
                rating=None,
                last_five="",
            )
            for player_id, r in records.items()
        ]
    )


def _add(records: dict[int, dict], rows: Iterable[tuple]) -> None:
    for player_id, name, outcome, points_for, points_against in rows:
        r = records.setdefault(
            player_id,
            {"name": name, "games": 0, "W": 0, "T": 0, "L": 0, "for": 0, "against": 0},
        )
        r["games"] += 1
        r[outcome] += 1
        r["for"] += points_for
        r["against"] += points_against


def _moves(league: League, night: ClubNight) -> list[Move]:
    counted = selectors.counted_participations(league, night.season)
    tonight = list(counted.filter(league_game__night=night).values_list(*_FIELDS))
    if not tonight:
        return []
    earlier = counted.filter(date__lte=night.date).filter(
        ~Q(league_game__night=night) | Q(league_game__night__isnull=True)
    )
    records: dict[int, dict] = {}
    _add(records, earlier.values_list(*_FIELDS))
    before = {row.player_id: row for row in _rows(league, records)}
    _add(records, tonight)
    after = _rows(league, records)
    played = {row[0] for row in tonight}
    moves = []
    for row in sorted(after, key=lambda r: (r.place, r.name)):
        if row.player_id not in played:
            continue
        was = before.get(row.player_id)
        moves.append(
            Move(
                player_id=row.player_id,
                name=row.name,
                before=was.rank if was else None,
                after=row.rank,
                places=was.place - row.place if was else 0,
                gained=row.league_points - (was.league_points if was else 0),
                games=row.games - (was.games if was else 0),
            )
        )
    return moves


def night_results(league: League, night: ClubNight) -> NightResults:
    """The night's tables, its best and its players' moves in the season's standings."""
    tables = _tables(night)
    highest, widest = _best(tables)
    return NightResults(tuple(tables), highest, widest, tuple(_moves(league, night)))


# In words, as the page, the PDF and the mail say them.


def move_text(move: Move) -> str:
    """`up 2`, `down 1`, `same` or `new` (a first game): a player's move in the standings."""
    if move.before is None:
        return "new"
    if move.places > 0:
        return f"up {number(move.places)}"
    if move.places < 0:
        return f"down {number(-move.places)}"
    return "same"


def table_note(table: TableResult) -> str:
    """`a tie after 4 rounds`, `voided`: what a table's line says besides its totals."""
    rounds = f"{number(table.rounds)} round{'s' if table.rounds != 1 else ''}"
    return {
        "finished": f"after {rounds}",
        "tie": f"a tie after {rounds}",
        "voided": "voided",
        "playing": f"still playing, {rounds} played",
        "not started": "not started",
    }[table.state]


def best_lines(results: NightResults) -> tuple[str, ...]:
    """`Highest total: Ann & Bob, 3,250 at table 2.`, and the widest win."""
    lines = []
    if results.highest is not None:
        best = results.highest
        lines.append(f"Highest total: {best.names}, {number(best.points)} at table {best.table}.")
    if results.widest is not None and results.widest.points > 0:
        best = results.widest
        lines.append(f"Widest win: {best.names}, by {number(best.points)} at table {best.table}.")
    return tuple(lines)


# Who the results are mailed to, and when they last were (`services.night_results_send`).


def results_addresses(night: ClubNight) -> list[str]:
    """The addresses of the league's members who play (not retired) and have one, once each."""
    found = (
        Membership.objects.filter(league=night.league_id, retired_on__isnull=True)
        .exclude(user__email="")
        .exclude(user__isnull=True)
        .values_list("user__email", flat=True)
    )
    return sorted({address.strip() for address in found if address.strip()})


def results_sent(night: ClubNight) -> LeagueEvent | None:
    """The last time the night's results were mailed, or None."""
    return (
        LeagueEvent.objects.filter(
            league=night.league_id, kind=LeagueEvent.Kind.RESULTS_SENT, after__night=night.pk
        )
        .order_by("-at")
        .first()
    )


def in_words(results: NightResults) -> dict:
    """What the results page and the results mail show: each table with its note, the night's
    best, and each move with its words and the league points gained (`+2`)."""
    return {
        "tables": [(table, table_note(table)) for table in results.tables],
        "best": best_lines(results),
        "moves": [(move, move_text(move), signed(move.gained)) for move in results.moves],
    }
