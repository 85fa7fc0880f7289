"""The benchmark prints rounds and whole games scored per second, and scores real rounds."""

import io
import re
import subprocess
import sys

from scorekeeper.engine import RULESETS, score_round
from scorekeeper.engine.bench import ROUNDS, run
from tests.helpers.paths import REPO

ROOT = REPO


def test_the_benchmark_rounds_are_valid_rounds_of_every_preset():
    assert set(ROUNDS) == set(RULESETS)
    for preset, round_input in ROUNDS.items():
        result = score_round(preset, round_input)
        assert all(side.total == sum(line.points for line in side.lines) for side in result.sides)


def test_the_benchmark_measures_both_rates():
    out = io.StringIO()
    rates = run(out, seconds=0.05)
    assert rates["rounds"] > 0 and rates["games"] > 0
    lines = out.getvalue().splitlines()
    assert re.fullmatch(r"rounds scored per second: \d+", lines[0])
    assert re.fullmatch(r"4-round games per second: \d+", lines[1])


def test_python_m_scorekeeper_engine_bench_prints_the_rates_in_a_few_seconds():
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.engine", "bench"],
        capture_output=True,
        cwd=ROOT,
        timeout=30,
        check=False,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        r"rounds scored per second: \d+\n4-round games per second: \d+\n", done.stdout
    )
