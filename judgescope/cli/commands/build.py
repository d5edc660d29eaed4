"""Build a collection's cache once (validation and every derived table) into a folder to publish.

`judgescope build --out DIR` validates every dataset of the manifest's collections (or those
named) and builds their derived tables into DIR, showing the stages on stderr, then writes
DIR/prebuilt.json, the index the app reads a prebuilt cache by (JUDGESCOPE_PREBUILT, README:
"Ship a prebuilt cache"). Exit 0 built, 1 a dataset unusable or a verification problem (named),
2 unusable input."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from judgescope.cli import EXIT_OK, EXIT_PROBLEMS
from judgescope.ingest.manifest import SourceError, load_manifest, manifest_path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("collections", nargs="*", help="collections to build (default: every one)")
    p.add_argument("--out", required=True, help="folder to write the cache into (created)")
    p.add_argument("--manifest", help="sources.toml (default: JUDGESCOPE_SOURCES or data/sources.toml)")


def run(args) -> int:
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise SourceError(f"--out {args.out} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    before = os.environ.get("JUDGESCOPE_CACHE")
    os.environ["JUDGESCOPE_CACHE"] = str(out.resolve())  # the cache is written there
    try:
        return _build(args, out)
    finally:
        if before is None:
            os.environ.pop("JUDGESCOPE_CACHE", None)
        else:
            os.environ["JUDGESCOPE_CACHE"] = before


def _build(args, out: Path) -> int:
    from judgescope import wiring
    from judgescope.duck import progress
    from judgescope.remote import prebuilt as remote
    cat = wiring.catalog(load_manifest(Path(args.manifest) if args.manifest else manifest_path()))  # fresh: this cache
    unknown = [c for c in args.collections if c not in cat.manifest.collections]
    if unknown:
        raise SourceError(f"no collection named {', '.join(unknown)} in {cat.manifest.path.name} "
                          f"(it has: {', '.join(cat.manifest.collections)})")
    names = args.collections or list(cat.manifest.collections)
    worst = EXIT_OK
    for problem in cat.manifest.problems:
        print(f"MANIFEST  {problem}")
        worst = EXIT_PROBLEMS
    with progress.cli_reporter():
        index = remote.write_index(cat, out, names)
    for coll in names:
        for d in cat.collection_datasets(coll):
            if not d.ok:
                print(f"UNUSABLE  {d.error}")
                worst = EXIT_PROBLEMS
        for problem in index["collections"][coll]["verify_problems"]:
            print(f"NOT VERIFIED  collection {coll}: {problem}")
            worst = EXIT_PROBLEMS
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"built {len(names)} collection(s), {len(index['datasets'])} dataset(s) into {out} "
          f"({size / 1e6:,.1f} MB); index {remote.INDEX}")
    return worst
