"""The organiser's page of a season's league points adjustments: a penalty or bonus for a
member with the reason, the season's adjustments listed with a Remove button each. Plain forms
and post/redirect/get: it works without JavaScript.

The form carries a key of its own (`form_key`), so that the same form sent twice (a double
click, a resend) saves once and the second is told beside the points; a Remove sent twice
finds the adjustment gone and says so."""

import re
import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from leagues import selectors as league_selectors
from leagues import services
from leagues.adjustment_notes import note_of
from leagues.models import League, Player, Season
from leagues.organiser import selectors
from leagues.organiser.common import form_data, found, organisers_only
from leagues.organiser.forms import Form, PlayerChoiceField, show_errors
from leagues.services import LeagueError
from leagues.services.adjustments import POINTS_MESSAGE, REASON_MAX, REASON_MESSAGE, signed

# No row has an id past this (the backups' limit too); a longer one in an address is a 404.
ID_MAX = 2**53
FORM_KEY = re.compile(r"[0-9a-f]{32}")
GONE = "This adjustment was removed already; nothing was changed."


class PointsField(forms.IntegerField):
    """A whole number with its sign, the typographic minus (−10) read as a hyphen's."""

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().replace("\u2212", "-")
            if len(value.lstrip("+-")) > 6:
                # Far past the range: said as the range, without parsing thousands of digits.
                raise forms.ValidationError(POINTS_MESSAGE, "invalid")
        return super().to_python(value)


class AdjustmentForm(Form):
    player = PlayerChoiceField(
        label="Player",
        queryset=Player.objects.none(),
        empty_label="Choose a member",
        error_messages={
            "required": "Choose the member whose points change.",
            "invalid_choice": "Choose one of the league's members listed.",
        },
    )
    points = PointsField(
        label="Points",
        help_text="Below 0 for a penalty (−10), above 0 for a bonus (5), from −1,000 to 1,000.",
        widget=forms.TextInput(attrs={"inputmode": "text", "autocomplete": "off", "size": 8}),
        error_messages={"required": POINTS_MESSAGE, "invalid": POINTS_MESSAGE},
    )
    reason = forms.CharField(
        label="Why?",
        max_length=REASON_MAX,
        help_text="Shown under the standings, such as “late twice”.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        error_messages={
            "required": REASON_MESSAGE,
            "max_length": f"Say why the points are adjusted in at most {REASON_MAX} characters "
            "(this has %(show_value)d).",
        },
    )
    form_key = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(memberships__league=league).order_by(
            "name", "id"
        )

    def clean_reason(self) -> str:
        return self.cleaned_data["reason"].strip()

    def clean_form_key(self) -> str | None:
        # Only a key this page gave; anything else is no key (never an error to show).
        key = self.cleaned_data["form_key"]
        return key if FORM_KEY.fullmatch(key) else None


def _season(league: League, season_id: int) -> Season:
    if not 0 < season_id <= ID_MAX:
        raise Http404("No such season")
    return found(selectors.season_get(league, season_id), Season)


def _page(league: League, season: Season) -> str:
    return reverse(
        "leagues:season_adjustments", kwargs={"slug": league.slug, "season_id": season.pk}
    )


def _initial(request: HttpRequest) -> dict[str, Any]:
    initial: dict[str, Any] = {"form_key": uuid.uuid4().hex}
    player = request.GET.get("player", "")
    if player.isdigit() and len(player) < 17:
        initial["player"] = int(player)
    return initial


@require_http_methods(["GET", "POST"])
@organisers_only
def season_adjustments(request: HttpRequest, league: League, season_id: int) -> HttpResponse:
    season = _season(league, season_id)
    form = AdjustmentForm(form_data(request), league=league, initial=_initial(request))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            adjustment = services.adjustment_add(
                league=league,
                season=season,
                player=data["player"],
                points=data["points"],
                reason=data["reason"],
                user=request.user,
                form_key=data["form_key"],
            )
        except LeagueError as error:
            show_errors(form, error.errors)
        else:
            messages.success(
                request,
                f"{signed(adjustment.points)} league points for {adjustment.player.name} in "
                f"{season.name}: the standings show it.",
            )
            return redirect(_page(league, season))
    found_adjustments = league_selectors.adjustments(league, season)
    context = {
        "league": league,
        "season": season,
        "form": form,
        "rows": [(a, signed(a.points), note_of(a, all_time=False)) for a in found_adjustments],
        "standings": reverse(
            "leagues:season_standings", kwargs={"slug": league.slug, "season_id": season.pk}
        ),
    }
    return render(request, "leagues/organiser/adjustments.html", context)


@require_POST
@organisers_only
def adjustment_remove(
    request: HttpRequest, league: League, season_id: int, adjustment_id: int
) -> HttpResponse:
    season = _season(league, season_id)
    adjustment = (
        league_selectors.adjustment_get(league, season, adjustment_id)
        if 0 < adjustment_id <= ID_MAX
        else None
    )
    if adjustment is None:
        # Sent twice, or removed by another organiser meanwhile: nothing to do.
        messages.info(request, GONE)
        return redirect(_page(league, season))
    try:
        services.adjustment_remove(adjustment=adjustment, user=request.user)
    except LeagueError as error:
        messages.info(request, " ".join(message for _, message in error.errors))
    else:
        messages.success(
            request,
            f"The adjustment of {signed(adjustment.points)} for {adjustment.player.name} is "
            "removed: the standings no longer count it.",
        )
    return redirect(_page(league, season))
