"""What every browser journey does at each step: a screenshot, axe-core, and no console errors."""

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from playwright.sync_api import Page

from tests.helpers.paths import REPO

# The pictures are for a person to look at after the run; `make test` prints where they are.
SCREENSHOTS = Path(os.environ.get("E2E_SCREENSHOTS", REPO / "e2e-screenshots"))

# WCAG 2.0, 2.1 and 2.2, levels A and AA: the rules axe-core tags with these.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_URL = f"{settings.STATIC_URL}vendor/axe-core/axe.min.js"
# A phone and a laptop, as the pages are checked at (the `window` fixture opens them).
SCREENS = {"360": (360, 740), "1280": (1280, 800)}

# What the dark palette has been checked on in this run: a page (its address with the game's
# and token's random parts as *), its width and every class drawn on it. The same page with
# the same classes at the same width draws the same colours, so its dark check is not run again
# (about half of every journey's axe-core time); a new state (an error, a dialog, a badge)
# brings new classes and is checked.
_DARK_CHECKED: set[tuple[str, int, str]] = set()
_CLASSES = """() => [...new Set([...document.querySelectorAll("body *")]
    .filter((e) => e.getClientRects().length)
    .flatMap((e) => [e.tagName, ...e.classList]))].sort().join(" ")"""
_SCHEME = """() => document.querySelector("meta[name=color-scheme]")?.content || "" """


@dataclass
class Journey:
    folder: Path
    base_url: str
    steps: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    pages_checked: set[str] = field(default_factory=set)

    def url(self, path: str) -> str:
        return self.base_url + path

    def watch(self, page: Page, who: str = "phone") -> Page:
        """Record every console error and uncaught exception of this page (CSP refusals too)."""
        # A step that has not happened in 10 s on loopback is not going to: fail sooner.
        page.set_default_timeout(10_000)
        page.on(
            "console",
            lambda message: (
                self.console_errors.append(f"{who} {page.url}: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        page.on("pageerror", lambda error: self.console_errors.append(f"{who} {page.url}: {error}"))
        return page

    def check(self, page: Page, step: str, *, axe: bool = True) -> None:
        """Save a screenshot of this step and assert axe-core finds no WCAG A or AA violation.

        axe=False is for a page with JavaScript off, where axe-core cannot run; the same pages
        are checked with it on in the other journeys.
        """
        page.wait_for_load_state("load")
        number = len(self.steps) + 1
        path = self.folder / f"{number:02d}-{step}.png"
        # caret="initial": hiding the caret needs an inline style, which the CSP refuses.
        page.screenshot(path=path, full_page=True, caret="initial")
        self.steps.append(path.name)
        leaked = re.findall(r"\{[{%#].{0,40}", page.inner_text("body"))
        assert not leaked, f"template syntax shown on {page.url}: {leaked}"
        if not axe:
            return
        violations = axe_violations(page)
        assert not violations, f"axe-core on {page.url} ({path.name}):\n" + "\n".join(violations)
        # The stylesheet has a dark palette too: its contrast is checked on the same page, where
        # the page follows the phone's scheme (a colour forced in Display ignores it) and this
        # page has not been seen dark with the same classes.
        if {"light", "dark"} <= set(page.evaluate(_SCHEME).split()):
            seen = (
                re.sub(r"/[A-Za-z0-9_-]{16,}", "/*", page.url.split("?")[0]),
                page.viewport_size["width"] if page.viewport_size else 0,
                page.evaluate(_CLASSES),
            )
            if seen not in _DARK_CHECKED:
                page.emulate_media(color_scheme="dark")
                try:
                    violations = axe_violations(page)
                finally:
                    page.emulate_media(color_scheme="light")
                assert not violations, f"axe-core on {page.url} ({path.name}), dark:\n" + "\n".join(
                    violations
                )
                _DARK_CHECKED.add(seen)
        self.pages_checked.add(page.url.split("?")[0])
        assert not self.console_errors, "\n".join(self.console_errors)

    def close(self) -> None:
        assert not self.console_errors, "\n".join(self.console_errors)


def axe_violations(page: Page, rules: list[str] | None = None) -> list[str]:
    """axe-core's WCAG A and AA violations on the page as it is now, one line per element; with
    `rules`, those rules' alone (`color-contrast-enhanced`: AAA's 7:1)."""
    # Loaded like any script of ours, so the page's Content-Security-Policy lets it in.
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(url=AXE_URL)
    run_only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": AXE_TAGS}
    result = page.evaluate(
        """(runOnly) => axe.run(document, {runOnly, resultTypes: ["violations"]})""",
        run_only,
    )
    lines = []
    for violation in result["violations"]:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"    {json.dumps(node['target'])}: {summary}")
    return lines


# The elements whose right edge passes the window's, deepest first: what makes a page too wide.
_TOO_WIDE = """() => {
    const width = document.documentElement.clientWidth;
    const found = [];
    for (const element of document.body.querySelectorAll("*")) {
        const box = element.getBoundingClientRect();
        if (box.right > width + 0.5 && box.width > 0
                && ![...element.children].some((child) =>
                    child.getBoundingClientRect().right > width + 0.5)) {
            const name = element.tagName.toLowerCase()
                + (element.id ? "#" + element.id : "")
                + [...element.classList].map((c) => "." + c).join("");
            found.push(`${name} to ${Math.round(box.right)} px`);
        }
    }
    return {
        scroll: document.documentElement.scrollWidth, client: width, culprits: found.slice(0, 8),
    };
}"""


def assert_fits(page: Page) -> None:
    """Assert the page is no wider than its window (nothing to scroll sideways), naming the
    elements that stick out when it is."""
    settled(page)
    found = page.evaluate(_TOO_WIDE)
    assert found["scroll"] <= found["client"], (
        f"{page.url} is {found['scroll']} px wide in a {found['client']} px window; "
        f"sticking out: {', '.join(found['culprits']) or 'nothing measurable'}"
    )


# Every control a finger taps, measured by what takes the tap: a radio or a box by its label.
_SMALL_TARGETS = """(least) => {
    const small = [];
    const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary";
    for (const element of document.querySelectorAll(controls)) {
        if (element.closest("[hidden], .skip-link") || element.getClientRects().length === 0) {
            continue;
        }
        // A link inside a sentence is exempt (WCAG 2.5.8): the sentence's line sets its height.
        const sentence = element.tagName === "A" && element.parentElement.closest("p");
        if (sentence && sentence.textContent.trim() !== element.textContent.trim()) continue;
        const target = element.closest("label") || element;
        const box = target.getBoundingClientRect();
        if (box.height < least - 0.5 || box.width < Math.min(least, 24) - 0.5) {
            const text = (target.textContent || element.name || "").trim().slice(0, 30);
            small.push(`${target.tagName.toLowerCase()} "${text}" ${Math.round(box.width)}x${
                Math.round(box.height)}`);
        }
    }
    return small;
}"""


def settled(page: Page) -> None:
    """Wait for the page's stylesheets and fonts: a step measured right after a click can find
    the next page parsed but not yet styled (its links 17 px high) on a busy machine."""
    page.wait_for_load_state("load")
    page.evaluate("() => document.fonts.ready.then(() => true)")


def small_targets(page: Page, least: int) -> list[str]:
    """The tap targets on the page less than `least` CSS pixels high."""
    settled(page)
    return page.evaluate(_SMALL_TARGETS, least)
