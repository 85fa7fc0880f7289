"""The head-to-head page's decisions: which player the address chose (and what to say when it
names nobody), how their record is sorted, and the words for a record. Plain Python; the view
feeds it what the selectors read."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from leagues.selectors import MEETING_SORTS, Meeting, Rivals
from scorekeeper.engine.formatting import number, owned

# Up to this many players in a season, the page also shows the whole matrix: 12 columns still
# read on a laptop; past that the matrix is a wall (200 players made 2.2 MB of HTML).
MATRIX_MAX = 12
DEFAULT_SORT = "games"
# Ids are 64-bit; a longer number would overflow the database driver.
MAX_ID = 2**63 - 1


@dataclass(frozen=True)
class Choice:
    """The player chosen (id and name), or None, and what to tell the reader when the address
    named no player of the season (empty when it named one, or none at all)."""

    player_id: int | None
    name: str
    message: str


def choose(
    value: str | None,
    players: Sequence[tuple[int, str]],
    season_name: str,
    member_name: Callable[[int], str | None],
) -> Choice:
    """Read `?player=`: one of the season's players, or nobody with a message that says why.
    `member_name` looks up a league member by id, asked only for a number not among `players`
    (a player who sat this season out, reached by switching seasons)."""
    if value is None or not value.strip():
        return Choice(None, "", "")
    text = value.strip()
    names = dict(players)
    # 19 digits hold every id; a longer run of digits would cost int() its conversion limit.
    player_id = int(text) if len(text) <= 19 and text.isascii() and text.isdigit() else None
    if player_id is not None and player_id in names:
        return Choice(player_id, names[player_id], "")
    choose_one = "choose one of the season's players from the list."
    if player_id is not None and 0 < player_id <= MAX_ID:
        name = member_name(player_id)
        if name is not None:
            absent = f"Player: {name} has no counted game in {season_name}; {choose_one}"
            return Choice(None, "", absent)
    return Choice(None, "", f"Player: there is no such player in {season_name}; {choose_one}")


def sort_order(sort: str | None, order: str | None) -> tuple[str, str]:
    """The column and direction asked for; an unknown column is the default (most games first),
    an unknown direction the column's natural one (names A to Z, figures highest first)."""
    if sort not in MEETING_SORTS:
        sort = DEFAULT_SORT
    if order not in ("asc", "desc"):
        order = "asc" if sort == "name" else "desc"
    return sort, order


def record_columns(sort: str, order: str) -> list[dict]:
    """The record's sortable columns: label, aria-sort where sorted, and the order a click asks
    for (the sorted column turns round; another starts at its natural order)."""
    columns = []
    for key, label in MEETING_SORTS.items():
        if key == sort:
            aria_sort = "descending" if order == "desc" else "ascending"
            next_order = "asc" if order == "desc" else "desc"
        else:
            aria_sort, next_order = "", "asc" if key == "name" else "desc"
        columns.append(
            {"key": key, "label": label, "aria_sort": aria_sort, "next_order": next_order}
        )
    return columns


def record_caption(name: str, sort: str, order: str) -> str:
    """The record table's caption, saying how it is sorted."""
    record = owned(name, "record", start=True)
    if sort == "name":
        return f"{record} by opponent, {'A to Z' if order == 'asc' else 'Z to A'}"
    way = "highest" if order == "desc" else "lowest"
    return f"{record} by opponent, sorted by {MEETING_SORTS[sort].lower()}, {way} first"


def summary(meeting: Meeting) -> str:
    """`won 1, lost 3 of 4 games`: a record in words, ties only when there were some."""
    parts = [f"won {number(meeting.wins)}"]
    if meeting.ties:
        parts.append(f"tied {number(meeting.ties)}")
    parts.append(f"lost {number(meeting.losses)}")
    games = "game" if meeting.games == 1 else "games"
    return f"{', '.join(parts)} of {number(meeting.games)} {games}"


def rivals_text(found: Rivals) -> list[tuple[str, Meeting, str]]:
    """The record's highlights to show, each a label, the opponent and the record in words."""
    shown = [
        ("Most met", found.most_met),
        ("Nemesis", found.nemesis),
        ("Best against", found.best_against),
    ]
    return [(label, meeting, summary(meeting)) for label, meeting in shown if meeting is not None]
