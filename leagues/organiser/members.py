"""The organiser's pages of a league's members: adding a new player or one from another of the
organiser's leagues, changing a player's name and account, and merging two players into one."""

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from leagues import services
from leagues.models import League, Player
from leagues.organiser import forms, selectors
from leagues.organiser.common import form_data, found, organisers_only
from leagues.selectors import merged_away, rating_display
from leagues.services import LeagueError
from scorekeeper.engine.formatting import listing, number, owned


@require_http_methods(["GET", "POST"])
@organisers_only
def members(request: HttpRequest, league: League) -> HttpResponse:
    action = request.POST.get("action", "add_new")
    posted = form_data(request)
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
    memberships = selectors.memberships(league)
    everyone = [m for m in memberships if m.retired_on is None]
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    shown = selectors.members_matching(everyone, query)
    context = {
        "league": league,
        "rows": [(m, rating_display(m.mu, m.sigma)) for m in shown],
        "query": query,
        "found": _found_text(len(shown), len(everyone), query),
        "searchable": len(everyone) > selectors.MEMBER_SEARCH_FROM or bool(query),
        "retired": [m for m in memberships if m.retired_on is not None],
        "new_form": new_form,
        "existing_form": existing_form,
        "has_others": selectors.has_players_to_add(league, request.user),
    }
    return render(request, "leagues/organiser/members.html", context)


MAX_QUERY = 100


def _found_text(shown: int, total: int, query: str) -> str:
    """`2 of 48 members match “ann”.`"""
    if not query:
        return ""
    if not shown:
        return f"No member matches “{query}”."
    verb = "matches" if shown == 1 else "match"
    return f"{number(shown)} of {number(total)} members {verb} “{query}”."


@require_http_methods(["GET", "POST"])
@organisers_only
def member_edit(request: HttpRequest, league: League, player_id: int) -> HttpResponse:
    player = selectors.member_get(league, player_id)
    # Merged into another member (an old link, or the form sent after the merge): the members'
    # page says so; anyone else was never a member here (404).
    told = merged_away(league, player_id) if player is None else None
    if told is not None:
        return _gone(request, league, told)
    player = found(player, Player)
    linked = selectors.linked_account(league, player)
    initial = {"name": player.name, "username": linked.get_username() if linked else ""}
    form = forms.MemberForm(form_data(request), initial=initial)
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
            gone = [message for field, message in error.errors if field == "player"]
            if gone:
                # Merged away while this form was on its way: nothing left to edit.
                return _gone(request, league, gone[0])
            forms.show_errors(form, error.errors, {"user": "username"})
        else:
            messages.success(request, f"{form.cleaned_data['name']} is saved.")
            return redirect("leagues:members", slug=league.slug)
    other_leagues = selectors.other_leagues(league, player)
    context = {
        "league": league,
        "player": player,
        "form": form,
        "other_leagues": other_leagues,
        "retired_on": selectors.retired_on(league, player),
    }
    return render(request, "leagues/organiser/member_edit.html", context)


def _retire_or_return(request: HttpRequest, league: League, player_id: int, *, back: bool):
    player = selectors.member_get(league, player_id)
    told = merged_away(league, player_id) if player is None else None
    if told is not None:
        return _gone(request, league, told)
    player = found(player, Player)
    try:
        if back:
            services.member_return(league=league, player=player, user=request.user)
        else:
            services.member_retire(
                league=league, player=player, on=timezone.localdate(), user=request.user
            )
    except LeagueError as error:
        return _gone(request, league, error.errors[0][1])
    if back:
        messages.success(request, f"{player.name} is back on the tick lists of {league.name}.")
    else:
        messages.success(
            request,
            f"{player.name} is retired: off the tick lists, kept in the games and standings. "
            "Bring them back below at any time.",
        )
    return redirect("leagues:members", slug=league.slug)


@require_POST
@organisers_only
def member_retire(request: HttpRequest, league: League, player_id: int) -> HttpResponse:
    """Retire a member; sent again, it changes nothing and says the same."""
    return _retire_or_return(request, league, player_id, back=False)


@require_POST
@organisers_only
def member_return(request: HttpRequest, league: League, player_id: int) -> HttpResponse:
    """Bring a retired member back onto the tick lists."""
    return _retire_or_return(request, league, player_id, back=True)


def _gone(request: HttpRequest, league: League, told: str) -> HttpResponse:
    """Back to the members, told why the player is not there to edit."""
    messages.error(request, told)
    return redirect("leagues:members", slug=league.slug)


@dataclass(frozen=True)
class MergeSummary:
    games: int
    nights: int
    other_leagues: list[str]
    lines: list[str]


def _merge_summary(keep: Player, absorb: Player, facts: selectors.MergeFacts) -> MergeSummary:
    """What a merge moves, in sentences, for the confirmation step."""
    games, nights, other = facts.games, facts.nights, facts.other_leagues
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
        lines.append(f"{absorb.name} also plays in {listing(other)}; those records move too.")
    kept_link, absorbed_link = facts.kept_link, facts.absorbed_link
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
    form = forms.MergeForm(form_data(request), initial=initial, league=league)
    if request.method == "POST" and form.is_valid():
        keep, absorb = form.cleaned_data["keep"], form.cleaned_data["absorb"]
        if request.POST.get("confirm") != "yes":
            facts = selectors.merge_facts(league, keep, absorb)
            context = {
                "league": league,
                "keep": keep,
                "absorb": absorb,
                "summary": _merge_summary(keep, absorb, facts),
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
