"""The test tree's own layout: no module under tests/ imports a test module (test_*.py) or a
conftest. What tests share lives in tests/helpers/, as plain functions and classes; fixtures stay
in the conftest.py files, where pytest finds them without an import.

The scan reads every module's imports with `ast`: `import tests.x`, `from tests.x import y` (y
too, which may be a module), relative imports, and importlib.import_module("tests.x") or
__import__("tests.x") with the name written out."""

import ast
from pathlib import Path

from tests.helpers.paths import REPO

TESTS = REPO / "tests"


def module_name(path: Path, root: Path) -> str:
    """`tests.a.b` for root/a/b.py, `tests.a` for root/a/__init__.py (root is the `tests`
    folder, or a folder standing in for it)."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_file(name: str, root: Path) -> Path | None:
    """The file under root that module `name` is, or None for a module from elsewhere."""
    first, *rest = name.split(".")
    if first != root.name:
        return None
    base = root.joinpath(*rest)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_names(path: Path, root: Path) -> set[str]:
    """Every module name the file imports, relative imports made absolute; for `from m import n`
    both m and m.n, as n may be a module of package m."""
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def is_test_or_conftest(path: Path) -> bool:
    return path.name == "conftest.py" or (path.name.startswith("test_") and path.suffix == ".py")


def crossings(root: Path) -> dict[str, list[str]]:
    """{module: the test modules and conftests it imports}, paths relative to root's parent,
    for every module under root that imports one."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        targets = {
            target
            for name in imported_names(path, root)
            if (target := module_file(name, root)) is not None
            and is_test_or_conftest(target)
            and target != path
        }
        if targets:
            found[str(path.relative_to(root.parent))] = sorted(
                str(target.relative_to(root.parent)) for target in targets
            )
    return found


def test_no_module_under_tests_imports_a_test_module_or_a_conftest():
    assert crossings(TESTS) == {}


def test_the_scan_reads_the_whole_tree():
    scanned = {str(path.relative_to(REPO)) for path in TESTS.rglob("*.py")}
    assert {
        "tests/conftest.py",
        "tests/e2e/conftest.py",
        "tests/helpers/games.py",
        "tests/scorekeeper/rounds/test_concurrency.py",
        "tests/test_test_layout.py",
    } <= scanned
    assert len(scanned) > 100
    # The helpers the tests share are imported by them, and from tests.helpers.
    imports = imported_names(TESTS / "scorekeeper" / "rounds" / "test_concurrency.py", TESTS)
    assert {"tests.helpers.games", "tests.helpers.races"} <= imports


def test_the_scan_would_catch_each_kind_of_import(tmp_path):
    root = tmp_path / "tests"
    (root / "a" / "b").mkdir(parents=True)
    for package in (root, root / "a", root / "a" / "b"):
        (package / "__init__.py").write_text("")
    (root / "conftest.py").write_text("")
    (root / "a" / "conftest.py").write_text("from tests.a.helper import x\n")
    (root / "a" / "helper.py").write_text("x = 1\n")
    (root / "a" / "test_one.py").write_text("def shared(): ...\n")
    files = {
        "a/test_absolute.py": "from tests.a.test_one import shared\n",
        "a/test_plain.py": "import tests.a.test_one as one\n",
        "a/test_submodule.py": "from tests.a import test_one\n",
        "a/test_conftest.py": "from tests.a.conftest import x\n",
        "a/test_root_conftest.py": "from tests import conftest\n",
        "a/test_relative.py": "from .test_one import shared\n",
        "a/test_relative_package.py": "from . import conftest\n",
        "a/b/test_up.py": "from ..test_one import shared\n",
        "a/b/test_dynamic.py": (
            "import importlib\n\ndef later():\n"
            "    return importlib.import_module('tests.a.test_one')\n"
        ),
        "a/helper_of_helpers.py": "from tests.a.test_one import shared\n",
        "a/test_fine.py": (
            "from tests.a.helper import x\nfrom tests.a import helper\nimport pytest\n"
            "from . import helper as again\n"
        ),
    }
    for name, source in files.items():
        (root / name).write_text(source)

    found = crossings(root)

    one, conftest = ["tests/a/test_one.py"], ["tests/a/conftest.py"]
    assert found == {
        "tests/a/test_absolute.py": one,
        "tests/a/test_plain.py": one,
        "tests/a/test_submodule.py": one,
        "tests/a/test_conftest.py": conftest,
        "tests/a/test_root_conftest.py": ["tests/conftest.py"],
        "tests/a/test_relative.py": one,
        "tests/a/test_relative_package.py": conftest,
        "tests/a/b/test_up.py": one,
        "tests/a/b/test_dynamic.py": one,
        "tests/a/helper_of_helpers.py": one,
    }
