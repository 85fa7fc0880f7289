"""The organiser's pages of a league: settings, seasons, members, club nights, voids and the
audit. Every write goes through `leagues.services`; a `LeagueError` is shown beside the field it
names and the page answers 200 with what the organiser typed.

Who may open them: anyone signed in may start a league; everything else is for the league's
organisers. Signed out: the login page, which comes back here. A private league the user may
not see: 404, so that its existence is not revealed. Anyone else: 403.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import dateformat, timezone
from django.views.decorators.http import require_GET, require_http_methods

from leagues import services
from leagues.access import can_view, is_organiser
from leagues.models import (
    Attendance,
    ClubNight,
    League,
    LeagueEvent,
    LeagueGame,
    Membership,
    Participation,
    Player,
    Season,
)
from leagues.organiser import forms
from leagues.selectors import rating_display
from leagues.services import LeagueError
from scorekeeper import engine
from scorekeeper.engine.formatting import number, owned
from scorekeeper.models import GameEvent, Side

AUDIT_PAGE = 100
# The corrections of a league's games that its audit shows beside the league's own events.
GAME_CORRECTIONS = (
    GameEvent.Kind.ROUND_CHANGED,
    GameEvent.Kind.ROUND_DELETED,
    GameEvent.Kind.ROUND_RESTORED,
    GameEvent.Kind.ENDED,
    GameEvent.Kind.REOPENED,
)


def _posted(request: HttpRequest):
    return request.POST if request.method == "POST" else None


def _signed_in(view: Callable) -> Callable:
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapped


def organisers_only(view: Callable) -> Callable:
    """The view is called with the league in place of its slug."""

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        # Before looking the league up, so a signed-out visitor learns nothing about it.
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        league = get_object_or_404(League, slug=slug)
        if not can_view(request.user, league):
            raise Http404("No such league")
        if not is_organiser(request.user, league):
            raise PermissionDenied(
                f"Only the organisers of {league.name} can do this. Ask one of them to add you."
            )
        return view(request, league, *args, **kwargs)

    return wrapped


def _night(league: League, night_id: int) -> ClubNight:
    return get_object_or_404(ClubNight.objects.select_related("season"), pk=night_id, league=league)


def _day(date) -> str:
    return dateformat.format(date, "j F Y")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


# Leagues -------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@_signed_in
def league_new(request: HttpRequest) -> HttpResponse:
    form = forms.LeagueForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(user=request.user, **form.service_values())
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            messages.success(
                request, f"{league.name} is ready. Add a season, then the league's members."
            )
            return redirect("leagues:detail", slug=league.slug)
    return render(request, "leagues/organiser/league_form.html", {"form": form, "league": None})


@require_http_methods(["GET", "POST"])
@organisers_only
def league_edit(request: HttpRequest, league: League) -> HttpResponse:
    action = request.POST.get("action", "save")
    posted = _posted(request)
    form = forms.LeagueForm(posted if action == "save" else None, league=league)
    organiser_form = forms.OrganiserForm(posted if action == "add_organiser" else None)
    organiser_errors: list[str] = []
    if request.method == "POST":
        if action == "save" and form.is_valid():
            try:
                services.league_update(league=league, user=request.user, **form.service_values())
            except LeagueError as error:
                forms.show_errors(form, error.errors)
            else:
                messages.success(request, f"The settings of {league.name} are saved.")
                return redirect("leagues:detail", slug=league.slug)
        elif action == "add_organiser" and organiser_form.is_valid():
            account = organiser_form.cleaned_data["username"]
            try:
                services.organiser_add(league=league, account=account, user=request.user)
            except LeagueError as error:
                forms.show_errors(organiser_form, error.errors)
            else:
                messages.success(request, f"{account.get_username()} now organises {league.name}.")
                return redirect("leagues:league_edit", slug=league.slug)
        elif action == "remove_organiser":
            username = request.POST.get("username", "")
            try:
                services.organiser_remove(league=league, username=username, user=request.user)
            except LeagueError as error:
                organiser_errors = [message for _, message in error.errors]
            else:
                if username == request.user.get_username():
                    messages.success(request, f"You no longer organise {league.name}.")
                    return redirect("leagues:detail", slug=league.slug)
                messages.success(request, f"{username} no longer organises {league.name}.")
                return redirect("leagues:league_edit", slug=league.slug)
    context = {
        "league": league,
        "form": form,
        "organiser_form": organiser_form,
        "organiser_errors": organiser_errors,
        "organisers": list(league.organisers.order_by("username")),
        "seasons": list(league.seasons.all()),
        "nights": list(league.nights.all()[:10]),
    }
    return render(request, "leagues/organiser/league_form.html", context)


# Organisers are a league's setting without a service of their own yet; these two write them
# the way the services write everything else (locked, checked, audited), and belong there.


# Seasons -------------------------------------------------------------------------------------


def _season_page(request, league: League, season: Season | None) -> HttpResponse:
    initial = {}
    if season is not None:
        initial = {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on}
    form = forms.SeasonForm(_posted(request), initial=initial, league=league, season=season)
    if request.method == "POST" and form.is_valid():
        values = form.cleaned_data
        try:
            if season is None:
                saved = services.season_create(league=league, user=request.user, **values)
            else:
                saved = services.season_update(season=season, user=request.user, **values)
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            verb = "added" if season is None else "saved"
            messages.success(
                request,
                f"Season {saved.name} {verb}: {_day(saved.starts_on)} to {_day(saved.ends_on)}.",
            )
            return redirect("leagues:detail", slug=league.slug)
    rules = engine.resolve_rules(season.rules if season else _league_rules(league))
    context = {"league": league, "season": season, "form": form, "rules": rules}
    return render(request, "leagues/organiser/season_form.html", context)


def _league_rules(league: League) -> dict[str, Any]:
    return {"base": league.preset, "overrides": league.house_rules}


@require_http_methods(["GET", "POST"])
@organisers_only
def season_new(request: HttpRequest, league: League) -> HttpResponse:
    return _season_page(request, league, None)


@require_http_methods(["GET", "POST"])
@organisers_only
def season_edit(request: HttpRequest, league: League, season_id: int) -> HttpResponse:
    return _season_page(request, league, get_object_or_404(Season, pk=season_id, league=league))


# Members -------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@organisers_only
def members(request: HttpRequest, league: League) -> HttpResponse:
    action = request.POST.get("action", "add_new")
    posted = _posted(request)
    new_form = forms.MemberForm(posted if action == "add_new" else None)
    existing_form = forms.ExistingPlayerForm(
        posted if action == "add_existing" else None, league=league, user=request.user
    )
    if request.method == "POST":
        form = new_form if action == "add_new" else existing_form
        if form.is_valid():
            values = form.cleaned_data
            try:
                if form is new_form:
                    membership = services.member_add(
                        league=league,
                        name=values["name"],
                        account=values["username"],
                        user=request.user,
                    )
                else:
                    membership = services.member_add(
                        league=league, player=values["player"], user=request.user
                    )
            except LeagueError as error:
                aliases = {"user": "username"} if form is new_form else {"name": "player"}
                forms.show_errors(form, error.errors, aliases)
            else:
                messages.success(request, f"{membership.player.name} joined {league.name}.")
                return redirect("leagues:members", slug=league.slug)
    rows = (
        Membership.objects.filter(league=league)
        .select_related("player", "user")
        .order_by("player__name", "player_id")
    )
    context = {
        "league": league,
        "rows": [(m, rating_display(m.mu, m.sigma)) for m in rows],
        "new_form": new_form,
        "existing_form": existing_form,
        "has_others": existing_form.fields["player"].queryset.exists(),
    }
    return render(request, "leagues/organiser/members.html", context)


def _member(league: League, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, memberships__league=league)


@require_http_methods(["GET", "POST"])
@organisers_only
def member_edit(request: HttpRequest, league: League, player_id: int) -> HttpResponse:
    player = _member(league, player_id)
    # The account linked in this league; another league's link is that league's to change.
    linked = Membership.objects.select_related("user").get(league=league, player=player).user
    initial = {"name": player.name, "username": linked.get_username() if linked else ""}
    form = forms.MemberForm(_posted(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.player_update(
                league=league,
                player=player,
                name=form.cleaned_data["name"],
                account=form.cleaned_data["username"],
                user=request.user,
            )
        except LeagueError as error:
            forms.show_errors(form, error.errors, {"user": "username"})
        else:
            messages.success(request, f"{form.cleaned_data['name']} is saved.")
            return redirect("leagues:members", slug=league.slug)
    other_leagues = list(
        League.objects.filter(memberships__player=player).exclude(pk=league.pk).order_by("name")
    )
    context = {"league": league, "player": player, "form": form, "other_leagues": other_leagues}
    return render(request, "leagues/organiser/member_edit.html", context)


@dataclass(frozen=True)
class MergeSummary:
    games: int
    nights: int
    other_leagues: list[str]
    lines: list[str]


def _merge_summary(league: League, keep: Player, absorb: Player) -> MergeSummary:
    """What a merge moves, in sentences, for the confirmation step."""
    games = Participation.objects.filter(player=absorb).count()
    nights = Attendance.objects.filter(player=absorb).count()
    other = list(
        League.objects.filter(memberships__player=absorb)
        .exclude(pk=league.pk)
        .order_by("name")
        .values_list("name", flat=True)
    )
    lines = [
        owned(
            absorb.name,
            f"{number(games)} game{'s' if games != 1 else ''} and "
            f"{number(nights)} club night{'s' if nights != 1 else ''}",
            start=True,
        )
        + f" move to {keep.name}."
    ]
    if other:
        lines.append(f"{absorb.name} also plays in {_and(other)}; those records move too.")
    links = {
        m.player_id: m.user
        for m in Membership.objects.filter(league=league, player__in=[keep, absorb]).select_related(
            "user"
        )
    }
    kept_link, absorbed_link = links.get(keep.pk), links.get(absorb.pk)
    if absorbed_link is not None and kept_link is None:
        lines.append(f"{keep.name} takes over the account link ({absorbed_link.get_username()}).")
    elif absorbed_link is not None:
        lines.append(
            f"{keep.name} keeps the account {kept_link.get_username()}; the link to "
            f"{absorbed_link.get_username()} goes."
        )
    lines.append("The ratings of every league concerned are worked out again from the start.")
    lines.append(f"{absorb.name} is then removed. This cannot be undone.")
    return MergeSummary(games, nights, other, lines)


@require_http_methods(["GET", "POST"])
@organisers_only
def member_merge(request: HttpRequest, league: League) -> HttpResponse:
    # A link may preselect the two players (?keep=&absorb=); the form is checked once posted.
    initial = {name: request.GET.get(name) for name in ("keep", "absorb")}
    form = forms.MergeForm(_posted(request), initial=initial, league=league)
    if request.method == "POST" and form.is_valid():
        keep, absorb = form.cleaned_data["keep"], form.cleaned_data["absorb"]
        if request.POST.get("confirm") != "yes":
            context = {
                "league": league,
                "keep": keep,
                "absorb": absorb,
                "summary": _merge_summary(league, keep, absorb),
            }
            return render(request, "leagues/organiser/member_merge_confirm.html", context)
        try:
            services.player_merge(league=league, keep=keep, absorb=absorb, user=request.user)
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            messages.success(
                request,
                f"{absorb.name} is merged into {keep.name}; the ratings have been worked out "
                "again.",
            )
            return redirect("leagues:members", slug=league.slug)
    return render(request, "leagues/organiser/member_merge.html", {"league": league, "form": form})


# Club nights ---------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@organisers_only
def night_new(request: HttpRequest, league: League) -> HttpResponse:
    if request.method == "POST" and request.POST.get("action") == "select_all":
        # Without JavaScript, "select all" is a round trip that ticks every box.
        form = forms.NightForm(
            initial={
                "date": request.POST.get("date", ""),
                "notes": request.POST.get("notes", ""),
                "players": list(league.members.values_list("pk", flat=True)),
            },
            league=league,
        )
    else:
        form = forms.NightForm(
            _posted(request), initial={"date": timezone.localdate()}, league=league
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
                f"Club night of {_day(night.date)} opened with {count} "
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
    ordered = sorted(groups.values(), key=lambda g: (g.table is None, g.table or 0))
    # By side alone: the rows come in seat order, which the night page and the pack show too.
    for group in ordered:
        group.rows.sort(key=lambda r: r.side)
    return ordered, general


def _started_tables(night: ClubNight, attendances: list[Attendance]) -> list[StartedTable]:
    games = {
        g.table: g
        for g in LeagueGame.objects.filter(night=night).select_related("game").order_by("table")
    }
    tables = []
    for table, league_game in games.items():
        sides: dict[int, list[str]] = {}
        for a in attendances:
            if a.table == table:
                sides.setdefault(a.side, []).append(a.player.name)
        tables.append(StartedTable(table, league_game, [sides[s] for s in sorted(sides)]))
    return tables


@require_http_methods(["GET", "POST"])
@organisers_only
def night_seating(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    night = _night(league, night_id)
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
                f"{f', {out} sitting out' if out else ''}. Adjust it below, then start the games.",
            )
        return redirect("leagues:night_seating", slug=league.slug, night_id=night.pk)
    # Late arrivals share a null seat; their name orders them the same on every database.
    attendances = list(
        night.attendances.select_related("player").order_by(
            "table", "side", "place", "player__name"
        )
    )
    started = _started_tables(night, attendances)
    playing = {t.table for t in started}
    free = [a for a in attendances if a.table not in playing]
    errors: list[tuple[str, str]] = []
    if request.method == "POST" and action == "save":
        rows = _seating_rows(free, request.POST)
        choices, errors = _parse_seats(free, rows, request.POST)
        if not errors:
            try:
                services.night_seating_set(night=night, choices=choices, user=request.user)
            except LeagueError as error:
                errors = error.errors
            else:
                messages.success(request, "Seating saved. Start the games when everyone is seated.")
                return redirect("leagues:night_seating", slug=league.slug, night_id=night.pk)
    else:
        rows = _seating_rows(free)
    groups, general = _group(rows, errors)
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


@dataclass(frozen=True)
class WaitingTable:
    number: int
    sides: list[list[str]]


def _tables_to_start(night: ClubNight) -> list[WaitingTable]:
    playing = set(night.games.values_list("table", flat=True))
    tables: dict[int, dict[int, list[str]]] = {}
    for a in (
        night.attendances.filter(table__isnull=False)
        .exclude(table__in=playing)
        .select_related("player")
        .order_by("table", "side", "place")
    ):
        tables.setdefault(a.table, {}).setdefault(a.side, []).append(a.player.name)
    return [
        WaitingTable(number, [sides[s] for s in sorted(sides)])
        for number, sides in sorted(tables.items())
    ]


@require_http_methods(["GET", "POST"])
@organisers_only
def night_start(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    """GET asks to confirm (the night's page links here); POST starts the seated tables."""
    night = _night(league, night_id)
    if request.method == "GET":
        context = {"league": league, "night": night, "tables": _tables_to_start(night)}
        return render(request, "leagues/organiser/night_start.html", context)
    try:
        created = services.night_games_start(night=night, user=request.user)
    except LeagueError as error:
        for _, message in error.errors:
            messages.error(request, message)
        return redirect("leagues:night_seating", slug=league.slug, night_id=night.pk)
    tables = [str(g.table) for g in created]
    messages.success(
        request, f"Games started at table{'s' if len(tables) > 1 else ''} {_and(tables)}."
    )
    return redirect("leagues:night", slug=league.slug, night_id=night.pk)


@require_http_methods(["GET", "POST"])
@organisers_only
def night_arrival(request: HttpRequest, league: League, night_id: int) -> HttpResponse:
    night = _night(league, night_id)
    form = forms.ArrivalForm(_posted(request), night=night)
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


# Voids ---------------------------------------------------------------------------------------


def _league_game(league: League, league_game_id: int) -> LeagueGame:
    return get_object_or_404(
        LeagueGame.objects.select_related("game", "night").prefetch_related(
            Prefetch("game__sides", queryset=Side.objects.order_by("position"))
        ),
        pk=league_game_id,
        league=league,
    )


def _after_game(league_game: LeagueGame) -> str:
    if league_game.night_id is not None:
        return reverse(
            "leagues:night",
            kwargs={"slug": league_game.league.slug, "night_id": league_game.night_id},
        )
    return reverse("leagues:detail", kwargs={"slug": league_game.league.slug})


def _game_title(league_game: LeagueGame) -> str:
    where = f"table {league_game.table}, " if league_game.table else ""
    return f"{league_game.game} ({where}{_day(league_game.date)})"


@require_http_methods(["GET", "POST"])
@organisers_only
def game_void(request: HttpRequest, league: League, league_game_id: int) -> HttpResponse:
    league_game = _league_game(league, league_game_id)
    form = forms.VoidForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            services.game_void(
                league_game=league_game, reason=form.cleaned_data["reason"], user=request.user
            )
        except LeagueError as error:
            forms.show_errors(form, error.errors)
        else:
            messages.success(
                request,
                f"The game {_game_title(league_game)} is voided: it no longer counts in the "
                "standings or the ratings.",
            )
            return redirect(_after_game(league_game))
    context = {
        "league": league,
        "league_game": league_game,
        "title": _game_title(league_game),
        "form": form,
        "back": _after_game(league_game),
    }
    return render(request, "leagues/organiser/game_void.html", context)


@require_http_methods(["GET", "POST"])
@organisers_only
def game_unvoid(request: HttpRequest, league: League, league_game_id: int) -> HttpResponse:
    league_game = _league_game(league, league_game_id)
    errors: list[str] = []
    if request.method == "POST":
        try:
            services.game_unvoid(league_game=league_game, user=request.user)
        except LeagueError as error:
            errors = [message for _, message in error.errors]
        else:
            messages.success(
                request,
                f"The game {_game_title(league_game)} counts again; the ratings have been "
                "worked out again.",
            )
            return redirect(_after_game(league_game))
    context = {
        "league": league,
        "league_game": league_game,
        "title": _game_title(league_game),
        "errors": errors,
        "back": _after_game(league_game),
    }
    return render(request, "leagues/organiser/game_unvoid.html", context)


# Audit ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Readable:
    """A stored before/after value: a mapping as (key, text, is_block) rows, anything else as
    one text."""

    rows: list[tuple[str, str, bool]] | None
    text: str = ""


@dataclass(frozen=True)
class AuditEntry:
    at: Any
    who: str
    what: str
    game: LeagueGame | None
    round_number: int | None
    before: Readable | None
    after: Readable | None


def _readable(value: Any) -> Readable | None:
    if value is None:
        return None
    if isinstance(value, dict):
        rows = []
        for key, item in value.items():
            text = item if isinstance(item, str) else _json(item)
            # Stored keys are the models' field names: read as words (closed_at: Closed at).
            rows.append((str(key).replace("_", " ").capitalize(), text, "\n" in text))
        return Readable(rows)
    return Readable(None, _json(value))


def _json(value: Any) -> str:
    # Short values stay on one line; nested ones are indented to be read.
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) <= 60:
        return flat
    return json.dumps(value, indent=1, ensure_ascii=False)


