"""A synthetic bulk-judging run beside the LocalGate calibration demo, for the corrected rates.

The calibration judgements (the card's 300 rows, unchanged) plus BULK_QUESTIONS fresh questions
× ATTEMPTS answers that no human labelled, each judged by the same three judges. The planted
truth: each bulk answer is correct with probability TRUE_RATE; each judge then says match with
its calibration sensitivity on a correct answer and 1 − its specificity on a wrong one (both
read from the calibration demo, against the human 2-of-3 majority). So a judge's raw pass rate
on the bulk answers is biased, and Rogan–Gladen / PPI should land near TRUE_RATE.

A separate collection (localgate_bulk) holds it, so the calibration collection keeps exactly the
card's rows.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pyarrow as pa

from judgescope.demo import localgate
from judgescope.demo.common import write_hub_dataset

SEED = 26_0001
BULK_QUESTIONS, ATTEMPTS = 200, 3
TRUE_RATE = 0.60
FOLDER, CONFIG, SPLIT = "localgate_bulk", "calibration", "train"


def _rates(items, judgements) -> dict[str, tuple[float, float]]:
    """Each judge's (sensitivity, specificity) against the human majority on the calibration."""
    truth = items.set_index("key")["human_correct"]
    out = {}
    for judge, g in judgements.groupby("judge_model"):
        t = truth.reindex(g["key"]).to_numpy()
        v = g["verdict_binary"].to_numpy()
        out[judge] = (float(v[t == 1].mean()), float(1 - v[t == 0].mean()))
    return out


def bulk_rows(items, judgements) -> list[dict]:
    rng = np.random.default_rng(SEED)
    rates = _rates(items, judgements)
    template = {j: g.iloc[0].to_dict() for j, g in judgements.groupby("judge_model")}
    rows = []
    for q in range(BULK_QUESTIONS):
        qid = hashlib.sha256(f"localgate-bulk:{q}".encode()).hexdigest()[:12]
        for rep in range(ATTEMPTS):
            correct = rng.random() < TRUE_RATE
            for judge in sorted(rates):
                se, sp = rates[judge]
                says = rng.random() < (se if correct else 1 - sp)
                base = template[judge]
                rows.append({**base, "key": f"{qid}:{rep}", "question_id": qid, "rep": rep,
                             "verdict": localgate.M if says else localgate.NM,
                             "verdict_binary": int(says),
                             "reason": "bulk judgement (synthetic, no human label)",
                             "tokens_in": int(rng.integers(150, 400)),
                             "tokens_out": int(rng.integers(35, 110))})
    return rows


def generate(out_root: Path) -> dict:
    items, judgements = localgate.load(out_root)
    judgements = judgements.astype(object).where(judgements.notna(), None)  # NULL stays NULL
    rows = judgements.to_dict("records") + bulk_rows(items, judgements)
    rows.sort(key=lambda d: (d["key"], d["judge_model"]))
    table = pa.Table.from_pylist(rows, localgate.JUDGE_SCHEMA)
    files = write_hub_dataset(
        Path(out_root) / FOLDER, "LocalGate judgements with a bulk run (synthetic)",
        f"The calibration demo's 300 judgements plus {BULK_QUESTIONS * ATTEMPTS} unlabelled bulk "
        f"answers ({BULK_QUESTIONS} fresh questions × {ATTEMPTS} attempts), each judged by the "
        f"three judges. Planted: a bulk answer is correct with probability {TRUE_RATE:g}; each "
        "judge says match with its calibration sensitivity on a correct answer and one minus its "
        "specificity on a wrong one. Not a published figure: a demo of the corrected rates.",
        {CONFIG: {SPLIT: table}})
    return {FOLDER: {"rows": table.num_rows, "files": len(files)}}
