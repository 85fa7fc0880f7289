"""Writes scorekeeper/engine/cldr_numbers.py: how each language the app speaks writes a number,
from the Unicode CLDR data that Babel carries (`make cldr-numbers`; commit the result).

The engine has no dependencies (the phone runs it in the browser), so it reads the symbols from
that generated file rather than from Babel; tests/scorekeeper/engine/test_number_languages.py
checks the file against Babel and every figure against Babel's own formatting."""

import json
from pathlib import Path

from babel import Locale
from babel.numbers import get_decimal_symbol, get_group_symbol

# Django's language codes, and Babel's names for them.
LANGUAGES = {"en": "en", "es": "es", "pt-br": "pt_BR"}
TARGET = Path(__file__).resolve().parent.parent / "scorekeeper" / "engine" / "cldr_numbers.py"


def symbols() -> dict[str, tuple[str, str]]:
    """Each language's decimal symbol and group symbol, by Django's language code."""
    return {
        code: (get_decimal_symbol(Locale.parse(name)), get_group_symbol(Locale.parse(name)))
        for code, name in LANGUAGES.items()
    }


def source() -> str:
    """The generated module's text."""
    rows = "".join(
        f"    {json.dumps(code)}: ({json.dumps(decimal)}, {json.dumps(group)}),\n"
        for code, (decimal, group) in symbols().items()
    )
    return (
        '"""Written by `make cldr-numbers` (docs/cldr_numbers.py) from Babel\'s CLDR data: do not\n'
        'edit. Each language\'s decimal symbol and group symbol, by Django\'s language code."""\n'
        "\n"
        f"NUMBER_SYMBOLS: dict[str, tuple[str, str]] = {{\n{rows}}}\n"
    )


if __name__ == "__main__":
    TARGET.write_text(source(), encoding="utf-8")
    print(f"wrote {TARGET}")
