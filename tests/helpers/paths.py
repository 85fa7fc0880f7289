"""Where the repository's folders are, for tests that read its files or run its commands."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "scorekeeper"
ENGINE = APP / "engine"
PDF = APP / "documents" / "pdf"
DOCS = REPO / "docs"
