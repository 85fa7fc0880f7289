"""The organiser's pages of a club night: opening it, the arrivals, the seating, starting the
seated tables' games, the round timer the projector counts down, then closing it and opening it
again.

Closing is asked on a page that lists each table still playing or waiting to start, with its
game and a way to void it: the night closes only once every table has finished or been voided
(`services.night_close` decides, and says which tables are left). A second "Close" (a double
submit, or another organiser meanwhile) is told the night is already closed, never a 500.
"""

import re
from dataclasses import dataclass

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from leagues import player_stats, services
from leagues.models import Attendance, ClubNight, League, LeagueGame, Player
from leagues.organiser import forms, selectors
from leagues.organiser.common import day_text, form_data, night_or_404, organisers_only
from leagues.services import LeagueError
from scorekeeper import engine
from scorekeeper.engine.formatting import listing, owned


@require_http_methods(["GET", "POST"])
@organisers_only
def night_new(request: HttpRequest, league: League) -> HttpResponse:
    if request.method == "POST" and request.POST.get("action") == "select_all":
        # Without JavaScript, "select all" is a round trip that ticks every box.
        form = forms.NightForm(
            initial={
                "date": request.POST.get("date", ""),
                "notes": request.POST.get("notes", ""),
                "players": selectors.member_ids(league),
            },
            league=league,
        )
    else:
        form = forms.NightForm(
            form_data(request), initial={"date": timezone.localdate()}, league=league
        )
    if request.method == "POST" and form.is_bound and form.is_valid():
        values = form.cleaned_data
        try:
            night = services.night_create(
                league=league,
                date=values["date"],
                player_ids=[p.pk for p in values["players"]],
                notes=values["notes"],
                user=request.user,
            )
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            count = len(values["players"])
            messages.success(
                request,
                f"Club night of {day_text(night.date)} opened with {count} "
                f"player{'s' if count != 1 else ''}. Propose a seating or seat them by hand.",
            )
            return redirect("leagues:night_seating", slug=league.slug, night_id=night.pk)
    return render(request, "leagues/organiser/night_new.html", {"league": league, "form": form})


@dataclass
class SeatRow:
    """One present player's line of the seating form."""

    player: Player
    late: bool
    table: str
    side: str
    errors: list[str]

    @property
    def key(self) -> str:
        return f"seat-{self.player.pk}"


@dataclass
class TableGroup:
    """Rows shown together: a table, or the players sitting out (table None)."""

    table: int | None
    rows: list[SeatRow]
    errors: list[str]
    # Unfolded on the page: the table has an error or was just changed (the sitting out always).
    open: bool = False

    @property
    def sides(self) -> list[str]:
        """Who is on each side, as typed: "Side 1: Ann & Di"."""
        names: dict[str, list[str]] = {}
        for row in self.rows:
            names.setdefault(row.side, []).append(row.player.name)
        return [f"Side {side}: {' & '.join(names[side])}" for side in sorted(names)]


@dataclass(frozen=True)
class StartedTable:
    table: int
    league_game: LeagueGame
    sides: list[list[str]]


def _seating_rows(free: list[Attendance], data=None) -> list[SeatRow]:
    rows = []
    for a in free:
        table = "" if a.table is None else str(a.table)
        side = "1" if a.side is None else str(a.side + 1)
        if data is not None:
            table = data.get(f"seat-{a.player_id}-table", table).strip()
            side = data.get(f"seat-{a.player_id}-side", side)
        rows.append(SeatRow(a.player, a.arrived_late, table, side, []))
    return rows


def _parse_seats(
    free: list[Attendance], rows: list[SeatRow], data
) -> tuple[list[services.SeatChoice], list[tuple[str, str]]]:
    """The seat choices as the service takes them (0-based sides), and what could not be read.
    A player missing from the posted form (they arrived while it was open) keeps their seat."""
    choices, problems = [], []
    for a, row in zip(free, rows, strict=True):
        if f"{row.key}-table" not in data:
            choices.append(services.SeatChoice(a.player_id, a.table, a.side))
        elif row.table == "":
            choices.append(services.SeatChoice(a.player_id, None, None))
        elif not re.fullmatch(r"[0-9]{1,2}", row.table) or int(row.table) == 0:
            problems.append(
                (
                    row.key,
                    f"Type {owned(a.player.name, 'table')} as a number from 1 to 99, or leave it "
                    "blank to sit out.",
                )
            )
        elif not re.fullmatch(r"[1-9]", row.side):
            problems.append((row.key, f"Choose a side for {a.player.name}."))
        else:
            choices.append(services.SeatChoice(a.player_id, int(row.table), int(row.side) - 1))
    return choices, problems


