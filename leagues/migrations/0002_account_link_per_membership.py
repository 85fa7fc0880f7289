"""The account link moves from the player to each of the player's memberships.

A link on the player made its account a member of every league the player plays in, whoever
linked it. From now on each league's organisers link their own membership. A link made before
is copied to every membership the player had, so nobody loses what they could open; an
organiser who finds a link their league did not want unlinks it on the member's page.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def links_to_memberships(apps, schema_editor):
    Membership = apps.get_model("leagues", "Membership")
    Player = apps.get_model("leagues", "Player")
    for player_id, user_id in Player.objects.filter(user__isnull=False).values_list(
        "pk", "user_id"
    ):
        Membership.objects.filter(player_id=player_id).update(user_id=user_id)


def links_to_players(apps, schema_editor):
    # Back to one link a player: the first of its memberships' links (by membership id).
    Membership = apps.get_model("leagues", "Membership")
    Player = apps.get_model("leagues", "Player")
    for membership in Membership.objects.filter(user__isnull=False).order_by("-pk"):
        Player.objects.filter(pk=membership.player_id).update(user_id=membership.user_id)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0001_players_leagues_seasons_nights_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="membership",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="memberships",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(links_to_memberships, links_to_players),
        migrations.RemoveField(model_name="player", name="user"),
    ]
