"""The running-totals chart: labelled ticks on both axes and the dashed target line."""

import re

from scorekeeper.games import services
from scorekeeper.games.charts import Tick, nice_step, running_totals_chart, spaced_ticks
from scorekeeper.rounds.services import round_record
from tests.helpers.games import side_specs


def labels(ticks) -> list[str]:
    return [tick.label for tick in ticks]


def test_round_steps_cut_a_span_into_at_most_so_many_parts():
    assert [nice_step(span, 5) for span in (10_400, 5_000, 100, 23, 3.3)] == [
        2_500,
        1_000,
        20,
        5,
        1,
    ]


def test_the_points_axis_runs_from_below_the_lowest_total_to_the_target_in_round_steps():
    chart = running_totals_chart(
        ["Ann", "Bob"], [[500, 300], [2_000, -400], [3_400, 1_200]], target=10_000
    )

    assert labels(chart.y_ticks) == ["−2,500", "0", "2,500", "5,000", "7,500", "10,000"]
    assert [tick.at for tick in chart.y_ticks] == [174.0, 144.0, 114.0, 84.0, 54.0, 24.0]
    assert chart.target.label == "10,000"
    assert chart.target.at == 24.0 == chart.top
    assert labels(chart.x_ticks) == ["1", "2", "3"]
    assert [tick.at for tick in chart.x_ticks] == [136.0, 224.0, 312.0]


def test_without_a_target_the_axis_stops_at_the_highest_total():
    chart = running_totals_chart(["Ann"], [[120], [340]])

    assert labels(chart.y_ticks) == ["0", "100", "200", "300", "400"]
    assert chart.target is None


def test_a_long_game_labels_every_few_rounds_and_a_flat_start_still_has_a_scale():
    long = running_totals_chart(["Ann"], [[n * 100] for n in range(1, 24)])
    flat = running_totals_chart(["Ann"], [[0]])

    assert labels(long.x_ticks) == ["5", "10", "15", "20"]
    assert labels(flat.y_ticks) == ["0", "20", "40", "60", "80", "100"]


def test_small_decimal_values_such_as_ratings_get_decimal_ticks():
    chart = running_totals_chart(["Rating"], [[0.1], [0.3]])

    assert labels(chart.y_ticks) == ["0", "0.1", "0.2", "0.3"]
    assert labels(chart.x_ticks) == ["1", "2"]


def chart_svg(html: str) -> str:
    return re.search(r'<svg class="chart".*?</svg>', html, re.S).group(0)


def test_the_game_page_draws_the_target_line_and_labelled_axes(client, game_with_rounds):
    game = game_with_rounds(2)  # Baskets, first to 5,000: Ann 100, Bob 50

    svg = chart_svg(client.get(f"/g/{game.public_id}/").content.decode())

    assert 'aria-label="Running totals after each round, and the target of 5,000"' in svg
    assert re.findall(r'<line class="target" ([^>]*)/>', svg) == [
        'x1="48" x2="312" y1="24.0" y2="24.0" stroke-dasharray="6 4"'
    ]
    assert re.findall(r'<text class="target-label"[^>]*>([^<]*)</text>', svg) == ["Target 5,000"]
    assert re.findall(r'<text class="axis-label"[^>]*>([^<]*)</text>', svg) == [
        "0",
        "1,000",
        "2,000",
        "3,000",
        "4,000",
        "5,000",
        "1",
        "2",
    ]
    assert re.findall(r'<text class="axis-title"[^>]*>([^<]*)</text>', svg) == ["Round", "Points"]
    assert "style=" not in svg


def test_a_game_of_so_many_rounds_has_axes_but_no_target_line(client, db):
    game = services.game_start(preset="four-rounds", sides=side_specs("four-rounds"))
    round_record(
        game=game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}],
    )

    svg = chart_svg(client.get(f"/g/{game.public_id}/").content.decode())

    assert 'aria-label="Running totals after each round"' in svg
    assert 'class="target' not in svg
    assert re.findall(r'<text class="axis-label"[^>]*>([^<]*)</text>', svg) == [
        "0",
        "10",
        "20",
        "30",
        "40",
        "50",
        "1",
    ]


def test_spaced_ticks_keep_apart_prefer_the_last_and_repeat_no_second_line():
    candidates = [
        Tick(50, "a", "2026"),
        Tick(80, "b", "2026"),
        Tick(100, "c", "2026"),
        Tick(150, "d", "2027"),
        Tick(170, "e", "2027"),
    ]

    shown = spaced_ticks(candidates, gap=46)

    # b is too close to a; e replaces d, which is too close to it, and keeps its year.
    assert [(t.at, t.label, t.sub) for t in shown] == [
        (50, "a", "2026"),
        (100, "c", ""),
        (170, "e", "2027"),
    ]
    assert spaced_ticks([]) == ()
    assert spaced_ticks(candidates[:2], gap=46) == (Tick(50, "a", "2026"),)


def test_words_along_the_bottom_leave_room_at_the_right_and_for_the_year():
    chart = running_totals_chart(
        ["Rating"], [[1], [2], [3]], x_labels=[("1 Oct", "2026"), ("", ""), ("8 Oct", "2026")]
    )

    assert [(t.at, t.label, t.sub) for t in chart.x_ticks] == [
        (131.3, "1 Oct", "2026"),
        (298.0, "8 Oct", ""),
    ]
    assert (chart.right, chart.height, chart.bottom) == (298, 212, 174)
    assert chart.series[0].points == "48.0,174.0 131.3,124.0 214.7,74.0 298.0,24.0"
