"""The organiser's roster import: paste a list of names or upload a CSV file, check the preview
row by row, then add the players in one go.

Nothing is kept between the two steps but the confirm form itself: it carries the rows read
and the outcome the organiser saw for each (hidden), and the confirm decides every row again
against the members as they are then (`services.roster_import`).
"""

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from leagues import roster, services
from leagues.models import League
from leagues.organiser.common import organisers_only
from leagues.organiser.forms import Form
from leagues.roster_selectors import roster_facts
from leagues.services import LeagueError
from scorekeeper.engine.formatting import listing, number

# UTF-8 takes up to 4 bytes a character: a file within the list's limit is at most this big.
MAX_FILE_BYTES = 4 * roster.MAX_CHARACTERS
LOST = "The checked list did not arrive whole, so nothing was added. Start again with your list."

# The forms live here rather than in leagues/organiser/forms.py: they serve this page only.


class RosterForm(Form):
    names = forms.CharField(
        label="Names, one a line",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text="To link a player to their account, follow the name with a tab and the "
        "username (as copied from two columns of a spreadsheet).",
    )
    file = forms.FileField(
        label="Or a CSV file",
        required=False,
        help_text="Columns: the name, then optionally the username of the player's account. "
        "A header row (name, username) is recognised and skipped.",
        error_messages={
            "empty": "The file is empty.",
            "invalid": "Choose a file from your device.",
        },
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        names, upload = cleaned.get("names") or "", cleaned.get("file")
        if self.errors:
            return cleaned
        if upload and names.strip():
            self.add_error(None, "Paste the names or choose a file, not both.")
        elif upload:
            if upload.size > MAX_FILE_BYTES:
                self.add_error(
                    "file",
                    f"The file is {number(upload.size)} bytes; a list of players may be at "
                    f"most {number(MAX_FILE_BYTES)} bytes (about {number(roster.MAX_ROWS)} "
                    "players).",
                )
                return cleaned
            self._read("file", "The file", lambda: roster.read_csv(upload.read()))
        elif names.strip():
            self._read("names", "The list", lambda: roster.read_text(names))
        else:
            self.add_error("names", "Paste the names, one a line, or choose a CSV file.")
        return cleaned

    def _read(self, field: str, what: str, read) -> None:
        try:
            self.cleaned_data["reading"] = read()
        except roster.RosterError as error:
            message = str(error)
            # The reader's messages say "It ..." of the whole input; here it has a name.
            if message.startswith("It "):
                message = f"{what} {message[3:]}"
            self.add_error(field, message)


class ConfirmForm(Form):
    """The preview's rows and what the organiser saw of each, posted back to be added."""

    rows = forms.CharField(widget=forms.HiddenInput, strip=False)
    seen = forms.CharField(widget=forms.HiddenInput)
    header = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        try:
            rows = [_row(item) for item in json.loads(cleaned["rows"])]
            seen = json.loads(cleaned["seen"])
            header = int(cleaned["header"]) if cleaned.get("header") else None
            lines = [row.line for row in rows]
            valid = (
                0 < len(rows) <= roster.MAX_ROWS
                # Line numbers as a reading gives them: rising, and no more than its size allows.
                and lines == sorted(set(lines))
                and lines[0] >= 1
                and lines[-1] <= roster.MAX_CHARACTERS + 1
                and (header is None or 1 <= header < lines[0])
                and isinstance(seen, list)
                and len(seen) == len(rows)
                and all(outcome in roster.OUTCOMES for outcome in seen)
            )
        # RecursionError: a hand-made post of nested brackets, as start_fields and sync refuse.
        except (KeyError, TypeError, ValueError, RecursionError):
            valid = False
        if not valid:
            raise forms.ValidationError(LOST)
        cleaned["reading"] = roster.Reading(rows, header)
        cleaned["seen_outcomes"] = seen
        return cleaned


def _row(item: Any) -> roster.Row:
    line, name, username, problem = item
    if not (isinstance(line, int) and all(isinstance(s, str) for s in (name, username, problem))):
        raise TypeError("not a row")
    return roster.Row(line, name, username, problem)


def _as_text(reading: roster.Reading) -> str:
    """The rows back as a pasted list, each on its line, so that their numbers stay."""
    lines = {
        row.line: row.name + (f"\t{row.username}" if row.username else "") for row in reading.rows
    }
    if reading.header is not None:
        lines[reading.header] = "name\tusername"
    return "\n".join(lines.get(number_, "") for number_ in range(1, max(lines) + 1))


def _line_number(text: str) -> bool:
    # isdigit() alone lets through "²", which int() refuses, and a run of digits long enough to
    # pass int()'s limit; a line number has at most as many digits as the list's size allows.
    return text.isascii() and text.isdigit() and len(text) <= len(str(roster.MAX_CHARACTERS + 1))


def _choices(request: HttpRequest) -> dict[int, bool]:
    return {
        int(key.removeprefix("near-")): value == "add"
        for key, value in request.POST.items()
        if key.startswith("near-") and _line_number(key.removeprefix("near-"))
    }


def _preview(
    request: HttpRequest,
    league: League,
    reading: roster.Reading,
    *,
    choices: dict[int, bool] | None = None,
    error: str = "",
) -> HttpResponse:
    facts = roster_facts(league=league, organiser=request.user, rows=reading.rows)
    decisions = roster.decide(reading.rows, facts)
    choices = choices or {}
    context = {
        "league": league,
        "error": error,
        "header": reading.header,
        "skipped": roster.skipped_text(reading.skipped),
        "summary": roster.summary(decisions),
        "decisions": [(d, choices.get(d.row.line, False)) for d in decisions],
        "addable": any(d.outcome in (roster.ADD, roster.NEAR) for d in decisions),
        "to_check": any(d.outcome == roster.NEAR for d in decisions),
        "rows": json.dumps(
            [[r.line, r.name, r.username, r.problem] for r in reading.rows], ensure_ascii=False
        ),
        "seen": json.dumps([d.outcome for d in decisions]),
    }
    return render(request, "leagues/organiser/member_import_preview.html", context)


def _added_message(league: League, result: services.RosterResult) -> str:
    count = len(result.added)
    if count:
        text = f"{number(count)} player{'s' if count != 1 else ''} added to {league.name}."
    else:
        text = f"Nobody was added to {league.name}."
    if result.already:
        verb = "was" if len(result.already) == 1 else "were"
        plural = "a member" if len(result.already) == 1 else "members"
        text += f" {listing(result.already)} {verb} already {plural}."
    return text


@require_http_methods(["GET", "POST"])
@organisers_only
def member_import(request: HttpRequest, league: League) -> HttpResponse:
    action = request.POST.get("action") if request.method == "POST" else None
    if action in ("confirm", "edit"):
        confirm = ConfirmForm(request.POST)
        if not confirm.is_valid():
            context = {"league": league, "form": RosterForm(), "lost": LOST}
            return render(request, "leagues/organiser/member_import.html", context)
        reading = confirm.cleaned_data["reading"]
        if action == "edit":
            form = RosterForm(initial={"names": _as_text(reading)})
            return render(
                request, "leagues/organiser/member_import.html", {"league": league, "form": form}
            )
        choices = _choices(request)
        try:
            result = services.roster_import(
                league=league,
                rows=reading.rows,
                seen=confirm.cleaned_data["seen_outcomes"],
                choices=choices,
                user=request.user,
            )
        except LeagueError as error:
            message = " ".join(text for _, text in error.errors)
            return _preview(request, league, reading, choices=choices, error=message)
        messages.success(request, _added_message(league, result))
        return redirect("leagues:members", slug=league.slug)
    posted = request.method == "POST"
    form = RosterForm(request.POST, request.FILES) if posted else RosterForm()
    if posted and form.is_valid():
        return _preview(request, league, form.cleaned_data["reading"])
    return render(request, "leagues/organiser/member_import.html", {"league": league, "form": form})
