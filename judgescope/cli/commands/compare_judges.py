"""Paired tests between judges on the calibration items both judged: exact McNemar, Holm,
agreement difference with a paired bootstrap CI.

Exit 0 when every row was used, 1 when rows were excluded, 2 when the input is unusable."""

from __future__ import annotations

import argparse

from judgescope import defaults
from judgescope.cli import resamples_arg, seed_arg, print_ledger, write_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    from judgescope.cli.commands.calibrate import add_inputs
    add_inputs(p)
    p.add_argument("--json", metavar="FILE", help="write the pairs as JSON")
    p.add_argument("--resamples", type=resamples_arg, default=defaults.RESAMPLES)
    p.add_argument("--seed", type=seed_arg, default=defaults.SEED)


def compute(items, judgements, resamples=defaults.RESAMPLES, seed=defaults.SEED) -> dict:
    from judgescope.calibration import panel as calibration
    from judgescope.significance import matrices, paired as sig
    rows = matrices.judge_pairs(calibration.build_frame(items, judgements), resamples, seed)
    return {"pairs": matrices.json_pairs(rows), "rule": matrices.JUDGE_RULE,
            "correction": matrices.holm_text(rows), "test": sig.MCNEMAR,
            "resamples": resamples, "seed": seed}


def run(args) -> int:
    from judgescope.cli.commands.calibrate import load_frames
    from judgescope.significance import matrices
    (items, judgements), inputs = load_frames(args)
    ledger = print_ledger(*inputs)
    report = compute(items, judgements, args.resamples, args.seed)
    print(f"{report['test']}; {report['correction']}; CI: paired bootstrap, "
          f"{args.resamples:,} resamples, seed {args.seed}")
    print(matrices.pair_table(report["pairs"]).to_string(index=False) if report["pairs"]
          else "fewer than two judges: no pair")
    write_json(report, args.json)
    return ledger
