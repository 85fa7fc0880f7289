"""Finished PDFs kept in Django's cache, so that printing the same document again costs a cache
read instead of a ReportLab build.

A PDF is keyed by its kind, the code's version (a digest of the builders, the engine and the
data they are fed from), the paper size and the version of what it shows: a game's `updated_at`,
which every write of the game moves (`games.store.game_save`), or, for a league's documents,
which have no version of their own, a digest of the builder's whole input. No writer has to
clear anything: a change makes a new key, and the old entry goes when the cache needs the room
or it runs out.
"""

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path

from django.core.cache import cache

CACHE_SECONDS = 6 * 60 * 60
APP = Path(__file__).resolve().parents[1]
# What a PDF is made by: a change to any of these files makes every key new.
CODE = ("documents", "engine")


@functools.cache
def code_version() -> str:
    """A digest of the code that makes a PDF, so that a cache shared by app processes of two
    releases (Redis, during a deploy) never gives one the other's bytes."""
    digest = hashlib.sha256()
    for folder in CODE:
        for path in sorted((APP / folder).rglob("*.py")):
            digest.update(str(path.relative_to(APP)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def content_version(data: object) -> str:
    """The version of a builder's input that has none of its own: a digest of its repr (the
    inputs are frozen dataclasses of text, numbers, dates and rule sets)."""
    return hashlib.sha256(repr(data).encode()).hexdigest()[:24]


def pdf_cached(kind: str, version: str, paper: str, build: Callable[[], bytes]) -> bytes:
    """The PDF of this kind, version and paper size from the cache, or built and kept."""
    key = f"pdf:{kind}:{code_version()}:{paper}:{version}"
    data = cache.get(key)
    if data is None:
        data = build()
        cache.set(key, data, CACHE_SECONDS)
    return data
