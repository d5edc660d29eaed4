"""Paired tests between judges on the calibration items both judged: exact McNemar, Holm, agreement difference with a paired bootstrap CI.

Exit 0 when every row was used, 1 when rows were excluded, 2 when the input is unusable."""

from __future__ import annotations

import argparse

from judgescope.calibration import panel as calibration
from judgescope.significance import paired as sig
from judgescope.significance import tables
from judgescope.cli import print_ledger, write_json
from judgescope.cli.commands.calibrate import load_frames


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("items", help="calibration_items: a manifest dataset name, a file or a "
                   "Hub-layout folder")
    p.add_argument("judgements", nargs="?", help="calibration_judgements (default: the "
                   "judgements dataset of ITEMS' collection, when ITEMS is a manifest name)")
    p.add_argument("--json", metavar="FILE", help="write the pairs as JSON")
    p.add_argument("--splits", nargs="*", default=[], help="only items of these splits")
    p.add_argument("--resamples", type=int, default=sig.DEFAULT_RESAMPLES)
    p.add_argument("--seed", type=int, default=sig.DEFAULT_SEED)
    p.add_argument("--config", help="config of ITEMS when it is a Hub-layout folder")
    p.add_argument("--judgements-config", help="config of JUDGEMENTS when it is a folder")
    p.add_argument("--split", help="split (storage partition) of a Hub-layout folder")


def compute(items, judgements, resamples=sig.DEFAULT_RESAMPLES, seed=sig.DEFAULT_SEED) -> dict:
    rows = tables.judge_pairs(calibration.build_frame(items, judgements), resamples, seed)
    return {"pairs": tables.json_pairs(rows), "rule": tables.JUDGE_RULE,
            "correction": f"{sig.HOLM} over {len(rows)} pairs", "test": sig.MCNEMAR,
            "resamples": resamples, "seed": seed}


def run(args) -> int:
    (items, judgements), inputs = load_frames(args)
    ledger = print_ledger(*inputs)
    report = compute(items, judgements, args.resamples, args.seed)
    print(f"{report['test']}; {report['correction']}; CI: paired bootstrap, "
          f"{args.resamples:,} resamples, seed {args.seed}")
    print(tables.pair_table(report["pairs"]).to_string(index=False) if report["pairs"]
          else "fewer than two judges: no pair")
    write_json(report, args.json)
    return ledger
