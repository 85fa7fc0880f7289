"""The app's WSGI application with its own server time in a `Server-Timing: app;dur=<ms>`
header, for bench/pages.py: `gunicorn bench.server_timing`. Nothing in the project changes.

The clock runs from the call into Django to the end of the whole body: the body is gathered
(and the response closed, which ends Django's request) before the status and headers go out,
so a response that builds its body lazily is timed whole too. Gathering costs a copy of the
body, the same for every page and far below a millisecond for these sizes.
"""

import time

from config.wsgi import application as app


def application(environ, start_response):
    started = time.perf_counter()
    answer: list = []

    def keep(status, headers, exc_info=None):
        answer[:] = [status, headers, exc_info]
        return lambda data: body.append(data)  # the legacy write(): kept in order, too

    body: list[bytes] = []
    result = app(environ, keep)
    try:
        body.extend(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    ms = (time.perf_counter() - started) * 1000
    status, headers, exc_info = answer
    start_response(status, [*headers, ("Server-Timing", f"app;dur={ms:.3f}")], exc_info)
    return body
