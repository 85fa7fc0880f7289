"""`python manage.py import_league FILE`: restore a league from export_league's file."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from leagues import backup


class Command(BaseCommand):
    help = (
        "Restore a league written by export_league into a database that does not have it yet. "
        "Accounts are matched by username; missing ones are created inactive, with no password."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The JSON file export_league wrote.")

    def handle(self, *args, file: str, **options):
        try:
            text = Path(file).read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"{file}: cannot read it: {error.strerror}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{file}: not a UTF-8 text file.") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{file}: not valid JSON ({error.msg} at line {error.lineno}, column "
                f"{error.colno})."
            ) from None
        try:
            league = backup.league_import(data)
        except backup.BackupError as error:
            raise CommandError(f"{file}: {error}") from None
        self.stdout.write(
            f"Imported {league.name!r} ({league.slug}): {backup.export_counts(data)}."
        )
