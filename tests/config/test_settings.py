"""The settings read the environment; each case runs in a fresh interpreter with its own env."""

import json
import os
import secrets
import socket
import subprocess
import sys

import pytest

from tests.helpers.paths import REPO

SECRET = "a-real-deployment-secret-" + "x7Qp2Lm9" * 6

PRINT_SETTINGS = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "ENGINE": db["ENGINE"], "NAME": str(db["NAME"]), "HOST": db.get("HOST"),
    "PORT": db.get("PORT"), "USER": db.get("USER"), "PASSWORD": db.get("PASSWORD"),
    "DEBUG": settings.DEBUG, "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": settings.CSRF_TRUSTED_ORIGINS,
    "SECRET_KEY": settings.SECRET_KEY, "OPTIONS": db.get("OPTIONS", {}),
    "TRUSTED_PROXY_COUNT": settings.TRUSTED_PROXY_COUNT,
    "CACHE": settings.CACHES["default"],
}))
"""

CONFIG_VARS = (
    "DATABASE_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL_REDIRECT",
    "SQLITE_BUSY_TIMEOUT",
    "TRUSTED_PROXY_COUNT",
    "REDIS_URL",
    "CACHE_KEY_PREFIX",
)


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=clean, capture_output=True, text=True
    )


def read_settings(**env: str) -> dict:
    result = run_python(PRINT_SETTINGS, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=clean, capture_output=True, text=True
    )


def test_without_database_url_the_database_is_an_sqlite_file_in_the_project():
    values = read_settings(DEBUG="1")

    assert values["ENGINE"] == "django.db.backends.sqlite3"
    assert values["NAME"] == str(REPO / "db.sqlite3")


def test_an_empty_database_url_is_taken_as_unset():
    values = read_settings(DEBUG="1", DATABASE_URL="")

    assert values["ENGINE"] == "django.db.backends.sqlite3"
    assert values["NAME"] == str(REPO / "db.sqlite3")


def test_an_sqlite_database_takes_its_write_lock_up_front_waits_when_busy_and_uses_wal():
    assert read_settings(DEBUG="1")["OPTIONS"] == {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }
    assert read_settings(DEBUG="1", SQLITE_BUSY_TIMEOUT="5")["OPTIONS"]["timeout"] == 5


def test_database_url_names_a_postgresql_server():
    values = read_settings(
        DEBUG="1", DATABASE_URL="postgres://league:s3cret@db.example.org:6543/club_scores"
    )

    assert values["ENGINE"] == "django.db.backends.postgresql"
    assert values["NAME"] == "club_scores"
    assert values["HOST"] == "db.example.org"
    assert values["PORT"] == 6543
    assert values["USER"] == "league"
    assert values["PASSWORD"] == "s3cret"
    assert values["OPTIONS"] == {}


def test_database_url_can_name_another_sqlite_file(tmp_path):
    values = read_settings(DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path}/other.sqlite3")

    assert values["ENGINE"] == "django.db.backends.sqlite3"
    assert values["NAME"] == f"{tmp_path}/other.sqlite3"


def test_debug_is_off_unless_asked_for():
    assert read_settings(SECRET_KEY=SECRET)["DEBUG"] is False
    assert read_settings(SECRET_KEY=SECRET, DEBUG="true")["DEBUG"] is True


def test_an_unclear_debug_value_is_refused_with_what_is_allowed():
    result = run_python(PRINT_SETTINGS, DEBUG="maybe", SECRET_KEY=SECRET)

    assert result.returncode == 1
    assert "DEBUG must be one of 1/0, true/false, yes/no, on/off; got 'maybe'." in result.stderr


def test_development_key_is_used_only_when_debug_is_on():
    values = read_settings(DEBUG="1")

    assert values["SECRET_KEY"].startswith("django-insecure-")


def test_missing_secret_key_fails_loudly_when_debug_is_off():
    result = manage("check", DEBUG="0")

    assert result.returncode == 1
    assert (
        "SECRET_KEY is not set. Set SECRET_KEY to a long random string in production, "
        "or DEBUG=1 to use the development key." in result.stderr
    )


def test_allowed_hosts_and_trusted_origins_come_from_comma_separated_lists():
    values = read_settings(
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="scores.example.org, www.scores.example.org",
        CSRF_TRUSTED_ORIGINS="https://scores.example.org",
    )

    assert values["ALLOWED_HOSTS"] == ["scores.example.org", "www.scores.example.org"]
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://scores.example.org"]


def test_allowed_hosts_default_to_this_machine():
    assert read_settings(DEBUG="1")["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]


def test_forwarded_addresses_are_trusted_only_behind_as_many_proxies_as_configured():
    assert read_settings(DEBUG="1")["TRUSTED_PROXY_COUNT"] == 0
    assert read_settings(DEBUG="1", TRUSTED_PROXY_COUNT="2")["TRUSTED_PROXY_COUNT"] == 2


def test_a_negative_or_unclear_proxy_count_is_refused():
    result = run_python(PRINT_SETTINGS, DEBUG="1", TRUSTED_PROXY_COUNT="-1")
    assert result.returncode == 1
    assert "TRUSTED_PROXY_COUNT must be 0 or more; got -1." in result.stderr

    result = run_python(PRINT_SETTINGS, DEBUG="1", TRUSTED_PROXY_COUNT="one")
    assert result.returncode == 1
    assert "TRUSTED_PROXY_COUNT must be a whole number; got 'one'." in result.stderr


def test_deploy_check_is_clean_with_debug_off_and_a_real_secret():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="scores.example.org",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."


def test_deploy_check_warns_about_a_development_setup():
    result = manage("check", "--deploy", DEBUG="1")

    assert "security.W018" in result.stderr  # DEBUG on
    assert "security.W009" in result.stderr  # the development key


def test_without_redis_url_each_process_caches_in_its_own_memory():
    assert read_settings(DEBUG="1")["CACHE"] == {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "scorekeeper",
        "KEY_PREFIX": "scorekeeper",
    }


def test_redis_url_names_the_cache_every_process_shares():
    values = read_settings(
        DEBUG="1", REDIS_URL="redis://cache.example.org:6380/2", CACHE_KEY_PREFIX="club"
    )

    assert values["CACHE"] == {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://cache.example.org:6380/2",
        "KEY_PREFIX": "club",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }


def test_a_redis_url_of_another_scheme_is_refused_at_start():
    result = manage("check", DEBUG="1", REDIS_URL="http://127.0.0.1:6379/0")

    assert result.returncode == 1
    assert (
        "REDIS_URL must start with redis://, rediss:// or unix://; "
        "got 'http://127.0.0.1:6379/0'. Leave it unset to cache in each process's memory."
    ) in result.stderr


def redis_answers(host: str = "127.0.0.1", port: int = 6379) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


# Database 13 and a prefix of this run's own: other users of the machine's Redis never see
# these keys, nor this test theirs.
TEST_REDIS = "redis://127.0.0.1:6379/13"

ROUND_TRIP = """
import json
from django.core.cache import cache, caches
cache.set("round-trip", {"game": "abc", "rounds": 3}, timeout=60)
print(json.dumps({"backend": type(caches["default"]).__name__, "read": cache.get("round-trip")}))
"""


@pytest.mark.skipif(not redis_answers(), reason="no Redis answers at 127.0.0.1:6379")
def test_with_redis_url_the_cache_round_trips_through_redis():
    import redis

    prefix = f"test-{secrets.token_hex(6)}"
    server = redis.Redis.from_url(TEST_REDIS)
    try:
        result = run_python(ROUND_TRIP, DEBUG="1", REDIS_URL=TEST_REDIS, CACHE_KEY_PREFIX=prefix)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == {
            "backend": "RedisCache",
            "read": {"game": "abc", "rounds": 3},
        }
        # In Redis itself, under Django's prefix:version:key, so another process reads it too.
        assert server.keys(f"{prefix}:*") == [f"{prefix}:1:round-trip".encode()]
        result = run_python(
            "from django.core.cache import cache; print(cache.get('round-trip')['rounds'])",
            DEBUG="1",
            REDIS_URL=TEST_REDIS,
            CACHE_KEY_PREFIX=prefix,
        )
        assert result.stdout == "3\n", result.stderr
    finally:
        for key in server.scan_iter(f"{prefix}:*"):
            server.delete(key)
        server.close()
