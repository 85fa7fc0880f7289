"""The engine is plain Python: no module in it imports Django, directly or through an import."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "scorekeeper" / "engine"


def imported_modules(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


def test_no_engine_module_imports_django():
    modules = sorted(ENGINE.glob("*.py"))
    assert {path.name for path in modules} >= {"__init__.py", "rules.py", "scoring.py", "cli.py"}
    offenders = {
        path.name: name
        for path in modules
        for name in imported_modules(path)
        if name.split(".")[0] == "django"
    }
    assert offenders == {}


def test_the_scan_would_catch_a_django_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom django.conf import settings\n")
    assert "django.conf" in set(imported_modules(sample))


def test_importing_and_using_the_engine_loads_no_django():
    code = (
        "import sys, scorekeeper.engine as e, scorekeeper.engine.cli, scorekeeper.engine.bench; "
        "e.score_round('baskets', {'ended_by': 'stock_exhausted', "
        "'sides': [{'name': 'A'}, {'name': 'B'}]}); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ENGINE.parents[1],
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
