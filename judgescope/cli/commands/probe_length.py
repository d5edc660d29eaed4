"""Length probe of a judge audit: per language, does the score move with the candidate's length
or its length relative to the source? (exit 0, 1 rows excluded, 2 unusable)."""

from __future__ import annotations

import argparse

from judgescope.cli import load_source, print_ledger, write_json
from judgescope.cli.commands import verify as verify_command
from judgescope.ingest.manifest import SourceError


def add_arguments(p: argparse.ArgumentParser) -> None:
    verify_command.add_arguments(p)


def run(args) -> int:
    from judgescope.calibration import length_probes
    from judgescope.wiring import open_store
    from judgescope.integrity import hashes as verify
    audit = load_source(args.audit, "judge_audit", args.audit_config, args.audit_split)
    snapshot = load_source(args.snapshot, "source_snapshot", args.snapshot_config,
                           args.snapshot_split, args.form)
    key, how = ((args.key.split(","), "given with --key") if args.key
                else verify_command.default_key(audit, snapshot, args))
    key = verify.check_key(key)
    problems = verify.input_problems(key, audit.report["columns_missing"],
                                     snapshot.report["columns_missing"])
    if problems:
        raise SourceError("; ".join(problems) + " (give --key to choose the join columns)")
    store = open_store({"audit": audit, "snapshot": snapshot}, key)
    rows = store.run("audit_lengths")
    result = length_probes.audit_length_probe(rows)
    result["join_key"], result["join_key_source"], result["rows"] = list(key), how, int(len(rows))
    # Every audit row is accounted for: those whose key finds no snapshot row, or several, have
    # no texts to measure (Integrity's classes, from the same join).
    counts = verify.summarise(store.run).counts
    result["audit_rows"] = int(sum(counts.values()))
    result["left_out"] = {"missing": counts["missing"], "ambiguous": counts["ambiguous"]}
    print(f"{audit.spec.name}: length probe on {len(rows):,} of {result['audit_rows']:,} audit rows, those "
          f"joined to one snapshot row ({', '.join(key)}, {how})")
    if left := {c: n for c, n in result["left_out"].items() if n}:
        print("  left out: " + "; ".join(f"{n:,} {verify.CLASS_LABELS[c].lower()}" for c, n in left.items())
              + f" — `judgescope verify {args.audit} {args.snapshot}` lists them")
    for r in result["languages"]:
        if "note" in r:
            print(f"  {r['target_language']}: {r['note']}")
            continue
        print(f"  {r['target_language']} (n {r['n']:,}, {r['clusters']:,} clusters): "
              f"{_slope(r, 'length')} per doubling of length; {_slope(r, 'ratio')} per doubling "
              "of the target/source ratio")
    print(result["method"])
    write_json(result, args.json)
    return max(print_ledger(audit), print_ledger(snapshot))


def _slope(r: dict, name: str) -> str:
    lo, hi = r[f"{name}_ci"]
    return f"{r[f'{name}_slope']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
