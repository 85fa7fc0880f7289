"""Views for scoring offline: the packed engine."""

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from scorekeeper.offline import pack as offline

# The address names the content, so a browser may keep it for good.
IMMUTABLE = "public, max-age=31536000, immutable"


@require_GET
def offline_engine(request: HttpRequest, digest: str) -> HttpResponse:
    """The engine zip at its hashed address; an old hash is gone (404), never other bytes."""
    packed, current = offline.engine_zip()
    if digest != current:
        raise Http404("This version of the engine is no longer served; reload the page.")
    response = HttpResponse(packed, content_type="application/zip")
    response["Cache-Control"] = IMMUTABLE
    return response
