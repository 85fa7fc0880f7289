"""The projector view of a club night: the room's screen, in large type, with every table's live
totals and the top of the season's standings, refreshing itself until the night is closed.

It reads what the night page and the standings read (`player_stats.night_view`,
`selectors.standings`), so it costs the same fixed number of queries at 4 tables or 50. Past
`PER_PAGE` tables it shows them a page at a time and each refresh brings the next page: the
page to show travels in the address, so any app process can answer any refresh.
"""

import math
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from leagues import player_stats, selectors
from leagues.player_stats import NightTable, NightView, TableSide
from leagues.public.lookups import id_or_404, league_or_404, render_page

# 4 × 5 cards fill a 1920×1080 screen with the standings beside them and type that reads from
# the back of a hall; more tables than this take turns, a page each refresh.
PER_PAGE = 20
TOP_STANDINGS = 10
REFRESH_SECONDS = 20
# The address's page number is ours to read; anything longer than this is not one we wrote.
MAX_PAGE_DIGITS = 4


@dataclass(frozen=True)
class ProjectorTable:
    """A table as the room's screen shows it: its state and which side is marked ahead."""

    number: int
    state: str  # "playing", "finished", "tie", "voided" or "not started"
    rounds: int
    sides: list[tuple[TableSide, bool]]  # each side, and whether it is the one marked

    @property
    def leader_word(self) -> str:
        return "winner" if self.state == "finished" else "leading"


def _state(table: NightTable) -> str:
    game = table.league_game
    if game is None:
        return "not started"
    if game.voided:
        return "voided"
    if game.game.finished:
        return "tie" if game.game.tie else "finished"
    return "playing"


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


def projector_tables(view: NightView) -> list[ProjectorTable]:
    """The night's tables, each with its state and the side marked as winning or leading."""
    shown = []
    for table in view.tables:
        state = _state(table)
        marked = _marked(table, state)
        shown.append(
            ProjectorTable(
                number=table.number,
                state=state,
                rounds=table.rounds,
                sides=[(side, i == marked) for i, side in enumerate(table.sides)],
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
    """How many columns of cards a wide screen shows `count` tables in: 20 make 4 × 5."""
    for most, columns in ((1, 1), (4, 2), (9, 3)):
        if count <= most:
            return columns
    return 4


@require_GET
def night_projector(request: HttpRequest, slug: str, night_id: int) -> HttpResponse:
    league, _ = league_or_404(request, slug)
    night = player_stats.night_get(league, id_or_404(night_id))
    if night is None:
        raise Http404("No such club night")
    tables = projector_tables(player_stats.night_view(night))
    page = TablePage.of(len(tables), request.GET.get("page"))
    shown = tables[page.start : page.start + page.size]
    closed = night.closed_at is not None
    # Every page is laid out for the fullest one, so the cards keep their size as pages turn.
    columns = grid_columns(page.size)
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
        "standings": selectors.standings(league, night.season, brief=True)[:TOP_STANDINGS],
        "closed": closed,
        # A closed night's results are final: nothing to fetch again, no page to turn to.
        "refresh_url": None
        if closed
        else path
        if page.count == 1
        else f"{path}?page={page.next_number}",
        "refresh_seconds": REFRESH_SECONDS,
        "updated_at": timezone.now(),
    }
    return render_page(request, "leagues/projector.html", context, "board")
