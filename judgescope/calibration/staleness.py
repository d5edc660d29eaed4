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


AUDIT_RULE = ("a collection that holds a judge audit beside calibration items and judgements links them: "
              "the calibration records, per judge, its judge model and prompts on the calibration items; "
              "the audit is judged by another fingerprint when a requested judge model it records is none "
              "of the calibrated judges, or when both record a prompt hash (prompts, judge_prompt_sha256) "
              "and the audit's is not among the calibrated judge's; a field either side does not record "
              "is not compared")


def audit_staleness(rows: pd.DataFrame, audit_fp: dict) -> dict:
    """The audit of the same collection against the calibration: rows from
    calib_judge_fingerprints, audit_fp from audit.fingerprint.fingerprint."""
    from judgescope.audit import fingerprint  # the audit's own fingerprint and its label

    labelled = rows[rows["labelled"]]
    judges = sorted({str(v) for v in labelled["judge_model"] if pd.notna(v)})
    models = list(audit_fp["fields"]["requested_judge_model"]["values"])
    hashes = set(audit_fp["fields"]["judge_prompt_sha256"]["values"])
    matched = labelled[labelled["judge_model"].astype(str).isin(models)]
    prompts = {str(v) for v in matched["prompts"] if pd.notna(v)}
    other_model = [m for m in models if m not in judges]
    other_prompt = bool(hashes and prompts and not hashes <= prompts)
    shown = prompts or {str(v) for v in labelled["prompts"] if pd.notna(v)}  # no judge matched: all
    calibrated = ("judges " + ", ".join(judges) if judges else "no judge") + (
        " / prompts " + ", ".join(sorted(shown)) if shown else "")
    judged_by = fingerprint.label(audit_fp)
    stale = bool(other_model or other_prompt)
    sentence = (f"audit: calibrated on {calibrated}; this audit was judged by {judged_by}" if stale else
                f"audit: judged by {judged_by}, a calibrated judge" if models else
                f"audit: its rows record no judge model, so it cannot be matched to the calibration ({calibrated})")
    return {"judge_model": "audit", "stale": stale, "calibrated_on": calibrated, "judged_by": judged_by,
            "changed": (["judge model"] if other_model else []) + (["prompt"] if other_prompt else []),
            "sentence": sentence, "rule": AUDIT_RULE}