class AuditLog:
    """The league's events and its games' corrections, newest first, as a sequence the
    paginator can count and slice: a page reads the first `stop` rows of each list and merges
    them, so a page costs the same few queries however long the history is."""

    def __init__(self, league: League):
        self.league_events = LeagueEvent.objects.filter(league=league).order_by("-at", "-id")
        self.game_events = (
            GameEvent.objects.filter(game__league_game__league=league, kind__in=GAME_CORRECTIONS)
            .select_related("game__league_game")
            .prefetch_related(Prefetch("game__sides", queryset=Side.objects.order_by("position")))
            .order_by("-at", "-id")
        )

    def count(self) -> int:
        return self.league_events.count() + self.game_events.count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[AuditEntry]:
        start, stop = index.start or 0, index.stop
        entries = [self._league_entry(e) for e in self.league_events[:stop]]
        entries += [self._game_entry(e) for e in self.game_events[:stop]]
        entries.sort(key=lambda e: e.at, reverse=True)
        return entries[start:stop]

    @staticmethod
    def _league_entry(event: LeagueEvent) -> AuditEntry:
        return AuditEntry(
            event.at,
            event.who,
            event.summary,
            None,
            None,
            _readable(event.before),
            _readable(event.after),
        )

    @staticmethod
    def _game_entry(event: GameEvent) -> AuditEntry:
        return AuditEntry(
            event.at,
            event.who,
            event.get_kind_display(),
            event.game.league_game,
            event.round_number,
            _readable(event.before),
            _readable(event.after),
        )


@require_GET
@organisers_only
def audit(request: HttpRequest, league: League) -> HttpResponse:
    page = Paginator(AuditLog(league), AUDIT_PAGE).get_page(request.GET.get("page"))
    return render(request, "leagues/organiser/audit.html", {"league": league, "page": page})
