"""Paired tests between ranking methods/models on the same pairs: McNemar, sign-flip permutation,
Holm, significance clusters.

Exit 0 when every row was used, 1 when rows were excluded, 2 when the input is unusable."""

from __future__ import annotations

import argparse

from judgescope import defaults
from judgescope.cli import resamples_arg, seed_arg, add_source_arguments, load_source, print_ledger, write_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_source_arguments(p, "ranking")
    p.add_argument("--json", metavar="FILE", help="write the pairs and clusters as JSON")
    p.add_argument("--resamples", type=resamples_arg, default=defaults.RESAMPLES)
    p.add_argument("--seed", type=seed_arg, default=defaults.SEED)


def compute(decisions, resamples=defaults.RESAMPLES, seed=defaults.SEED) -> dict:
    """{"datasets": {name: {"pairs": [...], "clusters": [...]}}} plus the rules."""
    from judgescope.significance import matrices, paired as sig
    out = {}
    for res in matrices.all_method_pairs(decisions, resamples, seed):
        out[res["dataset"]] = {
            "pairs": matrices.json_pairs(res["pairs"], ("permutation_p", "permutation_holm_p",
                                                      "permutation_method")),
            "clusters": res["clusters"], **({"note": res["note"]} if res["note"] else {})}
    return {"datasets": out, "rule": matrices.METHOD_RULE, "clusters_rule": matrices.CLUSTER_RULE,
            "tests": [sig.MCNEMAR, sig.SIGN_FLIP], "correction": f"{sig.HOLM} per dataset",
            "resamples": resamples, "seed": seed}


def run(args) -> int:
    from judgescope.wiring import open_store
    from judgescope.ranking import decisions as ranking
    loaded = load_source(args.ranking, "pairwise_ranking", args.config, args.split, args.form)
    store = open_store({"ranking": loaded})
    _, decisions = ranking.load(store.run, loaded.spec.name)
    report = compute(decisions, args.resamples, args.seed) if not decisions.empty else \
        {"datasets": {}, "note": "no model decision columns: nothing to compare"}
    if not report["datasets"]:
        report.setdefault("note", "no dataset has two method/model decision columns on the same "
                                  "pairs: nothing to compare")
        print(report["note"])
    for name, res in report["datasets"].items():
        if not res["pairs"]:
            print(f"{name}: {res.get('note') or 'nothing to compare'}")
            continue
        print(f"{name}: " + ", ".join(f"{c['rank']}. {c['name']}" for c in res["clusters"]))
    write_json(report, args.json)
    return print_ledger(loaded)
