"""The judge measured against its reviewers, from the latest verdicts (judgescope.reviews.verdict_log.latest).
Pure: pandas and judgescope.stats only.

Rules, stated once:
- A row's reviewer call is the strict majority of its decisive verdicts (judge right, too harsh,
  too lenient); "unsure" is not decisive; a tie leaves the row disputed and out of the share.
- A low-score row scores below LOW_SCORE (the first threshold of Distributions).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from judgescope import format as fmt
from judgescope import stats
from judgescope.audit.summary import DEFAULT_THRESHOLDS
from judgescope.calibration.agreement import fleiss_of_patterns
from judgescope.reviews import states
from judgescope.schema import language_name, unit_sort_key

LOW_SCORE = DEFAULT_THRESHOLDS[0]
DECISIVE = ("judge_right", "too_harsh", "too_lenient")
RATED = ("judge_right", "too_harsh", "too_lenient", "unsure")


def row_calls(latest: pd.DataFrame) -> pd.DataFrame:
    """One row per reviewed record: reviewers, verdict counts, the majority call (None if tied
    or only unsure) and whether reviewers disagree."""
    cols = ["dataset", "judge_record_id", "language", "unit", "score", "reviewers", "call", "disputed"]
    if latest.empty:
        return pd.DataFrame(columns=cols)
    out = []
    for (ds, rid), g in latest.groupby(["dataset", "judge_record_id"], sort=True):
        decisive = g[g.verdict.isin(DECISIVE)].verdict.value_counts()
        call = decisive.index[0] if len(decisive) and decisive.iloc[0] * 2 > decisive.sum() else None
        last = g.iloc[-1]
        out.append({"dataset": ds, "judge_record_id": rid, "language": last["language"],
                    "unit": last["unit"], "score": last["score"], "reviewers": len(g),
                    "call": call, "disputed": g.verdict.nunique() > 1})
    return pd.DataFrame(out, columns=cols)


def summary(latest: pd.DataFrame, level: float = 0.95) -> dict:
    """The CLI's `reviews summary` and the Reviews page headline: over every reviewed row with a
    reviewer call, at any score."""
    calls = row_calls(latest)
    decided = calls[calls.call.notna()]
    right = int((decided.call == "judge_right").sum())
    ci = stats.wilson_ci(right, len(decided), level)
    return {"reviewed": int(len(calls)),
            "by_verdict": {v: int((latest.verdict == v).sum()) for v in RATED},
            "judge_right_share": ci["share"],
            "ci": {"low": ci["low"], "high": ci["high"], "method": ci["method"], "level": level,
                   "rows": int(len(decided))},
            "reviewers": sorted(latest.reviewer.unique().tolist()) if len(latest) else []}


def low_score_share(latest: pd.DataFrame, low_score: float = LOW_SCORE, level: float = 0.95) -> dict:
    """The judge-right share on the base of the per-language and per-system tables: reviewed rows
    scored below low_score with a reviewer call (Wilson interval). Keys: right, rows, share, low,
    high, method, level."""
    calls = row_calls(latest)
    calls = calls[calls.call.notna() & (pd.to_numeric(calls.score) < low_score)]
    right = int((calls.call == "judge_right").sum())
    ci = stats.wilson_ci(right, len(calls), level)
    return {"right": right, "rows": int(len(calls)), "share": ci["share"], "low": ci["low"],
            "high": ci["high"], "method": ci["method"], "level": level}


def share_sentence(right: int, rows: int, low, high, base: str) -> str:
    """'Judge right on 12 of 40 (30.0 %) <base>; 95 % Wilson score interval [17.9 %, 45.8 %].'"""
    if not rows:
        return f"No {base} has a reviewer call yet."
    return (f"Judge right on {fmt.share_of(right, rows)} {base}; 95 % Wilson score interval "
            f"{fmt.interval(low, high, fmt.share)}.")


def judge_share_by_language(latest: pd.DataFrame, low_score: float = LOW_SCORE) -> pd.DataFrame:
    """Per language, of reviewed low-score rows with a reviewer call: share the judge was right,
    with its Wilson 95% interval."""
    calls = row_calls(latest)
    calls = calls[calls.call.notna() & (pd.to_numeric(calls.score) < low_score)]
    rows = []
    for lang, g in calls.groupby("language", dropna=False):
        ci = stats.wilson_ci(int((g.call == "judge_right").sum()), len(g))
        rows.append({"language": lang, "rows": len(g), "judge_right": int((g.call == "judge_right").sum()),
                     "share": ci["share"], "ci_low": ci["low"], "ci_high": ci["high"]})
    return pd.DataFrame(rows, columns=["language", "rows", "judge_right", "share", "ci_low", "ci_high"])


def judge_share_by_system(latest: pd.DataFrame, systems: pd.DataFrame,
                          low_score: float = LOW_SCORE) -> pd.DataFrame:
    """judge_share_by_language's share per system instead: systems maps judge_record_id → system
    (queries/audit_record_systems.sql); a reviewed row no longer in the audit is 'not in audit'."""
    calls = row_calls(latest)
    calls = calls[calls.call.notna() & (pd.to_numeric(calls.score) < low_score)]
    of = dict(zip(systems["judge_record_id"].astype(str), systems["system"]))
    calls = calls.assign(system=calls.judge_record_id.astype(str).map(of).fillna("not in audit"))
    rows = []
    for name, g in calls.groupby("system", sort=True):
        right = int((g.call == "judge_right").sum())
        ci = stats.wilson_ci(right, len(g))
        rows.append({"system": name, "rows": len(g), "judge_right": right, "share": ci["share"],
                     "ci_low": ci["low"], "ci_high": ci["high"]})
    return pd.DataFrame(rows, columns=["system", "rows", "judge_right", "share", "ci_low", "ci_high"])


def progress(latest: pd.DataFrame, counts: pd.DataFrame) -> pd.DataFrame:
    """Reviewed rows per language × unit against the audit's rows (score counts: columns
    target_language, unit, n), in the order languages are shown (by display name), then units."""
    totals = counts.groupby(["target_language", "unit"], as_index=False)["n"].sum()
    reviewed = (row_calls(latest).groupby(["language", "unit"]).size().rename("reviewed")
                .reset_index().rename(columns={"language": "target_language"}))
    out = totals.merge(reviewed, on=["target_language", "unit"], how="left")
    out["reviewed"] = out["reviewed"].fillna(0).astype(int)
    out["share"] = np.where(out["n"] > 0, out["reviewed"] / out["n"].where(out["n"] > 0, 1), np.nan)
    order = out.assign(_name=out["target_language"].map(language_name).str.casefold(),
                       _unit=out["unit"].map(unit_sort_key))
    return out.loc[order.sort_values(["_name", "_unit"], kind="stable").index].reset_index(drop=True)


def _row_key(frame: pd.DataFrame) -> pd.Series:
    """A reviewed row's identity: its dataset and record id (one id may exist in two datasets)."""
    return frame["dataset"].astype(str) + "\x00" + frame["judge_record_id"].astype(str)


