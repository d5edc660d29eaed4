"""Check that a report still matches its pinned data: recompute every number it shows.

Exit 0 when every number is equal, 1 naming each number that changed (a stale report), 2 when a
pinned file is missing or no longer matches its recorded sha256, or the file is no report."""

from __future__ import annotations

import argparse
from pathlib import Path

from judgescope.cli import EXIT_OK, EXIT_PROBLEMS
from judgescope.report import check, html
from judgescope.sources.catalog import Catalog
from judgescope.sources.manifest import SourceError, load_manifest


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("report", metavar="FILE.html", help="a report written by report-html")


def run(args) -> int:
    path = Path(args.report)
    try:
        manifest = html.read_manifest(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise SourceError(f"{path.name}: cannot read a report manifest ({err})") from err
    # A catalog of its own: the files are read as they are now, never as a cache saw them earlier.
    result = check.check(Catalog(load_manifest()), manifest)
    check.guard(result)
    for note in result.notes:
        print(f"note: {note}")
    if result.changed:
        print(f"{len(result.changed):,} of {result.checked:,} numbers changed since the report "
              f"({manifest.get('generated_at')}):")
        for line in result.changed:
            print(f"  {line}")
        return EXIT_PROBLEMS
    print(f"all {result.checked:,} numbers of {path.name} equal their recomputed values")
    return EXIT_OK
