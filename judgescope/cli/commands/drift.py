"""Drift between two judge runs on anchors (units with byte-identical texts in both): the judge's
shift, Bland–Altman limits, verdict flips, judge change vs system change (exit 0, 1 rows
excluded, 2 unusable: a run could not be read, or no unit was scored by both runs)."""

from __future__ import annotations

import argparse
import sys

from judgescope import defaults
from judgescope.cli import (finite_float, is_path, load_source, print_ledger, resamples_arg, seed_arg,
                            write_json)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", help="the earlier run: a judge_audit dataset name, a data file, or a "
                   "collection name (its judge audit)")
    p.add_argument("new", help="the later run, named the same way")
    p.add_argument("--threshold", type=finite_float, help="verdict: fail = score below this "
                   "(for flip rates, McNemar and κ; scores that are all 0 or 1 need none)")
    p.add_argument("--resamples", type=resamples_arg, default=defaults.RESAMPLES)
    p.add_argument("--seed", type=seed_arg, default=defaults.SEED)
    p.add_argument("--json", metavar="FILE", help="write the full result as JSON")


def _audit(name: str):
    """A collection name stands for its judge audit; anything else is a dataset or a file (a
    file reads no manifest)."""
    from judgescope.wiring import get_catalog
    catalog = None if is_path(name) else get_catalog()
    if catalog and name in catalog.manifest.collections and name not in catalog.manifest.datasets:
        roles = catalog.roles(name)
        if "audit" not in roles:
            from judgescope.ingest.manifest import SourceError
            raise SourceError(f"collection {name} has no judge audit")
        name = roles["audit"].spec.name
    return load_source(name, "judge_audit")


def run(args) -> int:
    from judgescope.audit import drift_report
    from judgescope.wiring import open_store
    old, new = _audit(args.old), _audit(args.new)
    store = open_store({"audit": new, "audit_previous": old})
    result, _ = drift_report.measure(store.run, args.threshold, args.resamples, args.seed)
    result["old"], result["new"] = old.spec.name, new.spec.name
    print(f"{old.spec.name} → {new.spec.name} (differences are new − old)")
    for line in drift_report.summary_lines(result):
        print(f"  {line}")
    write_json(result, args.json)
    code = print_ledger(old, new)
    if result["counts"]["paired_units"] == 0:
        print(f"nothing to compare: no unit of {old.spec.name} was scored in {new.spec.name} "
              f"({drift_report.PAIRING})", file=sys.stderr)
        return 2
    return code
