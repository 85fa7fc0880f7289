"""Markers by folder decide where a test runs (see the README's Developing section):

- `browser`: tests/e2e, the journeys in Chromium. They run once in CI, against PostgreSQL.
- `engine`: tests/scorekeeper/engine, plain Python with no database. They run once in CI, in
  `make test` on PostgreSQL, where the engine's coverage is measured.
- `backends`: the tests of what SQLite and PostgreSQL can do differently (locking and
  concurrent saves, transactions, constraints, migrations, query counts, raw SQL, imports,
  the SQLite file's settings), chosen by file below. CI runs every other database test once,
  on PostgreSQL, inside `make test`, and these once more on SQLite; `make test` with no
  DATABASE_URL runs them all on SQLite.
"""

import copy
import dataclasses
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connections, transaction
from django.test import Client

from tests.helpers.permissions import World, build_world

HERE = Path(__file__).parent
BY_FOLDER = {
    HERE / "e2e": "browser",
    HERE / "scorekeeper" / "engine": "engine",
}


# Files whose tests reach what differs between the two databases (see `backends` above).
BACKENDS = (
    "config/test_sqlite_file.py",
    "config/test_settings.py",
    "config/test_scale_out.py",
    "**/test_*concurrency*.py",
    "**/test_*races*.py",
    "**/test_sent_twice.py",
    "**/test_merge_and_edit.py",
    "**/test_rematch_and_claim_twice.py",
    "**/test_double_submits.py",
    "**/test_migrations.py",
    "**/test_*queries*.py",
    "**/test_player_page_pages.py",
    "**/test_save_cost.py",
    "**/test_game_list.py",
    "leagues/public/test_projector.py",
    "leagues/public/test_csv.py",
    "leagues/public/test_head_to_head.py",
    "leagues/backup/test_*.py",
    "leagues/organiser/test_adjustments.py",
    "leagues/organiser/test_league_audit.py",
    "leagues/test_kept_standings.py",
    "leagues/test_night_results.py",
    "leagues/test_night_timer.py",
    "scorekeeper/offline/test_sync*.py",
    "scorekeeper/offline/test_shell.py",
    "scorekeeper/documents/test_pdf_cache.py",
    "scorekeeper/games/test_views.py",
    "scorekeeper/rounds/test_audit.py",
    "scorekeeper/rounds/test_live.py",
)


def backend_specific(path: Path) -> bool:
    """Whether a test file is one of BACKENDS."""
    relative = path.relative_to(HERE)
    return any(relative.match(pattern) or str(relative) == pattern for pattern in BACKENDS)


# First, so that `-m browser`, `-m engine` and `-m backends` select by these markers.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        path = Path(item.fspath)
        for folder, marker in BY_FOLDER.items():
            if folder == path.parent or folder in path.parents:
                item.add_marker(getattr(pytest.mark, marker))
        if HERE in path.parents and backend_specific(path):
            item.add_marker(pytest.mark.backends)


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
    """Where this test run keeps a freshly migrated SQLite file (club_file writes it at its
    first use and copies it for each test after)."""
    return tmp_path_factory.mktemp("club") / "migrated.sqlite3"


# For the tests of the embedded default's locking (tests/config/test_sqlite_file.py) and of the
# sync API answering while another table holds the file (tests/scorekeeper/offline).
@pytest.fixture
def club_file(transactional_db, tmp_path, migrated_club_file):
    """The default database swapped, for this test, for a migrated SQLite file with the
    settings' options (pytest-django's own SQLite database lives in memory, where locking is
    not a file's); every thread's new connection opens the file. Returns its path.

    The first test migrates a file and keeps a copy; the others start from that copy."""
    path = tmp_path / "club.sqlite3"
    kept_settings, kept_connection = connections.settings["default"], connections["default"]
    connections.settings["default"] = {**kept_settings, "NAME": str(path)}
    del connections["default"]
    ContentType.objects.clear_cache()
    if migrated_club_file.exists():
        shutil.copyfile(migrated_club_file, path)
    else:
        call_command("migrate", verbosity=0)
        # The settings open the file in WAL mode: fold the log into it before copying it alone.
        with connections["default"].cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connections["default"].close()
        shutil.copyfile(path, migrated_club_file)
    yield path
    connections["default"].close()
    connections.settings["default"] = kept_settings
    connections["default"] = kept_connection
    ContentType.objects.clear_cache()


# The world of tests/test_permissions.py and tests/test_league_access.py.
@pytest.fixture(scope="module")
def built_world(django_db_setup, django_db_blocker):
    """The world, built once for this module in a transaction that is rolled back at its end;
    each test's own transaction (the `db` fixture) is a savepoint inside it, rolled back after
    the test, so every test starts from the world as built."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(db, built_world) -> World:
    """The world, with browsers of its own: the same sessions, cookies that this test may
    change."""
    clients = {}
    for who, built in built_world.clients.items():
        clients[who] = Client()
        clients[who].cookies = copy.deepcopy(built.cookies)
    return dataclasses.replace(built_world, clients=clients)
