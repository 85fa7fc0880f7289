"""Migrating the test database to a point in an app's history, and back to the newest."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@pytest.fixture
def back_to_the_latest_migrations(transactional_db):
    """The database is shared with every later test (the browser tests' live server among
    them): whatever a test migrates to, it is left at the newest migrations of every app."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def migrated(targets):
    """The database migrated to `targets`; the apps (historical models) as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
