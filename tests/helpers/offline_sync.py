"""The offline sync API as a phone uses it: JSON sent with the CSRF token in a header."""

import json

from django.test import Client

from scorekeeper.models import Game
from scorekeeper.offline import sync

SMALL = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]
OTHER = [{"melded_points": 90}, {"melded_points": 10}]
KEY = "0b7e3f5c-3d1a-4c3e-9a59-0f1d2e3c4b5a"
UNREADABLE = {
    "errors": [
        {
            "key": "__all__",
            "message": "Nothing was saved: what this phone sent could not be read. Reload the "
            "page and send it again.",
        }
    ]
}


def scoring_phone(game: Game) -> Client:
    """A phone given the scorer link, sending the CSRF token as offline.js does."""
    phone = Client(enforce_csrf_checks=True)
    phone.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    return phone


def post(phone: Client, url: str, body, **headers):
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    token = phone.cookies["csrftoken"].value if "csrftoken" in phone.cookies else ""
    return phone.post(
        url, data, content_type="application/json", headers={"X-CSRFToken": token, **headers}
    )


def send(phone: Client, game: Game, **sent):
    body = {"key": KEY, "number": 1, "ended_by": "stock_exhausted", "entry": SMALL, **sent}
    return post(phone, f"/g/{game.public_id}/offline/rounds/", body)


def snapshot(game: Game) -> dict:
    return sync.game_snapshot(game)
