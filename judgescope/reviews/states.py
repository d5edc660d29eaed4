"""The review-state rules, stated once (no streamlit): which reviewing mode a deployment runs in,
what each verdict is called, the review state of a row (not yet reviewed, disputed when its
reviewers' latest verdicts differ, else the verdict they agree on), which rows are in a state,
and the record a verdict is about."""

from __future__ import annotations

import pandas as pd

MODES = ("off", "login", "open")
DEFAULT_MODE = "open"
VERDICT_LABELS = {"judge_right": "Judge right", "too_harsh": "Too harsh",
                  "too_lenient": "Too lenient", "unsure": "Unsure", "retracted": "Retracted"}
NOT_REVIEWED, DISPUTED = "not yet reviewed", "disputed"
# A state named by its verdict reads "judge …": the label of a judge verdict, lower-cased.
STATE_VERDICTS = {"judge right": "judge_right", "judge too harsh": "too_harsh",
                  "judge too lenient": "too_lenient", "unsure": "unsure"}
STATES = (NOT_REVIEWED, DISPUTED, *STATE_VERDICTS)


def mode(setting: str | None, problem=lambda: None) -> str:
    """The reviewing mode from JUDGESCOPE_REVIEWS (`setting`, None when unset: open): off, login
    (a login is needed) or open (a typed name). An unknown value is off, the safe reading, and
    so is any setting while the reviews database has a problem (`problem()`, asked only when
    the setting would switch reviewing on)."""
    value = (DEFAULT_MODE if setting is None else setting).strip().lower()
    if value not in MODES or value == "off" or problem():
        return "off"
    return value


def row_states(latest: pd.DataFrame, ids) -> list[str]:
    """The review state of each id, from the reviewers' latest verdicts (`latest`, one row per
    reviewer and record): disputed when they differ, else the verdict's label lower-cased
    (e.g. "too harsh"), else "not yet reviewed"."""
    said = latest.groupby("judge_record_id").verdict.agg(
        lambda v: DISPUTED if v.nunique() > 1 else VERDICT_LABELS[v.iloc[0]].lower())
    return [said.get(i, NOT_REVIEWED) for i in ids]


def ids_in_state(latest: pd.DataFrame, state: str) -> tuple[list[str], bool]:
    """(ids, exclude) selecting rows in a review state: "not yet reviewed" excludes every
    reviewed id; "disputed" is rows whose reviewers differ; else any reviewer said so."""
    if state == NOT_REVIEWED:
        return sorted(latest.judge_record_id.unique()), True
    if state == DISPUTED:
        n = latest.groupby("judge_record_id").verdict.nunique()
        return sorted(n[n > 1].index), False
    verdict = STATE_VERDICTS[state]
    return sorted(latest[latest.verdict == verdict].judge_record_id.unique()), False


def verdict_target(r: pd.Series, collection: str, loaded) -> dict:
    """Where a verdict on row r belongs: the collection, the audit dataset (`loaded`, None when
    absent), its revision (the pinned Hub revision, else the first file's sha256 to 12 places),
    the record and the digests of the texts judged."""
    files = loaded.report.get("files", []) if loaded else []
    revision = (loaded.spec.revision if loaded and loaded.spec.hub else None) or \
        (files[0]["sha256"][:12] if files else None)
    return {"collection": collection, "dataset": loaded.spec.name if loaded else "audit",
            "revision": revision, "judge_record_id": str(r["judge_record_id"]),
            "source_sha256": _text(r.get("source_text_sha256")),
            "candidate_sha256": _text(r.get("candidate_text_sha256")),
            "language": _text(r.get("target_language")), "unit": _text(r.get("unit")),
            "score": float(r["score"]) if pd.notna(r.get("score")) else None}


def _text(v):
    return None if v is None or (pd.api.types.is_scalar(v) and pd.isna(v)) else str(v)
