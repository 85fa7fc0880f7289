"""QR codes drawn straight on a PDF page, as ReportLab draws them, at a fraction of its cost.

ReportLab's encoder tries all eight mask patterns and keeps the best, and computes each code's
error-correction bytes with a generator polynomial it rebuilds for every block, in lists it
copies term by term: most of the time of a club-night pack's 20 codes. The modules printed are
the same as ReportLab's own with mask pattern 0: the same data bits (ReportLab's encoders), the
same error-correction bytes (computed here with log tables, by the division every QR encoder
does), the same placement (ReportLab's).
"""

from __future__ import annotations

import functools
from itertools import zip_longest

from reportlab.graphics.barcode.qr import QrCode
from reportlab.graphics.barcode.qrencoder import QRBitBuffer, QRCode, QRRSBlock

# Arithmetic in GF(256) modulo x⁸ + x⁴ + x³ + x² + 1, the field of QR's Reed-Solomon codes:
# EXP[i] is α^i (doubled in length so that a sum of two logs needs no modulo), LOG its inverse.
EXP = [0] * 512
LOG = [0] * 256
_value = 1
for _power in range(255):
    EXP[_power] = _value
    LOG[_value] = _power
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D
for _power in range(255, 512):
    EXP[_power] = EXP[_power - 255]
del _value, _power

PAD_BYTES = (0xEC, 0x11)


@functools.cache
def generator_logs(degree: int) -> tuple[int, ...]:
    """The logs of the generator polynomial (x - α⁰)(x - α¹)…(x - α^(degree-1)), its terms
    after the leading 1, highest first: the same for every code with as many error bytes."""
    terms = [1]
    for power in range(degree):
        # Multiply by (x + α^power): subtraction is addition in GF(2⁸).
        product = [*terms, 0]
        for index, term in enumerate(terms):
            if term:
                product[index + 1] ^= EXP[LOG[term] + power]
        terms = product
    return tuple(LOG[term] for term in terms[1:])


def error_bytes(data: list[int], count: int) -> list[int]:
    """The `count` Reed-Solomon error-correction bytes of a block of data bytes: the remainder
    of the data (times x^count) divided by the generator polynomial."""
    logs = generator_logs(count)
    remainder = [0] * count
    for byte in data:
        factor = byte ^ remainder[0]
        remainder = remainder[1:]
        remainder.append(0)
        if factor:
            shift = LOG[factor]
            for index, log in enumerate(logs):
                remainder[index] ^= EXP[shift + log]
    return remainder


def codewords(qr: QRCode) -> list[int]:
    """The code's bytes in the order they are placed: data then error bytes, interleaved
    block by block, as `QRCode.createData` lays them out."""
    blocks = QRRSBlock.getRSBlocks(qr.version, qr.errorCorrectLevel)
    capacity = 8 * sum(block.dataCount for block in blocks)
    buffer = QRBitBuffer()
    for data in qr.dataList:
        data.write(buffer, qr.version)
    if buffer.getLengthInBits() > capacity:
        raise ValueError(f"code length overflow. ({buffer.getLengthInBits()} > {capacity})")
    # The terminator, then zeros to a whole byte, then the pad bytes in turn to the capacity.
    if buffer.getLengthInBits() + 4 <= capacity:
        buffer.put(0, 4)
    while buffer.getLengthInBits() % 8:
        buffer.putBit(False)
    pad = 0
    while buffer.getLengthInBits() < capacity:
        buffer.put(PAD_BYTES[pad % 2], 8)
        pad += 1
    data_blocks, error_blocks = [], []
    offset = 0
    for block in blocks:
        chunk = buffer.buffer[offset : offset + block.dataCount]
        offset += block.dataCount
        data_blocks.append(chunk)
        error_blocks.append(error_bytes(chunk, block.totalCount - block.dataCount))
    return [
        byte
        for column in (*zip_longest(*data_blocks), *zip_longest(*error_blocks))
        for byte in column
        if byte is not None
    ]


class FixedMaskQrCode(QrCode):
    """A QR code drawn with mask pattern 0.

    The library tries all eight masks the standard allows and keeps the one with the fewest
    look-alike patterns, which is most of the cost of a code; every mask is valid and reads
    the same in a phone's camera, and a 50-table pack draws 50 codes."""

    def draw(self):
        qr = self.qr
        if qr.version is None:
            qr.version = qr.calculate_version()
        qr.dataCache = codewords(qr)
        qr.makeImpl(False, 0)
        qr.make = lambda: None
        super().draw()
