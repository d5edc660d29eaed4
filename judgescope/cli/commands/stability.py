"""Stability of a judge that scored the same units more than once: ICC(1), within-unit SD, flip
rate (exit 0, 1 rows excluded, 2 unusable)."""

from __future__ import annotations

import argparse

from judgescope.cli import add_source_arguments, load_source, print_ledger, write_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_source_arguments(p)
    p.add_argument("--kind", default="raw_judge_records",
                   help="raw_judge_records (default) or judge_audit")
    p.add_argument("--threshold", type=float, help="verdict = score below this (for flip rates)")
    p.add_argument("--against", metavar="EARLIER", help="an earlier judge_audit run: stability "
                   "between the two on the units both scored (same judge, same texts)")
    p.add_argument("--json", metavar="FILE", help="write the full result as JSON")


def run(args) -> int:
    from judgescope.wiring import open_store
    from judgescope.audit import stability
    if args.against:
        return _against(args)
    loaded = load_source(args.source, args.kind, args.config, args.split, args.form)
    store = open_store({"raw_records": loaded})
    records = store.run("audit_repeat_scores")
    result = stability.stability(records, args.threshold)
    result["definition"] = stability.REPEAT_DEFINITION
    result["unkeyed"] = stability.unkeyed_records(store.run)
    result["flipping_records"] = (records[records["unit_key"].isin(
        result["flips"]["flipping_units"])].to_dict("records") if result["flips"] else [])
    print(f"{loaded.spec.name}: {result['units_repeated']:,} units scored more than once by the "
          "same judge")
    if not result["units_repeated"]:
        print("  no repeated scores: stability (ICC, SD, flip rate) is not measurable here")
    else:
        icc = result["icc"]
        print(f"  ICC(1) {_f(icc['icc'])} [{_f(icc['ci'][0])}, {_f(icc['ci'][1])}] · mean "
              f"within-unit SD {_f(result['spread']['mean_sd'])}")
        if result["flips"]:
            fl = result["flips"]
            print(f"  flip rate ({fl['definition']}): {fl['flipped']} of {fl['units']} "
                  f"({_f(fl['flip_rate'])}, 95% CI [{_f(fl['ci'][0])}, {_f(fl['ci'][1])}])")
    print(f"  repeated unit: {result['definition']}")
    if left_out := stability.unkeyed_sentence(result["unkeyed"]):
        print(f"  {left_out}")
    write_json(result, args.json)
    return print_ledger(loaded)


def _against(args) -> int:
    from judgescope.audit import fingerprint, stability
    from judgescope.wiring import open_store
    current = load_source(args.source, "judge_audit", args.config, args.split)
    earlier = load_source(args.against, "judge_audit")
    store = open_store({"audit": current, "audit_previous": earlier})
    pairs = store.run("audit_rerun_pairs")
    result = stability.from_pairs(pairs, args.threshold)
    result["counts"] = {"by_run": stability.rerun_accounting(store.run("audit_rerun_counts"), len(pairs))}
    result["judge"] = fingerprint.difference(fingerprint.fingerprint(store.run("audit_previous_fingerprint")),
                                             fingerprint.fingerprint(store.run("audit_fingerprint")))
    print(f"judge: {result['judge']['sentence']}")
    flipping = set(result["flips"]["flipping_units"]) if result["flips"] else set()
    result["flipping_records"] = pairs[pairs["unit_key"].isin(flipping)].to_dict("records")
    print(f"{current.spec.name} against {earlier.spec.name}: "
          + stability.sentence(result).replace("units scored more than once", "units in both runs"))
    print(f"  repeated unit: {result['definition']}")
    for line in stability.not_paired(result["counts"]["by_run"]):
        print(f"  {line}")
    if result["flips"]:
        fl = result["flips"]
        print(f"  flip rate ({fl['definition']}): {fl['flipped']} of {fl['units']} "
              f"({_f(fl['flip_rate'])}, 95% CI [{_f(fl['ci'][0])}, {_f(fl['ci'][1])}])")
    write_json(result, args.json)
    return max(print_ledger(current), print_ledger(earlier))


def _f(x) -> str:
    return "n/a" if x is None else f"{x:.3f}"
