"""Roster import: reading a pasted list or a CSV file of players, and deciding row by row what
adding it would do. Plain functions of their input (the league's members and the accounts named
come in as `Facts`), so that the preview and the confirm decide alike.

A row keeps its line number in the input, so the preview names rows as the organiser sees them
in their editor or spreadsheet. Whole-input problems (an empty or binary file, too many rows)
raise `RosterError`; a bad row is refused by itself and the rest go on.
"""

import csv
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from leagues.models import Player
from scorekeeper.engine.formatting import listing, number

NAME_MAX = Player._meta.get_field("name").max_length
# A club's roster fits many times over; a bigger input is a mistake, not a list of players.
MAX_ROWS = 500
MAX_CHARACTERS = 100_000
# The names a header row gives its columns (compared case-insensitively).
HEADER_NAMES = {"name", "names", "player", "players", "player name", "full name", "member"}
HEADER_USERNAMES = {"", "username", "user name", "user", "account", "login"}
# Below this many letters a one-letter difference is a different name (Jon, Jan), not a typo.
TYPO_MIN_LETTERS = 5

ADD, NEAR, MEMBER, DUPLICATE, REFUSED = "add", "near", "member", "duplicate", "refused"
OUTCOMES = (ADD, NEAR, MEMBER, DUPLICATE, REFUSED)
# What the preview calls each outcome, in its Outcome column.
LABELS = {
    ADD: "Will be added",
    NEAR: "Check",
    MEMBER: "Already a member",
    DUPLICATE: "Duplicate",
    REFUSED: "Refused",
}


class RosterError(Exception):
    """The whole input cannot be read; the message says what to do."""


@dataclass(frozen=True)
class Row:
    """One line of the input that is not blank. `problem` refuses it as it was read."""

    line: int
    name: str
    username: str = ""
    problem: str = ""


@dataclass(frozen=True)
class Reading:
    rows: list[Row]
    # The line of the header row skipped, if there was one.
    header: int | None = None

    @property
    def skipped(self) -> list[int]:
        """The empty lines between the first row and the last: every other line is a row, so
        these are the numbers the rows skip."""
        if not self.rows:
            return []
        lines = {row.line for row in self.rows}
        return [n for n in range(self.rows[0].line, self.rows[-1].line) if n not in lines]


SKIPPED_LISTED = 5


def skipped_text(lines: Sequence[int]) -> str:
    """`Line 13 is empty, skipped.`: why the preview's row numbers jump."""
    if not lines:
        return ""
    if len(lines) == 1:
        return f"Line {number(lines[0])} is empty, skipped."
    named = [number(n) for n in lines[:SKIPPED_LISTED]]
    if len(lines) > SKIPPED_LISTED:
        named.append(f"{number(len(lines) - SKIPPED_LISTED)} more")
    return f"Lines {listing(named)} are empty, skipped."


@dataclass(frozen=True)
class Member:
    player_id: int
    name: str
    username: str | None


@dataclass(frozen=True)
class Known:
    """A player of another league the same organiser runs: added here, it keeps one record."""

    player_id: int
    league: str


@dataclass(frozen=True)
class Facts:
    """What the decisions depend on besides the rows: the league's members, the accounts the
    rows name (username: id) and its organiser's players elsewhere by exact name."""

    members: Sequence[Member]
    accounts: Mapping[str, int]
    others: Mapping[str, Sequence[Known]] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    row: Row
    outcome: str
    message: str
    player_id: int | None = None
    account_id: int | None = None

    @property
    def label(self) -> str:
        return LABELS[self.outcome]


def clean_name(text: str) -> str:
    """The name as saved: no spaces around it, one space between its words."""
    return " ".join(text.split())


