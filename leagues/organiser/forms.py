"""Forms for the organiser's pages: they read and check what was typed; the services write.

Each form keeps its fields named as the services name them, so a `LeagueError` lands beside the
field it is about (see `show_errors`).
"""

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.text import slugify

from leagues import league_rules
from leagues.models import League, Player, Season
from leagues.organiser import selectors
from leagues.selectors import merged_away
from scorekeeper import engine
from scorekeeper.engine.formatting import rule_set_name
from scorekeeper.portable import start_fields

# Game points a result is worth in the standings: small numbers, but a loss may cost points.
POINTS_RANGE = (-100, 100)
CONFIRM_CHOICES = [
    ("on", "Yes: a player of another side confirms each round of a club night's table"),
    ("off", "No: a saved round counts at once"),
]
NEW_LEAGUE = {
    "confirm_rounds": "on",
    "scoring": League.Scoring.MATCH,
    "visibility": League.Visibility.PUBLIC,
    "win_points": 2,
    "tie_points": 1,
    "loss_points": 0,
}
# Addresses the organiser's pages use in place of a league's slug.
RESERVED_SLUGS = {"new"}
# No id column holds a number this big; SQLite raises OverflowError if asked for one.
ID_LIMIT = 2**63


def _beyond_any_id(value: Any) -> bool:
    text = str(value).strip()
    if text.lstrip("+-").isdigit() and len(text.lstrip("+-")) > len(str(ID_LIMIT)):
        # Longer than any id, and too long for int() itself past 4,300 digits.
        return True
    try:
        return abs(int(text)) >= ID_LIMIT
    except ValueError:
        return False  # not a number at all: Django's own check refuses it


class PlayerChoiceField(forms.ModelChoiceField):
    """A player chosen by id, where an id too big for the database is simply not a choice."""

    def to_python(self, value):
        if value not in self.empty_values and _beyond_any_id(value):
            raise forms.ValidationError(self.error_messages["invalid_choice"], "invalid_choice")
        return super().to_python(value)


class PlayersChoiceField(forms.ModelMultipleChoiceField):
    """Players ticked by id, where an id too big for the database is simply not a choice."""

    def _check_values(self, value):
        if any(_beyond_any_id(pk) for pk in value):
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], "invalid_choice", params={"value": ""}
            )
        return super()._check_values(value)


def show_errors(form: forms.Form, errors, aliases: dict[str, str] | None = None) -> None:
    """Put a service's (field, message) pairs beside the form's fields; a field the form does
    not have gets its message at the top of the form."""
    aliases = aliases or {}
    for field, message in errors:
        name = aliases.get(field, field)
        if name.startswith("house_rules") and isinstance(form, LeagueForm):
            form.add_rule_errors([engine.FieldError(name, message)])
        else:
            form.add_error(name if name in form.fields else None, message)


def _account(username: str):
    """The account with this username, or a ValidationError naming what to do."""
    User = get_user_model()
    account = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
    if account is None:
        raise forms.ValidationError(
            f"No account is called “{username}”; check the spelling, or leave it blank."
        )
    return account


