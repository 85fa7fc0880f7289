"""The app served as a deployment serves it, for the bench scripts that go over HTTP
(bench/load.py, bench/pages.py): gunicorn with DEBUG off on a PostgreSQL database of its own.

`server_env` writes a throw-away settings module into a temporary directory (it imports the real
settings and moves STATIC_ROOT only, and mounts bench/baseline.py's hello-world view in front of
the app's URLs), so nothing in the project is written; `prepare` migrates and collects the
static files; `start_gunicorn` serves a WSGI module on a free port and waits for /healthz.
"""

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"


def server_url() -> str:
    """The PostgreSQL server DATABASE_URL names, else the local one."""
    given = os.environ.get("DATABASE_URL", "")
    if urlsplit(given).scheme.startswith("postgres"):
        return given
    return DEFAULT_SERVER


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(database_url: str, settings_dir: Path) -> dict[str, str]:
    """The environment of a deployment on plain HTTP, with its own settings module that only
    moves STATIC_ROOT to a temporary directory and adds the hello-world view's URL."""
    (settings_dir / "load_settings.py").write_text(
        "from scorekeeper.settings import *  # noqa: F403\n"
        f"STATIC_ROOT = {str(settings_dir / 'static')!r}\n"
        'ROOT_URLCONF = "load_urls"\n'
    )
    (settings_dir / "load_urls.py").write_text(
        "from bench.baseline import urlpatterns as hello\n"
        "from scorekeeper.urls import urlpatterns as app\n"
        "urlpatterns = hello + app\n"
    )
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "load_settings",
            "PYTHONPATH": os.pathsep.join([str(settings_dir), str(ROOT)]),
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


def prepare(env: dict[str, str]) -> None:
    """Migrate the database and collect the static files, as a deployment does."""
    python = str(ROOT / ".venv" / "bin" / "python")
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(
            [python, str(ROOT / "manage.py"), *command],
            env=env,
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def start_gunicorn(
    env: dict[str, str], port: int, workers: int, log: Path, app: str = "scorekeeper.wsgi"
) -> subprocess.Popen:
    """gunicorn serving the WSGI module `app` with `workers` sync workers, once it answers."""
    command = [
        str(ROOT / ".venv" / "bin" / "gunicorn"),
        app,
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--timeout",
        "60",
        "--log-level",
        "warning",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=out)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"gunicorn stopped at once:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    sys.exit(f"gunicorn did not answer /healthz within 30 s:\n{log.read_text()[-3000:]}")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def log_has_errors(log: Path) -> bool:
    text = log.read_text(errors="replace")
    return "Traceback" in text or "Internal Server Error" in text


def drop(url: str, db_name: str) -> None:
    """Drop the bench database `db_name` on the server of `url`."""
    import psycopg
    from psycopg import sql

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db_name))
        )
