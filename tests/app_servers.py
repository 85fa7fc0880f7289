"""App servers in processes of their own, started as a deployment starts them: used by the
multi-process tests (tests/scorekeeper/test_scale_out.py) and the load bench (bench/load.py).

A deployment on plain HTTP of this machine: DEBUG off, a throwaway SECRET_KEY, ALLOWED_HOSTS
127.0.0.1, no TLS redirect or secure-only cookies, static files collected by `collectstatic`
into a directory of the caller's (a settings module written there imports the real settings and
moves STATIC_ROOT, so nothing in the project is written).
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

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SETTINGS = "deployment_settings"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def deployment_env(database_url: str, settings_dir: Path, extra_settings: str = "") -> dict:
    """The environment of a deployment on `database_url`; `extra_settings` are lines added to
    its settings module (written into `settings_dir`, which is also on its PYTHONPATH)."""
    (settings_dir / f"{SETTINGS}.py").write_text(
        "from scorekeeper.settings import *  # noqa: F403\n"
        f"STATIC_ROOT = {str(settings_dir / 'static')!r}\n" + extra_settings
    )
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
def app_server(env: dict, log: Path, *, workers: int = 1) -> Iterator[str]:
    """A gunicorn process (`workers` sync workers) on a free port; its base URL once /healthz
    answers. The process is stopped on the way out, whatever happened."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(BIN / "gunicorn"), "scorekeeper.wsgi", "--bind", f"127.0.0.1:{port}"]
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