class Form(forms.Form):
    """Labels without Django's trailing colon, as on the rest of the site."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class LeagueForm(Form):
    """A league's settings. On the edit page the address (slug) cannot change."""

    name = forms.CharField(max_length=100, error_messages={"required": "Give the league a name."})
    slug = forms.SlugField(
        label="Address",
        max_length=60,
        required=False,
        help_text="The league's page will be /leagues/<address>/. Leave it blank to make one "
        "from the name.",
        error_messages={
            "invalid": "Use only lower-case letters, digits and hyphens in the address.",
        },
    )
    description = forms.CharField(
        max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    preset = forms.ChoiceField(
        label="Rule set",
        choices=[(ruleset.id, ruleset.name) for ruleset in engine.RULESETS.values()],
    )
    play = forms.ChoiceField(
        label="Play",
        required=False,
        choices=[
            ("", "As the rule set plays it (Baskets: individual players; the others: teams)"),
            *League.Play.choices,
        ],
    )
    scoring = forms.ChoiceField(
        label="Standings by", choices=League.Scoring.choices, widget=forms.RadioSelect
    )
    win_points = forms.IntegerField(
        label="Points for a win", min_value=POINTS_RANGE[0], max_value=POINTS_RANGE[1]
    )
    tie_points = forms.IntegerField(
        label="Points for a tie", min_value=POINTS_RANGE[0], max_value=POINTS_RANGE[1]
    )
    loss_points = forms.IntegerField(
        label="Points for a loss", min_value=POINTS_RANGE[0], max_value=POINTS_RANGE[1]
    )
    visibility = forms.ChoiceField(
        label="Who can see it", choices=League.Visibility.choices, widget=forms.RadioSelect
    )
    # Not a checkbox: a form sent without it (an old page) keeps confirmation on.
    confirm_rounds = forms.ChoiceField(
        label="Scores confirmed at the table",
        required=False,
        choices=CONFIRM_CHOICES,
        widget=forms.RadioSelect,
    )

    # The house rules are not Django fields: they are every parameter of the rule set, shown and
    # read by the start form's component (`scorekeeper.portable.start_fields`), named
    # `rule-<parameter>`.
    def __init__(self, data=None, *, league: League | None = None):
        self.league = league
        initial = self.initial_for(league) if league is not None else dict(NEW_LEAGUE)
        self.rules_preset = league_rules.chosen_preset(data, league)
        self.rule_values = league_rules.shown_values(data, league, self.rules_preset)
        self.rule_errors: dict[str, list[str]] = {}
        self.house_rules: dict[str, Any] = {}
        self.showing_rules = data is not None and "show_rules" in data
        if self.showing_rules:
            # "Show its rules" asked for the chosen rule set's fields: the form again as typed,
            # with nothing checked and nothing saved.
            initial.update({name: data.get(name) for name in self.base_fields if name in data})
            data = None
        super().__init__(data, initial=initial)
        if league is not None:
            slug = self.fields["slug"]
            slug.disabled = True
            slug.help_text = "A league's address does not change, so that links keep working."

    @property
    def rule_fields(self) -> tuple[start_fields.RuleField, ...]:
        """Every parameter of the chosen rule set, with the league's values and their errors."""
        return start_fields.rule_fields(
            engine.RULESETS[self.rules_preset], self.rule_values, self.rule_errors
        )

    @property
    def rules_open(self) -> bool:
        return start_fields.rules_open(self.rule_fields)

    @property
    def rules_preset_name(self) -> str:
        return rule_set_name(self.rules_preset)

    @property
    def rules_note(self) -> str:
        # Season.rules is frozen when a season is added; the form must not suggest otherwise.
        if self.league is None:
            return "Each season keeps the rules the league has when the season is added."
        return (
            "A change applies to seasons added from now on; seasons already created keep the "
            "rules they froze."
        )

    def add_rule_errors(self, errors: list[engine.FieldError]) -> None:
        """Put the engine's (or a service's) errors about house rules beside their fields."""
        rules = engine.RULESETS[self.rules_preset]
        keys = set(start_fields.rule_values(rules))
        paths = [
            engine.FieldError(league_rules.engine_path(error.path), error.message)
            for error in errors
        ]
        for key, messages in start_fields.placed_errors(rules, paths).items():
            if key in keys:
                self.rule_errors.setdefault(key, []).extend(messages)
            else:
                for message in messages:
                    self.add_error(None, message)
        self.add_error(None, league_rules.CHECK_THE_RULES)

    @staticmethod
    def initial_for(league: League) -> dict[str, Any]:
        values = {
            name: getattr(league, name)
            for name in (
                "name",
                "slug",
                "description",
                "preset",
                "play",
                "scoring",
                "win_points",
                "tie_points",
                "loss_points",
                "visibility",
            )
        }
        values["confirm_rounds"] = "on" if league.confirm_rounds else "off"
        return values

    def clean_name(self) -> str:
        return self.cleaned_data["name"].strip()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.league is None and "name" in cleaned and "slug" in cleaned:
            slug = cleaned["slug"] or slugify(cleaned["name"])[:60].strip("-")
            if not slug:
                self.add_error(
                    "slug", "Choose an address: the name has no letters or digits to make one."
                )
            elif slug in RESERVED_SLUGS:
                self.add_error(
                    "slug", f"The address “{slug}” is kept for this site's pages; choose another."
                )
            elif League.objects.filter(slug=slug).exists():
                self.add_error(
                    "slug",
                    f"Another league already uses the address “{slug}”; choose another, such "
                    f"as “{_free_slug(slug)}”.",
                )
            else:
                cleaned["slug"] = slug
        if "preset" in cleaned:
            try:
                self.house_rules = league_rules.read(self.data, cleaned["preset"], self.league)
            except league_rules.RulesOfAnotherSet as error:
                self.add_error("preset", str(error))
            except engine.RoundError as error:
                self.add_rule_errors(error.errors)
        return cleaned

    def service_values(self) -> dict[str, Any]:
        data = self.cleaned_data
        values = {
            name: data[name]
            for name in (
                "name",
                "description",
                "preset",
                "scoring",
                "win_points",
                "tie_points",
                "loss_points",
                "visibility",
            )
        }
        values["house_rules"] = self.house_rules
        values["confirm_rounds"] = data.get("confirm_rounds") != "off"
        if self.league is None:
            values["slug"] = data["slug"]
            values["play"] = data["play"] or None
        else:
            values["play"] = data["play"] or _preset_play(data["preset"])
        return values


def _preset_play(preset: str) -> str:
    partnerships = engine.RULESETS[preset].partnerships if preset in engine.RULESETS else True
    return League.Play.TEAMS if partnerships else League.Play.SINGLES


def _free_slug(slug: str) -> str:
    taken = set(League.objects.filter(slug__startswith=slug).values_list("slug", flat=True))
    n = 2
    while f"{slug}-{n}" in taken:
        n += 1
    return f"{slug[: 60 - len(str(n)) - 1]}-{n}"


class OrganiserForm(Form):
    username = forms.CharField(
        label="Username of the new organiser",
        max_length=150,
        error_messages={"required": "Type the username of the account to add."},
    )

    def clean_username(self):
        return _account(self.cleaned_data["username"].strip())


class SeasonForm(Form):
    name = forms.CharField(max_length=100, error_messages={"required": "Give the season a name."})
    starts_on = forms.DateField(
        label="Starts on",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Choose the season's first day.",
            "invalid": "Type a date such as 2026-09-01.",
        },
    )
    ends_on = forms.DateField(
        label="Ends on",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Choose the season's last day.",
            "invalid": "Type a date such as 2026-11-30.",
        },
    )

    def __init__(self, *args, league: League, season: Season | None = None, **kwargs):
        self.league, self.season = league, season
        super().__init__(*args, **kwargs)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        clash = self.league.seasons.filter(name=name)
        if self.season is not None:
            clash = clash.exclude(pk=self.season.pk)
        if clash.exists():
            raise forms.ValidationError(f"{self.league.name} already has a season called {name}.")
        return name


