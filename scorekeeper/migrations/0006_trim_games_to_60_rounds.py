# A game holds at most 60 rounds (engine.ROUND_MAX). Before the bound a phone could send more;
# such a game keeps its first 60 rounds and ends there, as the engine now ends it, and each round
# past 60 goes into its history as a deleted round, so that nothing is lost without a trace.

from django.db import migrations

ROUND_MAX = 60  # engine.ROUND_MAX when this migration was written
BOUND = "the 60-round bound"


def trim_to_the_bound(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    Round = apps.get_model("scorekeeper", "Round")
    GameEvent = apps.get_model("scorekeeper", "GameEvent")
    RoundScore = apps.get_model("scorekeeper", "RoundScore")
    for game in Game.objects.filter(rules__overrides__rounds__gt=ROUND_MAX):
        game.rules["overrides"]["rounds"] = ROUND_MAX
        if isinstance(game.house_rules, dict) and "rounds" in game.house_rules:
            game.house_rules["rounds"] = ROUND_MAX
        game.save(update_fields=["rules", "house_rules"])
    long_games = Round.objects.filter(number__gt=ROUND_MAX).values("game").distinct()
    for game in Game.objects.filter(pk__in=long_games):
        sides = list(game.sides.order_by("position"))
        for stored in game.rounds.filter(number__gt=ROUND_MAX).order_by("number"):
            totals = {
                score.side.name: score.running_total
                for score in RoundScore.objects.filter(round=stored).select_related("side")
            }
            GameEvent.objects.create(
                game=game,
                kind="round_deleted",
                who=BOUND,
                round_number=stored.number,
                before={"ended_by": stored.ended_by, "entry": stored.entry, "totals": totals},
            )
            stored.delete()
        last = {
            s.side_id: s.running_total
            for s in RoundScore.objects.filter(round__game=game, round__number=ROUND_MAX)
        }
        for side in sides:
            side.total = last.get(side.pk, side.total)
            side.save(update_fields=["total"])
        top = max(side.total for side in sides)
        leaders = [side for side in sides if side.total == top]
        game.finished = True
        game.winner = leaders[0] if len(leaders) == 1 else None
        game.tie = len(leaders) > 1
        game.save(update_fields=["finished", "winner", "tie"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0005_scoringright"),
    ]

    # The constraint comes in a migration of its own: PostgreSQL will not alter a table in the
    # transaction that deleted its rows while their foreign keys' checks are pending.
    operations = [
        migrations.RunPython(trim_to_the_bound, migrations.RunPython.noop),
    ]
