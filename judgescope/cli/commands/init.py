"""Write a manifest inferred from data files, folders or pinned Hub ids (without serving it).

Each dataset's kind is detected from its columns, datasets are grouped into collections by role
(an audit with the snapshot that joins it, calibration items with their judgements, a ranking
with its human verification; ratings alone), titles come from the file names, and a checksums
file beside the manifest pins every local file. Exit 0 when every dataset was usable, 1 when
some was not (it is still written, with its problem), 2 when nothing is usable."""

from __future__ import annotations

import argparse
from pathlib import Path

from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE
from judgescope.ingest.manifest import SourceError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("sources", nargs="+", help="data files (Parquet, JSONL, CSV), folders, or "
                   "pinned Hub ids owner/name@<commit>")
    p.add_argument("--save", default="sources.toml", help="the manifest to write (default: "
                   "sources.toml; its checksums go beside it as <name>.checksums.json)")
    p.add_argument("--force", action="store_true", help="replace an existing manifest")


def target(path: str, force: bool) -> Path:
    out = Path(path).expanduser().resolve()
    if out.suffix.lower() != ".toml":
        raise SourceError(f"--save {path!r}: a manifest is a .toml file")
    if out.exists() and not force:
        raise SourceError(f"{out} exists; choose another --save path or add --force")
    return out


def report(found, groups, out: Path | None) -> int:
    from judgescope.sources import infer_manifest
    for line in infer_manifest.describe(groups):
        print(line)
    if out:
        print(f"wrote {out} and {out.stem}.checksums.json beside it")
    bad = [f for f in found if f.error]
    if bad and len(bad) == len(found):
        return EXIT_UNUSABLE
    return EXIT_PROBLEMS if bad else EXIT_OK


def run(args) -> int:
    from judgescope.sources import infer_manifest
    out = target(args.save, args.force)
    found, groups = infer_manifest.write(args.sources, out)
    return report(found, groups, out)
