"""Export, import and summarise the reviewer verdicts (the reviews database, JUDGESCOPE_STATE).

`reviews export --out FILE` writes Parquet or CSV by suffix; `reviews import FILE` adds only the
reviews not yet stored (importing twice adds nothing); `reviews summary --json` prints reviewed
rows, verdict counts, the share where the judge was right with its Wilson CI, and the reviewers;
`reviews blind AUDIT --json` prints the judge calibrated on the blind labels of an audit (a
collection or judge_audit dataset name, or a file)."""

from __future__ import annotations

import argparse
import json
import sys

from judgescope.cli import EXIT_OK, EXIT_UNUSABLE, finite_float, seed_arg
from judgescope import defaults


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--state", help="the reviews database (default: JUDGESCOPE_STATE, else "
                   "~/.local/share/judgescope/reviews.sqlite)")
    sub = p.add_subparsers(dest="action", required=True)
    ex = sub.add_parser("export", help="write the whole log as Parquet or CSV (by suffix)")
    ex.add_argument("--out", required=True)
    im = sub.add_parser("import", help="add a log's reviews not yet stored (idempotent)")
    im.add_argument("file")
    su = sub.add_parser("summary", help="reviewed rows, verdicts, judge-right share with CI")
    su.add_argument("--json", action="store_true", help="print JSON")
    su.add_argument("--dataset", help="only this audit dataset's reviews")
    bl = sub.add_parser("blind", help="the judge vs the blind labels of an audit: confusion, κ with CI, "
                        "TPR/TNR, corrected pass rate, label budget")
    bl.add_argument("audit", help="a collection name (its judge audit), a judge_audit dataset name or a file")
    bl.add_argument("--threshold", type=finite_float, default=defaults.BLIND_THRESHOLD,
                    help="judge pass = score at or above this (default %(default)g)")
    bl.add_argument("--seed", type=seed_arg, default=defaults.SEED)
    bl.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from judgescope.reviews import checks, database, log_files, verdict_log as reviews
    try:
        if args.action == "export":
            n = log_files.export_file(args.out, args.state)
            print(f"wrote {n:,} reviews to {args.out}")
        elif args.action == "import":
            n = log_files.import_file(args.file, args.state)
            print(f"imported {n:,} new reviews from {args.file}")
            for note in checks.look_alike_groups(reviews.reviewers(args.state)):
                print(f"NOTE  {note}")
        elif args.action == "blind":
            blind(args)
        else:
            summary(args)
    except (ValueError, OSError, database.ReviewStoreBusy, database.ReviewStoreUnavailable) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    return EXIT_OK


def summary(args) -> None:
    from judgescope.reviews import verdict_log as reviews, verdict_stats as reviews_stats
    out = reviews_stats.summary(reviews.latest(args.state, args.dataset))
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return
    share = out["judge_right_share"]
    ci = out["ci"]
    print(f"reviewed rows: {out['reviewed']:,} by {len(out['reviewers'])} reviewer(s)")
    print("verdicts: " + ", ".join(f"{k} {v:,}" for k, v in out["by_verdict"].items()))
    print("judge right: n/a" if share is None else
          f"judge right: {share:.1%} of {ci['rows']:,} rows with a reviewer call "
          f"(95% {ci['method']} {ci['low']:.1%}–{ci['high']:.1%})")


def blind(args) -> None:
    """The blind calibration of one audit, as the Reviews page computes it."""
    from judgescope.calibration import blind as blind_cal
    from judgescope.reviews import blind_labels
    from judgescope.cli.commands.drift import _audit  # a collection name stands for its audit
    from judgescope.wiring import open_store

    loaded = _audit(args.audit)
    labels = blind_labels.latest(args.state, loaded.spec.name)
    ids = sorted(labels.judge_record_id.astype(str).unique().tolist())
    counts = open_store({"audit": loaded}).run("audit_blind_unlabelled", ids=ids, threshold=args.threshold)
    out = blind_cal.calibration(labels, int(counts.passes.iloc[0]), int(counts.n.iloc[0]), args.threshold,
                                seed=args.seed)
    out["dataset"] = loaded.spec.name
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False, default=str))
        return
    print(f"blind labels on {loaded.spec.name}:")
    for line in blind_cal.lines(out):
        print(f"  {line}")
