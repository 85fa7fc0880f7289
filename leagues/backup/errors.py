"""The refusal of a league export, and how its messages write the values they name."""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.engine.formatting import number

# Ids stay where JavaScript's numbers are exact: far above any real database, far below the end
# of a PostgreSQL sequence (a restored id moves the sequence up to it).
MAX_ID = 2**53
# A value quoted in a message is cut to this many characters.
QUOTED_MAX = 80


class BackupError(ValueError):
    """The document is not a league backup this version can restore, or the database already
    holds what it would create."""


def as_in_file(value: Any) -> str:
    """A value as the file writes it (`"500"`, `[1, 2]`, `null`), cut short if long."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= QUOTED_MAX else text[: QUOTED_MAX - 3] + "..."


def figure(value: Any) -> str:
    """A figure as the pages write points (`10,100`, `−5`), a rating exactly (`27.63...`),
    anything else as the file writes it."""
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    if isinstance(value, float):
        return repr(value)
    return as_in_file(value)


def outside(where: str, value: int, lowest: int, highest: int, why: str = "") -> BackupError:
    """`league.win_points: 30,000 is outside −100 to 100.`"""
    return BackupError(
        f"{where}: {number(value)} is outside {number(lowest)} to {number(highest)}{why}."
    )
