"""The league side of the kitchen-table app's signals."""

from leagues.services import league_game_refresh


def on_game_scored(sender, *, game, sides, status, whole=True, **kwargs) -> None:
    # Inside the transaction that stored the score, so the league's record and the ratings
    # commit or roll back with it.
    league_game_refresh(game=game, sides=sides, status=status, whole=whole)
