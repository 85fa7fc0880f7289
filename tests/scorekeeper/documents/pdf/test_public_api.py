"""The PDF builders use ReportLab's (and segno's) public API alone, so that a new release of
either cannot break them from the inside: no private name imported or read, no library class
or object patched, no private method overridden."""

import ast

import pytest

from tests.helpers.paths import PDF

LIBRARIES = ("reportlab", "segno")


def private(name: str) -> bool:
    """`_x` or `__x` (a dunder such as `__init__` is the language's, not a library's secret);
    `__dict__` reaches any object's private state all the same."""
    return name == "__dict__" or (name.startswith("_") and not name.endswith("__"))


def library(module: str) -> bool:
    return module.split(".")[0] in LIBRARIES


def library_names(tree: ast.Module) -> set[str]:
    """The names a module binds to a library's modules, classes and functions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and library(node.module or ""):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(
                (alias.asname or alias.name).split(".")[0]
                for alias in node.names
                if library(alias.name)
            )
    return names


def root(node: ast.expr) -> str:
    """The name an attribute chain starts from: `canvas` for `canvas.face.makeSubset`."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def derived_classes(trees: list[ast.Module]) -> set[str]:
    """Our classes that subclass a library's class, directly or through another of ours."""
    derived: set[str] = set()
    classes = [
        (node, library_names(tree))
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    ]
    while True:
        more = {
            node.name
            for node, imported in classes
            if any(root(base) in imported | derived for base in node.bases)
        }
        if more <= derived:
            return derived
        derived |= more


class Scan(ast.NodeVisitor):
    """Every use of a private name of someone else's, and every patch of a library."""

    def __init__(self, derived: set[str]) -> None:
        self.derived = derived
        self.found: list[str] = []
        self.classes: list[ast.ClassDef] = []

    def offence(self, node: ast.AST, what: str) -> None:
        self.found.append(f"line {node.lineno}: {what}")

    def own(self, node: ast.Attribute) -> bool:
        """`self._x` inside one of our classes that no library class is a base of."""
        return (
            isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
            and bool(self.classes)
            and self.classes[-1].name not in self.derived
        )

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if any(private(part) for part in module.split(".")):
            self.offence(node, f"imports from the private module {module}")
        for alias in node.names:
            if private(alias.name):
                self.offence(node, f"imports the private name {module}.{alias.name}")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if any(private(part) for part in alias.name.split(".")):
                self.offence(node, f"imports the private module {alias.name}")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node)
        if node.name in self.derived:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and private(item.name):
                    self.offence(item, f"{node.name} overrides the private method {item.name}")
        self.generic_visit(node)
        self.classes.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if private(node.attr) and not self.own(node):
            self.offence(node, f"reads the private attribute .{node.attr}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        if name in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2:
            target = node.args[1]
            if isinstance(target, ast.Constant) and private(str(target.value)):
                self.offence(node, f"{name} of the private attribute {target.value}")
            if name == "setattr" and root(node.args[0]) not in ("self",):
                self.offence(node, "setattr on an object not its own")
        self.generic_visit(node)

    def assigned(self, targets: list[ast.expr]) -> None:
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Attribute) and root(node) not in ("self", "cls"):
                    self.offence(node, f"sets .{node.attr} on an object not its own (a patch)")

    def visit_Assign(self, node: ast.Assign) -> None:
        self.assigned(node.targets)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.assigned([node.target])
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.assigned([node.target])
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        self.assigned(node.targets)
        self.generic_visit(node)


def offences(sources: dict[str, str]) -> dict[str, list[str]]:
    trees = {name: ast.parse(source) for name, source in sources.items()}
    derived = derived_classes(list(trees.values()))
    found = {}
    for name, tree in trees.items():
        scan = Scan(derived)
        scan.visit(tree)
        if scan.found:
            found[name] = scan.found
    return found


def test_no_builder_module_reaches_into_a_library():
    modules = sorted(PDF.glob("*.py"))
    assert {path.name for path in modules} >= {"base.py", "blocks.py", "score_card.py", "qr.py"}
    assert offences({path.name: path.read_text() for path in modules}) == {}


@pytest.mark.parametrize(
    ("source", "offence"),
    [
        (
            "def draw(canvas):\n    canvas._code.append('BT ET')\n",
            "line 2: reads the private attribute ._code",
        ),
        (
            "from reportlab.platypus.tables import _SPECIALROWS\n",
            "line 1: imports the private name reportlab.platypus.tables._SPECIALROWS",
        ),
        (
            "from reportlab.lib import _rl_accel\n",
            "line 1: imports the private name reportlab.lib._rl_accel",
        ),
        ("import reportlab.lib._rl_accel\n", "line 1: imports the private module"),
        (
            "from reportlab.platypus import Table\n"
            "class Grid(Table):\n    def _drawCell(self, *args):\n        pass\n",
            "line 3: Grid overrides the private method _drawCell",
        ),
        (
            "from reportlab.platypus import Table\n"
            "class Grid(Table):\n    def draw(self):\n        self._curcellstyle = None\n",
            "line 4: reads the private attribute ._curcellstyle",
        ),
        (
            "def register(font, cached):\n    font.face.makeSubset = cached\n",
            "line 2: sets .makeSubset on an object not its own (a patch)",
        ),
        (
            "from reportlab.platypus import Table\nTable.draw = print\n",
            "line 2: sets .draw on an object not its own (a patch)",
        ),
        (
            "def cache(paragraph):\n    return getattr(paragraph, '_broken_for', None)\n",
            "line 2: getattr of the private attribute _broken_for",
        ),
        (
            "def memo(canvas):\n    return canvas.__dict__.setdefault('lines', {})\n",
            "line 2: reads the private attribute .__dict__",
        ),
    ],
)
def test_the_scan_finds_each_way_into_a_librarys_insides(source, offence):
    (found,) = offences({"module.py": source}).values()
    assert any(line.startswith(offence) for line in found), found


def test_our_own_classes_may_keep_private_attributes():
    source = (
        "class Memo:\n"
        "    def __init__(self):\n"
        "        self._seen = {}\n"
        "    def get(self, key):\n"
        "        return self._seen.get(key)\n"
    )
    assert offences({"module.py": source}) == {}