def _group(rows: list[SeatRow], errors: list[tuple[str, str]]) -> tuple[list[TableGroup], list]:
    """Rows grouped by the table typed for them, each error beside its row or its table."""
    by_key = {row.key: row for row in rows}
    groups: dict[int | None, TableGroup] = {}
    for row in rows:
        table = int(row.table) if re.fullmatch(r"[0-9]{1,2}", row.table) else None
        groups.setdefault(table, TableGroup(table, [], [])).rows.append(row)
    general = []
    for field, message in errors:
        match = re.fullmatch(r"table-([0-9]+)", field)
        if field in by_key:
            by_key[field].errors.append(message)
        elif match and int(match.group(1)) in groups:
            groups[int(match.group(1))].errors.append(message)
        else:
            general.append(message)
    # Those sitting out or waiting (a late arrival) first: their seats are the ones to type.
    ordered = sorted(groups.values(), key=lambda g: (g.table is not None, g.table or 0))
    # By side alone: the rows come in seat order, which the night page and the pack show too.
    for group in ordered:
        group.rows.sort(key=lambda r: r.side)
    return ordered, general


def _started_tables(
    games: dict[int, LeagueGame], attendances: list[Attendance]
) -> list[StartedTable]:
    tables = []
    for table, league_game in games.items():
        sides: dict[int, list[str]] = {}
        for a in attendances:
            if a.table == table:
                sides.setdefault(a.side, []).append(a.player.name)
        tables.append(StartedTable(table, league_game, [sides[s] for s in sorted(sides)]))
    return tables


def _changed_tables(free: list[Attendance], rows: list[SeatRow]) -> set[int]:
    """The tables the typed seating changes: the one each moved player leaves and the one they
    join (a new side at the same table changes it too)."""
    changed = set()
    for a, row in zip(free, rows, strict=True):
        table = int(row.table) if re.fullmatch(r"[0-9]{1,2}", row.table) else None
        side = int(row.side) - 1 if table is not None and re.fullmatch(r"[1-9]", row.side) else None
        if (table, side) != (a.table, a.side):
            changed |= {t for t in (a.table, table) if t is not None}
    return changed


# How the seating page is told which tables to unfold after a save or a proposal (?changed=).
ALL_TABLES = "all"


def _shown_changed(value: str) -> set[int] | str:
    """The tables named by ?changed= (ALL_TABLES, or numbers with commas); anything else none."""
    if value == ALL_TABLES:
        return ALL_TABLES
    return {int(n) for n in value.split(",")[:99] if re.fullmatch(r"[0-9]{1,2}", n)}


def _seating_again(league: League, night: ClubNight, changed: set[int] | str) -> HttpResponse:
    """Back to the seating page, the tables just changed unfolded."""
    url = reverse("leagues:night_seating", kwargs={"slug": league.slug, "night_id": night.pk})
    if changed == ALL_TABLES:
        return redirect(f"{url}?changed={ALL_TABLES}")
    if changed:
        return redirect(f"{url}?changed={','.join(str(t) for t in sorted(changed))}")
    return redirect(url)


