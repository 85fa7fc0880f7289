"""`python manage.py import_league FILE`: restore a league from export_league's file."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from leagues.backup import export as backup
from leagues.backup.checks import document_from


class Command(BaseCommand):
    help = (
        "Restore a league written by export_league into a database that does not have it yet, "
        "or refuse the file changing nothing. Accounts are matched by username; missing ones are "
        "created inactive, with no password."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The JSON file export_league wrote.")
        parser.add_argument(
            "--share-players-with",
            action="append",
            default=[],
            metavar="SLUG",
            help=(
                "A league this one shares players with: a player of the file that is already "
                "that league's player (same id, name and creation time) is the same player. "
                "Without it such a file is refused. Repeat it for each league."
            ),
        )

    def handle(self, *args, file: str, share_players_with: list[str], **options):
        try:
            text = Path(file).read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"{file}: cannot read it: {error.strerror}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{file}: not a UTF-8 text file.") from None
        try:
            data = document_from(text)
        except backup.BackupError as error:
            raise CommandError(f"{file} is not a league export: {error}") from None
        try:
            league = backup.league_import(data, share_players_with=share_players_with)
        except backup.BackupError as error:
            raise CommandError(f"{file}: {error}") from None
        self.stdout.write(
            f"Imported {league.name!r} ({league.slug}): {backup.export_counts(data)}."
        )
