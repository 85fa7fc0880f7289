"""The Python packed for the phone: the folders `scorekeeper/engine/` and `scorekeeper/portable/`,
whole, zipped from the repository's own files, so the browser scores with exactly the server's
code. The phone's worker unpacks the zip into Pyodide and imports `scorekeeper.portable.phone`."""

import functools
import hashlib
import io
import zipfile
from pathlib import Path

from django.urls import reverse

APP = Path(__file__).resolve().parents[1]
# Packed by folder, so a module added to either is on the phone without a list to keep; a test
# holds that nothing in them imports Django.
PACKED_FOLDERS = ("engine", "portable")
# Every entry dated alike, so the same files always make the same bytes and the same address.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def packed_files() -> list[tuple[str, bytes]]:
    """(path in the zip, bytes) of every packed file, sorted by path."""
    # An empty package marker: the server's own __init__ is not needed on the phone.
    files = [("scorekeeper/__init__.py", b"")]
    files += [
        (f"scorekeeper/{folder}/{path.name}", path.read_bytes())
        for folder in PACKED_FOLDERS
        for path in (APP / folder).glob("*.py")
    ]
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
