"""The installable app: what the service worker precaches, its version, and the web app manifest.

The worker (static/js/sw.js) is served by a view at /sw.js with the config made here on its first
line, so that its bytes, and with them the browser's update check, change whenever anything it
precaches changes, the engine packed for the browser included.
"""

import hashlib
import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from scorekeeper.offline import pack

# Colours of static/css/app.css's light palette: --accent and --bg.
THEME_COLOR = "#0b5d3b"
BACKGROUND_COLOR = "#fdfdfb"

# Precached in shell-<version>, with every script under static/js/ but the worker itself, its
# folders' included: the offline runtime's modules (offline.js and the offline/ modules it
# imports, engine.js, engine-worker.js, ...) as they come, so that a page opened offline can load
# every module it imports.
SHELL_STATIC = [
    "css/app.css",
    "vendor/htmx/htmx.min.js",
    "favicon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable-512.png",
    "icons/apple-touch-icon.png",
]
# Templates whose bytes make up the precached /offline/ page.
SHELL_TEMPLATES = ["offline.html", "base.html"]
PYODIDE_FOLDER = "vendor/pyodide"
# Files of the vendored Pyodide the browser never fetches.
PYODIDE_PAPERS = {"LICENSE", "VERSION", "README.md"}
# Files that name the vendored Pyodide's version: a new Pyodide empties the runtime cache. The
# standard library is trimmed to what the engine needs (tools/trim_stdlib.py), so a new list of
# kept modules is a new Pyodide too: a phone must never keep an old trim the engine outgrew.
PYODIDE_MARKERS = [
    "vendor/pyodide/pyodide-lock.json",
    "vendor/pyodide/package.json",
    "vendor/pyodide/python_stdlib.zip",
]
WORKER_SOURCE = "js/sw.js"

# The pages the worker keeps for offline use, by URL name, with the arguments each takes: home,
# the start pages, a game and its round form. Nothing else is kept (accounts, leagues, admin).
KEPT_PAGES = {
    "home": (),
    "rules_picker": (),
    "game_new": ("preset",),
    "game_detail": ("public_id",),
    "round_new": ("public_id",),
}
# Stands for an argument while an address is made; every kept page's arguments are slugs or ids.
_SLOT = "SLOT0placeholder"

ICONS = [
    {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {
        "src": "icons/maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
]


def engine_hash() -> str:
    """The hash of the engine zip the browser runs."""
    return pack.engine_zip()[1]


def engine_url() -> str:
    """The URL of the engine zip."""
    return pack.engine_url()


def _static_file(name: str) -> Path | None:
    found = finders.find(name)
    return Path(found) if found else None


def static_prefix() -> str:
    """STATIC_URL as a path from the site's root."""
    return "/" + settings.STATIC_URL.lstrip("/")


def shell_static() -> list[str]:
    """The static files precached in the shell, by their names under static/."""
    # finders.find finds folders too: every static js/ folder, the project's first.
    scripts = {
        f"js/{path.relative_to(folder).as_posix()}"
        for folder in finders.find("js", find_all=True)
        for path in Path(folder).rglob("*.js")
    } - {WORKER_SOURCE}
    return [name for name in SHELL_STATIC if _static_file(name)] + sorted(scripts)


def shell_assets() -> dict[str, str]:
    """Each precached static file's plain URL and the URL pages load it by (hashed in
    production)."""
    return {static_prefix() + name: static(name) for name in shell_static()}


def pyodide_version() -> str:
    """A hash of the vendored Pyodide's version files ('' when Pyodide is not vendored)."""
    paths = [path for path in map(_static_file, PYODIDE_MARKERS) if path]
    if not paths:
        return ""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def runtime_files() -> list[str]:
    """What the engine worker fetches: the vendored Pyodide (by the plain names it asks for)
    and the engine zip; empty until they exist."""
    folder = _static_file(PYODIDE_FOLDER)
    files = sorted(
        f"{static_prefix()}{PYODIDE_FOLDER}/{path.name}"
        for path in (Path(folder).iterdir() if folder else [])
        if path.is_file() and path.name not in PYODIDE_PAPERS
    )
    return files + ([engine_url()] if engine_url() else [])


def shell_version() -> str:
    """12 hex digits that change when any precached file, the worker or the engine changes."""
    digest = hashlib.sha256()
    sources = [_static_file(name) for name in [*shell_static(), WORKER_SOURCE]]
    template_dir = Path(settings.BASE_DIR) / "templates"
    sources += [template_dir / name for name in SHELL_TEMPLATES]
    for path in sources:
        if path is not None and path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(json.dumps(manifest(), sort_keys=True).encode())
    digest.update(f"engine:{engine_hash()}\0pyodide:{pyodide_version()}".encode())
    return digest.hexdigest()[:12]


def kept_page_patterns() -> list[str]:
    """A regular expression (in the syntax JavaScript shares) for the path of each page the
    worker keeps, made from the URL map, so that the worker never holds a copy of it."""
    patterns = []
    for name, arguments in KEPT_PAGES.items():
        path = reverse(name, kwargs=dict.fromkeys(arguments, _SLOT))
        parts = [re.escape(part) for part in path.split(_SLOT)]
        patterns.append("^" + r"[\w-]+".join(parts) + "$")
    return patterns


def worker_config() -> dict:
    """What sw.js reads from self.SHELL: its version, what to precache, which URLs go where."""
    assets = shell_assets()
    return {
        "version": shell_version(),
        "offline": reverse("offline_shell"),
        "manifest": reverse("web_manifest"),
        "precache": [reverse("offline_shell"), reverse("web_manifest"), *assets.values()],
        "assets": assets,
        "static": static_prefix(),
        "engine": engine_url(),
        "runtime": pyodide_version(),
        "runtimeFiles": runtime_files(),
        "pages": kept_page_patterns(),
    }


def worker_script() -> str:
    """The service worker's source with its config as the first line."""
    path = _static_file(WORKER_SOURCE)
    if path is None:
        raise FileNotFoundError(f"static/{WORKER_SOURCE} is missing")
    config = json.dumps(worker_config(), sort_keys=True)
    return f"self.SHELL = {config};\n" + path.read_text(encoding="utf-8")


def manifest() -> dict:
    """The web app manifest: installable, standalone, the favicon's card drawn as icons."""
    return {
        "id": "/",
        "name": "Hand and Foot scorekeeper",
        "short_name": "Hand & Foot",
        "description": "Scores for Hand and Foot, Baskets and their Canasta relatives.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [{**icon, "src": static(icon["src"])} for icon in ICONS],
    }
