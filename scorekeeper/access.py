"""Who may score a game: the browser that started it, phones given its scorer link, its owner.

Anyone with the game's unguessable address may view it; that address is the read-only link.
"""

from django.conf import settings
from django.http import HttpRequest
from django.utils.module_loading import import_string

from scorekeeper.models import Game

SESSION_KEY = "scoring_games"


def scoring_ids(request: HttpRequest) -> list[str]:
    """Public ids of the games this browser may score."""
    ids = request.session.get(SESSION_KEY, [])
    return ids if isinstance(ids, list) else []


def grant_scoring(request: HttpRequest, game: Game) -> None:
    ids = scoring_ids(request)
    if game.public_id not in ids:
        request.session[SESSION_KEY] = [*ids, game.public_id]


def can_score(request: HttpRequest, game: Game) -> bool:
    if request.user.is_authenticated and game.owner_id == request.user.pk:
        return True
    if game.public_id in scoring_ids(request):
        return True
    # Other apps grant more (a league lets its members score its tables) without this app
    # importing them.
    return any(
        import_string(path)(request, game) for path in getattr(settings, "SCORING_RULES", ())
    )
