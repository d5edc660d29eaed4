"""Pairwise ranking accuracy against humans per dataset x method x model, as a table or JSON.

Exit 0 when every row was used, 1 when rows were excluded, 2 when the input is unusable."""

from __future__ import annotations

import argparse
import json
import sys

from judgescope.cli import add_source_arguments, load_source, print_ledger, write_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_source_arguments(p, "ranking")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON to FILE ('-' for stdout)")


def compute(loaded) -> dict:
    """The `rank` report of one validated pairwise_ranking dataset."""
    from judgescope.wiring import open_store
    from judgescope.ranking import position, probes, decisions as ranking
    store = open_store({"ranking": loaded})
    pairs, decisions = ranking.load(store.run, loaded.spec.name)
    swapped, families = probes.load(store.run)
    return {"dataset": loaded.spec.name, "rows": int(len(pairs)),
            "ci_method": ranking.CI_METHOD, "decision_rule": ranking.DECISION_RULE,
            "results": ranking.cli_results(decisions) if not decisions.empty else [],
            "position_by_gap": position.by_gap(decisions, pairs),
            "swap_consistency": probes.swap_consistency(decisions, swapped),
            "self_preference": probes.self_preference(decisions, families)}


def run(args) -> int:
    loaded = load_source(args.ranking, "pairwise_ranking", args.config, args.split, args.form)
    report = compute(loaded)
    if args.json == "-":  # stdout carries only the JSON; the ledger goes to stderr
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return print_ledger(loaded, file=sys.stderr)
    if args.json:
        write_json(report, args.json)
    _print(report)
    return print_ledger(loaded)


def _fmt(x) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _print(report: dict) -> None:
    from judgescope.ranking import decisions as ranking
    print(f"{report['dataset']}: {report['rows']:,} pairs")
    if not report["results"]:
        print("  no model decision columns (<method>/<model>, method in "
              + ", ".join(ranking.RANKING_METHODS) + "): nothing to rank")
        return
    print(f"  accuracy with {report['ci_method']} CI; human ties excluded, model ties and "
          "unparsed count as wrong")
    head = f"  {'dataset':24} {'method':20} {'model':10} {'n':>6} {'acc':>6} {'ci':>15} " \
           f"{'h.ties':>6} {'m.ties':>6} {'unpars':>6} {'1st':>6} {'h.1st':>6}"
    print(head)
    for r in report["results"]:
        ci = f"[{_fmt(r['ci'][0])}, {_fmt(r['ci'][1])}]"
        print(f"  {r['dataset'][:24]:24} {r['method']:20} {r['model'][:10]:10} {r['n']:>6} "
              f"{_fmt(r['accuracy']):>6} {ci:>15} {r['human_ties']:>6} {r['model_ties']:>6} "
              f"{r['unparsed']:>6} {_fmt(r['first_choice_rate']):>6} {_fmt(r['human_first_rate']):>6}")
    for r in report["swap_consistency"]["rows"]:
        print(f"  swap consistency {r['method']} · {r['model']}: {r['consistent']}/{r['n']} = "
              f"{_fmt(r['share'])} [{_fmt(r['ci'][0])}, {_fmt(r['ci'][1])}] "
              f"({r['judged_both']} judged in both orders, {r['unparsed']} unparsed left out)")
    for r in report["self_preference"]["rows"]:
        p = "n/a" if r["p"] is None else f"{r['p']:.4f}"
        print(f"  self-preference {r['method']} · {r['judge']} vs {r['other_judge']}: picks its own "
              f"family {_fmt(r['judge_rate'])} vs {_fmt(r['other_rate'])} on {r['n']} pairs, "
              f"difference {r['difference']:+.3f} [{_fmt(r['ci'][0])}, {_fmt(r['ci'][1])}], "
              f"exact McNemar p = {p}")