def name_key(name: str) -> str:
    """What two spellings of one name share: letters and digits, any case, accents left off
    ("Zoë  O'Neil" and "zoe oneil" share "zoeoneil")."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if c.isalnum())


def one_letter_apart(a: str, b: str) -> bool:
    """Whether one letter added, dropped, changed or two swapped turns `a` into `b`."""
    if a == b or abs(len(a) - len(b)) > 1 or min(len(a), len(b)) < TYPO_MIN_LETTERS:
        return False
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    if len(a) == len(b):
        rest_a, rest_b = a[start + 1 :], b[start + 1 :]
        if rest_a == rest_b:
            return True
        swapped = a[start + 1 : start + 2] == b[start : start + 1] and a[start] == b[start + 1]
        return swapped and a[start + 2 :] == b[start + 2 :]
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return longer[start + 1 :] == shorter[start:]


# Reading ------------------------------------------------------------------------------------


def _row(line: int, cells: list[str]) -> Row | None:
    cells = [cell.strip() for cell in cells]
    while cells and not cells[-1]:
        cells.pop()
    if not cells:
        return None
    if len(cells) > 2:
        return Row(
            line,
            clean_name(cells[0]),
            cells[1],
            f"{number(len(cells))} columns: a row has a name and, optionally, the "
            "username of the player's account.",
        )
    return Row(line, clean_name(cells[0]), cells[1] if len(cells) == 2 else "")


def _is_header(row: Row) -> bool:
    return (
        not row.problem
        and row.name.casefold() in HEADER_NAMES
        and row.username.casefold() in HEADER_USERNAMES
    )


def _reading(rows: list[Row]) -> Reading:
    header = None
    if rows and _is_header(rows[0]):
        header, rows = rows[0].line, rows[1:]
    if not rows:
        raise RosterError(
            "There are no names in it, only a header row."
            if header
            else "There are no names in it: put one name a line."
        )
    if len(rows) > MAX_ROWS:
        raise RosterError(
            f"It has {number(len(rows))} rows; add at most {number(MAX_ROWS)} players at a time."
        )
    return Reading(rows, header)


def _check_size(characters: int) -> None:
    if characters > MAX_CHARACTERS:
        raise RosterError(
            f"It is {number(characters)} characters long; a list may have at most "
            f"{number(MAX_CHARACTERS)} (about {number(MAX_ROWS)} players)."
        )


def read_text(text: str) -> Reading:
    """A pasted list: one name a line, optionally a tab and a username (two columns copied
    from a spreadsheet). Commas are part of a name here ("Smith, Ann")."""
    _check_size(len(text))
    lines = re.split(r"\r\n|\r|\n", text)
    rows = [_row(at, line.split("\t")) for at, line in enumerate(lines, start=1)]
    return _reading([row for row in rows if row is not None])


ENCODING = (
    "This row is not UTF-8 text. In your spreadsheet, save the file as “CSV UTF-8” "
    "and upload it again."
)
NOT_TEXT = (
    "This file is not a CSV file (it looks like a spreadsheet or another kind of file). In your "
    "spreadsheet, choose Save as or Download, then “CSV UTF-8”, and upload that file."
)


def _lines(data: bytes) -> list[str | None]:
    """The file's lines as text; None for a line that is not UTF-8."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # "Unicode text" from a spreadsheet: UTF-16 with its byte order mark.
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise RosterError(NOT_TEXT) from None
        return re.split(r"\r\n|\r|\n", text)
    if b"\x00" in data:
        raise RosterError(NOT_TEXT)
    data = data.removeprefix(b"\xef\xbb\xbf")
    lines: list[str | None] = []
    for raw in re.split(rb"\r\n|\r|\n", data):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(None)
    return lines


def _delimiter(lines: list[str | None]) -> str:
    """The file's column separator. A first line "sep=;" (as Excel may write) says which it is,
    and is made blank so that it is not read as a name."""
    index, first = next(
        ((i, line) for i, line in enumerate(lines) if line and line.strip()), (0, "")
    )
    told = re.fullmatch(r"sep=([,;\t|])", first.strip("\r\n "))
    if told:
        lines[index] = ""
        return told.group(1)
    # Spreadsheets write ";" where the decimal point is a comma, and a tab for "text".
    if "\t" in first:
        return "\t"
    if ";" in first and "," not in first:
        return ";"
    return ","


def read_csv(data: bytes) -> Reading:
    """A CSV file: a name, optionally a username; a header row is recognised and skipped. A
    line that is not UTF-8 is refused by itself."""
    if not data.strip():
        raise RosterError("The file is empty.")
    lines = _lines(data)
    _check_size(sum(len(line or "") for line in lines))
    delimiter = _delimiter(lines)
    rows = []
    for at, line in enumerate(lines, start=1):
        if line is None:
            rows.append(Row(at, "", "", ENCODING))
            continue
        try:
            cells = next(csv.reader([line], delimiter=delimiter, strict=False), [])
        except csv.Error:
            rows.append(Row(at, "", "", "This row cannot be read as CSV; type it again."))
            continue
        row = _row(at, cells)
        if row is not None:
            rows.append(row)
    return _reading(rows)


# Deciding -----------------------------------------------------------------------------------


def _refused(row: Row) -> str:
    """Why the row cannot be added whatever the organiser chooses, or ""."""
    if row.problem:
        return row.problem
    if any(unicodedata.category(c) == "Cc" for c in row.name + row.username):
        # Invisible, and a database may refuse them (PostgreSQL refuses a NUL).
        return "This row has a control character in it (an invisible one); type the row again."
    if not row.name:
        return "No name: each row starts with the player's name."
    if len(row.name) > NAME_MAX:
        return (
            f"The name is {number(len(row.name))} characters long; a name may have at "
            f"most {number(NAME_MAX)}."
        )
    return ""


