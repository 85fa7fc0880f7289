"""`python manage.py standings_rebuild [SLUG ...]`: the kept standings recomputed from the games."""

from django.core.management.base import BaseCommand, CommandError

from leagues import services
from leagues.models import League


class Command(BaseCommand):
    help = (
        "Recompute every standing row (each player's record per season and all time) from the "
        "league games, for every league or those named: after a bulk load that bypassed the "
        "services, or to check nothing drifted. Safe to run at any time."
    )

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help="Leagues' slugs (default: every league).")

    def handle(self, *args, slugs: list[str], **options):
        leagues = League.objects.order_by("slug")
        if slugs:
            leagues = leagues.filter(slug__in=slugs)
            missing = sorted(set(slugs) - set(leagues.values_list("slug", flat=True)))
            if missing:
                raise CommandError(f"No league has the slug {', '.join(map(repr, missing))}.")
        for league in leagues:
            rows = services.standings_refresh(league=league)
            self.stdout.write(f"{league.slug}: {rows} standing row{'s' if rows != 1 else ''}")
