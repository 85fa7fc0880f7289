"""Draw the first page of each kind of PDF, from the demo data, into docs/ as PNG.

    make docs-pictures

Runs on a scratch SQLite database (the demo is loaded into it), asks the app for each PDF
through its own URLs, as a browser would, and turns the first page into a picture with
pdftoppm (Debian's poppler-utils).
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RESOLUTION = "60"


def main() -> None:
    if shutil.which("pdftoppm") is None:
        sys.exit("pdftoppm is missing: apt-get install poppler-utils")
    scratch = Path(tempfile.mkdtemp(prefix="pdf-pictures-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch / 'demo.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from leagues.models import ClubNight, League
    from scorekeeper.models import Game

    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0)
    riverside = League.objects.get(slug="riverside")
    season = riverside.seasons.order_by("-starts_on").first()
    night = ClubNight.objects.filter(league=riverside).order_by("-date").first()
    finished = (
        Game.objects.filter(finished=True, league_game__league=riverside, preset="four-rounds")
        .order_by("-created_at")
        .first()
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="en-GB", HTTP_HOST="127.0.0.1:8000")
    # force_login: django-axes refuses a password sign-in that comes with no request.
    client.force_login(get_user_model().objects.get(username="organiser"))
    pictures = {
        "pdf-score-card": f"/g/{finished.public_id}/score-card.pdf",
        "pdf-blank-sheet": "/games/new/four-rounds/score-sheet.pdf",
        "pdf-standings": f"/leagues/riverside/seasons/{season.pk}/standings.pdf",
        "pdf-night-pack": f"/leagues/riverside/nights/{night.pk}/pack.pdf",
    }
    for name, url in pictures.items():
        response = client.get(url)
        if response.status_code != 200:
            sys.exit(f"{url} answered {response.status_code}")
        pdf = scratch / f"{name}.pdf"
        pdf.write_bytes(b"".join(response.streaming_content))
        # The night pack's first page is its cover; its second is a table's sheet.
        pages = ["1", "2"] if name == "pdf-night-pack" else ["1"]
        for index, page in enumerate(pages):
            suffix = "" if index == 0 else "-table"
            subprocess.run(
                [
                    "pdftoppm",
                    "-png",
                    "-r",
                    RESOLUTION,
                    "-f",
                    page,
                    "-l",
                    page,
                    "-singlefile",
                    str(pdf),
                    str(DOCS / f"{name}{suffix}"),
                ],
                check=True,
            )
            print(f"docs/{name}{suffix}.png  <-  {url} page {page}")
    shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
