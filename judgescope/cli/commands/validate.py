"""Validate datasets and print the excluded-rows ledger (exit 0 clean, 1 rows excluded, 2 unusable).

Rows a manifest excludes on purpose ([[dataset.exclude]]) are expected: counted, and exit 0."""

from __future__ import annotations

import argparse

from judgescope.cli import (EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, declared_excluded, load_source,
                            unexpected_excluded)
from judgescope.schema import KINDS
from judgescope.ingest.manifest import SourceError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("sources", nargs="*", help="manifest dataset names, files or Hub-layout "
                   "folders (default: every dataset in the manifest)")
    p.add_argument("--kind", choices=KINDS, help="kind of a file or folder given by path "
                   "(default: the one kind whose required columns it has)")
    p.add_argument("--config")
    p.add_argument("--split")
    p.add_argument("--form", default="flat")


def run(args) -> int:
    from judgescope.wiring import get_catalog
    from judgescope.ingest import importers
    names = args.sources or list(get_catalog().manifest.datasets)
    worst = EXIT_OK
    for problem in [] if args.sources else get_catalog().manifest.problems:
        print(f"MANIFEST  {problem}")  # a manifest mistake is an unusable source
        worst = EXIT_UNUSABLE
    for coll in [] if args.sources else get_catalog().manifest.collections:
        for notice in get_catalog().notices(coll):
            print(f"UNUSED    collection {coll}: {notice}")  # named, never silently left out
            worst = max(worst, EXIT_PROBLEMS)
    for name, kind in _each_kind(names, args.kind):
        try:
            loaded = load_source(name, kind, args.config, args.split, args.form)
        except SourceError as err:
            print(f"UNUSABLE  {name}: {err}")
            worst = EXIT_UNUSABLE
            continue
        rep = loaded.report
        unexpected, declared = unexpected_excluded(loaded), declared_excluded(loaded)
        note = f", {declared:,} as the manifest declares" if declared else ""
        print(f"{'OK' if not unexpected else 'EXCLUDED':9} {loaded.spec.name}: "
              f"loaded {rep['rows_loaded']:,} = used {rep['rows_used']:,} + excluded "
              f"{rep['rows_excluded']:,}{note}  "
              f"[{loaded.spec.kind}{', detected' if loaded.spec.kind_detected else ''}]")
        for line in importers.describe(rep.get("imported")):
            print(f"          {line}")
        for reason, count in rep["reasons"].items():
            print(f"          {count:>7,}  {reason}")
        if unexpected:
            _print_rows(loaded)
            worst = max(worst, EXIT_PROBLEMS)
    return worst


def _each_kind(names: list[str], kind: str | None):
    """(source, kind) to validate: a file another tool wrote, given without --kind, once per
    kind it gives (an Inspect log: the judge's verdicts and the human labels)."""
    from judgescope.ingest import importers
    from pathlib import Path

    for name in names:
        path = Path(name)
        fmt = importers.detect(path) if kind is None and path.is_file() else None
        if not fmt:
            yield name, kind
            continue
        try:
            kinds = importers.load(path.resolve(), fmt).kinds()
        except SourceError:
            kinds = [None]  # load_source names the problem
        for k in kinds or [None]:
            yield name, k


def _print_rows(loaded, limit: int = 20) -> None:
    import pyarrow.parquet as pq

    table = pq.read_table(loaded.path("ledger")).slice(0, limit).to_pylist()
    for r in table:
        print(f"          {r['file']}:{r['row']}  {r['column'] or '-'}  {r['reason']}  "
              f"value={r['value']!r}")
    total = loaded.report["rows_excluded"]
    if total > limit:
        print(f"          … {total - limit:,} more (see the Excluded rows page)")
