"""A synthetic re-score of the V2 demo audit: a stated share of V2's units (RESCORED_SHARE of
each unit, drawn with a seed) scored again by a second run of the same judge, so Compare
versions has a truly paired sample (same source id, language, unit and paragraph) and shows its
paired permutation and Wilcoxon tests. V1 stays independent of V2, as its published card
requires ("V1 and V2 audit samples are independent and must not be described as paired").

The second run's score is the V2 score plus a seeded draw: answers drift down by ANSWER_SHIFT
points on average (a stricter re-run on short answers), paragraphs and questions do not."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from judgescope.demo.common import write_hub_dataset
from judgescope.demo.xhotpotqa import FOLDERS

SEED = 25_0002
RESCORED_SHARE = 0.25
ANSWER_SHIFT = 3.0
NOISE_SD = 2.5
FOLDER, CONFIG, SPLIT = "xhotpotqa_judge_v2_rescore", "xhotpotqa_glm52_judge_v2_rescore", "audit"


def _v2(out_root: Path) -> pa.Table:
    folder, config, split = FOLDERS["v2"]
    return pq.read_table(Path(out_root) / folder / "data" / f"{config}-{split}.parquet")


def rescored(v2: pa.Table) -> pa.Table:
    """RESCORED_SHARE of each unit's V2 rows (sorted by record id, then drawn with the seed),
    re-scored; every other column kept but the record id, version and run group."""
    rng = np.random.default_rng(SEED)
    frame = v2.to_pandas().sort_values("judge_record_id", kind="stable").reset_index(drop=True)
    picked = []
    for unit in sorted(frame["unit"].unique()):
        idx = frame.index[frame["unit"] == unit].to_numpy()
        k = int(round(RESCORED_SHARE * len(idx)))
        picked += sorted(int(i) for i in rng.choice(idx, size=k, replace=False))
    out = frame.loc[picked].reset_index(drop=True)
    shift = np.where(out["unit"] == "answer", -ANSWER_SHIFT, 0.0)
    noise = rng.normal(0.0, NOISE_SD, len(out))
    out["score"] = np.clip(np.rint(out["score"] + shift + noise), 0, 100).astype(out["score"].dtype)
    out["judge_record_id"] = [hashlib.sha256(f"rescore|{r}".encode()).hexdigest()[:32]
                              for r in out["judge_record_id"]]
    out["dataset_version"] = "v2-rescore"
    out["run_group"] = "v2_rescore_run"
    return pa.Table.from_pandas(out, schema=v2.schema, preserve_index=False)


def generate(out_root: Path) -> dict:
    table = rescored(_v2(out_root))
    files = write_hub_dataset(
        Path(out_root) / FOLDER, "XHotpotQA GLM-5.2 Judge V2 re-score (synthetic)",
        f"A second run of the V2 judge over {RESCORED_SHARE:.0%} of V2's units (drawn per unit with "
        "a fixed seed): the same source id, language, unit and paragraph, so Compare versions "
        "pairs every row with its V2 score. Answers were re-scored about "
        f"{ANSWER_SHIFT:g} points lower on average; paragraphs and questions are unchanged up to "
        "noise. Not a published figure: a demo of the paired tests.",
        {CONFIG: {SPLIT: table}})
    return {FOLDER: {"rows": table.num_rows, "files": len(files)}}
