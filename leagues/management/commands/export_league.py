"""`python manage.py export_league SLUG [--output FILE]`: a league's backup as one JSON file."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from leagues.backup import export as backup
from leagues.models import League


class Command(BaseCommand):
    help = (
        "Write everything of one league (players, seasons, nights, games, rounds, ratings' "
        "inputs) to one JSON file that import_league restores. Passwords are never exported."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The league's slug, as in its address: riverside.")
        parser.add_argument(
            "--output",
            help="The file to write (default: <slug>-<today's date>.json in this directory).",
        )

    def handle(self, *args, slug: str, output: str | None, **options):
        league = League.objects.filter(slug=slug).first()
        if league is None:
            known = ", ".join(League.objects.order_by("slug").values_list("slug", flat=True))
            raise CommandError(
                f"No league has the slug {slug!r}; the leagues are: {known or 'none'}."
            )
        data = backup.league_export(league)
        path = Path(output or f"{slug}-{timezone.localdate().isoformat()}.json")
        try:
            path.write_text(
                json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1) + "\n",
                encoding="utf-8",
            )
        except OSError as error:
            raise CommandError(f"--output: cannot write {str(path)!r}: {error.strerror}.") from None
        self.stdout.write(f"Exported {backup.export_counts(data)} to {path}.")
