"""The judge fingerprint of an audit run: requested and resolved judge model, prompt version and
hash, per unit; with --against, what changed from an earlier run (exit 0, 1 rows excluded, 2
unusable)."""

from __future__ import annotations

import argparse

from judgescope.cli import add_source_arguments, load_source, print_ledger, write_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_source_arguments(p)
    p.add_argument("--against", metavar="EARLIER", help="an earlier judge_audit run: say what "
                   "changed in the judge between the two")
    p.add_argument("--json", metavar="FILE", help="write the fingerprint(s) as JSON")


def run(args) -> int:
    from judgescope.audit import fingerprint
    from judgescope.wiring import open_store
    current = load_source(args.source, "judge_audit", args.config, args.split)
    roles = {"audit": current}
    if args.against:
        roles["audit_previous"] = load_source(args.against, "judge_audit")
    store = open_store(roles)
    result = {"fingerprint": fingerprint.fingerprint(store.run("audit_fingerprint"))}
    if args.against:
        result["previous_fingerprint"] = fingerprint.fingerprint(store.run("audit_previous_fingerprint"))
        result["difference"] = fingerprint.difference(result["previous_fingerprint"], result["fingerprint"])
        print(f"{roles['audit_previous'].spec.name} → {current.spec.name}: {result['difference']['sentence']}")
    else:
        print(f"{current.spec.name}: {result['fingerprint']['label']}")
    for line in fingerprint.unit_lines(result["fingerprint"]):
        print(f"  {line}")
    print(f"  decoding settings: {fingerprint.DECODING}")
    write_json(result, args.json)
    return print_ledger(*roles.values())
