"""The engine is plain Python: no module in it imports Django, directly or through an import; nor
do the modules packed with it for the phone (scorekeeper/portable/)."""

import subprocess
import sys

from tests.helpers.imports import imported_modules
from tests.helpers.paths import ENGINE, REPO

PORTABLE = ENGINE.parent / "portable"


def django_imports(modules):
    """{file name: a Django module it imports} for the files that import one."""
    return {
        path.name: name
        for path in modules
        for name in imported_modules(path)
        if name.split(".")[0] == "django"
    }


def test_no_engine_module_imports_django():
    modules = sorted(ENGINE.glob("*.py"))
    assert {path.name for path in modules} >= {"__init__.py", "rules.py", "scoring.py", "cli.py"}
    assert django_imports(modules) == {}


def test_no_module_packed_for_the_phone_imports_django():
    modules = sorted(PORTABLE.glob("*.py"))
    assert {path.name for path in modules} >= {"phone.py", "round_fields.py", "start_fields.py"}
    assert django_imports(modules) == {}


def test_the_scan_would_catch_a_django_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom django.conf import settings\n")
    assert "django.conf" in set(imported_modules(sample))


def test_importing_and_using_the_engine_loads_no_django():
    code = (
        "import sys, scorekeeper.engine as e, scorekeeper.engine.cli, scorekeeper.engine.bench, "
        "scorekeeper.portable.phone as p; "
        "e.score_round('baskets', {'ended_by': 'stock_exhausted', "
        "'sides': [{'name': 'A'}, {'name': 'B'}]}); "
        "g = p.start_game('baskets', {'side0-player0': 'A', 'side1-player0': 'B', "
        "'first_dealer': '0-0'}, 'x')['snapshot']; "
        "p.round_preview(g, [], {'went_out': 'stock', 's0-melded_points': '50'}); "
        "p.round_form(g, []); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
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
    assert done.stdout.strip() == "[]"
