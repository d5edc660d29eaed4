"""Words and 2–3-word phrases over-represented in each language's low-score explanations
(log-odds with an informative Dirichlet prior).

Exit 0 when every row was used, 1 when rows were excluded, 2 when the input is unusable."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from judgescope import defaults
from judgescope.cli import finite_float, add_source_arguments, load_source, print_ledger, write_json

if TYPE_CHECKING:
    from judgescope.duck import db


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_source_arguments(p, "audit")
    p.add_argument("--json", metavar="FILE", help="write the themes as JSON")
    p.add_argument("--threshold", type=finite_float, default=defaults.THEME_THRESHOLD,
                   help="low = score below this (default 60)")
    p.add_argument("--min-count", type=int, default=defaults.THEME_MIN_COUNT,
                   help="least low-score occurrences of a term")
    p.add_argument("--units", nargs="*", default=[], help="only these units")


def compute(store: db.Store, threshold: float, min_count: int, units=()) -> dict:
    from judgescope.audit import themes
    rows = store.run("audit_theme_texts", languages=[], units=list(units),
                     threshold=float(threshold), per_group=themes.PER_GROUP)
    return themes.to_json(threshold, themes.themes_by_language(rows, min_low=min_count))


def run(args) -> int:
    from judgescope.wiring import open_store
    loaded = load_source(args.audit, "judge_audit", args.config, args.split, args.form)
    store = open_store({"audit": loaded})
    report = compute(store, args.threshold, args.min_count, args.units)
    counted = store.run("audit_explanation_count").iloc[0]
    report["explained_rows"], report["rows"] = int(counted["explained"]), int(counted["rows"])
    if not report["explained_rows"]:  # as the Themes page says it: nothing to read, not "no match"
        report["note"] = (f"this audit has no judge explanations (0 of {report['rows']:,} rows: its "
                          "judge_explanation column is absent or empty), so there are no explanation themes")
        print(report["note"])
    elif not any(report["by_language"].values()):
        report["note"] = (f"no term is over-represented in the explanations of rows scoring "
                          f"below {args.threshold:g} (with at least {args.min_count} low-score "
                          f"occurrences) in any of the {len(report['by_language'])} languages with "
                          f"explanations ({report['explained_rows']:,} of {report['rows']:,} rows have one)")
        print(report["note"])
    for lang, terms in report["by_language"].items():
        if terms:
            print(f"{lang}: " + "; ".join(f"{t['term']} (z {t['z']:.2f}, {t['low_count']}/"
                                          f"{t['rest_count']})" for t in terms[:5]))
    write_json(report, args.json)
    return print_ledger(loaded)