class MemberForm(Form):
    """A new member, or a member's name and account on the edit page."""

    name = forms.CharField(max_length=100, error_messages={"required": "Type the member's name."})
    username = forms.CharField(
        label="Account to link (optional)",
        max_length=150,
        required=False,
        help_text="The username of the member's account, so they can open this league and "
        "score its tables from their phone (this league only). Leave blank for none.",
    )

    def clean_name(self) -> str:
        return self.cleaned_data["name"].strip()

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        return _account(username) if username else None


class ExistingPlayerForm(Form):
    """A player from another league the organiser runs."""

    player = PlayerChoiceField(
        label="Player from your other leagues",
        queryset=Player.objects.none(),
        error_messages={
            "required": "Choose a player.",
            "invalid_choice": "Choose one of the players listed.",
        },
    )

    def __init__(self, *args, league: League, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = selectors.players_to_add(league, user)


def _members_of(league: League):
    return Player.objects.filter(memberships__league=league).order_by("name", "id")


def _playing_members_of(league: League):
    """The members who may be ticked as present: all but the retired."""
    return Player.objects.filter(
        memberships__league=league, memberships__retired_on__isnull=True
    ).order_by("name", "id")


class MergeForm(Form):
    keep = PlayerChoiceField(
        label="Keep this player",
        queryset=Player.objects.none(),
        error_messages={
            "required": "Choose the player to keep.",
            "invalid_choice": "Choose one of the league's members.",
        },
    )
    absorb = PlayerChoiceField(
        label="Merge this player into them",
        queryset=Player.objects.none(),
        help_text="Their games, club nights and memberships move to the player kept; this "
        "record then goes.",
        error_messages={
            "required": "Choose the player to merge.",
            "invalid_choice": "Choose one of the league's members.",
        },
    )

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.league = league
        for name in ("keep", "absorb"):
            self.fields[name].queryset = _members_of(league)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        for name in ("keep", "absorb"):
            # Posted again after the merge went through (a double submit, a second organiser):
            # say what happened to the player rather than that they are not a choice.
            raw = str(self.data.get(name, "")).strip()
            if self.has_error(name, "invalid_choice") and raw.isdigit() and not _beyond_any_id(raw):
                told = merged_away(self.league, int(raw))
                if told is not None:
                    self.errors[name] = self.error_class([told])
        keep, absorb = cleaned.get("keep"), cleaned.get("absorb")
        if keep is not None and absorb is not None and keep.pk == absorb.pk:
            self.add_error("absorb", "Choose two different players to merge.")
        return cleaned


class NightForm(Form):
    date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Choose the night's date.",
            "invalid": "Type a date such as 2026-10-01.",
        },
    )
    players = PlayersChoiceField(
        label="Who is here",
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": "Tick members of the league only."},
    )
    notes = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = _playing_members_of(league)


class ArrivalForm(Form):
    player = PlayerChoiceField(
        label="A member not yet here",
        queryset=Player.objects.none(),
        required=False,
        empty_label="Choose a member",
        error_messages={"invalid_choice": "Choose one of the members listed."},
    )
    name = forms.CharField(
        label="Or a new member's name",
        max_length=100,
        required=False,
        help_text="They join the league and are marked as arrived.",
    )

    def __init__(self, *args, night, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = _playing_members_of(night.league).exclude(
            attendances__night=night
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        player, name = cleaned.get("player"), cleaned.get("name", "").strip()
        cleaned["name"] = name
        if player is not None and name:
            self.add_error("name", "Choose a member or type a new name, not both.")
        elif player is None and not name and not self.has_error("player"):
            self.add_error("player", "Choose who arrived, or type a new member's name.")
        return cleaned


class VoidForm(Form):
    reason = forms.CharField(
        label="Why is the game voided?",
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        error_messages={
            "required": "Say why the game is voided (up to 200 characters).",
            "max_length": "Say why the game is voided in at most 200 characters "
            "(this has %(show_value)d).",
        },
    )
