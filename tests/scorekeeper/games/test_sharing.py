"""The game page's Share section: each link as a QR code drawn on the server, its address as a
link, and Copy and Share buttons that only the script shows."""

import re

import pytest
import segno
from django.test import Client

from scorekeeper.games.sharing import QR_ERROR, qr_svg
from scorekeeper.models import Game
from tests.helpers.qrcodes import png, svg_modules, zbar_read

URL = "https://scores.example.org/g/AbCdEfGhIjKlMnOpQrStUv/join/wXyZ0123456789-_aBcDeF/"


def segno_modules(url: str) -> list[list[bool]]:
    """segno's own code of `url`, with its four-module quiet zone, row by row."""
    code = segno.make_qr(url, error=QR_ERROR)
    return [[bool(dark) for dark in row] for row in code.matrix_iter(border=4)]


def qr_codes(html: str) -> list[str]:
    return re.findall(r"<svg role=\"img\" viewBox=[^>]*class=\"qr\">.*?</svg>", html)


def test_a_qr_code_is_an_inline_svg_named_for_screen_readers_without_style_attributes():
    svg = qr_svg(URL, "QR code of the scorer link")

    assert svg.startswith(
        '<svg role="img" viewBox="0 0 45 45" class="qr"><title>QR code of the scorer link</title>'
        '<path fill="#fff" d="M0 0h45v45h-45z"/><path stroke="#000" d="M4 4.5h7'
    )
    assert svg.endswith("</svg>")
    # The CSP's style-src 'self' would refuse a style attribute; colours are SVG attributes.
    assert "style" not in svg
    assert "data:" not in svg


def test_a_qr_code_draws_every_module_of_the_exact_address():
    svg = qr_svg(URL, "QR code")

    assert svg_modules(svg) == segno_modules(URL)
    # One character more is another code: the drawing is of this address and no other.
    assert svg_modules(svg) != segno_modules(URL + "x")


def test_a_qr_code_reads_back_as_the_exact_address(tmp_path):
    picture = tmp_path / "qr.png"
    picture.write_bytes(png(svg_modules(qr_svg(URL, "QR code"))))

    assert zbar_read(picture) == [URL]


def share_section(html: str) -> str:
    return html[html.index('<section class="share">') :].split("</section>")[0]


def test_a_scorer_sees_both_links_as_qr_codes_links_and_hidden_buttons(scorer, start_game):
    before_qr = '<input id="scorer-link" readonly'  # what the page had: two text fields
    url = start_game("baskets")
    game = Game.objects.get()
    scorer_url = f"http://testserver/g/{game.public_id}/join/{game.scorer_token}/"
    viewer_url = f"http://testserver{url}"

    html = scorer.get(url).content.decode()
    share = share_section(html)

    assert before_qr not in html
    assert re.findall(r'<a class="share-url" id="([\w-]+)" href="([^"]+)">([^<]+)</a>', share) == [
        ("scorer-link", scorer_url, scorer_url),
        ("viewer-link", viewer_url, viewer_url),
    ]
    codes = qr_codes(share)
    assert [re.search(r"<title>(.*?)</title>", svg).group(1) for svg in codes] == [
        "QR code of the scorer link",
        "QR code of the read-only link",
    ]
    assert [svg_modules(svg) for svg in codes] == [
        segno_modules(scorer_url),
        segno_modules(viewer_url),
    ]
    # Without JavaScript the buttons stay hidden: they could do nothing.
    buttons = re.findall(r"<button type=\"button\"[^>]*>(.*?)</button>", share)
    assert [re.sub(r"<[^>]+>", "", b) for b in buttons] == [
        "Copy the scorer link",
        "Share the scorer link",
        "Copy the read-only link",
        "Share the read-only link",
    ]
    assert share.count(" hidden>") == 4
    assert share.count('role="status"') == 2


def test_a_spectator_gets_the_read_only_link_and_never_the_scorer_link(start_game, client):
    url = start_game("baskets")
    game = Game.objects.get()

    html = client.get(url).content.decode()
    share = share_section(html)

    assert game.scorer_token not in html
    assert "Scorer link" not in html
    assert re.findall(r'class="share-url" id="([\w-]+)" href="([^"]+)"', share) == [
        ("viewer-link", f"http://testserver{url}")
    ]
    (code,) = qr_codes(html)
    assert svg_modules(code) == segno_modules(f"http://testserver{url}")


def test_the_scorer_link_shown_to_a_second_phone_lets_it_score(start_game, client, scorer):
    url = start_game("baskets")
    scorer_url = re.search(r'id="scorer-link" href="([^"]+)"', scorer.get(url).content.decode())

    phone = Client()
    response = phone.get(scorer_url.group(1).removeprefix("http://testserver"), follow=True)

    assert response.redirect_chain == [(url, 302)]
    assert "This phone can now score the game." in response.content.decode()
    assert 'id="scorer-link"' in response.content.decode()


@pytest.mark.parametrize("who", ["scorer", "client"])
def test_the_qr_codes_on_the_page_read_back_as_its_addresses(who, request, start_game, tmp_path):
    url = start_game("baskets")
    html = request.getfixturevalue(who).get(url).content.decode()
    addresses = re.findall(r'class="share-url" id="[\w-]+" href="([^"]+)"', html)

    read = []
    for number, svg in enumerate(qr_codes(html)):
        picture = tmp_path / f"{number}.png"
        picture.write_bytes(png(svg_modules(svg)))
        read += zbar_read(picture)

    assert read == addresses
    assert len(read) == (2 if who == "scorer" else 1)


def test_a_page_seen_again_does_not_encode_its_qr_codes_again(scorer, start_game, monkeypatch):
    url = start_game("baskets")
    qr_svg.cache_clear()
    encoded = []
    make_qr = segno.make_qr
    monkeypatch.setattr(
        segno, "make_qr", lambda *a, **kw: encoded.append(a[0]) or make_qr(*a, **kw)
    )

    scorer.get(url)
    first = len(encoded)
    scorer.get(url)
    scorer.get(url)

    assert (first, len(encoded)) == (2, 2)
