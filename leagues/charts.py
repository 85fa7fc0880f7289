"""A player's rating over their games, drawn with the kitchen-table app's SVG line chart."""

import dataclasses
import datetime
from dataclasses import dataclass

from scorekeeper.engine.formatting import day_month
from scorekeeper.games.charts import Chart, Series, Tick, running_totals_chart


@dataclass(frozen=True)
class RatingChart:
    chart: Chart
    games: int
    first: float
    latest: float
    highest: float
    lowest: float
    first_date: datetime.date
    latest_date: datetime.date


def rating_chart(history: list[tuple[datetime.date, float]]) -> RatingChart | None:
    """The rating after each rated game as a line from 0, where every new player starts, with
    the dates of the games along the bottom (a club night's first game carries its date, the
    year under the first date and wherever it changes) and rating points up the side."""
    if not history:
        return None
    dates = [date for date, _ in history]
    shown = [round(value, 1) for _, value in history]
    labels = [
        (day_month(date), str(date.year)) if n == 0 or date != dates[n - 1] else ("", "")
        for n, date in enumerate(dates)
    ]
    chart = running_totals_chart(["Rating"], [[value] for value in shown], x_labels=labels)
    return RatingChart(
        chart=chart,
        games=len(shown),
        first=shown[0],
        latest=shown[-1],
        # The chart's axis labels include the starting 0.
        highest=max(0.0, *shown),
        lowest=min(0.0, *shown),
        first_date=dates[0],
        latest_date=dates[-1],
    )


def chart_to_json(chart: RatingChart | None) -> dict:
    """The chart as JSON values, as the player's all-time standing row keeps it ({} for none):
    drawn once when their ratings change instead of at every view of their page."""
    if chart is None:
        return {}
    kept = dataclasses.asdict(chart)
    kept["first_date"] = chart.first_date.isoformat()
    kept["latest_date"] = chart.latest_date.isoformat()
    return kept


def chart_from_json(kept: dict | None) -> RatingChart | None:
    """The chart `chart_to_json` kept, as drawn; None for none."""
    if not kept:
        return None
    drawn = dict(kept["chart"])
    drawn["series"] = [Series(**series) for series in drawn["series"]]
    drawn["y_ticks"] = tuple(Tick(**tick) for tick in drawn["y_ticks"])
    drawn["x_ticks"] = tuple(Tick(**tick) for tick in drawn["x_ticks"])
    drawn["target"] = Tick(**drawn["target"]) if drawn["target"] else None
    return RatingChart(
        **{
            **kept,
            "chart": Chart(**drawn),
            "first_date": datetime.date.fromisoformat(kept["first_date"]),
            "latest_date": datetime.date.fromisoformat(kept["latest_date"]),
        }
    )