def agreement(latest: pd.DataFrame) -> dict:
    """Agreement among reviewers on rows two or more reviewed (a row is a dataset and a record
    id): Cohen's κ when exactly two reviewers took part, else Fleiss' κ over the rows rated by
    the most common number of reviewers (Fleiss needs the same number per row). None when undefined."""
    rated = latest[latest.verdict.isin(RATED)]
    rated = rated.assign(row=_row_key(rated)) if len(rated) else rated.assign(row=[])
    per_row = rated.groupby("row").reviewer.nunique()
    shared = rated[rated.row.isin(per_row[per_row >= 2].index)]
    if shared.empty:
        return {"method": None, "kappa": None, "rows": 0, "reviewers": 0}
    names = shared.reviewer.unique()
    if len(names) == 2:
        wide = shared.pivot_table(index="row", columns="reviewer", values="verdict",
                                  aggfunc="last").dropna()
        return {"method": "Cohen's κ", "kappa": stats.cohen_kappa(wide.iloc[:, 0], wide.iloc[:, 1]),
                "rows": len(wide), "reviewers": 2}
    r = int(per_row[per_row >= 2].mode().max())
    items = shared[shared.row.isin(per_row[per_row == r].index)]
    table = pd.crosstab(items.row, items.verdict).reindex(columns=list(RATED), fill_value=0)
    value = float(fleiss_of_patterns(table.to_numpy(), np.ones(len(table))))
    return {"method": f"Fleiss' κ (rows with {r} reviewers)",
            "kappa": None if np.isnan(value) else value, "rows": len(table), "reviewers": len(names)}


