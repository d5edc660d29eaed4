"""Human-rating agreement of long-format ratings: Krippendorff's α, Fleiss' and pairwise κ
(exit 0, 1 rows excluded, 2 unusable)."""

from __future__ import annotations

import argparse

from judgescope.cli import resamples_arg, add_source_arguments, load_source, print_ledger, write_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_source_arguments(p)
    p.add_argument("--json", metavar="FILE", help="write the full result as JSON")
    p.add_argument("--resamples", type=resamples_arg, default=1_000, help="bootstrap resamples of κ/α CIs")


def interval_text(stat: dict) -> str:
    """'95% CI [a, b] by <its name>' of one statistic (clustered.agreement's rule)."""
    ci = ("n/a" if stat["ci"][0] is None and not stat.get("ci_undefined")
          else f"n/a ({stat['ci_undefined']})" if stat["ci"][0] is None
          else f"[{stat['ci'][0]:.4f}, {stat['ci'][1]:.4f}]")
    return f"95% CI {ci} by {stat['ci_name']}"


def run(args) -> int:
    from judgescope.calibration import clustered, human_ratings as hr
    from judgescope.wiring import open_store
    loaded = load_source(args.source, "human_ratings", args.config, args.split, args.form)
    missing = set(loaded.report["columns_missing"])
    score = next((c for c in ("score", "mqm") if c not in missing), None)
    verdict = None if "verdict" in missing else "verdict"
    store = open_store({"ratings": loaded})
    frame = store.run("ratings_long")
    result = clustered.agreement(frame, store.run("ratings_item_clusters"), score, verdict,
                                 resamples=args.resamples)
    result["per_rater"] = hr.per_rater(frame, score, verdict).to_dict("records")
    result["ratings_per_item"] = hr.ratings_per_item(frame).to_dict("records")
    print(f"{loaded.spec.name}: {result['items']:,} items, {result['raters']:,} raters, "
          f"{result['ratings']:,} ratings")
    if result["raters"] < 2:
        print("  one rater only: agreement between raters needs two or more, so every "
              "coefficient below is n/a")
    for name, value in result["alpha"].items():
        print(f"  Krippendorff's alpha, {name}: {'n/a' if value is None else f'{value:.4f}'}, "
              f"{interval_text(result['alpha_ci'][name])}")
    if verdict:
        for name, label in (("krippendorff_alpha", f"Krippendorff's alpha, {verdict} (nominal)"),
                            ("fleiss_kappa", f"Fleiss' kappa, {verdict} (nominal)")):
            stat = result["verdicts"][name]
            value, note = stat["value"], stat.get("note")
            print(f"  {label}: " + (f"{value:.4f}, {interval_text(stat)}" if value is not None
                                    else "n/a" + (f" ({note})" if note else "")))
    write_json(result, args.json)
    return print_ledger(loaded)
