"""A line chart of running totals, drawn as SVG on the server (no chart library to ship)."""

import math
from dataclasses import dataclass

from scorekeeper.engine.formatting import MINUS, number

WIDTH, HEIGHT = 320, 200
# Room for the points labels on the left ("−10,000" at 11 px), the round numbers below and the
# axis title above; the right edge only keeps the last point's dot inside the box.
LEFT, RIGHT, TOP, BOTTOM = 48, 8, 24, 26
# About this many labelled ticks up the side and along the bottom: readable at 360 px wide.
Y_TICKS, X_TICKS = 5, 8
# Labels along the bottom that are words (`30 Sep`, about 36 wide at 10 px) keep their centres
# this far apart, so that none overlaps its neighbour on a 360 px phone (the box is drawn about
# 1:1 there); the right margin then keeps the last one's half inside the box, and a second line
# under them (the year) needs this much more room below.
X_LABEL_GAP, LABELLED_RIGHT, SUB_LINE = 46, 22, 12


@dataclass(frozen=True)
class Series:
    name: str
    points: str  # SVG polyline points
    css: str
    last_x: float
    last_y: float


@dataclass(frozen=True)
class Tick:
    at: float  # the y (or x) of the tick in the chart's box
    label: str
    sub: str = ""  # a second line under an x label, such as the year under a date


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    series: list[Series]
    zero_y: float
    top_label: int
    bottom_label: int
    rounds: int
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    y_ticks: tuple[Tick, ...] = ()
    x_ticks: tuple[Tick, ...] = ()
    target: Tick | None = None


def _label(value: float) -> str:
    if value == int(value):
        return number(int(value))
    return f"{value:,.10g}".replace("-", MINUS)


def nice_step(span: float, count: int) -> float:
    """The round step (1, 2, 2.5 or 5 times a power of ten) that cuts `span` into at most
    `count` parts."""
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def spaced_ticks(candidates: list[Tick], gap: float = X_LABEL_GAP) -> tuple[Tick, ...]:
    """The candidate ticks (left to right) whose labels fit: each at least `gap` from the one
    before, the last candidate in place of its neighbour when the two would collide, and a
    second line only where it differs from the one shown before it."""
    kept: list[Tick] = []
    for tick in candidates:
        if not kept or tick.at - kept[-1].at >= gap:
            kept.append(tick)
    # The latest label says how recent the line is: it matters more than the one before it.
    if len(kept) > 1 and kept[-1] is not candidates[-1] and candidates[-1].at - kept[-2].at >= gap:
        kept[-1] = candidates[-1]
    shown: list[Tick] = []
    for tick in kept:
        same = bool(shown) and tick.sub == kept[len(shown) - 1].sub
        shown.append(Tick(tick.at, tick.label, "" if same else tick.sub))
    return tuple(shown)


def running_totals_chart(
    names: list[str],
    totals_by_round: list[list[int]],
    *,
    target: int | None = None,
    x_labels: list[tuple[str, str]] | None = None,
) -> Chart | None:
    """Scale each side's running totals (with a 0 before round 1) into the chart box, with
    labelled ticks on both axes and, in a game to a target, the target's line.

    `x_labels`, one `(label, second line)` per step or `("", "")` for none, label the bottom in
    words (dates) instead of step numbers, as many as fit without overlapping."""
    if not totals_by_round:
        return None
    values = [0, *(v for row in totals_by_round for v in row)]
    high, low = max(values), min(values)
    # The scale reaches the target, so the lines show how far each side still has to go.
    top = high if target is None else max(high, target)
    if top == low:
        # Nothing but zeros yet: a scale of 0 to 100 keeps the flat lines at the bottom.
        top = low + 100
    step = nice_step(top - low, Y_TICKS)
    floor = math.floor(low / step) * step
    ceiling = math.ceil(top / step) * step
    steps = len(totals_by_round)
    right = WIDTH - (LABELLED_RIGHT if x_labels else RIGHT)
    subs = bool(x_labels) and any(sub for _, sub in x_labels)
    height = HEIGHT + (SUB_LINE if subs else 0)
    bottom = height - BOTTOM - (SUB_LINE if subs else 0)

    def x(step_number: int) -> float:
        return round(LEFT + (right - LEFT) * step_number / steps, 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - TOP) * (value - floor) / (ceiling - floor), 1)

    series = []
    for index, name in enumerate(names):
        line = [(x(0), y(0))] + [(x(s + 1), y(row[index])) for s, row in enumerate(totals_by_round)]
        series.append(
            Series(
                name,
                " ".join(f"{px},{py}" for px, py in line),
                f"series-{index % 6}",
                line[-1][0],
                line[-1][1],
            )
        )
    count = round((ceiling - floor) / step)
    y_ticks = tuple(Tick(y(floor + i * step), _label(floor + i * step)) for i in range(count + 1))
    if x_labels:
        x_ticks = spaced_ticks(
            [Tick(x(s), label, sub) for s, (label, sub) in enumerate(x_labels, start=1) if label]
        )
    else:
        every = 1 if steps <= X_TICKS else math.ceil(nice_step(steps, X_TICKS))
        x_ticks = tuple(Tick(x(r), str(r)) for r in range(every, steps + 1, every))
    return Chart(
        WIDTH,
        height,
        series,
        y(0),
        high,
        low,
        steps,
        right=right,
        bottom=bottom,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        target=None if target is None else Tick(y(target), _label(target)),
    )
