"""Closing a club night: by the organiser once every table is done, or by itself when the last
table finishes; reopened by the organiser, or by itself when a correction or a lifted void sets
a table playing again. A closed night refuses seating, games and arrivals (`nights._open_night`).

The automatic close happens where the game changes, inside the transaction that stores the
round or the void, with the night's row locked: every app process sees the same stored
`closed_at`, and the last two tables finishing at once cannot both miss each other.
"""

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from leagues.models import ClubNight, LeagueEvent, LeagueGame
from leagues.services.core import LeagueError, User, full_check, record_event, refusal
from leagues.services.seasons import day_text
from scorekeeper.engine.formatting import listing
from scorekeeper.models import Round


def with_unconfirmed(games: QuerySet[LeagueGame]) -> QuerySet[LeagueGame]:
    """The league games, each with `unconfirmed`: whether a round of it still waits for
    another side's word (or is disputed)."""
    return games.annotate(
        unconfirmed=Exists(
            Round.objects.filter(game=OuterRef("game"), game__confirm_rounds=True).exclude(
                confirmation=Round.Confirmation.CONFIRMED
            )
        )
    )


def _unfinished(night: ClubNight, *, confirming: bool = True) -> list[tuple[str, str]]:
    """What keeps the night from closing, table by table: a game still being played or (unless
    `confirming` is False) whose rounds wait to be confirmed, or players seated at a table
    whose game has not started."""
    rows = list(
        with_unconfirmed(LeagueGame.objects.filter(night=night)).values_list(
            "table", "game__finished", "voided", "unconfirmed"
        )
    )
    waits = {
        table
        for table, finished, voided, unconfirmed in rows
        if confirming and finished and not voided and unconfirmed
    }
    done = {table: voided or finished for table, finished, voided, _ in rows}
    seated = set(
        night.attendances.filter(table__isnull=False).values_list("table", flat=True).distinct()
    )
    problems = []
    for table in sorted(seated | set(done)):
        if table not in done:
            problems.append(
                (
                    f"table-{table}",
                    f"Table {table} is seated but its game has not started: start it, or clear "
                    "its seats on the seating page.",
                )
            )
        elif table in waits:
            problems.append(
                (
                    f"table-{table}",
                    f"Table {table}'s game is over but waits for its rounds to be confirmed: "
                    "the other side confirms them on the game's page, or you do on the night's "
                    "page.",
                )
            )
        elif not done[table]:
            problems.append(
                (
                    f"table-{table}",
                    f"Table {table}'s game is still being played: finish it, or void it.",
                )
            )
    return problems


def _close(night: ClubNight, user: User, summary: str) -> None:
    night.closed_at = timezone.now()
    full_check(night)
    night.save(update_fields=["closed_at"])
    record_event(
        night.league,
        LeagueEvent.Kind.NIGHT_CLOSED,
        user,
        summary,
        before={"closed_at": None},
        after={"closed_at": night.closed_at.isoformat()},
    )


def _reopen(night: ClubNight, user: User, summary: str) -> None:
    before = night.closed_at
    night.closed_at = None
    night.save(update_fields=["closed_at"])
    record_event(
        night.league,
        LeagueEvent.Kind.NIGHT_REOPENED,
        user,
        summary,
        before={"closed_at": before.isoformat()},
        after={"closed_at": None},
    )


@transaction.atomic
def night_close(*, night: ClubNight, user: User) -> ClubNight:
    """Close the night: refused while a table plays or waits to start, so that no game is left
    unfinished on a night that says it is over."""
    night = (
        ClubNight.objects.select_for_update(of=("self",)).select_related("league").get(pk=night.pk)
    )
    if night.closed_at is not None:
        raise refusal("night", f"The club night of {day_text(night.date)} is already closed.")
    problems = _unfinished(night)
    if problems:
        tables = [field.removeprefix("table-") for field, _ in problems]
        confirming = any("confirmed" in message for _, message in problems)
        raise LeagueError(
            [
                (
                    "night",
                    f"The night cannot close while table{'s' if len(tables) > 1 else ''} "
                    f"{listing(tables)} {'are' if len(tables) > 1 else 'is'} not "
                    f"{'finished and confirmed' if confirming else 'finished'}.",
                ),
                *problems,
            ]
        )
    _close(night, user, f"Club night of {day_text(night.date)} closed")
    return night


@transaction.atomic
def night_reopen(*, night: ClubNight, user: User) -> ClubNight:
    """Open a closed night again, to seat a late table or start a game."""
    night = (
        ClubNight.objects.select_for_update(of=("self",)).select_related("league").get(pk=night.pk)
    )
    if night.closed_at is None:
        raise refusal("night", f"The club night of {day_text(night.date)} is open already.")
    _reopen(night, user, f"Club night of {day_text(night.date)} reopened")
    return night


def night_settle(*, night_id: int, table: int | None) -> None:
    """After a game of the night changed (a round scored or corrected, a void): close the night
    once every table is done and nobody waits for a seat; reopen a closed night whose table
    plays again after a correction or a lifted void. Called inside the change's transaction,
    so the night commits or rolls back with it."""
    # Locked after the game's rows, as every writer of a night's game does; the lock makes the
    # last two tables finishing at once see each other's result.
    night = (
        ClubNight.objects.select_for_update(of=("self",)).select_related("league").get(pk=night_id)
    )
    if night.closed_at is None and table is not None:
        # Every round of every table comes here: while this table still plays, the night
        # cannot be done, and one query says so.
        games = LeagueGame.objects.filter(night=night, table=table, voided=False)
        playing = games.filter(game__finished=False).exists() or (
            with_unconfirmed(games).filter(unconfirmed=True).exists()
        )
        if playing:
            return
    if night.closed_at is None:
        problems = _unfinished(night)
        waiting = night.attendances.filter(table__isnull=True, arrived_late=True).exists()
        if not problems and not waiting and night.games.exists():
            _close(
                night,
                None,
                f"Club night of {day_text(night.date)} closed: every table has finished",
            )
    # A closed night opens again for a table that plays again, not for a correction that
    # waits for the other side's word: the night's play is over.
    elif problems := _unfinished(night, confirming=False):
        _reopen(
            night,
            None,
            f"Club night of {day_text(night.date)} reopened: "
            f"table {table}'s game is being played again",
        )