def disagreements(latest: pd.DataFrame) -> pd.DataFrame:
    """Rows (dataset, record id) whose reviewers gave different verdicts, one line per row with
    each reviewer's call."""
    calls = row_calls(latest)
    disputed = set(_row_key(calls[calls.disputed])) if len(calls) else set()
    rows = latest[_row_key(latest).isin(disputed)] if len(latest) else latest
    return (rows.assign(said=rows.reviewer + ": " + rows.verdict)
            .groupby(["dataset", "judge_record_id", "language", "unit"], dropna=False)["said"]
            .agg("; ".join).reset_index())


def changed_or_gone(latest: pd.DataFrame, current: pd.DataFrame) -> pd.Series:
    """Per review: None when its row is in `current` (judge_record_id, source_text_sha256,
    candidate_text_sha256) with the same digests, else "from revision X, row changed or gone"."""
    now = current.set_index("judge_record_id")
    notes = []
    for _, r in latest.iterrows():
        rid = r["judge_record_id"]
        same = rid in now.index and all(
            _same(r[mine], now.at[rid, theirs]) for mine, theirs in
            (("source_sha256", "source_text_sha256"), ("candidate_sha256", "candidate_text_sha256")))
        notes.append(None if same else f"from revision {r['revision'] or 'unknown'}, row changed or gone")
    return pd.Series(notes, index=latest.index, dtype=object)


def _same(a, b) -> bool:
    missing = lambda v: v is None or (isinstance(v, float) and np.isnan(v))  # noqa: E731
    return (missing(a) and missing(b)) or (not missing(a) and not missing(b) and str(a) == str(b))


def calibration_table(latest: pd.DataFrame, low_score: float = LOW_SCORE) -> pd.DataFrame:
    """A calibration_judgements-shaped table: per reviewed row, the audit judge's call (score
    below low_score → no_match) and each reviewer's call implied by their verdict (judge right →
    the judge's call; too harsh → match; too lenient → no_match). Unsure verdicts are left out."""
    rows = []
    for _, r in latest[latest.verdict.isin(DECISIVE)].iterrows():
        judge = "no_match" if float(r["score"] if pd.notna(r["score"]) else 100) < low_score else "match"
        human = {"judge_right": judge, "too_harsh": "match", "too_lenient": "no_match"}[r["verdict"]]
        for model, verdict, reason in (("audit judge", judge, None),
                                       (f"reviewer {r['reviewer']}", human, r["note"] or None)):
            rows.append({"key": r["judge_record_id"], "judge_model": model, "verdict": verdict,
                         "verdict_binary": int(verdict == "match"), "reason": reason})
    out = pd.DataFrame(rows, columns=["key", "judge_model", "verdict", "verdict_binary", "reason"])
    return out.drop_duplicates(["key", "judge_model"]).reset_index(drop=True)


STATE_COLUMNS = ("review_state", "reviewers", "verdicts_by_reviewer", "disputed")


def review_state(rows: pd.DataFrame, latest: pd.DataFrame) -> pd.DataFrame:
    """The rows with their review state for export: `review_state` (not yet reviewed, disputed,
    or the one verdict all reviewers gave), `reviewers` (how many have a standing verdict),
    `verdicts_by_reviewer` ("reviewer: verdict" of each one's latest, by name) and `disputed`
    (reviewers' latest verdicts differ). `latest` is each reviewer's latest non-retracted verdict
    (verdict_log.latest), so a retraction leaves a row unreviewed by that reviewer."""
    mine = latest[latest["judge_record_id"].isin(rows["judge_record_id"])].sort_values(["judge_record_id", "reviewer"])
    groups = {rid: g for rid, g in mine.groupby("judge_record_id")}
    state, n, said, disputed = [], [], [], []
    for rid in rows["judge_record_id"]:
        g = groups.get(rid)
        if g is None:
            state.append(states.NOT_REVIEWED), n.append(0), said.append(""), disputed.append(False)
            continue
        differ = g["verdict"].nunique() > 1
        state.append(states.DISPUTED if differ else str(g["verdict"].iloc[0]))
        n.append(int(g["reviewer"].nunique()))
        said.append("; ".join(f"{r}: {v}" for r, v in zip(g["reviewer"], g["verdict"])))
        disputed.append(bool(differ))
    return rows.assign(review_state=state, reviewers=n, verdicts_by_reviewer=said, disputed=disputed)
