"""Export, import and summarise the reviewer verdicts (the reviews database, JUDGESCOPE_STATE).

`reviews export --out FILE` writes Parquet or CSV by suffix; `reviews import FILE` adds only the
reviews not yet stored (importing twice adds nothing); `reviews summary --json` prints reviewed
rows, verdict counts, the share where the judge was right with its Wilson CI, and the reviewers."""

from __future__ import annotations

import argparse
import json
import sys

from judgescope.reviews import checks
from judgescope.reviews import store as reviews
from judgescope.reviews import verdict_stats as reviews_stats
from judgescope.cli import EXIT_OK, EXIT_UNUSABLE


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


def run(args) -> int:
    try:
        if args.action == "export":
            n = reviews.export_file(args.out, args.state)
            print(f"wrote {n:,} reviews to {args.out}")
        elif args.action == "import":
            n = reviews.import_file(args.file, args.state)
            print(f"imported {n:,} new reviews from {args.file}")
            for note in checks.look_alike_groups(reviews.reviewers(args.state)):
                print(f"NOTE  {note}")
        else:
            summary(args)
    except (ValueError, OSError, reviews.ReviewStoreBusy, reviews.ReviewStoreUnavailable) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    return EXIT_OK


def summary(args) -> None:
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