def _account_problem(row: Row, facts: Facts, taken: dict[str, Row]) -> str:
    if not row.username:
        return ""
    if row.username not in facts.accounts:
        return (
            f"No account is called “{row.username}”; check the spelling, or leave the username out."
        )
    linked = next((m for m in facts.members if m.username == row.username), None)
    if linked is not None:
        return f"The account “{row.username}” is already linked to {linked.name}, a member."
    if row.username in taken:
        earlier = taken[row.username]
        return (
            f"The account “{row.username}” is already on row {number(earlier.line)} "
            f"({earlier.name})."
        )
    return ""


def _deletions(key: str) -> set[str]:
    return {key[:i] + key[i + 1 :] for i in range(len(key))}


def _alike(key: str, other: str) -> bool:
    if key == other:
        return True
    # Numbers are told apart on purpose ("Team 1", "Team 2"): only a letter can be a typo.
    return one_letter_apart(key, other) and re.sub(r"\D", "", key) == re.sub(r"\D", "", other)


class Spellings:
    """Names by their key and by each key with one letter left out: two keys one letter apart
    share one of those, so a row finds its near names without being compared with every name."""

    def __init__(self, names: Sequence[str] = ()):
        self._found: dict[str, list[tuple[int, str, str]]] = {}
        self._count = 0
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        key = name_key(name)
        for variant in {key} | _deletions(key):
            self._found.setdefault(variant, []).append((self._count, key, name))
        self._count += 1

    def near(self, name: str) -> str | None:
        """The name added first that is spelt like `name` but for case, accents and spaces,
        else the one added first that is one letter away; or None."""
        key = name_key(name)
        candidates = [
            (found_key != key, index, found)
            for variant in {key} | _deletions(key)
            for index, found_key, found in self._found.get(variant, ())
            if _alike(key, found_key)
        ]
        return min(candidates)[2] if candidates else None


def _added(row: Row, facts: Facts) -> tuple[str, int | None]:
    """What adding the row makes of it, said when it is more than a new player; and the player
    of another league it reuses."""
    details = []
    known = facts.others.get(row.name, ())
    player_id = None
    # One player of that name in the organiser's other leagues is the same person: they keep
    # one record, as "Add a player from your other leagues" does. Several: nobody can tell.
    if len(known) == 1:
        player_id = known[0].player_id
        details.append(f"the player of the same name in {known[0].league}")
    if row.username:
        details.append(f"linked to the account “{row.username}”")
    text = ", ".join(details)
    return (text[0].upper() + text[1:] + "." if text else ""), player_id


def decide(rows: Sequence[Row], facts: Facts) -> list[Decision]:
    """Each row's outcome, in order: refused, already a member, a duplicate of an earlier
    row, near another name (the organiser chooses), or added."""
    members = {clean_name(m.name): m for m in facts.members}
    member_spellings = Spellings([m.name for m in facts.members])
    kept: dict[str, Row] = {}  # name: the first row that keeps it
    kept_spellings = Spellings()
    taken: dict[str, Row] = {}  # username: the row that links it
    decisions = []
    for row in rows:
        account_id = facts.accounts.get(row.username) if row.username else None
        refusal = _refused(row)
        if refusal:
            decisions.append(Decision(row, REFUSED, refusal))
            continue
        if row.name in members:
            decisions.append(
                Decision(
                    row, MEMBER, f"{members[row.name].name} is already a member: not added again."
                )
            )
            continue
        if row.name in kept:
            first = kept[row.name]
            decisions.append(
                Decision(
                    row, DUPLICATE, f"The same name as row {number(first.line)}: not added twice."
                )
            )
            continue
        refusal = _account_problem(row, facts, taken)
        if refusal:
            decisions.append(Decision(row, REFUSED, refusal))
            continue
        message, player_id = _added(row, facts)
        like_member = member_spellings.near(row.name)
        like_row = None if like_member else kept_spellings.near(row.name)
        if like_member or like_row:
            if like_member:
                message = f"Looks like {like_member}, already a member."
            else:
                earlier = kept[like_row]
                message = f"Looks like {earlier.name} on row {number(earlier.line)}."
            decision = Decision(row, NEAR, message, player_id, account_id)
        else:
            decision = Decision(row, ADD, message, player_id, account_id)
        decisions.append(decision)
        kept[row.name] = row
        kept_spellings.add(row.name)
        if row.username:
            taken[row.username] = row
    return decisions


def summary(decisions: Sequence[Decision]) -> str:
    """`5 rows: 2 will be added, 1 to check, 1 already a member and 1 refused.`"""
    counts = {outcome: 0 for outcome in OUTCOMES}
    for decision in decisions:
        counts[decision.outcome] += 1
    words = {
        ADD: "will be added",
        NEAR: "to check",
        MEMBER: "already a member" if counts[MEMBER] == 1 else "already members",
        DUPLICATE: "duplicate" if counts[DUPLICATE] == 1 else "duplicates",
        REFUSED: "refused",
    }
    parts = [f"{number(counts[o])} {words[o]}" for o in OUTCOMES if counts[o]]
    total = len(decisions)
    return f"{number(total)} row{'s' if total != 1 else ''}: {listing(parts)}."
