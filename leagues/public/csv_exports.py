"""CSV downloads of a season's games and of the standings, for spreadsheets.

UTF-8 with a byte order mark, so that Excel reads José and Zoë as they are; a cell a spreadsheet
would run as a formula (starting with = + - @, a tab or a carriage return) is prefixed with `'`,
as OWASP advises, unless it is a plain number such as a negative margin.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Sequence

from django.db.models import Count, QuerySet
from django.http import HttpResponse
from django.urls import reverse

from leagues import selectors
from leagues.models import League, LeagueGame, Season
from leagues.public import documents
from scorekeeper.documents.cards import file_stem

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
BOM = "\ufeff"


def safe_cell(value: object) -> str:
    """The cell as text, defused when a spreadsheet would read it as a formula."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) and not NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_response(
    header: Sequence[str], rows: Iterable[Sequence[object]], stem: str
) -> HttpResponse:
    """The rows as a CSV download named `<stem>.csv`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    response = HttpResponse(
        (BOM + buffer.getvalue()).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{stem}.csv"'
    # Standings change with every game: never serve yesterday's copy.
    response["Cache-Control"] = "no-store"
    return response


# Standings -----------------------------------------------------------------------------------


def standings_csv(
    league: League, season: Season | None, rows: Sequence[selectors.StandingRow]
) -> HttpResponse:
    """The standings with the columns of the page and the PDF, in the page's default order."""
    return csv_response(
        [column.heading for column in documents.standings_columns()],
        (documents.standings_row(row, plain=True) for row in rows),
        documents.standings_file_stem(league, season),
    )


# A season's games ----------------------------------------------------------------------------


def season_games(league: League, season: Season) -> QuerySet[LeagueGame]:
    """The season's games, oldest first, with their game, night, sides and round count."""
    return (
        LeagueGame.objects.filter(league=league, season=season)
        .select_related("game", "night")
        .prefetch_related("game__sides")
        .annotate(round_count=Count("game__rounds"))
        .order_by("date", "table", "pk")
    )


def _result(league_game: LeagueGame, sides: Sequence) -> str:
    game = league_game.game
    if not game.finished:
        return "In progress"
    if game.tie:
        return "Tie"
    winner = next((side for side in sides if side.pk == game.winner_id), None)
    return winner.name if winner is not None else ""


def season_games_csv(
    league: League, season: Season, absolute_url: Callable[[str], str]
) -> HttpResponse:
    """One row a game: date, night, table, each side's players and total, the result, whether
    it was voided (and why), its rounds and its page."""
    league_games = list(season_games(league, season))
    widest = max((len(lg.game.sides.all()) for lg in league_games), default=2)
    header = ["Date", "Club night", "Table"]
    for n in range(1, widest + 1):
        header += [f"Side {n}", f"Side {n} total"]
    header += ["Result", "Voided", "Void reason", "Rounds", "Game"]
    rows = []
    for league_game in league_games:
        sides = list(league_game.game.sides.all())
        row: list[object] = [
            league_game.date.isoformat(),
            league_game.night.date.isoformat() if league_game.night is not None else "",
            league_game.table or "",
        ]
        for n in range(widest):
            if n < len(sides):
                side = sides[n]
                row += [" & ".join(side.players) or side.name, side.total]
            else:
                row += ["", ""]
        row += [
            _result(league_game, sides),
            "Yes" if league_game.voided else "No",
            league_game.void_reason,
            league_game.round_count,
            absolute_url(reverse("game_detail", args=[league_game.game.public_id])),
        ]
        rows.append(row)
    return csv_response(header, rows, file_stem(league.name, season.name, "games"))
