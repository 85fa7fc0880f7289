"""A QR code on a PDF page: encoded by segno, its dark modules drawn as vector rectangles."""

from __future__ import annotations

import segno
from reportlab.lib import colors
from reportlab.platypus import Flowable

# Light modules around the code, as the standard asks for a reader to find it.
QUIET_ZONE = 4


def qr_matrix(link: str) -> tuple[bytearray, ...]:
    """The modules of `link`'s QR code, row by row from the top, 1 for dark.

    Level M survives a crease or a coffee ring on a table's sheet. Mask pattern 0: segno would
    otherwise try all eight masks the standard allows and keep the one with the fewest
    look-alike patterns, five times the cost of a code (a 50-table pack draws 50), while every
    mask is valid and reads the same in a phone's camera."""
    return segno.make(link, error="m", mask=0, micro=False, boost_error=False).matrix


class QrCode(Flowable):
    """`link` as a square QR code `size` points wide, its quiet zone included."""

    def __init__(self, link: str, size: float) -> None:
        super().__init__()
        self.link = link
        self.width = self.height = size

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def draw(self):
        rows = qr_matrix(self.link)
        module = self.width / (len(rows) + 2 * QUIET_ZONE)
        canvas = self.canv
        canvas.setFillColor(colors.black)
        # A rectangle per run of dark modules in a row: viewers snap a lone rectangle to the
        # pixel grid, so the code stays sharp on screen (one path of them all is blurred).
        # Each reaches 5% into the row above, so that no viewer shows a hairline between rows.
        for index, row in enumerate(rows):
            y = self.height - (index + QUIET_ZONE + 1) * module
            start = None
            for column, dark in enumerate((*row, 0)):
                if dark and start is None:
                    start = column
                elif not dark and start is not None:
                    x = (start + QUIET_ZONE) * module
                    canvas.rect(x, y, (column - start) * module, module * 1.05, stroke=0, fill=1)
                    start = None
