"""Draw the app's PNG icons (static/icons/) from static/favicon.svg with Debian's Chromium.

Usage: .venv/bin/python docs/app_icons.py   (or `make icons`); commit what it writes.
The 'any' icons keep the favicon's transparent corners; the maskable one and Apple's icon sit on
the page's background colour, the card inside the maskable icon's safe circle (80% across).
"""

import base64
import os
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.offline.shell import BACKGROUND_COLOR  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SVG = (ROOT / "static" / "favicon.svg").read_bytes()
OUT = ROOT / "static" / "icons"

# name, size in pixels, share of the side the drawing takes, background (None: transparent)
ICONS = [
    ("icon-192.png", 192, 1.0, None),
    ("icon-512.png", 512, 1.0, None),
    ("maskable-512.png", 512, 0.6, BACKGROUND_COLOR),
    ("apple-touch-icon.png", 180, 0.8, BACKGROUND_COLOR),
]


def page_for(size: int, share: float, background: str | None) -> str:
    """An HTML page of size x size pixels with the favicon centred at `share` of the side."""
    source = "data:image/svg+xml;base64," + base64.b64encode(SVG).decode()
    drawn = round(size * share)
    fill = background or "transparent"
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<div style='width:{size}px;height:{size}px;background:{fill};display:grid;"
        f"place-items:center'><img src='{source}' width='{drawn}' height='{drawn}'></div>"
        "</body></html>"
    )


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, size, share, background in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(size, share, background))
            page.screenshot(path=OUT / name, omit_background=background is None)
            page.close()
            print(f"static/icons/{name}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
