"""Every name a bench imports from the project exists: a bench runs only in CI's last section, so
a name moved away must fail here first, in the tests, not there."""

import ast
import importlib

from tests.helpers.paths import REPO

PROJECT = ("bench", "config", "leagues", "scorekeeper", "tests")


def missing_names(root) -> list[str]:
    """`file: module.name` for each project import, at any depth in a bench file, that fails."""
    missing = []
    for path in sorted((root / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level:
                continue
            if (node.module or "").split(".")[0] not in PROJECT:
                continue
            try:
                module = importlib.import_module(node.module)
            except ImportError:
                missing.append(f"{path.name}: {node.module}")
                continue
            for alias in node.names:
                if not hasattr(module, alias.name):
                    try:
                        importlib.import_module(f"{node.module}.{alias.name}")
                    except ImportError:
                        missing.append(f"{path.name}: {node.module}.{alias.name}")
    return missing


def test_every_project_name_a_bench_imports_is_there(db):
    assert missing_names(REPO) == []


def test_the_check_would_see_a_name_moved_away(tmp_path, db):
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "old.py").write_text(
        "def run():\n    from scorekeeper.games.entry import team_size\n"
        "    from scorekeeper.portable.start_fields import team_size, gone\n"
    )
    assert missing_names(tmp_path) == [
        "old.py: scorekeeper.games.entry",
        "old.py: scorekeeper.portable.start_fields.gone",
    ]
