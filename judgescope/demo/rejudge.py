"""A synthetic second judge run over every V2 unit by a new judge version (glm-5.3 with new
prompts), so the Drift page and `judgescope drift` show both a judge shift and a system shift.
Not a published figure.

Planted, all with a fixed seed:
- the judge: on texts unchanged since V2 (anchors) the new judge gives the V2 score, except on
  Thai, where it gives JUDGE_SHIFT more (capped at 100, the scale's top: a V2 score above
  100 − JUDGE_SHIFT rises only to 100, so the realized Thai shift on anchors is smaller; see
  realized_judge_shift);
- the systems: CHANGED_SHARE of each language's paragraphs (drawn per language with the seed)
  come from a changed system, so their candidate text and its SHA-256 differ from V2; the new
  judge scores them V2 score + SYSTEM_SHIFT + the judge's shift for their language + a rounded
  normal draw (SD NOISE_SD), clipped to 0-100."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from judgescope.demo.common import write_hub_dataset
from judgescope.demo.rescore import _v2

SEED = 43_0001
JUDGE_SHIFT = {"th": 4.0}  # per target language; every other language 0
CHANGED_SHARE = 0.25  # of each language's paragraph units
CHANGED_UNIT = "paragraph"
SYSTEM_SHIFT = -6.0
NOISE_SD = 2.0
NEW_MODEL, NEW_REVISION = "glm-5.3", "glm-5.3-2026-11-20"
NEW_PROMPTS = {"answer": "xhqa-judge-short-answer-v3", "paragraph": "xhqa-judge-pq-v4",
               "question": "xhqa-judge-pq-v4"}
FOLDER, CONFIG, SPLIT = "xhotpotqa_judge_v2_drift", "xhotpotqa_glm53_judge_v2_drift", "audit"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def changed_mask(frame: pd.DataFrame, rng) -> np.ndarray:
    """CHANGED_SHARE of each language's CHANGED_UNIT rows (frame sorted by record id), drawn."""
    changed = np.zeros(len(frame), dtype=bool)
    for lang in sorted(frame["target_language"].unique()):
        idx = frame.index[(frame["target_language"] == lang) & (frame["unit"] == CHANGED_UNIT)].to_numpy()
        changed[rng.choice(idx, size=int(round(CHANGED_SHARE * len(idx))), replace=False)] = True
    return changed


def planted(v2: pa.Table) -> pd.DataFrame:
    """V2's rows re-judged: the new score, and which rows come from a changed system."""
    rng = np.random.default_rng(SEED)
    frame = v2.to_pandas().sort_values("judge_record_id", kind="stable").reset_index(drop=True)
    changed = changed_mask(frame, rng)
    judge = frame["target_language"].map(JUDGE_SHIFT).fillna(0.0).to_numpy()
    noise = np.rint(rng.normal(0.0, NOISE_SD, len(frame)))
    raw = frame["score"].to_numpy(float) + judge + np.where(changed, SYSTEM_SHIFT + noise, 0.0)
    frame["v2_score"] = frame["score"]
    frame["score"] = np.clip(np.rint(raw), 0, 100).astype(frame["score"].dtype)
    frame["changed_system"] = changed
    return frame


def realized_judge_shift(v2_scores, language: str) -> float:
    """The mean shift the cap leaves of JUDGE_SHIFT on anchors of `language`: mean(min(shift,
    100 − V2 score)); the demo's expected value for the judge's shift there."""
    shift = JUDGE_SHIFT.get(language, 0.0)
    return float(np.minimum(shift, 100 - np.asarray(v2_scores, dtype=float)).mean())


def rejudged(v2: pa.Table) -> pa.Table:
    """The new run as a judge_audit table with V2's schema."""
    frame = planted(v2)
    changed = frame["changed_system"].to_numpy()
    frame["candidate_text_sha256"] = [
        _sha(f"changed system|{rid}") if c else h
        for rid, h, c in zip(frame["judge_record_id"], frame["candidate_text_sha256"], changed)]
    frame["judge_explanation"] = np.where(
        changed, "Synthetic re-judgement of a changed system's translation.", frame["judge_explanation"])
    frame["judge_record_id"] = [_sha(f"drift|{r}")[:32] for r in frame["judge_record_id"]]
    frame["requested_judge_model"], frame["resolved_judge_revision"] = NEW_MODEL, NEW_REVISION
    frame["judge_prompt_version"] = frame["unit"].map(NEW_PROMPTS)
    frame["judge_prompt_sha256"] = frame["judge_prompt_version"].map(_sha)
    frame["dataset_version"], frame["run_group"] = "v2-glm53", "glm53_rejudge_run"
    frame["raw_artifact_sha256"] = _sha("synthetic glm-5.3 re-judgement of V2")
    frame["raw_line_number"] = np.arange(1, len(frame) + 1, dtype=frame["raw_line_number"].dtype)
    return pa.Table.from_pandas(frame[v2.schema.names], schema=v2.schema, preserve_index=False)


def generate(out_root: Path) -> dict:
    table = rejudged(_v2(out_root))
    files = write_hub_dataset(
        Path(out_root) / FOLDER, "XHotpotQA V2 re-judged by glm-5.3 (synthetic)",
        f"Every V2 unit judged again by a new judge version ({NEW_MODEL}, prompts "
        f"{', '.join(sorted(set(NEW_PROMPTS.values())))}). Planted: on unchanged texts the new judge "
        f"gives the V2 score, plus {JUDGE_SHIFT['th']:g} points on Thai (capped at 100); "
        f"{CHANGED_SHARE:.0%} of each language's paragraphs (drawn with a fixed seed) come from a "
        f"changed system (new candidate text and SHA-256), scored {SYSTEM_SHIFT:g} points lower plus "
        f"the judge's shift and noise (SD {NOISE_SD:g}). Not a published figure: a demo of drift "
        "between judge versions (judgescope/demo/rejudge.py).",
        {CONFIG: {SPLIT: table}})
    return {FOLDER: {"rows": table.num_rows, "files": len(files)}}
