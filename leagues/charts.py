"""A player's rating over their games, drawn with the kitchen-table app's SVG line chart."""

from dataclasses import dataclass

from scorekeeper.charts import Chart, running_totals_chart


@dataclass(frozen=True)
class RatingChart:
    chart: Chart
    games: int
    first: float
    latest: float
    highest: float
    lowest: float


def rating_chart(ratings: list[float]) -> RatingChart | None:
    """The rating after each rated game as a line from 0, where every new player starts."""
    if not ratings:
        return None
    shown = [round(value, 1) for value in ratings]
    chart = running_totals_chart(["Rating"], [[value] for value in shown])
    return RatingChart(
        chart=chart,
        games=len(shown),
        first=shown[0],
        latest=shown[-1],
        # The chart's axis labels include the starting 0.
        highest=max(0.0, *shown),
        lowest=min(0.0, *shown),
    )
