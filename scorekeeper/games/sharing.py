"""A game's share links, each with a QR code drawn on the server as inline SVG.

Inline markup, not an <img> with a data: URI, because the Content-Security-Policy allows images
only from this site; and it needs no script, so the code shows with JavaScript off.
"""

from dataclasses import dataclass
from functools import lru_cache

import segno
from django.utils.safestring import SafeString, mark_safe

# Medium error correction (about 15% of the code may be unreadable): a phone screen photographed
# by another phone has glare and moiré. segno raises it further when the code's size allows.
QR_ERROR = "m"


@dataclass(frozen=True)
class ShareLink:
    key: str  # the element id of the address, and the prefix of its status line's id
    label: str
    hint: str
    url: str
    qr: SafeString


# A game's links never change, and encoding one takes segno about 10 ms, more than the rest of
# the page: each process keeps the codes of the pages it served last.
@lru_cache(maxsize=512)
def qr_svg(url: str, label: str) -> SafeString:
    """`url` as a QR code: an <svg> element that screen readers name `label`."""
    code = segno.make_qr(url, error=QR_ERROR)
    # Black on white in both palettes, with segno's four-module quiet zone: cameras read dark
    # modules on a light ground, and an inverted code fails in many scanners. No size: the
    # stylesheet scales the viewBox to the screen. Colours are SVG attributes, not style=,
    # which the CSP's style-src would refuse.
    svg = code.svg_inline(
        omitsize=True, dark="#000", light="#fff", title=label, svgclass="qr", lineclass=None
    )
    # Safe: segno writes the markup and escapes the title; the address is only in the modules.
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))


def share_links(*, scorer_url: str | None, viewer_url: str) -> list[ShareLink]:
    """The links the game page offers: the scorer link only when given (to those who score)."""
    links = []
    if scorer_url is not None:
        links.append(
            ShareLink(
                "scorer-link",
                "Scorer link",
                "Lets another phone score this game.",
                scorer_url,
                qr_svg(scorer_url, "QR code of the scorer link"),
            )
        )
    links.append(
        ShareLink(
            "viewer-link",
            "Read-only link",
            "Shows the scores; cannot change them.",
            viewer_url,
            qr_svg(viewer_url, "QR code of the read-only link"),
        )
    )
    return links
