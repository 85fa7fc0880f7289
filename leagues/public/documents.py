"""The boundary between the league pages and the PDF builders: a league's models turned into the
plain data of a standings sheet, a club night's pack and a blank score sheet.

The builders never see a model; the views look the objects up, check who may see them, and
wrap the builders' bytes in a response.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import TypeVar

from django.urls import reverse

from leagues import player_stats, selectors
from leagues.adjustment_notes import MARK, NOTES_HEADING, Notes
from leagues.models import ClubNight, League, Season
from scorekeeper import engine
from scorekeeper.documents.cards import card_sides, dealers_for, file_stem
from scorekeeper.documents.pdf.night_pack import NightPack, PackTable
from scorekeeper.documents.pdf.score_card import TARGET_ROUNDS, CardSide, ScoreCard
from scorekeeper.documents.pdf.standings import Column, StandingsSheet
from scorekeeper.engine.formatting import decimal, number, percent, rule_set_name
from scorekeeper.engine.house_rules import house_rules_text

ALL_TIME = "All time"
RATING_NOTE = (
    "Rating: the openskill estimate a player is at least as good as (mean less three standard "
    "deviations); every player starts at 0, and “–” means no rated game yet."
)
MARKS_NOTE = "Last five: the latest results, newest first (W win, T tie, L loss)."
SCORER_CAPTION = "Scan to score this table on a phone"
FOLLOWER_CAPTION = "Scan to follow this table"
SCORER_NOTE = (
    "Each table's QR code opens its game ready to score: whoever scans it can enter rounds, "
    "so keep the sheets at the tables."
)
FOLLOWER_NOTE = "Each table's QR code opens its game page, where the score follows the play."
# What a cell shows for a figure the player does not have yet, as on the standings page.
NONE = "–"


# Rules ---------------------------------------------------------------------------------------


def season_rules(league: League, season: Season | None) -> engine.RuleSet:
    """The rules a season froze when it was made; the league's own when it has no season."""
    if season is not None:
        return engine.resolve_rules(season.rules)
    return engine.resolve_rules({"base": league.preset, "overrides": league.house_rules})


# Standings -----------------------------------------------------------------------------------

# What a set of cells writes: text for the page and the PDF, numbers for a spreadsheet.
T = TypeVar("T")


def _cells(
    whole: Callable[[int], T], figure: Callable[[float], T], share: Callable[[float], T]
) -> dict[str, Callable[[selectors.StandingRow], T | str]]:
    """The cells of a row after the position, in the order of `selectors.SORTS` (the page's
    columns), with whole numbers, figures and the win % written by the functions given."""
    return {
        "name": lambda row: row.name,
        "games": lambda row: whole(row.games),
        "wins": lambda row: whole(row.wins),
        "ties": lambda row: whole(row.ties),
        "losses": lambda row: whole(row.losses),
        "win_pct": lambda row: share(row.win_pct),
        "points_for": lambda row: whole(row.points_for),
        "points_against": lambda row: whole(row.points_against),
        "avg_score": lambda row: figure(row.avg_score),
        "avg_margin": lambda row: figure(row.avg_margin),
        "league_points": lambda row: whole(row.league_points),
        "rating": lambda row: NONE if row.rating is None else figure(row.rating),
    }


# As the standings page writes them (the same formatter as its `number` and `decimal` filters).
CELLS = _cells(number, lambda value: decimal(value, 1), percent)


def tenths(value: float) -> Decimal:
    """A figure to one decimal as a number, rounded as the page's `decimal` rounds it (a half
    away from zero, from its shortest repr); 0.0, never -0.0."""
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    return exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP) or Decimal("0.0")


# For a spreadsheet: numbers, which the CSV writes as numbers; the win % as the page rounds it
# (never above 100 nor below 0, so `percent` writes it in plain digits).
SPREADSHEET_CELLS = _cells(int, tenths, lambda value: Decimal(percent(value)))


def standings_columns() -> tuple[Column, ...]:
    """The standings page's columns: position, each sortable column, the last five results."""
    return (
        Column("#"),
        *(
            Column(label, numeric=key != "name", bold=key == "league_points")
            for key, label in selectors.SORTS.items()
        ),
        Column("Last five", numeric=False),
    )


def standings_row(
    row: selectors.StandingRow, adjusted: frozenset[int] = frozenset()
) -> tuple[str, ...]:
    """A row of the printed table: what the standings page shows in each cell, its rank first
    ("=1" when shared), the league points of a player in `adjusted` marked."""
    mark = MARK if row.player_id in adjusted else ""
    return (
        row.rank,
        *(CELLS[key](row) + (mark if key == "league_points" else "") for key in selectors.SORTS),
        row.last_five or NONE,
    )


