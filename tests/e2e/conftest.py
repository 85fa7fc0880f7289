"""Browser tests: Playwright drives Debian's Chromium against the app on a live server.

Playwright's own browser download does not work on our machines, so the tests launch the
Chromium at `CHROMIUM` (default /usr/bin/chromium). Without it they are skipped with one reason;
with `E2E_REQUIRED=1` (as `.ci/run` sets) a missing Chromium stops the run instead.
"""

import os
import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Page

from tests.helpers.journeys import SCREENS, SCREENSHOTS, Journey
from tests.helpers.offline_browser import recording

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
HERE = Path(__file__).parent

# A phone held upright: the kitchen table's screen.
PHONE = {"width": 360, "height": 740}

# The machines have no network beyond loopback: without these flags Chromium keeps trying to
# reach Google's hosts and floods the log with refused connections.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        return (
            f"browser tests need Chromium at {CHROMIUM} "
            "(apt-get install chromium chromium-driver, or set CHROMIUM=/path/to/chromium)"
        )
    return None


def pytest_collection_modifyitems(config, items):
    ours = [item for item in items if HERE in Path(item.fspath).parents]
    # Last: they are the slowest, and once Playwright has started, the rest of the session
    # shares its event loop (see _orm_beside_playwright).
    items[:] = [item for item in items if item not in ours] + ours
    reason = chromium_missing()
    if not ours or reason is None:
        return
    if os.environ.get("E2E_REQUIRED") == "1":
        raise pytest.UsageError(f"E2E_REQUIRED=1 and the {reason}")
    skip = pytest.mark.skip(reason=reason)
    for item in ours:
        item.add_marker(skip)


_skipped_when_required: list[str] = []
_journeys: list[Path] = []


def pytest_runtest_logreport(report):
    # .ci/run must not pass with a browser test skipped, whatever the reason.
    if report.skipped and os.environ.get("E2E_REQUIRED") == "1" and "tests/e2e/" in report.nodeid:
        _skipped_when_required.append(report.nodeid)


def pytest_sessionfinish(session):
    if _skipped_when_required:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    if _skipped_when_required:
        terminalreporter.write_line(
            "E2E_REQUIRED=1 and these browser tests were skipped: "
            + ", ".join(_skipped_when_required),
            red=True,
        )
    if _journeys:
        shots = sum(len(list(folder.glob("*.png"))) for folder in _journeys)
        terminalreporter.write_line(
            f"browser journeys: {shots} screenshots of {len(_journeys)} journeys "
            f"in {SCREENSHOTS}/ (a folder per journey)"
        )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {
        **browser_context_args,
        "viewport": PHONE,
        "is_mobile": True,
        "has_touch": True,
        "locale": "en-GB",
        "timezone_id": "UTC",
    }


@pytest.fixture(scope="session", autouse=True)
def _orm_beside_playwright():
    # Playwright's sync API keeps an event loop running in this thread until the session ends,
    # and Django refuses ORM calls while one runs. The test's own ORM calls (factories, checks,
    # the database flush) are still plain sync code, so they are allowed from here on; the
    # browser tests run last, so no other test runs with the check off.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


def journey_folder(test_name: str) -> str:
    """A test's own folder name, its parameters included: test_x[chromium-360] -> x-360.

    Two tests never share a folder, so neither wipes the other's pictures, one after the other
    or on two pytest workers at once."""
    name = re.sub(r"\[chromium-?", "[", test_name.removeprefix("test_"))
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@pytest.fixture
def window(browser, browser_context_args):
    """A new page in a window of one of SCREENS (a phone, below 600 px: touch), with JavaScript
    or without; its context closed after the test."""
    opened = []

    def open_window(screen: str, *, javascript: bool = True) -> Page:
        width, height = SCREENS[screen]
        phone = width < 600
        context = browser.new_context(
            **{
                **browser_context_args,
                "viewport": {"width": width, "height": height},
                "is_mobile": phone,
                "has_touch": phone,
                "java_script_enabled": javascript,
            }
        )
        opened.append(context)
        return context.new_page()

    yield open_window
    for context in opened:
        context.close()


@pytest.fixture
def journey(request, live_server):
    """Screenshots and accessibility checks of one journey, under e2e-screenshots/<test>/."""
    folder = SCREENSHOTS / journey_folder(request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    _journeys.append(folder)
    tracker = Journey(folder=folder, base_url=live_server.url)
    yield tracker
    tracker.close()


@pytest.fixture
def server_requests(live_server):
    """What reaches the live server during the test (a ServerLog: tests/helpers/offline_browser)."""
    with recording() as log:
        yield log


# What the demo writes: its organiser's account, the leagues and their games.
DEMO_DATA = ["auth.user", "leagues", "scorekeeper"]


@pytest.fixture(scope="session")
def demo_dump(tmp_path_factory) -> Path:
    """Where this test run keeps the demo once built (written by the first test that asks)."""
    return tmp_path_factory.mktemp("demo") / "demo.json"


@pytest.fixture
def demo_leagues(transactional_db, demo_dump) -> None:
    """The demo leagues of `manage.py load_demo` in this test's empty database.

    The first test to ask builds them through the services (7 to 9 s) and dumps them; each
    later one loads that dump (under a second), the same rows with the same keys."""
    if demo_dump.exists():
        call_command("loaddata", str(demo_dump), verbosity=0)
    else:
        call_command("load_demo", stdout=StringIO())
        call_command("dumpdata", *DEMO_DATA, output=str(demo_dump))
