"""Trim Pyodide's python_stdlib.zip to the modules the phone needs (tools/stdlib_kept.txt).

    python3 tools/trim_stdlib.py SOURCE.zip TARGET.zip
        writes TARGET with only the kept files of SOURCE, in SOURCE's order with its dates, so
        the same SOURCE always gives the same bytes; fails if an entry of the list matches no
        file (the list is for this Pyodide's standard library).
    python3 tools/trim_stdlib.py --missing LOADED.json
        lists the modules a recorded run imported from the zip that the list does not keep
        (LOADED.json: PHONE_RUNTIME_LOADED of tests/scorekeeper/portable/test_phone_runtime.py).

Called by `make vendor-pyodide`. Standard library only: it runs before any venv exists.
"""

import argparse
import json
import sys
import zipfile
from pathlib import Path

KEPT = Path(__file__).with_name("stdlib_kept.txt")
# Where Pyodide mounts the zip, as a recorded module's file names it.
MOUNTED = "/lib/python"


def kept_entries(path: Path = KEPT) -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def files_of(entry: str, names: set[str]) -> set[str]:
    """The zip's files an entry keeps, with the __init__.py of every package above them."""
    whole = entry.endswith(".*")
    parts = entry.removesuffix(".*").split(".")
    base = "/".join(parts)
    if whole:
        found = {name for name in names if name.startswith(base + "/") and not name.endswith("/")}
    else:
        found = {name for name in (f"{base}.py", f"{base}/__init__.py") if name in names}
    if found:
        for depth in range(1, len(parts)):
            package = "/".join(parts[:depth]) + "/__init__.py"
            if package in names:
                found.add(package)
    return found


def trim(source: Path, target: Path, entries: list[str]) -> tuple[int, int]:
    """Write the kept files of source to target; (files kept, files in source)."""
    with zipfile.ZipFile(source) as archive:
        infos = archive.infolist()
        names = {info.filename for info in infos}
        kept: set[str] = set()
        unmatched = []
        for entry in entries:
            found = files_of(entry, names)
            if not found:
                unmatched.append(entry)
            kept |= found
        if unmatched:
            raise SystemExit(
                f"{KEPT.name}: no file of {source.name} is {', '.join(unmatched)}; "
                "is this the Pyodide the list was made for?"
            )
        with zipfile.ZipFile(target, "w") as out:
            for info in infos:
                if info.filename in kept:
                    copy = zipfile.ZipInfo(info.filename, info.date_time)
                    copy.external_attr = info.external_attr
                    copy.compress_type = zipfile.ZIP_DEFLATED
                    out.writestr(copy, archive.read(info), compresslevel=9)
    return len(kept), sum(not name.endswith("/") for name in names)


def missing(loaded: Path, entries: list[str]) -> list[str]:
    """Modules of a recorded run, loaded from the zip, whose file the list does not keep."""
    recorded = json.loads(loaded.read_text())
    files = {}
    for module, origin in recorded.items():
        if isinstance(origin, str) and origin.startswith(MOUNTED) and ".zip/" in origin:
            files[origin.split(".zip/", 1)[1]] = module
    kept = set().union(*(files_of(entry, set(files)) for entry in entries))
    return sorted(module for name, module in files.items() if name not in kept)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path)
    parser.add_argument("target", nargs="?", type=Path)
    parser.add_argument("--missing", type=Path, metavar="LOADED_JSON")
    args = parser.parse_args(argv)
    entries = kept_entries()
    if args.missing:
        lacking = missing(args.missing, entries)
        print("\n".join(lacking) or f"{KEPT.name} keeps every module the run loaded.")
        return 1 if lacking else 0
    if not (args.source and args.target):
        parser.error("give SOURCE and TARGET, or --missing LOADED_JSON")
    kept, total = trim(args.source, args.target, entries)
    before, after = args.source.stat().st_size, args.target.stat().st_size
    print(f"{args.target}: {kept} of {total} files kept, {before:,} -> {after:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
