"""Who may do what in a league: organisers run it, members score its tables, visibility decides
who may look."""

from django.http import HttpRequest

from leagues.models import League, LeagueGame, Membership
from scorekeeper.models import Game


def is_organiser(user, league: League) -> bool:
    """Whether the user runs this league."""
    if user is None or not user.is_authenticated:
        return False
    return league.organisers.filter(pk=user.pk).exists()


def is_member(user, league: League) -> bool:
    """Whether the user plays in this league: a membership of it is linked to their account
    (a link made in another league gives nothing here)."""
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(league=league, user=user).exists()


def can_view(user, league: League) -> bool:
    """Public and unlisted leagues are open to anyone; private ones to members and organisers."""
    if league.visibility != League.Visibility.PRIVATE:
        return True
    return is_organiser(user, league) or is_member(user, league)


def can_score_league_game(request: HttpRequest, game: Game) -> bool:
    """A league's organisers and members may score any of its tables from their own phones."""
    if not request.user.is_authenticated:
        return False
    league_game = LeagueGame.objects.filter(game=game).select_related("league").first()
    if league_game is None:
        return False
    league = league_game.league
    return is_organiser(request.user, league) or is_member(request.user, league)
