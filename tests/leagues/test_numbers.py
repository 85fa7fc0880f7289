"""The demo league's public pages and its standings PDF write every number through the one
formatter: thousands separators and a true minus sign, never a hyphen before a digit."""

import re
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from leagues.models import League
from tests.helpers.pdfs import pdf_text

# A hyphen-minus written as a sign: not inside a word, a date range or a name.
HYPHEN_NUMBER = re.compile(r"(?<![0-9A-Za-z])-[0-9]")


class _Text(HTMLParser):
    """The text a reader sees: tag contents and aria labels, without scripts or styles."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        self.parts.extend(value for name, value in attrs if name == "aria-label" and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def page_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


@pytest.fixture
def demo(db) -> League:
    call_command("load_demo", nights=1, stdout=StringIO())
    return League.objects.get(slug="riverside")


def test_the_demo_leagues_pages_and_standings_pdf_write_numbers_one_way(client, demo):
    season = demo.seasons.get(name="Summer 2026")
    night = demo.nights.filter(season=season).get()
    player = season.participations.order_by("player__name").first().player
    ladder = League.objects.get(slug="baskets-ladder")
    urls = [
        reverse("leagues:standings", args=[demo.slug]),
        reverse("leagues:season_standings", args=[demo.slug, season.pk]),
        reverse("leagues:standings", args=[ladder.slug]),
        reverse("leagues:player", args=[demo.slug, player.pk]),
        reverse("leagues:head_to_head", args=[demo.slug, season.pk]),
        reverse("leagues:night", args=[demo.slug, night.pk]),
    ]
    texts = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        texts[url] = page_text(response.content.decode())
    pdfs = {
        slug: pdf_text(
            b"".join(client.get(reverse("leagues:standings_pdf", args=[slug])).streaming_content)
        )
        for slug in (demo.slug, ladder.slug)
    }

    found = {where: HYPHEN_NUMBER.findall(text) for where, text in {**texts, **pdfs}.items()}
    assert {where: hits for where, hits in found.items() if hits} == {}
    # A ladder scored on total points: its losers' margins are negative, its points in thousands.
    # (Who sits where in the demo follows the players' ids, so the row is matched by its figures.)
    row = r"4 [^0-9]+ 3,525 1 0 0 1 0 3,525 5,785 3,525\.0 \u22122,260\.0 \u22121\.8"
    assert re.search(f"{row} Loss, newest first L ", texts[urls[2]])
    assert re.search(f"{row} L ", " ".join(pdfs[ladder.slug].split()))
