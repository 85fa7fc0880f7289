from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Club leagues"

    def ready(self) -> None:
        from leagues.receivers import on_game_scored
        from scorekeeper.signals import game_scored

        game_scored.connect(on_game_scored, dispatch_uid="leagues.on_game_scored")
