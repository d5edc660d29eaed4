"""Judge-vs-human calibration: confusion, Scott's pi, gates (exit 0 all pass, 1 a gate fails or
rows were excluded, 2 unusable)."""

from __future__ import annotations

import argparse
from fractions import Fraction

from judgescope import defaults
from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, is_path, load_source, print_ledger, write_json
from judgescope.ingest.manifest import SourceError


def add_inputs(p: argparse.ArgumentParser) -> None:
    """ITEMS, JUDGEMENTS and where to find them: the inputs load_frames reads (also compare-judges)."""
    p.add_argument("items", help="calibration_items: a manifest dataset name, a file or a "
                   "Hub-layout folder")
    p.add_argument("judgements", nargs="?", help="calibration_judgements (default: the "
                   "judgements dataset of ITEMS' collection, when ITEMS is a manifest name)")
    p.add_argument("--splits", nargs="*", default=[], help="only items of these splits "
                   f"('{defaults.NO_SPLIT}': items without one)")
    p.add_argument("--config", help="config of ITEMS when it is a Hub-layout folder")
    p.add_argument("--judgements-config", help="config of JUDGEMENTS when it is a folder")
    p.add_argument("--split", help="split (storage partition) of a Hub-layout folder")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_inputs(p)
    p.add_argument("--json", metavar="FILE", help="write the full result as JSON")
    p.add_argument("--judge-gate", type=Fraction, default=defaults.JUDGE_GATE,
                   help="per-judge Scott's pi gate (default 0.6)")
    p.add_argument("--panel-gate", type=Fraction, default=defaults.PANEL_GATE,
                   help="panel Scott's pi gate (default 0.8)")
    p.add_argument("--exclude-three-way-ties", action="store_true",
                   help="leave items whose three humans all differ out of every judge and panel "
                        "figure (default: they count as 'not match')")


def _judgements_name(items_name: str) -> str:
    from judgescope.wiring import get_catalog
    cat = get_catalog()
    for coll in cat.manifest.collections.values():
        if items_name in coll.datasets:
            for name in coll.datasets:
                if cat.manifest.datasets[name].kind == "calibration_judgements":
                    return name
    raise SourceError(f"no calibration_judgements dataset shares a collection with {items_name}; "
                      "name JUDGEMENTS")


def _gives_judgements(source: str) -> bool:
    """Whether a file another tool wrote holds the judge's verdicts beside the human labels (an
    Inspect log with human score edits): then it is both ITEMS and JUDGEMENTS."""
    from pathlib import Path

    from judgescope.ingest import importers

    path = Path(source)
    fmt = importers.detect(path) if path.is_file() else None
    return bool(fmt) and "calibration_judgements" in importers.load(path.resolve(), fmt).kinds()


def load_frames(args):
    """((items, judgements) DataFrames through the same named queries the pages run, and the
    two validated inputs)."""
    from judgescope.calibration import panel as calibration
    from judgescope.wiring import open_store
    items = load_source(args.items, "calibration_items", args.config, args.split)
    named = not is_path(args.items)  # a file or folder: no manifest is read
    gives_both = not named and _gives_judgements(args.items)
    if args.judgements is None and not named and not gives_both:
        raise SourceError(f"{args.items}: a file or folder needs JUDGEMENTS named too")
    source = args.judgements or (args.items if gives_both else _judgements_name(args.items))
    judg = load_source(source, "calibration_judgements", args.judgements_config, args.split)
    store = open_store({"items": items, "judgements": judg})
    params = calibration.split_params(args.splits)
    frames = (store.run("calib_items", **params), store.run("calib_item_judgements", **params))
    if frames[0].empty:
        raise SourceError(f"{items.spec.name}: no calibration items" +
                          (f" in splits {args.splits}" if args.splits else ""))
    if frames[1].empty:
        raise SourceError(f"{judg.spec.name}: no judgement shares a key with {items.spec.name}")
    return frames, (items, judg)


def run(args) -> int:
    from judgescope.calibration import panel as calibration, corrected
    from judgescope.wiring import open_store
    (items, judgements), inputs = load_frames(args)
    ledger = print_ledger(*inputs)
    rep = calibration.report(items, judgements, args.judge_gate, args.panel_gate,
                             exclude_ties=args.exclude_three_way_ties, qa=True)
    print(f"{rep['n_items']} items · Scott's pi vs the human 2-of-3 majority · {rep['ci_method']}")
    print(calibration.definitions_sentence(rep))
    print(calibration.summary_table(rep).to_string(index=False))
    summary = rep["disagreement_summary"]
    print(f"Panel disagreements: {summary['n']}, {summary['with_human_support']} with at least "
          f"one human on the panel's side; unanimous-human: {', '.join(summary['unanimous_human']) or 'none'}")
    print(f"Humans: Fleiss' kappa {calibration.fmt(rep['humans']['fleiss_kappa'])}, "
          f"Krippendorff's alpha {calibration.fmt(rep['humans']['krippendorff_alpha'])}, "
          f"three-way ties: {', '.join(rep['humans']['three_way_ties']) or 'none'}")
    for _, label, r in calibration.rater_reports(rep):
        print(f"Bias direction, {label}: {r['bias']['sentence']}")
        if r["label_budget"]:
            print(f"Label budget, {label} (INCONCLUSIVE): {r['label_budget']['sentence']}")
    print(rep["ceiling"]["sentence"])
    for name, probe in (rep["length_probe"] or {}).items():
        if probe:
            print(f"Length probe, {name}: {probe['sentence']}")
    unlabelled = open_store({"items": inputs[0], "judgements": inputs[1]}).run(
        "calib_unlabelled_counts")
    rep["corrected_rates"] = corrected.for_report(rep, unlabelled)
    for name, c in rep["corrected_rates"].items():
        print(f"Corrected pass rate, {name}: {corrected.sentence(c)}")
    write_json(rep, args.json)
    rows = [r for _, _, r in calibration.rater_reports(rep)]
    gates = EXIT_OK if all(r["verdict"] == "PASS" for r in rows) else EXIT_PROBLEMS
    return max(gates, ledger)
