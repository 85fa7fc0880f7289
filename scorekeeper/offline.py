"""The engine packed for the phone: `scorekeeper/engine/` and the pure modules the offline pages
need, zipped from the repository's own files, so the browser scores with exactly the server's
code. The phone's worker unpacks the zip into Pyodide and imports `scorekeeper.phone`."""

import functools
import hashlib
import io
import zipfile
from pathlib import Path

from django.urls import reverse

PACKAGE = Path(__file__).resolve().parent
# Beside the engine: what `scorekeeper.phone` imports, and nothing that imports Django.
PURE_MODULES = ("formatting.py", "phone.py", "round_fields.py", "seating.py", "start_fields.py")
# Every entry dated alike, so the same files always make the same bytes and the same address.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def packed_files() -> list[tuple[str, bytes]]:
    """(path in the zip, bytes) of every packed file, sorted by path."""
    # An empty package marker: the server's own __init__ is not needed on the phone.
    files = [("scorekeeper/__init__.py", b"")]
    files += [
        (f"scorekeeper/engine/{path.name}", path.read_bytes())
        for path in (PACKAGE / "engine").glob("*.py")
    ]
    files += [(f"scorekeeper/{name}", (PACKAGE / name).read_bytes()) for name in PURE_MODULES]
    return sorted(files)


@functools.lru_cache(maxsize=1)
def engine_zip() -> tuple[bytes, str]:
    """The zip's bytes and its hash (the first 12 hex digits of their sha256), packed once a
    process."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in packed_files():
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    packed = buffer.getvalue()
    return packed, hashlib.sha256(packed).hexdigest()[:12]


def engine_url() -> str:
    """The zip's address, which changes whenever a packed file does."""
    return reverse("offline_engine", args=[engine_zip()[1]])
