"""`python manage.py load_demo`: two demo leagues with a season or two of games, once."""

import time

from django.core.management.base import BaseCommand

from leagues import demo


class Command(BaseCommand):
    help = (
        "Load the demo leagues (Riverside Card Club and Baskets Ladder) through the real "
        "services, with a fixed random seed. Does nothing when they are already loaded."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--nights",
            type=int,
            default=4,
            help=f"Club nights in each Riverside season (1 to {demo.MAX_NIGHTS}; default 4).",
        )

    def handle(self, *args, nights: int, **options):
        started = time.perf_counter()
        summary = demo.build_demo(nights=nights)
        if summary is None:
            self.stdout.write("Demo data already loaded.")
            return
        took = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data loaded in {took:.1f} s: {summary.leagues} leagues, "
                f"{summary.seasons} seasons, {summary.players} players "
                f"({summary.memberships} memberships), {summary.nights} club nights "
                f"({summary.closed} closed), {summary.games} games ({summary.finished} "
                f"finished, {summary.voided} voided, {summary.corrected} corrected), "
                f"{summary.rounds} rounds."
            )
        )
        if summary.organiser_created:
            self.stdout.write(
                f"Demo account (for trying the app only, not for a real deployment): "
                f"sign in as {demo.ORGANISER!r} with password {demo.ORGANISER_PASSWORD!r} to "
                "organise both leagues."
            )
        else:
            self.stdout.write(
                f"The leagues are organised by the existing account {demo.ORGANISER!r}."
            )
