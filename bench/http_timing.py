"""The clients of the benches that ask the app over HTTP, served by gunicorn (bench/load.py,
bench/pages.py), and what they measure.

A `Phone` (bench/load.py) is one of many threads: it times each request on the client's clock
and adds what it measured and was told to a `Tally` that all the phones share. A `Browser`
(bench/pages.py) asks one page at a time and reads the server's own time of it from the
`Server-Timing` header that bench/server_timing.py adds. Neither follows redirects: a redirect
is an answer like any other, timed and checked on its own.
"""

import http.client
import http.cookiejar
import re
import resource
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SERVER_TIMING = re.compile(r"app;dur=([0-9.]+)")
HELLO_EVERY = 0.2


# -- phones, many at once ---------------------------------------------------------------------


@dataclass
class Tally:
    """What the phones measured and were told, gathered across threads (appends are atomic)."""

    samples: list[tuple[str, float, int]] = field(default_factory=list)  # kind, ms, status
    saved: dict[str, int] = field(default_factory=dict)  # public id -> rounds told saved
    uncertain: set[str] = field(default_factory=set)
    refused: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cpu: float = 0.0  # seconds of this process's CPU while the phones ran


class Phone:
    """One phone's connection and cookies: just what the pages need, cheap on the client."""

    timeout = 30

    def __init__(self, port: int, tally: Tally):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=self.timeout)
        self.cookies: dict[str, str] = {}
        self.tally = tally
        self.etag = ""  # the version of the game page last shown, as its live check sends it

    def request(
        self, kind: str, path: str, form: dict | None = None, headers: dict | None = None
    ) -> tuple[int, str, http.client.HTTPMessage | None]:
        """(status, body, headers) of one request; status 0 when it raised."""
        sent = {"Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        try:
            self.connection.request("POST" if form is not None else "GET", path, body, sent)
            answer = self.connection.getresponse()
            text = answer.read().decode(errors="replace")
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()
            self.tally.samples.append((kind, (time.perf_counter() - started) * 1000, 0))
            self.tally.errors.append(f"{kind} {path}: {error!r}")
            return 0, "", None
        self.tally.samples.append((kind, (time.perf_counter() - started) * 1000, answer.status))
        for cookie in answer.headers.get_all("Set-Cookie") or ():
            name, _, value = cookie.split(";", 1)[0].partition("=")
            if value and "max-age=0" not in cookie.lower():
                self.cookies[name.strip()] = value.strip()
            else:
                self.cookies.pop(name.strip(), None)
        if answer.status >= 400:
            self.tally.errors.append(f"{kind} {path}: {answer.status} {text[:200]!r}")
        return answer.status, text, answer.headers


def sleep_until(moment: float, deadline: float) -> bool:
    """Sleep until `moment`; False (at once) when the run ends first."""
    if moment >= deadline:
        return False
    time.sleep(max(0.0, moment - time.monotonic()))
    return time.monotonic() < deadline


def say_hello(port: int, tally: Tally, deadline: float) -> None:
    """The yardstick: a hello-world view asked 5 times a second under the same load."""
    phone = Phone(port, tally)
    while sleep_until(time.monotonic() + HELLO_EVERY, deadline):
        phone.request("GET hello world", "/bench/hello/")


def hello_capacity(port: int, seconds: float) -> float:
    """Hello-world requests per second the stack answers to 8 clients asking without pause:
    what this machine gives the server now, other work included."""
    tally = Tally()
    end = time.monotonic() + seconds

    def ask() -> None:
        phone = Phone(port, tally)
        while time.monotonic() < end:
            phone.request("GET hello world", "/bench/hello/")

    run_threads([(ask, ()) for _ in range(8)], tally)
    return len(tally.samples) / seconds


def run_threads(targets: list, tally: Tally) -> None:
    """Run each (function, arguments) in a thread until all end; the client's CPU time is added
    to the tally."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    threads = [threading.Thread(target=t, args=a, daemon=True) for t, a in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = resource.getrusage(resource.RUSAGE_SELF)
    tally.cpu += after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def percentile(values: list[float], share: float) -> float:
    """The value of rank `share` * len(values), rounded, in `values` sorted; NaN when empty."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


# -- a browser, one page at a time ------------------------------------------------------------


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects handed back as answers, never followed."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # a redirect is an answer like any other: not the page


class Browser:
    """One visitor's cookie jar and CSRF token."""

    timeout = 60

    def __init__(self, base: str):
        self.base = base
        self.token = ""
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def request(
        self, path: str, form: dict | None = None, headers: dict | None = None
    ) -> tuple[int, bytes, float | None, str]:
        """(status, body, server ms from Server-Timing, Location)."""
        data = None
        if form is not None:
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": self.token}).encode()
        request = urllib.request.Request(self.base + path, data, headers or {})
        try:
            with self.opener.open(request, timeout=self.timeout) as answer:
                status, body, got = answer.status, answer.read(), answer.headers
        except urllib.error.HTTPError as answer:
            status, body, got = answer.code, answer.read(), answer.headers
        timing = SERVER_TIMING.search(got.get("Server-Timing", ""))
        return status, body, float(timing.group(1)) if timing else None, got.get("Location", "")

    def read_token(self, path: str) -> None:
        """Keep the CSRF token of the form at `path`; exit when it has none."""
        status, body, _, _ = self.request(path)
        found = TOKEN.search(body.decode(errors="replace"))
        if status != 200 or found is None:
            sys.exit(f"FAIL: GET {path} answered {status} without a CSRF token.")
        self.token = found.group(1)
