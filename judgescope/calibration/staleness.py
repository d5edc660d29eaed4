"""Is a calibration stale for the run it corrects? A judge is calibrated on the judgements it
gave the calibration items (labelled); its other judgements (the unlabelled run whose pass rate
is corrected) may have been made with other settings. Per judge, the fingerprint of each side
(endpoint, prompts hash, template, output mode, reasoning effort), and, when they differ,
"calibrated on X, this run was judged by Y". Pure: rows from queries/calib_judge_fingerprints.sql."""

from __future__ import annotations

import pandas as pd

FIELDS = ("judge", "prompts", "template", "output_mode", "reasoning_effort")
NAMES = {"judge": "endpoint", "prompts": "prompts", "template": "template", "output_mode": "output mode",
         "reasoning_effort": "reasoning effort"}
RULE = ("a judge's calibration is stale for its unlabelled run when the sets of recorded settings ("
        + ", ".join(NAMES.values()) + ") differ between its judgements on the calibration items and "
        "its other judgements; a setting recorded on neither side is not compared")


def _settings(part: pd.DataFrame) -> dict[str, list[str]]:
    return {f: sorted({str(v) for v in part[f] if pd.notna(v)}) for f in FIELDS}


def describe(settings: dict[str, list[str]]) -> str:
    """'endpoint bedrock:x / prompts e2c5… / reasoning effort low' (recorded settings only)."""
    parts = [f"{NAMES[f]} {', '.join(v)}" for f, v in settings.items() if v]
    return " / ".join(parts) or "no recorded settings"


def staleness(rows: pd.DataFrame) -> list[dict]:
    """Per judge with unlabelled judgements: both sides' settings, the fields that differ, the
    sentence; stale = a difference."""
    out = []
    for judge, part in rows.groupby("judge_model", sort=True):
        labelled, unlabelled = part[part["labelled"]], part[~part["labelled"]]
        if unlabelled.empty:
            continue
        calibrated, run = _settings(labelled), _settings(unlabelled)
        differ = [f for f in FIELDS if calibrated[f] != run[f] and (calibrated[f] or run[f])]
        out.append({"judge_model": str(judge), "calibrated_on": describe(calibrated),
                    "judged_by": describe(run), "changed": [NAMES[f] for f in differ],
                    "stale": bool(differ) or labelled.empty,
                    "labelled": int(labelled["n"].sum()), "unlabelled": int(unlabelled["n"].sum()),
                    "sentence": (f"{judge}: no calibration item was judged by it" if labelled.empty else
                                 f"{judge}: calibrated on {describe(calibrated)}; this run was judged by "
                                 f"{describe(run)}" if differ else
                                 f"{judge}: calibrated with the settings this run was judged by"),
                    "rule": RULE})
    return out
