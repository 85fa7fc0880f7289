"""A line chart of running totals, drawn as SVG on the server (no chart library to ship)."""

from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 320, 180, 28


@dataclass(frozen=True)
class Series:
    name: str
    points: str  # SVG polyline points
    css: str
    last_x: float
    last_y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    series: list[Series]
    zero_y: float
    top_label: int
    bottom_label: int
    rounds: int


def running_totals_chart(names: list[str], totals_by_round: list[list[int]]) -> Chart | None:
    """Scale each side's running totals (with a 0 before round 1) into the chart box."""
    if not totals_by_round:
        return None
    values = [0, *(v for row in totals_by_round for v in row)]
    low, high = min(values), max(values)
    span = (high - low) or 1
    steps = len(totals_by_round)

    def x(step: int) -> float:
        return round(PAD + (WIDTH - 2 * PAD) * step / steps, 1)

    def y(value: int) -> float:
        return round(HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / span, 1)

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
    return Chart(WIDTH, HEIGHT, series, y(0), high, low, steps)
