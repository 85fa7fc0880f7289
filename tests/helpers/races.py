"""Writers at the same moment: threads released together on PostgreSQL, organisers' phones and
what each was answered, a write landing between a request's checks and its save, and another
connection holding an SQLite file's write lock."""

import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections, models
from django.test import Client

# The marks of a module of real races: real transactions, and PostgreSQL's row locks (skipped on
# SQLite, whose own locking tests/config/test_sqlite_file.py plays out).
ON_POSTGRESQL = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks and real concurrent transactions need PostgreSQL",
    ),
]

THREADS = 20


def together(work: Callable[[int], Any], count: int = THREADS) -> list[Any]:
    """Run work(0) ... work(count - 1) in threads released at the same moment; returns what
    each returned, or the exception it raised."""
    barrier = threading.Barrier(count, timeout=30)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as error:  # noqa: BLE001 - the test reports it
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return results


def phones(organiser, count: int) -> list[Client]:
    """`count` phones signed in as the organiser."""
    clients = []
    for _ in range(count):
        # A 500 comes back as a page, so that every thread's answer is counted.
        client = Client(raise_request_exception=False)
        client.force_login(organiser)
        clients.append(client)
    return clients


def answers(results) -> Counter:
    """Each thread's answer: a redirect, a page with the message it says, or a server error."""
    counted = Counter()
    for result in results:
        if isinstance(result, BaseException):
            counted[f"raised {type(result).__name__}"] += 1
        elif result.status_code == 302:
            counted[f"302 {result['Location']}"] += 1
        else:
            said = re.findall(r'<p class="field-error" role="alert">([^<]*)</p>', result.text)
            counted[f"{result.status_code} {' | '.join(said)}"] += 1
    return counted


def arrives_first(monkeypatch, model: type[models.Model], write) -> None:
    """`write()` runs once, right after the first `model.full_clean()` the request makes: the
    moment another request's commit would land, played out on one database."""
    original = model.full_clean
    written = []

    def full_clean(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if not written:
            written.append(write())

    monkeypatch.setattr(model, "full_clean", full_clean)


@contextmanager
def write_lock_held(path: Path):
    """Another connection holding the SQLite file's write lock, and this thread's connection
    giving up after a twentieth of a second instead of the settings' seconds."""
    options = connections.settings["default"]["OPTIONS"]
    connections["default"].close()
    connections.settings["default"]["OPTIONS"] = {**options, "timeout": 0.05}
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.rollback()
        other.close()
        connections["default"].close()
        connections.settings["default"]["OPTIONS"] = options
