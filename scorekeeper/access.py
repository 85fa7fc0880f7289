"""Who may score a game: the browser that started it, phones given its scorer link, its owner.

Anyone with the game's unguessable address may view it; that address is the read-only link.
"""

from django.http import HttpRequest

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
    return game.public_id in scoring_ids(request)
