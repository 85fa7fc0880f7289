"""The house rules on a league's settings page: which rule set's parameters the page shows, what
its fields hold, and the house rules a posted form sets.

The fields are the game start form's (`scorekeeper.portable.start_fields`), named
`rule-<parameter>`; a hidden `rules_for` says which rule set they were drawn for, since without
JavaScript the rule set can be changed in the same post as the fields below it.
"""

from collections.abc import Mapping
from typing import Any

from leagues.models import League
from scorekeeper import engine
from scorekeeper.engine.formatting import rule_set_name
from scorekeeper.portable import start_fields

CHECK_THE_RULES = "Nothing was saved: a house rule below needs changing."


class RulesOfAnotherSet(Exception):
    """House rules were typed for one rule set while the form chose another."""


def chosen_preset(data: Mapping[str, str] | None, league: League | None) -> str:
    """The rule set whose parameters the page shows: the one chosen in the form, else the
    league's, else the first the site offers (a new league's select starts there)."""
    preset = data.get("preset") if data is not None else None
    if preset in engine.RULESETS:
        return preset
    if league is not None and league.preset in engine.RULESETS:
        return league.preset
    return next(iter(engine.RULESETS))


def _drawn_for(data: Mapping[str, str], preset: str) -> str:
    """The rule set the posted fields were drawn for (the chosen one if the post does not say)."""
    drawn = data.get("rules_for") or preset
    return drawn if drawn in engine.RULESETS else preset


def shown_values(
    data: Mapping[str, str] | None, league: League | None, preset: str
) -> dict[str, str]:
    """What the house-rule fields hold: as posted where they are the chosen rule set's; else
    the league's own rules where it plays that set; else (empty) the preset's values."""
    if data is not None and _drawn_for(data, preset) == preset:
        return {key: data.get(key) for key in data if key.startswith("rule-")}
    if league is not None and league.preset == preset:
        return start_fields.rule_values(engine.resolve_rules(league.rules_spec))
    return {}


def read(data: Mapping[str, str], preset: str, league: League | None = None) -> dict[str, Any]:
    """The house rules a posted settings form sets for `preset`: every field that differs from
    the preset's value, checked as a table's are (`engine.RoundError` names each field)."""
    if "rules_for" not in data and league is not None and league.preset == preset:
        # A form drawn before the page offered the house rules (a tab left open across an
        # update) posts none of them: it leaves the league's as they are, never resets them.
        return dict(league.house_rules)
    drawn = _drawn_for(data, preset)
    if drawn != preset:
        if start_fields.overrides_from(engine.RULESETS[drawn], data):
            raise RulesOfAnotherSet(
                f"The house rules below were set for {rule_set_name(drawn)}, and "
                f"{rule_set_name(preset)} has its own: its values are shown now. Check the "
                "house rules and save again."
            )
        # Nothing was changed from the other set's values: the new set as published.
        return {}
    overrides = start_fields.overrides_from(engine.RULESETS[preset], data)
    engine.table_rules({"base": preset, "overrides": overrides})
    return overrides


def engine_path(path: str) -> str:
    """A service's `house_rules.decks` as the engine's `rules.overrides.decks`, which the start
    form's component places beside its field."""
    if path.startswith("house_rules"):
        rest = path.removeprefix("house_rules").lstrip(".")
        return f"rules.overrides.{rest}" if rest else "rules.overrides"
    return path
