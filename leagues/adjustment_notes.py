"""The organiser's league points adjustments in words: a mark beside the adjusted players' league
points and a note a line under the standings, the same on the page, in the PDF and in the CSV,
and on the organiser's list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from leagues.models import PointsAdjustment
from leagues.services.adjustments import signed

# Beside an adjusted player's league points; the notes under the table say by how much and why.
MARK = "*"
MARK_TITLE = "Includes an organiser's adjustment: see the notes under the table"
NOTES_HEADING = "* League points adjusted by the organiser:"


def _day(adjustment: PointsAdjustment) -> str:
    day = timezone.localtime(adjustment.created_at).date()
    return f"{day.day} {day:%b %Y}"


def note_of(adjustment: PointsAdjustment, *, all_time: bool) -> str:
    """`−10 Ann Smith: late twice (olive, 12 Nov 2026)`; all time, the season after the name."""
    season = f", {adjustment.season.name}" if all_time else ""
    return (
        f"{signed(adjustment.points)} {adjustment.player.name}{season}: {adjustment.reason} "
        f"({adjustment.who}, {_day(adjustment)})"
    )


def reason_of(adjustment: PointsAdjustment, *, all_time: bool) -> str:
    """`late twice (−10, olive, 12 Nov 2026)`: a note beside the player's own row (the CSV's),
    the reason first, so that the cell never starts with a sign a spreadsheet would run."""
    season = f", {adjustment.season.name}" if all_time else ""
    return (
        f"{adjustment.reason} ({signed(adjustment.points)}{season}, {adjustment.who}, "
        f"{_day(adjustment)})"
    )


@dataclass(frozen=True)
class Notes:
    """The adjusted players (their points marked), the lines under the table and each player's
    notes beside their row."""

    players: frozenset[int]
    lines: tuple[str, ...]
    by_player: dict[int, tuple[str, ...]]

    def __bool__(self) -> bool:
        return bool(self.lines)


def notes_of(adjustments: Sequence[PointsAdjustment], *, all_time: bool) -> Notes:
    """The notes of the adjustments given (oldest first), and each player's."""
    by_player: dict[int, list[str]] = {}
    lines = []
    for adjustment in adjustments:
        lines.append(note_of(adjustment, all_time=all_time))
        by_player.setdefault(adjustment.player_id, []).append(
            reason_of(adjustment, all_time=all_time)
        )
    return Notes(
        frozenset(by_player),
        tuple(lines),
        {player: tuple(found) for player, found in by_player.items()},
    )
