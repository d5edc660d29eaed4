"""Verify an audit against a source snapshot by SHA-256 (exit 0 all verified, 1 problems, 2 unusable)."""

from __future__ import annotations

import argparse

from judgescope import db, verify
from judgescope.catalog import get_catalog, verification_views
from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, load_source, write_json
from judgescope.sources import Collection, SourceError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("audit", help="judge audit: a manifest dataset name, a file or a Hub-layout folder")
    p.add_argument("snapshot", help="source snapshot: a manifest dataset name, a file or a folder")
    p.add_argument("--json", metavar="FILE", help="write the full result as JSON")
    p.add_argument("--key", help="join-key columns, comma-separated (default: the manifest "
                   f"collection holding both, else {','.join(Collection.join_key)}); "
                   f"choose from {', '.join(verify.JOIN_COLUMNS)}")
    p.add_argument("--form", default="flat", choices=("flat", "nested"),
                   help="form of a snapshot given as a file or folder")
    for side in ("audit", "snapshot"):
        p.add_argument(f"--{side}-config", help=f"config of a Hub-layout {side} folder")
        p.add_argument(f"--{side}-split", help=f"split of a Hub-layout {side} folder")


def run(args) -> int:
    audit = load_source(args.audit, "judge_audit", args.audit_config, args.audit_split)
    snapshot = load_source(args.snapshot, "source_snapshot", args.snapshot_config,
                           args.snapshot_split, args.form)
    key = verify.check_key(args.key.split(",") if args.key else default_key(audit, snapshot))
    problems = verify.input_problems(key, audit.report["columns_missing"],
                                     snapshot.report["columns_missing"])
    if problems:
        raise SourceError("; ".join(problems) + " (give --key to choose the join columns)")
    views = {"audit": [audit.path("clean")], "snapshot": [snapshot.path("clean")]}
    views |= verification_views(audit.path("clean"), snapshot.path("clean"), key)
    result = verify.report(db.Store(views).run)
    print_summary(result, key, audit.spec.origin, snapshot.spec.origin)
    write_json(result, args.json)
    return EXIT_OK if result["checked"] == result["verified"] else EXIT_PROBLEMS


def default_key(audit, snapshot) -> tuple[str, ...]:
    """The join key of a manifest collection that holds both datasets, else the default key."""
    for coll in get_catalog().manifest.collections.values():
        if audit.spec.name in coll.datasets and snapshot.spec.name in coll.datasets:
            return coll.join_key
    return Collection.join_key


def print_summary(result: dict, key, audit_origin: str, snapshot_origin: str) -> None:
    checked = result["checked"]
    print(f"audit {audit_origin} against snapshot {snapshot_origin}, joined on {', '.join(key)}")
    print(f"{result['verified']:>9,} / {checked:,} verified")
    for cls in verify.PROBLEMS:
        ids = result[cls]
        if ids:
            print(f"{len(ids):>9,}  {verify.CLASS_LABELS[cls]}: {', '.join(ids[:5])}"
                  + (" …" if len(ids) > 5 else ""))
    hints = list(result["normalization_hint"].values())
    for hint in verify.HINTS:
        if hint in hints:
            print(f"{hints.count(hint):>9,}  of the mismatches would match after "
                  f"{'NFC normalisation' if hint == 'nfc' else 'trimming whitespace'} (a hint, not a pass)")
    print(f"{result['unreferenced_snapshot_rows']:>9,}  snapshot rows no audit row references")
