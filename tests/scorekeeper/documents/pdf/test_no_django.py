"""The PDF builders take plain data: nothing in scorekeeper/pdf imports Django."""

import subprocess
import sys

from tests.helpers.imports import imported_modules
from tests.helpers.paths import PDF, REPO


def test_no_builder_module_imports_django():
    modules = sorted(PDF.glob("*.py"))
    assert {path.name for path in modules} >= {"__init__.py", "base.py", "score_card.py"}
    offenders = {
        path.name: name
        for path in modules
        for name in imported_modules(path)
        if name.split(".")[0] in ("django", "leagues") or name.startswith("scorekeeper.models")
    }
    assert offenders == {}


def test_building_a_blank_sheet_loads_no_django():
    code = (
        "import sys; from scorekeeper import engine; "
        "from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard, build_score_card; "
        "data = build_score_card(ScoreCard(engine.get_ruleset('baskets'), "
        "(CardSide('Ann'), CardSide('Bob')))); "
        "print(data[:5].decode(), sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "%PDF- []"
