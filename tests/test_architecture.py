"""The import rules of docs/architecture.md, held over the real import graph: each package
imports only the packages below it, no two modules import each other round a circle, and no
module imports another's private name."""

import ast
from pathlib import Path

import pytest

from tests.helpers.paths import REPO

SOURCES = ("config", "scorekeeper", "leagues")

ENGINE = "scorekeeper.engine"
PORTABLE = "scorekeeper.portable"
PDF = "scorekeeper.documents.pdf"
CORE = "scorekeeper.core"  # models, signals, access, busy: what every feature stands on
GAMES = "scorekeeper.games"
ROUNDS = "scorekeeper.rounds"
DOCUMENTS = "scorekeeper.documents"
OFFLINE = "scorekeeper.offline"
ACCOUNTS = "scorekeeper.accounts"
DISPLAY = "scorekeeper.display"
TAGS = "scorekeeper.templatetags"
LEAGUES = "leagues.core"  # models, services, selectors and the figures they are made of
ORGANISER = "leagues.organiser"
PUBLIC = "leagues.public"
BACKUP = "leagues.backup"
COMMANDS = "leagues.management"
LEAGUE_URLS = "leagues.urls"
CONFIG = "config"

KITCHEN_TABLE = {ENGINE, PORTABLE, PDF, CORE, GAMES, ROUNDS, DOCUMENTS}
# What each package may import besides itself: a package not named is forbidden to it.
ALLOWED = {
    ENGINE: set(),
    PORTABLE: {ENGINE},
    PDF: {ENGINE},
    CORE: {ENGINE},
    GAMES: {ENGINE, PORTABLE, CORE},
    ROUNDS: {ENGINE, PORTABLE, CORE, GAMES},
    DOCUMENTS: {ENGINE, PORTABLE, CORE, GAMES, PDF},
    OFFLINE: {ENGINE, PORTABLE, CORE, GAMES, ROUNDS},
    ACCOUNTS: {CORE},
    DISPLAY: set(),
    TAGS: {ENGINE, PORTABLE, CORE, GAMES, ROUNDS, DOCUMENTS, OFFLINE},
    LEAGUES: KITCHEN_TABLE,
    ORGANISER: KITCHEN_TABLE | {LEAGUES},
    PUBLIC: KITCHEN_TABLE | {LEAGUES},
    BACKUP: KITCHEN_TABLE | {LEAGUES},
    COMMANDS: KITCHEN_TABLE | {LEAGUES, BACKUP},
    LEAGUE_URLS: {LEAGUES, ORGANISER, PUBLIC},
    CONFIG: set(),  # settings and the URL map: the top, which may import anything
}
CORE_MODULES = {"scorekeeper", "scorekeeper.models", "scorekeeper.signals", "scorekeeper.apps"}
CORE_MODULES |= {"scorekeeper.access", "scorekeeper.busy"}


def package_of(module: str) -> str:
    """The package of the rules a module belongs to."""
    if module in CORE_MODULES:
        return CORE
    named = [p for p in ALLOWED if p not in (CORE, LEAGUES) and f"{module}.".startswith(f"{p}.")]
    if named:
        return max(named, key=len)
    if module.split(".")[0] == "leagues":
        return LEAGUES
    raise AssertionError(f"{module} is in no package of docs/architecture.md")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, module: str, *, top_level_only: bool = False):
    """(imported module, imported names) for each import statement of a file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    nodes = tree.body if top_level_only else ast.walk(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            yield base, [alias.name for alias in node.names]


def source_modules(root: Path) -> dict[str, Path]:
    return {
        module_name(path, root): path
        for source in SOURCES
        for path in sorted((root / source).rglob("*.py"))
        if "migrations" not in path.parts
    }


def resolve(imported: str, names: list[str], modules: dict[str, Path]) -> list[str]:
    """The project's modules an import statement loads (a `from package import module` loads
    that module)."""
    found = [f"{imported}.{name}" for name in names if f"{imported}.{name}" in modules]
    # The package itself counts when a name is taken from it, not when it only holds the module.
    if imported in modules and len(found) < max(len(names), 1):
        found.append(imported)
    return found


def forbidden_imports(root: Path) -> list[str]:
    modules = source_modules(root)
    problems = []
    for module, path in modules.items():
        own = package_of(module)
        for imported, names in imports_of(path, module):
            for target in resolve(imported, names, modules):
                theirs = package_of(target)
                if theirs != own and own != CONFIG and theirs not in ALLOWED[own]:
                    problems.append(f"{module} ({own}) imports {target} ({theirs})")
    return problems


def circles(root: Path) -> list[list[str]]:
    """Every circle of top-level imports between modules (each listed once)."""
    modules = source_modules(root)
    graph = {
        module: {
            target
            for imported, names in imports_of(path, module, top_level_only=True)
            for target in resolve(imported, names, modules)
            if target != module and not module.startswith(f"{target}.")
        }
        for module, path in modules.items()
    }
    found, done = [], set()

    def visit(module: str, trail: list[str]) -> None:
        for target in sorted(graph[module]):
            if target in trail:
                circle = trail[trail.index(target) :]
                if frozenset(circle) not in done:
                    done.add(frozenset(circle))
                    found.append([*circle, target])
            elif target not in seen:
                seen.add(target)
                visit(target, [*trail, target])

    seen: set[str] = set()
    for module in sorted(graph):
        if module not in seen:
            seen.add(module)
            visit(module, [module])
    return found


def private_imports(root: Path) -> list[str]:
    """`from module import _name` of the project's own modules, across modules (the tests'
    and the benches' imports too)."""
    modules = source_modules(root)
    readers = dict(modules)
    for folder in ("tests", "bench"):
        readers |= {module_name(p, root): p for p in sorted((root / folder).rglob("*.py"))}
    return [
        f"{module} imports {imported}.{name}"
        for module, path in readers.items()
        for imported, names in imports_of(path, module)
        if imported.split(".")[0] in SOURCES and imported != module
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]


def test_every_package_imports_only_the_packages_below_it():
    assert forbidden_imports(REPO) == []


def test_no_modules_import_each_other_round_a_circle():
    assert circles(REPO) == []


def test_no_module_imports_a_private_name_of_another():
    assert private_imports(REPO) == []


def test_every_module_is_in_a_package_of_the_rules():
    assert {package_of(module) for module in source_modules(REPO)} == set(ALLOWED)


@pytest.fixture
def sample(tmp_path):
    """A small tree with one of each fault, to show the checks would see them."""
    files = {
        "config/__init__.py": "",
        "leagues/__init__.py": "",
        "scorekeeper/__init__.py": "",
        "scorekeeper/engine/__init__.py": "from scorekeeper.games import views\n",
        "scorekeeper/games/__init__.py": "",
        "scorekeeper/games/views.py": "from scorekeeper.games import a\n",
        "scorekeeper/games/a.py": "from scorekeeper.games.b import _hidden\n",
        "scorekeeper/games/b.py": "from . import a\n_hidden = 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_checks_would_see_a_forbidden_import_a_circle_and_a_private_name(sample):
    assert forbidden_imports(sample) == [
        "scorekeeper.engine (scorekeeper.engine) imports scorekeeper.games.views "
        "(scorekeeper.games)"
    ]
    assert circles(sample) == [
        ["scorekeeper.games.a", "scorekeeper.games.b", "scorekeeper.games.a"]
    ]
    assert private_imports(sample) == ["scorekeeper.games.a imports scorekeeper.games.b._hidden"]
