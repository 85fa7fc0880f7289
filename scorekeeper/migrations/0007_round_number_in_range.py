# A game holds at most 60 rounds (engine.ROUND_MAX): the database holds the bound too.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0006_trim_games_to_60_rounds"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="round",
            name="round_number_positive",
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1), ("number__lte", 60)),
                name="round_number_in_range",
            ),
        ),
    ]
