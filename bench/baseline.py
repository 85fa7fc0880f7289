"""A hello-world view, the yardstick every bench figure is printed beside: the same Django
request handling (all the middleware, the test Client) with a view that does nothing."""

import statistics
import time

from django.http import HttpRequest, HttpResponse
from django.urls import path


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse("Hello, world")


# Served by bench/load.py's gunicorn in front of the app's own URLs.
urlpatterns = [path("bench/hello/", hello)]


def hello_world_ms(requests: int = 200) -> float:
    """Median milliseconds of a hello-world request through the app's middleware."""
    from django.test import Client, override_settings

    client = Client(HTTP_HOST="localhost")
    times = []
    with override_settings(ROOT_URLCONF="bench.baseline"):
        assert client.get("/bench/hello/").status_code == 200  # warm-up
        for _ in range(requests):
            start = time.perf_counter()
            client.get("/bench/hello/")
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def ratio(ms: float, hello_ms: float) -> str:
    """'= 37 x a hello-world request (0.85 ms)'."""
    return f"= {ms / hello_ms:.0f} x a hello-world request ({hello_ms:.2f} ms)"