@require_http_methods(["GET", "POST"])
@organisers_only
def night_seating(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    """The seating of the players not at a playing table. The night's actions come first and
    each table is folded to its players, unfolded when it has an error or was just changed (the
    save and the proposal say which in the address they return to)."""
    night = night_or_404(league, night_id)
    action = request.POST.get("action")
    if request.method == "POST" and action == "propose":
        try:
            proposal = services.night_seating_propose(night=night, user=request.user)
        except LeagueError as error:
            for _, message in error.errors:
                messages.error(request, message)
        else:
            count = len(proposal.tables)
            out = len(proposal.sitting_out)
            messages.success(
                request,
                f"Seating proposed: {count} table{'s' if count != 1 else ''}"
                f"{f', {out} sitting out' if out else ''}. Adjust a table if you like, then "
                "start the games.",
            )
            return _seating_again(league, night, ALL_TABLES)
        return redirect("leagues:night_seating", slug=league.slug, night_id=night.pk)
    attendances = selectors.seating_attendances(night)
    started = _started_tables(selectors.night_games(night), attendances)
    playing = {t.table for t in started}
    free = [a for a in attendances if a.table not in playing]
    errors: list[tuple[str, str]] = []
    if request.method == "POST" and action == "save":
        rows = _seating_rows(free, request.POST)
        changed = _changed_tables(free, rows)
        choices, errors = _parse_seats(free, rows, request.POST)
        if not errors:
            try:
                services.night_seating_set(night=night, choices=choices, user=request.user)
            except LeagueError as error:
                errors = error.errors
            else:
                messages.success(request, "Seating saved. Start the games when everyone is seated.")
                return _seating_again(league, night, changed)
    else:
        rows = _seating_rows(free)
        changed = _shown_changed(request.GET.get("changed", ""))
    groups, general = _group(rows, errors)
    for group in groups:
        group.open = (
            group.table is None
            or changed == ALL_TABLES
            or group.table in changed
            or bool(group.errors)
            or any(row.errors for row in group.rows)
        )
    params = engine.resolve_rules(night.season.rules).parameters()
    context = {
        "league": league,
        "night": night,
        "started": started,
        "groups": groups,
        "general_errors": general,
        "sides": range(1, (params["max_sides"] or 3) + 1),
        "can_start": any(a.table is not None for a in free),
        "late": [a.player.name for a in free if a.arrived_late and a.table is None],
    }
    return render(request, "leagues/organiser/night_seating.html", context)


@require_http_methods(["GET", "POST"])
@organisers_only
def night_start(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    """GET asks to confirm (the night's page links here); POST starts the seated tables."""
    night = night_or_404(league, night_id)
    if request.method == "GET":
        context = {"league": league, "night": night, "tables": selectors.tables_to_start(night)}
        return render(request, "leagues/organiser/night_start.html", context)
    try:
        created = services.night_games_start(night=night, user=request.user)
    except LeagueError as error:
        for _, message in error.errors:
            messages.error(request, message)
        return redirect("leagues:night_seating", slug=league.slug, night_id=night.pk)
    tables = [str(g.table) for g in created]
    messages.success(
        request, f"Games started at table{'s' if len(tables) > 1 else ''} {listing(tables)}."
    )
    return redirect("leagues:night", slug=league.slug, night_id=night.pk)


@require_http_methods(["GET", "POST"])
@organisers_only
def night_arrival(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    night = night_or_404(league, night_id)
    form = forms.ArrivalForm(form_data(request), night=night)
    if request.method == "POST" and form.is_valid():
        player, name = form.cleaned_data["player"], form.cleaned_data["name"]
        try:
            # A new member who then cannot arrive is not added either.
            with transaction.atomic():
                if player is None:
                    player = services.member_add(league=league, name=name, user=request.user).player
                services.night_arrival(night=night, player=player, user=request.user)
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            messages.success(
                request,
                f"{player.name} has arrived. Seat them at a new table, or propose a seating for "
                "everyone not yet playing.",
            )
            return redirect("leagues:night_seating", slug=league.slug, night_id=night.pk)
    return render(
        request,
        "leagues/organiser/night_arrival.html",
        {"league": league, "night": night, "form": form},
    )


# Where the reopen page may send the organiser back to, by the page that offered it.
AFTER_REOPEN = {
    "night": "leagues:night",
    "seating": "leagues:night_seating",
    "start": "leagues:night_start",
    "arrival": "leagues:night_arrival",
}


def _page(
    request: HttpRequest, league: League, night: ClubNight, template: str, **extra
) -> HttpResponse:
    context = {"league": league, "night": night, **extra}
    return render(request, f"leagues/organiser/{template}", context)


@require_http_methods(["GET", "POST"])
@organisers_only
def night_close(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    """GET asks to confirm and flags the unfinished tables; POST closes the night."""
    night = night_or_404(league, night_id)
    errors: list[str] = []
    if request.method == "POST":
        try:
            services.night_close(night=night, user=request.user)
        except LeagueError as error:
            selectors.refresh_closed_at(night)
            if night.closed_at is not None:
                messages.info(request, error.errors[0][1])
                return redirect("leagues:night", slug=league.slug, night_id=night.pk)
            errors = [message for field, message in error.errors if field == "night"]
        else:
            messages.success(
                request,
                f"The club night of {day_text(night.date)} is closed; its page no longer "
                "refreshes.",
            )
            return redirect("leagues:night", slug=league.slug, night_id=night.pk)
    view = player_stats.night_view(night)
    return _page(
        request, league, night, "night_close.html", unfinished=view.unfinished, errors=errors
    )


@require_http_methods(["GET", "POST"])
@organisers_only
def night_reopen(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    """GET asks to confirm; POST opens the night again and goes back to the page it came from."""
    night = night_or_404(league, night_id)
    then = request.POST.get("then") or request.GET.get("then")
    if then not in AFTER_REOPEN:
        then = "night"
    if request.method == "POST":
        try:
            services.night_reopen(night=night, user=request.user)
        except LeagueError as error:
            # Open already: a double submit, or another organiser reopened it first.
            messages.info(request, error.errors[0][1])
        else:
            messages.success(
                request,
                f"The club night of {day_text(night.date)} is open again: seat players, start "
                "games and record late arrivals as before.",
            )
        return redirect(AFTER_REOPEN[then], slug=league.slug, night_id=night.pk)
    return _page(request, league, night, "night_reopen.html", then=then)


# The round timer: its controls are on the night's page, for the organisers only. A length that
# is not a whole number of minutes from 1 to 180 shows the night's page again with the reason
# beside the field and what was typed; a second Start while a timer runs, or a second Stop (a
# double submit, or another organiser meanwhile), is told so on the night's page, never a 500.
TIMER_DIGITS = 3


def _timer_refused(
    request: HttpRequest, league: League, night: ClubNight, error: LeagueError
) -> HttpResponse:
    """Back to the night's page, saying why (the night closed, a timer already running, none
    to stop)."""
    for _, message in error.errors:
        messages.info(request, message)
    return redirect("leagues:night", slug=league.slug, night_id=night.pk)


@require_POST
@organisers_only
def night_timer_start(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    night = night_or_404(league, night_id)
    typed = request.POST.get("minutes", "").strip()
    try:
        if not re.fullmatch(rf"[0-9]{{1,{TIMER_DIGITS}}}", typed):
            raise LeagueError([("minutes", services.TIMER_MINUTES_MESSAGE)])
        night = services.night_timer_start(night=night, minutes=int(typed), user=request.user)
    except LeagueError as error:
        beside = [message for field, message in error.errors if field == "minutes"]
        if not beside:
            return _timer_refused(request, league, night, error)
        # The night's page as its organiser sees it, the form showing what was typed; it does
        # not refresh itself, so the error stays until the organiser sends the form again.
        context = {
            "league": league,
            "is_organiser": True,
            "night": night,
            "view": player_stats.night_view(night),
            "polling": False,
            "timer_out": night.timer_ends_at is not None and night.timer_ends_at <= timezone.now(),
            "timer_typed": typed,
            "timer_errors": beside,
        }
        return render(request, "leagues/night_detail.html", context)
    minutes = night.timer_minutes
    messages.success(
        request,
        f"The round timer is running: {minutes} minute{'' if minutes == 1 else 's'}, until "
        f"{services.clock_text(night.timer_ends_at)}. The projector shows it at its next "
        "refresh.",
    )
    return redirect("leagues:night", slug=league.slug, night_id=night.pk)


@require_POST
@organisers_only
def night_timer_stop(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    night = night_or_404(league, night_id)
    try:
        services.night_timer_stop(night=night, user=request.user)
    except LeagueError as error:
        return _timer_refused(request, league, night, error)
    messages.success(request, "The round timer is stopped; the projector no longer shows it.")
    return redirect("leagues:night", slug=league.slug, night_id=night.pk)
