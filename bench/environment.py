"""Where a bench runs: the database it seeds and the Django it sets up in its own process, and,
for the benches that ask the app over HTTP (bench/load.py, bench/pages.py), the deployment that
gunicorn serves on a fresh PostgreSQL database (tests/helpers/app_servers.py)."""

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.helpers import app_servers  # the HTTP benches and the tests share it


def bench_database(db_name: str) -> tuple[str, str]:
    """The DATABASE_URL to seed, and a description: a fresh PostgreSQL database on the server
    of DATABASE_URL, or a new SQLite file."""
    given = os.environ.get("DATABASE_URL", "")
    scheme = urlsplit(given).scheme
    if scheme.startswith("postgres"):
        return app_servers.fresh_database(given, db_name)
    path = Path(tempfile.mkdtemp(prefix="standings-bench-")) / "bench.sqlite3"
    note = " (DATABASE_URL is SQLite: ignored, so that no real file is touched)" if given else ""
    return f"sqlite:///{path}", f"SQLite, {path}{note}"


def django_setup(url: str, **env: str) -> None:
    """Set Django up in this process on the database at `url`, `env` set first."""
    os.environ["DATABASE_URL"] = url
    # The settings need DEBUG without a SECRET_KEY.
    os.environ.setdefault("DEBUG", "1")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.update(env)
    import django

    django.setup()


@dataclass
class Deployment:
    """A fresh PostgreSQL database, migrated, and the environment gunicorn serves the app with
    on it (bench/baseline.py's hello-world view mounted in front); its files in `scratch`."""

    db_name: str
    database_url: str
    where: str
    scratch: Path
    env: dict

    @classmethod
    def fresh(cls, db_name: str, prefix: str) -> "Deployment":
        """`db_name` dropped and created afresh on the PostgreSQL server DATABASE_URL names,
        the settings written into a new temporary directory whose name starts with `prefix`."""
        database_url, where = app_servers.fresh_database(app_servers.postgres_server(), db_name)
        scratch = Path(tempfile.mkdtemp(prefix=prefix))
        env = app_servers.deployment_env(database_url, scratch, hello_world=True)
        return cls(db_name, database_url, where, scratch, env)

    @property
    def log(self) -> Path:
        """gunicorn's log."""
        return self.scratch / "gunicorn.log"

    def migrate(self) -> None:
        """Migrate the database and collect the static files."""
        print(f"Migrating {self.where} ...", flush=True)
        app_servers.prepare(self.env)

    def django_setup(self, *, as_served: bool = False) -> None:
        """Django in this process on the same database, DEBUG on; `as_served`: with the
        server's settings module and URLs, and its log level, too."""
        if not as_served:
            django_setup(self.database_url, DEBUG="1")
            return
        sys.path.insert(0, str(self.scratch))
        django_setup(
            self.database_url,
            DEBUG="1",
            DJANGO_SETTINGS_MODULE=app_servers.SETTINGS,
            LOG_LEVEL="WARNING",
        )

    @contextmanager
    def served(self, workers: int, app: str = "config.wsgi") -> Iterator[str]:
        """gunicorn serving `app` with `workers` sync workers; its base URL."""
        with app_servers.app_server(self.env, self.log, workers=workers, app=app) as base:
            yield base

    def log_errors(self) -> str:
        """The end of gunicorn's log when it shows a request that failed, else ""."""
        if not app_servers.log_has_errors(self.log):
            return ""
        return self.log.read_text(errors="replace")[-3000:]

    def close(self, *, keep: bool) -> None:
        """Close this process's connections, drop the database unless `keep`, and remove the
        scratch directory."""
        from django.db import connections

        connections.close_all()
        if not keep:
            app_servers.drop_database(app_servers.postgres_server(), self.db_name)
        shutil.rmtree(self.scratch, ignore_errors=True)
