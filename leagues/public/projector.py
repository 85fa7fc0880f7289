"""The projector view of a club night: the room's screen, in large type, with every table's live
totals, the top of the season's standings, the time and the night's round timer, refreshing
itself until the night is closed.

It reads what the night page and the standings read (`player_stats.night_view`,
`selectors.standings`), so it costs the same fixed number of queries at 4 tables or 50. Past
`PER_PAGE` tables it shows them a page at a time and each refresh brings the next page: the
page to show travels in the address, so any app process can answer any refresh.

Names are shortened here, not in the page: a card's line holds `name_letters` characters for
its grid, and a longer name shows its first names as initials (`board_names`), never a word cut.
The clock is the time in the site's zone as the server renders it, kept current between refreshes
by static/js/projector.js; the round timer is the night's row (`ClubNight.timer_ends_at`), so a
timer started on any app process shows on the next refresh, counted down in the page.
"""

import datetime
import math
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from leagues import player_stats, selectors
from leagues.models import ClubNight
from leagues.player_stats import NightTable, NightView
from leagues.public.board_names import shown_names
from leagues.public.lookups import id_or_404, league_or_404, render_page

# 5 × 4 cards fill a 1920×1080 screen with the standings beside them and type that reads from
# the back of a hall; more tables than this take turns, a page each refresh.
PER_PAGE = 20
TOP_STANDINGS = 10
REFRESH_SECONDS = 20
# The address's page number is ours to read; anything longer than this is not one we wrote.
MAX_PAGE_DIGITS = 4


@dataclass(frozen=True)
class BoardName:
    """A player's name as the board shows it (`shown`), and whole."""

    shown: str
    whole: str

    @property
    def shortened(self) -> bool:
        return self.shown != " ".join(self.whole.split())


@dataclass(frozen=True)
class ProjectorSide:
    """A side as a card shows it: its players' names, its total once playing, and whether it
    is the side marked as winning or leading."""

    players: list[BoardName]
    total: int | None
    marked: bool


@dataclass(frozen=True)
class ProjectorTable:
    """A table as the room's screen shows it: its state and which side is marked ahead."""

    number: int
    state: str  # "playing", "finished", "tie", "voided" or "not started"
    rounds: int
    sides: list[ProjectorSide]
    # "disputed" when another side says a round is wrong; "to confirm" when the game is over
    # but a round still waits for another side's word; "" otherwise.
    confirming: str = ""

    @property
    def badge(self) -> str:
        """The word on the table's badge: its state, or what its rounds wait for."""
        return self.confirming or self.state

    @property
    def leader_word(self) -> str:
        return "winner" if self.state == "finished" else "leading"


def _marked(table: NightTable, state: str) -> int | None:
    # The winner once finished; while playing, the side strictly ahead after a round or more.
    # A voided game counts for nobody, so nobody is marked there.
    if state == "finished":
        return next((i for i, side in enumerate(table.sides) if side.won), None)
    if state != "playing" or table.rounds == 0:
        return None
    totals = [side.total for side in table.sides if side.total is not None]
    best = max(totals, default=None)
    if best is None or totals.count(best) > 1:
        return None
    return next(i for i, side in enumerate(table.sides) if side.total == best)


def projector_tables(view: NightView, names: dict[str, str] | None = None) -> list[ProjectorTable]:
    """The night's tables, each with its state, the side marked as winning or leading and its
    players' names as `names` shows them (whole where a name is not in it)."""
    names = names or {}
    shown = []
    for table in view.tables:
        state = table.state
        marked = _marked(table, state)
        shown.append(
            ProjectorTable(
                number=table.number,
                state=state,
                rounds=table.rounds,
                confirming="disputed"
                if table.disputed
                else "to confirm"
                if table.to_confirm and state in ("finished", "tie")
                else "",
                sides=[
                    ProjectorSide(
                        players=[BoardName(names.get(p, p), p) for p in side.players],
                        total=side.total,
                        marked=i == marked,
                    )
                    for i, side in enumerate(table.sides)
                ],
            )
        )
    return shown


@dataclass(frozen=True)
class TablePage:
    """One page of the tables: which page of how many, and the numbers of its first and last."""

    number: int
    count: int
    start: int  # index of its first table
    size: int

    @classmethod
    def of(cls, tables: int, asked: str | None) -> "TablePage":
        count = max(1, math.ceil(tables / PER_PAGE))
        # Even pages (17, 17, 16 rather than 20, 20, 10), so no page looks nearly empty.
        size = math.ceil(tables / count) if tables else 0
        number = 1
        if asked and asked.isdecimal() and len(asked) <= MAX_PAGE_DIGITS:
            # Tables come and go during a night: a page past the end wraps round to the first.
            number = (int(asked) - 1) % count + 1
        return cls(number, count, (number - 1) * size, size)

    @property
    def next_number(self) -> int:
        return self.number % self.count + 1

    def ranges(self, tables: list[ProjectorTable]) -> list[tuple[int, int, int]]:
        """Each page's number with the table numbers it starts and ends at."""
        return [
            (n + 1, part[0].number, part[-1].number)
            for n in range(self.count)
            if (part := tables[n * self.size : (n + 1) * self.size])
        ]


