"""Written by `make cldr-numbers` (docs/cldr_numbers.py) from Babel's CLDR data: do not
edit. Each language's decimal symbol and group symbol, by Django's language code."""

NUMBER_SYMBOLS: dict[str, tuple[str, str]] = {
    "en": (".", ","),
    "es": (",", "."),
    "pt-br": (",", "."),
}
