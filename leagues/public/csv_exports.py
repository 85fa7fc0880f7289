"""CSV downloads of a season's games and of the standings, for spreadsheets, written by
`csv_writer` (its docstring says how a cell is kept from being run as a formula).

A rank is a number and a shared one says so in the next column ("Tied": Yes), rather than
"=1", which a spreadsheet either runs or shows as `'=1`. The organiser's league points adjustments
close each standings row: their sum (already in the league points) and their notes, as the page
words them under its table. A season's games are read CHUNK rows at
a time and sent as they are written: a season of 10,000 games holds about a megabyte while it is
sent, not the whole file and 50,000 model instances (bench/csv_exports.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from django.db.models import Count, Max
from django.http import StreamingHttpResponse
from django.urls import reverse

from leagues import selectors
from leagues.adjustment_notes import Notes, notes_of
from leagues.models import League, LeagueGame, PointsAdjustment, Season
from leagues.public import documents
from leagues.public.csv_writer import Cell, csv_response
from scorekeeper.documents.cards import file_stem
from scorekeeper.models import Side

# Rows fetched from the database at a time.
CHUNK = 1000
# A season's games in the order of the file: by date, then table.
GAME_ORDER = ("date", "table", "pk")


# Standings -----------------------------------------------------------------------------------

# After the page's columns: the sum of a player's adjustments and their notes.
ADJUSTMENT_COLUMNS = ("Points adjusted", "Adjustments")


def standings_header() -> list[str]:
    """The page's columns, the rank's "Tied" after the rank, then the adjustments'."""
    rank, *others = (column.heading for column in documents.standings_columns())
    return [rank, "Tied", *others, *ADJUSTMENT_COLUMNS]


def standings_cells(row: selectors.StandingRow, notes: Notes | None = None) -> list[Cell]:
    """A player's row: the rank as a number, whether it is shared, then the page's cells with
    their figures as numbers, then the sum of their adjustments and their notes ("; " between
    two)."""
    lines = notes.by_player.get(row.player_id, ()) if notes else ()
    return [
        row.place,
        "Yes" if row.shared else "No",
        *(documents.SPREADSHEET_CELLS[key](row) for key in selectors.SORTS),
        row.last_five or documents.NONE,
        row.adjustment,
        "; ".join(lines),
    ]


def standings_csv(
    league: League,
    season: Season | None,
    rows: Sequence[selectors.StandingRow],
    adjustments: Sequence[PointsAdjustment] = (),
) -> StreamingHttpResponse:
    """The standings with the columns of the page and the PDF, in the page's default order,
    and each player's adjustments."""
    notes = notes_of(adjustments, all_time=season is None)
    return csv_response(
        standings_header(),
        (standings_cells(row, notes) for row in rows),
        documents.standings_file_stem(league, season),
    )


# A season's games ----------------------------------------------------------------------------


def season_games(league: League, season: Season):
    """The season's games, oldest first, with their game's and night's fields and their round
    count: named tuples, as building a model instance for each game, night and side took
    most of a long file's time."""
    return (
        LeagueGame.objects.filter(league=league, season=season)
        .order_by(*GAME_ORDER)
        .annotate(round_count=Count("game__rounds"))
        .values_list(
            "game_id",
            "date",
            "night__date",
            "table",
            "voided",
            "void_reason",
            "game__public_id",
            "game__finished",
            "game__tie",
            "game__winner_id",
            "round_count",
            named=True,
        )
    )


def season_sides(league: League, season: Season):
    """The sides of the season's games, in the games' order and then seating order."""
    return (
        Side.objects.filter(game__league_game__league=league, game__league_game__season=season)
        .order_by(*(f"game__league_game__{field}" for field in GAME_ORDER), "position")
        .values_list("game_id", "pk", "name", "players", "total")
    )


def widest_table(league: League, season: Season) -> int:
    """The most sides a game of the season has: the header has a pair of columns for each. A
    game's sides sit at positions 0, 1, ... without a gap, so the last position tells; two
    for a season without a game."""
    last = Side.objects.filter(
        game__league_game__league=league, game__league_game__season=season
    ).aggregate(last=Max("position"))["last"]
    return 2 if last is None else last + 1


def season_games_header(widest: int) -> list[str]:
    header = ["Date", "Club night", "Table"]
    for n in range(1, widest + 1):
        header += [f"Side {n}", f"Side {n} total"]
    return [*header, "Result", "Voided", "Void reason", "Rounds", "Game"]


def _result(game, sides: Sequence[tuple]) -> str:
    if not game.game__finished:
        return "In progress"
    if game.game__tie:
        return "Tie"
    return next((name for pk, name, _ in sides if pk == game.game__winner_id), "")


def season_games_rows(
    league: League, season: Season, widest: int, absolute_url: Callable[[str], str]
) -> Iterator[list[Cell]]:
    """One row a game. The games and their sides are read side by side, in the same order,
    CHUNK rows at a time: two queries and flat memory whatever the number of games."""
    games = season_games(league, season).iterator(chunk_size=CHUNK)
    sides = season_sides(league, season).iterator(chunk_size=CHUNK)
    side = next(sides, None)
    # A game's page, its public id put in after: reverse() for each of 10,000 games costs more
    # than the rest of the row.
    before, after = absolute_url(reverse("game_detail", args=["PUBLIC_ID"])).rsplit("PUBLIC_ID", 1)
    for game in games:
        own = []
        while side is not None and side[0] == game.game_id:
            _, pk, name, players, total = side
            own.append((pk, " & ".join(players) or name, total))
            side = next(sides, None)
        row: list[Cell] = [
            game.date.isoformat(),
            game.night__date.isoformat() if game.night__date is not None else "",
            game.table if game.table is not None else "",
        ]
        for n in range(widest):
            row += own[n][1:] if n < len(own) else ["", ""]
        yield [
            *row,
            _result(game, own),
            "Yes" if game.voided else "No",
            game.void_reason,
            game.round_count,
            before + game.game__public_id + after,
        ]


def season_games_csv(
    league: League, season: Season, absolute_url: Callable[[str], str]
) -> StreamingHttpResponse:
    """One row a game: date, night, table, each side's players and total, the result, whether
    it was voided (and why), its rounds and its page."""
    widest = widest_table(league, season)
    return csv_response(
        season_games_header(widest),
        season_games_rows(league, season, widest, absolute_url),
        file_stem(league.name, season.name, "games"),
    )