def grid_columns(count: int) -> int:
    """How many columns of cards a wide screen shows `count` tables in: 12 make 4 × 3, 20 make
    5 × 4 (wide enough for a name and tall enough for a total under it)."""
    for most, columns in ((1, 1), (4, 2), (9, 3), (16, 4)):
        if count <= most:
            return columns
    return 5


# How many characters of a name a card's line holds, by the grid's columns: the type of
# projector.css is sized so that this many letters of a wide font (DejaVu Sans) fit on the line.
NAME_LETTERS = {1: 40, 2: 30}
NAME_LETTERS_NARROW = 25


def name_letters(columns: int) -> int:
    """The characters a name may take on one line of a card in a grid of `columns`; a longer
    name shows its first names as initials."""
    return NAME_LETTERS.get(columns, NAME_LETTERS_NARROW)


@dataclass(frozen=True)
class RoundTimer:
    """The night's round timer as the board shows it: when it runs out, and whether it has."""

    ends_at: datetime.datetime
    minutes: int
    out: bool
    # Whole minutes left, rounded up: what the page says before its script counts the seconds.
    minutes_left: int


def round_timer(night: ClubNight, now: datetime.datetime) -> RoundTimer | None:
    """The night's round timer at `now`, or None when none is set or the night is closed."""
    ends = night.timer_ends_at
    if ends is None or night.closed_at is not None:
        return None
    left = math.ceil((ends - now).total_seconds() / 60)
    return RoundTimer(ends, night.timer_minutes or 0, left <= 0, max(left, 0))


def zone_offset_minutes(moment: datetime.datetime) -> int:
    """The site's zone's offset from UTC at `moment`, in minutes (60 for British Summer Time)."""
    offset = timezone.localtime(moment).utcoffset()
    return int(offset.total_seconds() // 60) if offset is not None else 0


@require_GET
def night_projector(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    league, _ = league_or_404(request, slug)
    night = player_stats.night_get(league, id_or_404(night_id))
    if night is None:
        raise Http404("No such club night")
    view = player_stats.night_view(night)
    # Every page is laid out for the fullest one, so the cards keep their size as pages turn.
    page = TablePage.of(len(view.tables), request.GET.get("page"))
    columns = grid_columns(page.size)
    standings = selectors.standings(league, night.season, brief=True)[:TOP_STANDINGS]
    # Everyone the board names, so that two players never show as the same short name.
    everyone = [name for table in view.tables for side in table.sides for name in side.players] + [
        row.name for row in standings
    ]
    names = shown_names(everyone, name_letters(columns))
    # The standings' column is as narrow whatever the grid: its names as the narrowest card's.
    ranked = shown_names(everyone, NAME_LETTERS_NARROW)
    tables = projector_tables(view, names)
    shown = tables[page.start : page.start + page.size]
    closed = night.closed_at is not None
    now = timezone.now()
    path = reverse("leagues:night_projector", args=[league.slug, night.pk])
    context = {
        "league": league,
        "night": night,
        "tables": shown,
        "columns": columns,
        "rows": math.ceil(page.size / columns),
        "page": page,
        "page_ranges": page.ranges(tables) if page.count > 1 else [],
        "table_count": len(tables),
        "first_number": shown[0].number if shown else 0,
        "last_number": shown[-1].number if shown else 0,
        # Brief: the board shows neither ratings nor the last five, and polls all evening.
        "standings": [
            (row, BoardName(ranked.get(row.name, row.name), row.name)) for row in standings
        ],
        "closed": closed,
        # A closed night's results are final: nothing to fetch again, no page to turn to.
        "refresh_url": None
        if closed
        else path
        if page.count == 1
        else f"{path}?page={page.next_number}",
        "refresh_seconds": REFRESH_SECONDS,
        "updated_at": now,
        "now": now,
        # The server's clock in milliseconds: the page counts from it, not from its own clock.
        "now_ms": int(now.timestamp() * 1000),
        "zone": timezone.get_current_timezone_name(),
        "zone_offset": zone_offset_minutes(now),
        "timer": round_timer(night, now),
    }
    return render_page(request, "leagues/projector.html", context, "board")
