"""A league's backup, around it: the rows in the database, a league dropped before its backup is
imported again, and a backup document as a file holds it."""

import json

from django.apps import apps

from leagues.models import League, LeagueGame
from scorekeeper.models import Game


def row_counts() -> dict[str, int]:
    """The number of rows of each model of the accounts, the games and the leagues."""
    return {
        model._meta.label: model.objects.count()
        for app in ("auth", "scorekeeper", "leagues")
        for model in apps.get_app_config(app).get_models()
        # Permissions come with the migrations, not with any league.
        if model._meta.label != "auth.Permission"
    }


def drop_league(league: League, *, games: bool) -> None:
    """The league and its record; its games too, or left behind as kitchen-table games."""
    if games:
        Game.objects.filter(league_game__league=league).delete()
    LeagueGame.objects.filter(league=league).delete()
    league.nights.all().delete()
    league.delete()


def dumped(data: dict) -> dict:
    """The document as a file holds it, read back."""
    return json.loads(json.dumps(data))
