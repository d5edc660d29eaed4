"""Verify an audit against a source snapshot by SHA-256 (exit 0 all verified, 1 problems, 2 unusable)."""

from __future__ import annotations

import argparse

from judgescope.ingest import join_key
from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, is_path, load_source, write_json
from judgescope.ingest.manifest import SourceError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("audit", help="judge audit: a manifest dataset name, a file or a Hub-layout folder")
    p.add_argument("snapshot", help="source snapshot: a manifest dataset name, a file or a folder")
    p.add_argument("--json", metavar="FILE", help="write the full result as JSON")
    p.add_argument("--key", help="join-key columns, comma-separated (default: the key the "
                   "manifest collection holding both declares, else the columns among "
                   f"{','.join(join_key.INFERRED_KEY)} both datasets have); "
                   f"choose from {', '.join(join_key.JOIN_COLUMNS)}")
    p.add_argument("--form", default="flat", choices=("flat", "nested"),
                   help="form of a snapshot given as a file or folder")
    for side in ("audit", "snapshot"):
        p.add_argument(f"--{side}-config", help=f"config of a Hub-layout {side} folder")
        p.add_argument(f"--{side}-split", help=f"split of a Hub-layout {side} folder")


def run(args) -> int:
    from judgescope.wiring import open_store
    from judgescope.integrity import hashes as verify
    audit = load_source(args.audit, "judge_audit", args.audit_config, args.audit_split)
    snapshot = load_source(args.snapshot, "source_snapshot", args.snapshot_config,
                           args.snapshot_split, args.form)
    key, how = (args.key.split(","), "given with --key") if args.key else default_key(audit, snapshot, args)
    key = verify.check_key(key)
    problems = verify.input_problems(key, audit.report["columns_missing"],
                                     snapshot.report["columns_missing"])
    if problems:
        raise SourceError("; ".join(problems) + " (give --key to choose the join columns)")
    result = verify.report(open_store({"audit": audit, "snapshot": snapshot}, key).run)
    result["join_key"], result["join_key_source"] = list(key), how
    print_summary(result, key, audit.spec.origin, snapshot.spec.origin)
    print(f"join key {', '.join(key)}: {how}")
    write_json(result, args.json)
    return EXIT_OK if result["checked"] == result["verified"] else EXIT_PROBLEMS


def default_key(audit, snapshot, args) -> tuple[list[str], str]:
    """(key, how it was chosen): a manifest collection's declared key when one holds both
    datasets (both named, not given as files: then no manifest is read), else the key columns
    both have (catalog.Catalog.join_key's rule)."""
    from judgescope.wiring import get_catalog
    from judgescope.integrity import hashes as verify
    named = not (is_path(args.audit) or is_path(args.snapshot))
    for coll in get_catalog().manifest.collections.values() if named else ():
        if audit.spec.name in coll.datasets and snapshot.spec.name in coll.datasets \
                and coll.join_key_declared:
            return list(coll.join_key), f"declared by collection {coll.name}"
    a_miss, s_miss = audit.report["columns_missing"], snapshot.report["columns_missing"]
    key = verify.infer_key(a_miss, s_miss)
    if not key:
        raise SourceError(verify.no_shared_key(a_miss, s_miss).replace(
            "set join_key for this collection in the manifest", "give --key"))
    return key, "inferred: the key columns both datasets have"


def print_summary(result: dict, key, audit_origin: str, snapshot_origin: str) -> None:
    from judgescope.integrity import hashes as verify
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
