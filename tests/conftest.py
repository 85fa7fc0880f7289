"""Markers by folder decide where a test runs (see the README's Developing section):

- `browser`: tests/e2e, the journeys in Chromium. They run once in CI, against PostgreSQL.
- `engine`: tests/scorekeeper/engine, plain Python with no database. They run once in CI, in
  `make test` on PostgreSQL, where the engine's coverage is measured.
- every other test runs on both databases.
"""

from pathlib import Path

import pytest
from django.conf import settings

HERE = Path(__file__).parent
BY_FOLDER = {
    HERE / "e2e": "browser",
    HERE / "scorekeeper" / "engine": "engine",
}


# First, so that `-m browser` and `-m engine` select by these markers.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        path = Path(item.fspath)
        for folder, marker in BY_FOLDER.items():
            if folder == path.parent or folder in path.parents:
                item.add_marker(getattr(pytest.mark, marker))


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    where = (
        db["NAME"]
        if db["ENGINE"].endswith("sqlite3")
        else f"{db['NAME']} on {db['HOST']}:{db['PORT']}"
    )
    return f"database: {db['ENGINE'].rsplit('.', 1)[-1]} ({where}; tests use a throwaway copy)"


@pytest.fixture(scope="session")
def migrated_club_file(tmp_path_factory) -> Path:
    """Where this test run keeps a freshly migrated SQLite file (test_sqlite_file's club_file
    writes it at its first use and copies it for each test after)."""
    return tmp_path_factory.mktemp("club") / "migrated.sqlite3"
