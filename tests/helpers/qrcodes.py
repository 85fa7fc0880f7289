"""Reading the game page's QR codes back: the modules of segno's SVG path, and zbarimg's reading
of a picture of them (or of a browser's screenshot)."""

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

ZBARIMG = shutil.which("zbarimg")
NO_ZBARIMG = "decoding a QR code needs zbarimg (apt-get install zbar-tools)"


def svg_modules(svg: str) -> list[list[bool]]:
    """The dark modules of a QR code drawn by segno as one path of horizontal strokes.

    The path runs `M x y` then `h n` (n dark modules from x on row y - 0.5) and `m dx dy`
    (a relative move); the size is the viewBox's, quiet zone included.
    """
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    (path,) = re.findall(r'<path stroke="#000" d="([^"]+)"', svg)
    rows = [[False] * size for _ in range(size)]
    x = y = 0.0
    for command, numbers in re.findall(r"([MmHh])([-\d. ]+)", path):
        values = [float(n) for n in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            for column in range(int(x), int(x + values[0])):
                rows[int(y - 0.5)][column] = True
            x += values[0]
    return rows


def png(rows: list[list[bool]], scale: int = 8) -> bytes:
    """A black-and-white PNG of the modules, `scale` pixels each, written without a library."""
    lines = b"".join(
        b"\x00" + bytes(0 if dark else 255 for dark in row for _ in range(scale))
        for row in rows
        for _ in range(scale)
    )
    width = height = len(rows) * scale

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(lines))
        + chunk(b"IEND", b"")
    )


def zbar_read(picture: Path) -> list[str]:
    """What zbarimg reads from the QR codes in a picture, one text per code."""
    if ZBARIMG is None:
        pytest.skip(NO_ZBARIMG)
    done = subprocess.run(
        [ZBARIMG, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(picture)],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    return done.stdout.splitlines()
