"""The rating chart: the dates of the games along the bottom, rating points up the side."""

import datetime

from leagues.charts import rating_chart
from scorekeeper.games.charts import WIDTH, X_LABEL_GAP

OCT_1 = datetime.date(2026, 10, 1)


def weekly(count: int, start: datetime.date = OCT_1) -> list[datetime.date]:
    return [start + datetime.timedelta(weeks=n) for n in range(count)]


def x_labels(chart) -> list[tuple[str, str]]:
    return [(tick.label, tick.sub) for tick in chart.chart.x_ticks]


def test_a_season_of_club_nights_is_labelled_by_date_with_the_year_where_it_changes():
    # Two games on the first night, then one a week, past New Year.
    dates = [OCT_1, *weekly(9), datetime.date(2026, 12, 31), datetime.date(2027, 1, 7)]
    ratings = [-2.04, -1.0, 0.5, 2.0, 3.5, 5.0, 6.5, 8.0, 9.5, 10.0, 11.0, 12.0]

    chart = rating_chart(list(zip(dates, ratings, strict=True)))

    # Twelve steps of 250 / 12 units: labels three games apart at least, the last date kept in
    # place of 26 Nov, which would have crowded it.
    assert x_labels(chart) == [("1 Oct", "2026"), ("15 Oct", ""), ("5 Nov", ""), ("7 Jan", "2027")]
    assert [tick.at for tick in chart.chart.x_ticks] == [68.8, 131.3, 193.8, 298.0]
    assert [tick.label for tick in chart.chart.y_ticks] == ["−5", "0", "5", "10", "15"]
    assert (chart.games, chart.first, chart.latest, chart.lowest, chart.highest) == (
        12,
        -2.0,
        12.0,
        -2.0,
        12.0,
    )
    assert (chart.first_date, chart.latest_date) == (OCT_1, datetime.date(2027, 1, 7))
    assert (chart.chart.height, chart.chart.bottom) == (212, 174)


def test_one_night_of_games_has_one_date_and_small_ratings_decimal_points():
    chart = rating_chart([(OCT_1, 0.1), (OCT_1, 0.3)])

    assert x_labels(chart) == [("1 Oct", "2026")]
    assert [tick.label for tick in chart.chart.y_ticks] == ["0", "0.1", "0.2", "0.3"]


def test_no_two_dates_overlap_on_a_phone_however_many_games():
    for count in range(1, 120):
        chart = rating_chart([(date, float(n)) for n, date in enumerate(weekly(count))])
        at = [tick.at for tick in chart.chart.x_ticks]

        assert all(b - a >= X_LABEL_GAP for a, b in zip(at, at[1:], strict=False)), count
        # The last label's half (about 18 units) stays inside the box.
        assert at[-1] + 18 <= WIDTH
        assert (chart.chart.x_ticks[0].label, chart.chart.x_ticks[0].sub) == ("1 Oct", "2026")
        years = [tick.sub for tick in chart.chart.x_ticks if tick.sub]
        assert years == sorted(set(years)), count


def test_no_rated_game_draws_no_chart():
    assert rating_chart([]) is None
