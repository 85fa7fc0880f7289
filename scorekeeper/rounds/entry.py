"""The round form on the server's round page: the form itself is `round_fields` (plain Python,
packed for the phone too); this reads it with the game's Side rows."""

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper import engine
from scorekeeper.models import Side
from scorekeeper.portable.round_fields import (
    OPEN_BOOK_ROWS,
    RANK_LABELS,
    STOCK,
    CardCount,
    Field,
    OpenBook,
    Pile,
    RoundForm,
    SideBlock,
    build,
    counted_points,
    errors_by_key,
    field_key,
    form_keys,
    posted_round_number,
    values_from_entry,
)
from scorekeeper.portable.round_fields import parse as parse_fields

__all__ = [
    "OPEN_BOOK_ROWS",
    "RANK_LABELS",
    "STOCK",
    "CardCount",
    "Field",
    "OpenBook",
    "Pile",
    "RoundForm",
    "SideBlock",
    "build",
    "counted_points",
    "errors_by_key",
    "field_key",
    "form_keys",
    "parse",
    "posted_round_number",
    "values_from_entry",
]


def parse(
    rules: engine.RuleSet, sides: Sequence[Side], data: Mapping[str, str], dealer: int | None
) -> tuple[str, list[dict[str, Any]], list[engine.FieldError]]:
    """Posted form values as the engine's round input: (ended_by, entry per side, form errors)."""
    return parse_fields(rules, len(sides), data, dealer)
