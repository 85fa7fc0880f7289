"""App servers in processes of their own, started as a deployment starts them: used by the
multi-process tests (tests/config/test_scale_out.py) and the HTTP benches (bench/load.py,
bench/pages.py), which import it from here because a test must not import from bench/.

A deployment on plain HTTP of this machine: DEBUG off, a throwaway SECRET_KEY, ALLOWED_HOSTS
127.0.0.1, no TLS redirect or secure-only cookies, static files collected by `collectstatic`
into a directory of the caller's (a settings module written there imports the real settings and
moves STATIC_ROOT, so nothing in the project is written).

The databases they run on: `postgres_server` finds the PostgreSQL server, `fresh_database`
drops and creates a database of the caller's on it, `drop_database` drops it afterwards; neither
ever drops the lead's or the suite's database (NEVER_DROPPED).
"""

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.helpers.paths import REPO

BIN = Path(sys.executable).parent
SETTINGS = "deployment_settings"
URLS = "deployment_urls"
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
# The lead's and the suite's databases: never dropped by a bench or a test.
NEVER_DROPPED = {"scorekeeper", "test_scorekeeper"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- the database ---------------------------------------------------------------------------


def postgres_server() -> str:
    """The PostgreSQL server DATABASE_URL names, else the local one."""
    given = os.environ.get("DATABASE_URL", "")
    if urlsplit(given).scheme.startswith("postgres"):
        return given
    return DEFAULT_SERVER


def fresh_database(url: str, db_name: str) -> tuple[str, str]:
    """The URL of `db_name` on the server of `url`, dropped and created afresh, and a
    description of it; the database the URL names is never opened."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    if db_name == parts.path.lstrip("/") and "bench" not in db_name:
        sys.exit(f"Refusing to drop {db_name!r}, the database DATABASE_URL names; use --db-name.")
    if not db_name.replace("_", "").isalnum():
        sys.exit("--db-name: letters, digits and underscores only.")
    drop_database(url, db_name)
    with psycopg.connect(_maintenance(url), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db_name)))
    host = parts.hostname or "localhost"
    return urlunsplit(parts._replace(path=f"/{db_name}")), (
        f"PostgreSQL, database {db_name} on {host}:{parts.port or 5432} (dropped and recreated)"
    )


def drop_database(url: str, db_name: str) -> None:
    """Drop `db_name` on the server of `url`, unless it is one that is NEVER_DROPPED."""
    import psycopg
    from psycopg import sql

    if db_name in NEVER_DROPPED:
        sys.exit(f"Refusing to drop {db_name!r}: it is not a bench's or a test's to drop.")
    with psycopg.connect(_maintenance(url), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db_name))
        )


def _maintenance(url: str) -> str:
    # The server's maintenance database, never the one the URL names.
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


# -- the app servers ------------------------------------------------------------------------


def deployment_env(database_url: str, settings_dir: Path, *, hello_world: bool = False) -> dict:
    """The environment of a deployment on `database_url`, its settings module written into
    `settings_dir` (also on its PYTHONPATH); with `hello_world`, bench/baseline.py's view is
    mounted in front of the app's URLs, the yardstick of the benches."""
    settings = (
        "from config.settings import *  # noqa: F403\n"
        f"STATIC_ROOT = {str(settings_dir / 'static')!r}\n"
    )
    if hello_world:
        (settings_dir / f"{URLS}.py").write_text(
            "from bench.baseline import urlpatterns as hello\n"
            "from config.urls import urlpatterns as app\n"
            "urlpatterns = hello + app\n"
        )
        settings += f"ROOT_URLCONF = {URLS!r}\n"
    (settings_dir / f"{SETTINGS}.py").write_text(settings)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": SETTINGS,
            "PYTHONPATH": os.pathsep.join([str(settings_dir), str(REPO)]),
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "SECURE_HSTS_SECONDS": "0",
            "LOG_LEVEL": "WARNING",
        }
    )
    return env


def prepare(env: dict) -> None:
    """Migrate the database and collect the static files, once for every app server."""
    for command in (["migrate"], ["collectstatic"]):
        result = subprocess.run(
            [sys.executable, "manage.py", *command, "--noinput", "-v0"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {command[0]} failed:\n{result.stderr[-3000:]}")


@contextmanager
def app_server(
    env: dict, log: Path, *, workers: int = 1, app: str = "config.wsgi"
) -> Iterator[str]:
    """A gunicorn process serving the WSGI module `app` with `workers` sync workers on a free
    port; its base URL once /healthz answers. The process is stopped on the way out, whatever
    happened."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(BIN / "gunicorn"), app, "--bind", f"127.0.0.1:{port}"]
            + ["--workers", str(workers), "--timeout", "60", "--log-level", "warning"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=out,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while not answers(f"{base}/healthz"):
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn stopped:\n{log.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"no answer from /healthz in 60 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def log_has_errors(log: Path) -> bool:
    """Whether gunicorn's log shows a request that failed."""
    text = log.read_text(errors="replace")
    return "Traceback" in text or "Internal Server Error" in text
