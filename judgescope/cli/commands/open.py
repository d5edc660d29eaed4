"""Serve the app on data files, folders or pinned Hub ids, with no manifest to write.

The manifest is inferred as `init` infers it (kinds detected, collections by role, titles from
the file names); --save keeps it (commented, with the files' checksums) for the next run. A
single .toml argument is served as the manifest it is."""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

from judgescope import resources
from judgescope.cli import EXIT_UNUSABLE
from judgescope.cli.commands import init
from judgescope.ingest.manifest import load_manifest


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("sources", nargs="+", help="data files (Parquet, JSONL, CSV), folders, "
                   "pinned Hub ids owner/name@<commit>, or one sources.toml")
    p.add_argument("--save", help="also write the inferred manifest here (a .toml file)")
    p.add_argument("--force", action="store_true", help="replace an existing --save manifest")
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8501)))
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (default: this "
                   "machine only)")
    p.add_argument("--dry-run", action="store_true", help=argparse.SUPPRESS)  # infer, do not serve


def scratch_manifest(sources: list[str]):
    """(found, groups, path) of a manifest inferred into a scratch folder removed at exit: nothing
    is written beside the data or in the current folder."""
    from judgescope.sources import infer_manifest
    scratch = tempfile.mkdtemp(prefix="judgescope-open-")
    atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    out = Path(scratch) / "sources.toml"
    found, groups = infer_manifest.write(sources, out, pin=False)
    return found, groups, out


def manifest_for(args) -> tuple[Path, int]:
    """The manifest to serve and the exit code of inferring it (a .toml is served as it is)."""
    from judgescope.sources import infer_manifest
    if len(args.sources) == 1 and args.sources[0].lower().endswith(".toml"):
        path = Path(args.sources[0]).expanduser().resolve()
        manifest = load_manifest(path)  # unreadable: SourceError, exit 2
        for problem in manifest.problems:
            print(f"MANIFEST  {problem}")
        return path, 0
    if args.save:
        out = init.target(args.save, args.force)
        found, groups = infer_manifest.write(args.sources, out)
    else:
        found, groups, out = scratch_manifest(args.sources)
    return out, init.report(found, groups, out if args.save else None)


def run(args) -> int:
    path, code = manifest_for(args)
    if code == EXIT_UNUSABLE or args.dry_run:
        return code
    return serve(path, args.host, args.port)


def serve(manifest: Path, host: str, port: int) -> int:
    """Serve `manifest` until stopped, saying where the cache and the reviews are kept."""
    from judgescope.reviews.database import default_path
    from judgescope.duck.cache import cache_root

    os.environ["JUDGESCOPE_SOURCES"] = str(manifest)
    print(f"app: {resources.APP.parent}")
    print(f"cache: {cache_root()} (JUDGESCOPE_CACHE to move it)")
    print(f"reviews: {default_path()} (JUDGESCOPE_STATE to move it)")
    print(f"serving on http://{host}:{port} (Ctrl+C stops)", flush=True)
    from judgescope.web import serve as web_serve

    sys.argv = ["judgescope-serve", "--server.headless", "true", "--server.address", host,
                "--server.port", str(port)]
    web_serve.main()
    return 0
