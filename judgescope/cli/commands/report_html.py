"""Write one self-contained HTML report of a collection (findings, charts, provenance, manifest).

Exit 0 when every row of the collection was used or excluded as the manifest declares (the rule
`validate` uses), 1 when rows were excluded for another reason or a dataset is unusable (the
report is still written), 2 when the collection is unknown, an argument is unusable, or --out
cannot be written (checked before any work)."""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from judgescope import defaults
from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, is_path, out_problem, print_ledger, resamples_arg, seed_arg
from judgescope.ingest.manifest import SourceError, load_manifest, manifest_origin

if TYPE_CHECKING:
    from judgescope.sources.catalog import Catalog


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("collection", metavar="SOURCE", help="a collection of the active manifest, or a data "
                   "file or folder (its collection inferred as `judgescope open` does)")
    p.add_argument("--out", required=True, metavar="FILE.html", help="where to write the report")
    p.add_argument("--force", action="store_true", help="replace an existing --out file")
    p.add_argument("--sign", action="store_true",
                   help="also write FILE.html.sha256, the file's digest (check-report --sig verifies it)")
    p.add_argument("--generated-at", help="the generation time written in the report (ISO 8601; "
                   "default: now, UTC); give it to make two runs byte-identical")
    p.add_argument("--seed", type=seed_arg, default=defaults.SEED, help="bootstrap seed")
    p.add_argument("--resamples", type=resamples_arg, default=defaults.RESAMPLES,
                   help="bootstrap resamples of score means")


def signature(data: bytes, name: str) -> str:
    """A detached digest in sha256sum's format."""
    return f"{hashlib.sha256(data).hexdigest()}  {name}\n"


def run(args) -> int:
    from judgescope.report import assemble, html
    problem = out_problem(args.out, folder=False, force=args.force)
    if problem:
        raise SourceError(problem)
    catalog, args.collection = catalog_for(args.collection)
    report = assemble.collect(catalog, args.collection, generated_at=args.generated_at or assemble.now(),
                              seed=args.seed, resamples=args.resamples)
    data = html.render(report).encode("utf-8")
    out = Path(args.out)
    try:
        out.write_bytes(data)
        if args.sign:
            Path(f"{args.out}.sha256").write_text(signature(data, out.name), encoding="utf-8")
    except OSError as err:
        raise SourceError(f"--out {args.out}: cannot write it ({err.strerror})") from None
    print(f"wrote {args.out} ({len(data):,} bytes, {len(report.ledger.numbers):,} numbers in its manifest)"
          + (f" and {args.out}.sha256" if args.sign else ""))
    loaded = catalog.collection_datasets(args.collection)
    usable = [d for d in loaded if d.ok]
    for d in loaded:
        if not d.ok:
            print(f"{d.spec.name}: unusable: {d.error}")
    code = print_ledger(*usable)
    return EXIT_PROBLEMS if code or len(usable) < len(loaded) else EXIT_OK


def catalog_for(source: str) -> tuple[Catalog, str]:
    """(the catalog, the collection's name): a file or folder makes a manifest of its own (as
    `judgescope open` infers it, in a scratch folder); a name is a collection of the active one."""
    from judgescope import wiring
    from judgescope.cli.commands.open import scratch_manifest
    if is_path(source):
        found, _groups, path = scratch_manifest([source])
        if not any(f.kind and not f.error for f in found):
            raise SourceError(f"{source}: no usable dataset (" +
                              "; ".join(f"{f.spec.name}: {f.error}" for f in found if f.error)[:500] + ")")
        catalog = wiring.catalog(load_manifest(path))
        names = list(catalog.manifest.collections)
        if len(names) != 1:
            raise SourceError(f"{source} holds {len(names)} collections ({', '.join(names)}): write "
                              "a manifest with `judgescope init` and name one of them")
        return catalog, names[0]
    catalog = wiring.get_catalog()
    if source not in catalog.manifest.collections:
        raise SourceError(f"no collection {source!r} in {catalog.manifest.path.name} "
                          f"(collections: {', '.join(catalog.manifest.collections)}; {manifest_origin()})")
    return catalog, source
