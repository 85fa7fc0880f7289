"""The installable app's server side: /sw.js and its version, the manifest, the offline shell."""

import json
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from django.test import override_settings

from scorekeeper.offline import shell

STATIC = Path(settings.BASE_DIR) / "static"


def served_config(client) -> tuple[dict, str]:
    """The config line /sw.js starts with, and the rest of the script."""
    first, rest = client.get("/sw.js").content.decode().split("\n", 1)
    assert first.startswith("self.SHELL = ") and first.endswith(";")
    return json.loads(first.removeprefix("self.SHELL = ").removesuffix(";")), rest


def test_the_service_worker_is_served_at_the_root_uncached_with_its_config_first(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    config, rest = served_config(client)
    assert rest == (STATIC / "js" / "sw.js").read_text()
    assert config["version"] == shell.shell_version()
    assert config["offline"] == "/offline/"
    assert config["manifest"] == "/manifest.webmanifest"
    assert config["static"] == "/static/"
    scripts = sorted(
        f"/static/js/{path.relative_to(STATIC / 'js').as_posix()}"
        for path in (STATIC / "js").rglob("*.js")
        if path.name != "sw.js"
    )
    assert config["precache"] == [
        "/offline/",
        "/manifest.webmanifest",
        "/static/css/app.css",
        "/static/vendor/htmx/htmx.min.js",
        "/static/favicon.svg",
        "/static/icons/icon-192.png",
        "/static/icons/icon-512.png",
        "/static/icons/maskable-512.png",
        "/static/icons/apple-touch-icon.png",
        *scripts,
    ]
    assert {"/static/js/app.js", "/static/js/register-sw.js", "/static/js/offline/store.js"} <= set(
        scripts
    )


def imported_modules(name: str) -> set[str]:
    """The scripts under static/ that static/<name> imports, and those they import, by name."""
    found, todo = set(), [name]
    while todo:
        current = todo.pop()
        source = (STATIC / current).read_text()
        for target in re.findall(r'(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"', source):
            path = (STATIC / current).parent / target
            imported = path.resolve().relative_to(STATIC.resolve()).as_posix()
            if imported not in found:
                found.add(imported)
                todo.append(imported)
    return found


def test_every_module_the_offline_pages_import_is_precached(client):
    config, _ = served_config(client)
    modules = imported_modules("js/offline.js")

    assert {"js/offline/store.js", "js/offline/sync.js", "js/engine.js"} <= modules
    assert {f"/static/{name}" for name in modules} <= set(config["precache"])


def test_the_service_worker_refuses_a_post(client):
    assert client.post("/sw.js").status_code == 405


def test_a_new_engine_makes_a_new_worker_version(client, monkeypatch):
    before, _ = served_config(client)

    monkeypatch.setattr(shell, "engine_hash", lambda: "0123456789ab")
    after, _ = served_config(client)

    assert len(before["version"]) == len(after["version"]) == 12
    assert after["version"] != before["version"]


def test_a_changed_stylesheet_makes_a_new_worker_version(client, tmp_path):
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    with override_settings(STATICFILES_DIRS=[copy]):
        before, _ = served_config(client)
        with (copy / "css" / "app.css").open("a") as css:
            css.write("\n.new-rule { color: red; }\n")
        after, _ = served_config(client)

    assert after["version"] != before["version"]
    assert after["precache"] == before["precache"]


def test_a_new_script_is_precached_with_the_shell(client, tmp_path):
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    (copy / "js" / "offline.js").write_text("// the client's script\n")
    with override_settings(STATICFILES_DIRS=[copy]):
        with_it, _ = served_config(client)
        (copy / "js" / "offline.js").unlink()
        without_it, _ = served_config(client)

    assert "/static/js/offline.js" in with_it["precache"]
    assert "/static/js/offline.js" not in without_it["precache"]


def test_a_new_module_in_a_folder_of_static_js_is_precached_with_the_shell(client, tmp_path):
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    (copy / "js" / "offline" / "new-part.js").write_text("export const part = 1;\n")
    (copy / "js" / "deeper" / "still").mkdir(parents=True)
    (copy / "js" / "deeper" / "still" / "module.js").write_text("export {};\n")
    with override_settings(STATICFILES_DIRS=[copy]):
        with_them, _ = served_config(client)
        (copy / "js" / "offline" / "new-part.js").write_text("export const part = 2;\n")
        changed, _ = served_config(client)

    assert {"/static/js/offline/new-part.js", "/static/js/deeper/still/module.js"} <= set(
        with_them["precache"]
    )
    assert changed["version"] != with_them["version"]


def test_the_manifest_is_served_as_a_web_app_manifest_with_icons_that_exist(client):
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    for icon in manifest["icons"]:
        assert (STATIC / icon["src"].removeprefix("/static/")).is_file()
    assert [icon["purpose"] for icon in manifest["icons"]] == ["any", "any", "maskable"]


def test_the_manifest_colours_are_the_stylesheets_accent_and_background():
    css = (STATIC / "css" / "app.css").read_text()
    light = css[: css.index("@media (prefers-color-scheme: dark)")]

    assert f"--accent: {shell.THEME_COLOR};" in light
    assert f"--bg: {shell.BACKGROUND_COLOR};" in light


def test_the_offline_shell_is_a_page_with_an_empty_app_and_a_sentence_without_javascript(client):
    response = client.get("/offline/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "<title>Offline</title>" in page
    assert '<a class="skip-link" href="#offline-app">Skip to content</a>' in page
    assert '<main id="offline-app">' in page
    assert '<main id="main">' not in page
    assert (
        "<noscript><p>Scoring without a connection needs JavaScript: turn it on, or reconnect "
        "to see this page.</p></noscript>"
    ) in page


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_registers_the_worker(client):
    page = client.get("/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in page
    assert '<script src="/static/js/register-sw.js" defer></script>' in page
    assert '<a class="skip-link" href="#main">Skip to content</a>' in page


def test_with_hashed_static_files_the_worker_precaches_the_names_pages_load(
    client, tmp_path, settings
):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command(
        "collectstatic", "--noinput", "--ignore", "admin", "--ignore", "pyodide", verbosity=0
    )

    config, _ = served_config(client)

    hashed = static("css/app.css")
    assert hashed != "/static/css/app.css"
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", hashed)
    assert hashed in config["precache"]
    assert config["assets"]["/static/css/app.css"] == hashed
    assert "/static/css/app.css" not in config["precache"]
    # A module in a folder of js/ too: the pages import it by its plain name, relative to the
    # hashed offline.js, which the worker answers offline through `assets`.
    module = static("js/offline/store.js")
    assert re.fullmatch(r"/static/js/offline/store\.[0-9a-f]{12}\.js", module)
    assert config["assets"]["/static/js/offline/store.js"] == module
    assert module in config["precache"]