def standings_sheet(
    league: League,
    season: Season | None,
    rows: Sequence[selectors.StandingRow],
    notes: Notes | None = None,
    *,
    printed_on: datetime.date,
    scoring: str,
    tie_break: str,
) -> StandingsSheet:
    """The standings in the order given (the page's default, league points first), with the
    organiser's adjustments under the table."""
    adjusted = notes.players if notes else frozenset()
    return StandingsSheet(
        league=league.name,
        season=season.name if season is not None else ALL_TIME,
        columns=standings_columns(),
        rows=tuple(standings_row(row, adjusted) for row in rows),
        printed_on=printed_on,
        starts_on=season.starts_on if season is not None else None,
        ends_on=season.ends_on if season is not None else None,
        # Worded as the standings page words it.
        scoring=(
            f"League points for a game: {scoring}"
            if league.scoring == League.Scoring.MATCH
            else scoring
        ),
        tie_break=tie_break,
        notes=(RATING_NOTE, MARKS_NOTE),
        adjustments=(NOTES_HEADING, *notes.lines) if notes else (),
    )


def standings_file_stem(league: League, season: Season | None) -> str:
    """`riverside-card-club-autumn-2026-standings`."""
    return file_stem(league.name, season.name if season is not None else ALL_TIME, "standings")


# A club night's pack -------------------------------------------------------------------------


def _day(day: datetime.date) -> str:
    return f"{day.day} {day:%B %Y}"


def _waiting_sides(table: player_stats.NightTable) -> tuple[CardSide, ...]:
    """A seated table whose game has not started: its sides named the way the game will be."""
    team_play = any(len(side.players) > 1 for side in table.sides)
    return tuple(
        CardSide(" & ".join(side.players), tuple(side.players) if team_play else ())
        for side in table.sides
    )


def night_pack(
    league: League,
    night: ClubNight,
    *,
    organiser: bool,
    absolute_url: Callable[[str], str],
) -> NightPack:
    """The night's tables with their blank sheets. The QR code of a started table opens its
    game: the scorer link for the league's organisers, the game page for anyone else."""
    view = player_stats.night_view(night)
    rules = engine.resolve_rules(night.season.rules)
    house_rules = bool(rules.overrides())
    shown_rounds = rules.rounds or TARGET_ROUNDS
    tables = []
    for table in view.tables:
        league_game = table.league_game
        if league_game is not None:
            game = league_game.game
            sides = card_sides(game.sides.all())
            first_dealer = game.first_dealer
            path = (
                reverse("game_join", args=[game.public_id, game.scorer_token])
                if organiser
                else reverse("game_detail", args=[game.public_id])
            )
            link, caption = absolute_url(path), SCORER_CAPTION if organiser else FOLLOWER_CAPTION
        else:
            sides = _waiting_sides(table)
            # Before the game exists the first seat deals, as a new game's first dealer does.
            first_dealer, link, caption = 0, "", ""
        seat_count = sum(max(1, len(side.players)) for side in sides)
        card = ScoreCard(
            rules=rules,
            sides=sides,
            details=(
                ("League", league.name),
                ("Season", night.season.name),
                ("Club night", _day(night.date)),
            ),
            dealers=dealers_for(sides, first_dealer, shown_rounds),
            house_rules=house_rules,
            link=link,
            link_caption=caption,
        )
        tables.append(
            PackTable(
                number=table.number,
                sides=sides,
                seats=dealers_for(sides, first_dealer, seat_count),
                card=card,
                started=league_game is not None,
            )
        )
    started = any(t.started for t in tables)
    return NightPack(
        league=league.name,
        season=night.season.name,
        date=night.date,
        rules=rule_set_name(rules.id),
        house_rules=house_rules_text(rules),
        tables=tuple(tables),
        sitting_out=tuple(a.player.name for a in view.sitting_out),
        waiting=tuple(a.player.name for a in view.waiting),
        notes=((SCORER_NOTE if organiser else FOLLOWER_NOTE),) if started else (),
    )


def night_pack_file_stem(league: League, night: ClubNight) -> str:
    """`2026-11-21-riverside-card-club-club-night-pack`."""
    return file_stem(night.date.isoformat(), league.name, "club night pack")


# A blank sheet for the league ----------------------------------------------------------------


def column_word(league: League, rules: engine.RuleSet) -> str:
    """`Team` or `Player`: the rule set's own word for a side, unless it is the plain `side`,
    when the league's play decides."""
    word = rules.words["side"]
    if word != "side":
        return word.capitalize()
    return "Team" if league.play == League.Play.TEAMS else "Player"


def league_score_card(league: League, season: Season | None) -> ScoreCard:
    """A blank sheet with the rules of the league's current season (or the league's own)."""
    rules = season_rules(league, season)
    word = column_word(league, rules)
    count = max(2, rules.min_sides)
    details = [("League", league.name)]
    if season is not None:
        details.append(("Season", season.name))
    return ScoreCard(
        rules=rules,
        sides=tuple(CardSide(f"{word} {n}") for n in range(1, count + 1)),
        details=tuple(details),
        house_rules=bool(rules.overrides()),
        named=False,
    )


def score_sheet_file_stem(league: League, season: Season | None) -> str:
    """`riverside-card-club-autumn-2026-score-sheet`."""
    return file_stem(league.name, season.name if season is not None else "", "score sheet")
