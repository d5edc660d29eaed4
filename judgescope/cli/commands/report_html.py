"""Write one self-contained HTML report of a collection (findings, charts, provenance, manifest).

Exit 0 when every row of the collection was used, 1 when rows were excluded (the report is still
written), 2 when the collection is unknown or unusable."""

from __future__ import annotations

import argparse
from pathlib import Path

from judgescope import stats
from judgescope.audit import summary as audit
from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, ledger_line
from judgescope.report import assemble, html
from judgescope.sources.catalog import get_catalog
from judgescope.sources.manifest import SourceError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("collection", help="a collection of the sources manifest")
    p.add_argument("--out", required=True, metavar="FILE.html", help="where to write the report")
    p.add_argument("--generated-at", help="the generation time written in the report (ISO 8601; "
                   "default: now, UTC); give it to make two runs byte-identical")
    p.add_argument("--seed", type=int, default=stats.DEFAULT_SEED, help="bootstrap seed")
    p.add_argument("--resamples", type=int, default=audit.DEFAULT_RESAMPLES,
                   help="bootstrap resamples of score means")


def run(args) -> int:
    catalog = get_catalog()
    if args.collection not in catalog.manifest.collections:
        raise SourceError(f"no collection {args.collection!r} in {catalog.manifest.path.name} "
                          f"(collections: {', '.join(catalog.manifest.collections)})")
    if args.resamples < 1:
        raise SourceError("--resamples must be at least 1")
    report = assemble.collect(catalog, args.collection, generated_at=args.generated_at or assemble.now(),
                           seed=args.seed, resamples=args.resamples)
    text = html.render(report)
    Path(args.out).write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.out} ({len(text.encode('utf-8')):,} bytes, "
          f"{len(report.ledger.numbers):,} numbers in its manifest)")
    loaded = catalog.collection_datasets(args.collection)
    for d in loaded:
        print(ledger_line(d) if d.ok else f"{d.spec.name}: unusable: {d.error}")
    bad = [d for d in loaded if not d.ok or d.report["rows_excluded"]]
    return EXIT_PROBLEMS if bad else EXIT_OK
