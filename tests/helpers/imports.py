"""What a module imports, read from its source with `ast` (nothing is imported)."""

import ast
from collections.abc import Iterator
from pathlib import Path


def imported_modules(path: Path) -> Iterator[str]:
    """The modules the file imports by absolute name (`import a.b`, `from a.b import c`)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
