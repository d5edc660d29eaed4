"""Compare versions: the current audit against its earlier version, unpaired per group (each
version's per-score counts resampled on its own) and paired on the units both scored once
(the pairs' difference counts), with the overlap and the pairing key stated beside them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from judgescope import stats
from judgescope.audit import summary as audit
from judgescope.audit.summary import (BOOTSTRAP_METHOD, DEFAULT_RESAMPLES, DEFAULT_SEED, LEVEL, OVERALL,
                                      bootstrap_table, in_unit_order)


def compare_ci_label(resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED, paired=False) -> str:
    """How Compare versions' intervals are made, beside the numbers they shape."""
    if paired:
        return (f"Mean of current minus previous on the same units; 95% CI: percentile bootstrap "
                f"over the pairs ({BOOTSTRAP_METHOD.replace('per-score', 'per-difference')}), "
                f"{resamples:,} resamples, seed {seed}.")
    return (f"95% CI: percentile bootstrap of the difference, each version resampled "
            f"independently (unpaired; {BOOTSTRAP_METHOD}), {resamples:,} resamples, seed {seed}.")


def compare_table(previous: pd.DataFrame, current: pd.DataFrame, by: list[str],
                  resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED, level=LEVEL) -> pd.DataFrame:
    """Both means, current minus previous, and its unpaired bootstrap CI per group of `by`: every
    group of either version, n = 0 and no mean on the side that lacks it (diff undefined)."""
    prev, cur = dict(audit._groups(previous, by)), dict(audit._groups(current, by))
    empty = (np.array([]), np.array([], dtype=np.int64))
    rows = []
    for key in list(cur) + [k for k in prev if k not in cur]:
        pv, pc = audit._pooled(prev[key]) if key in prev else empty
        cv, cc = audit._pooled(cur[key]) if key in cur else empty
        d = stats.bootstrap_diff_ci(pv, pc, cv, cc, resamples, seed, level)
        rows.append({**dict(zip(by, key)), "n_previous": int(pc.sum()), "n_current": int(cc.sum()),
                     "previous_mean": float(pv @ pc / pc.sum()) if pc.sum() else None,
                     "current_mean": float(cv @ cc / cc.sum()) if cc.sum() else None,
                     "diff": d["diff"], "low": d["low"], "high": d["high"]})
    cols = list(by) + ["n_previous", "n_current", "previous_mean", "current_mean", "diff", "low", "high"]
    return audit._ordered(pd.DataFrame(rows, columns=cols), by)


def unit_compare(previous, current, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED, level=LEVEL):
    """compare_table per unit plus the weighted overall row."""
    per = compare_table(previous, current, ["unit"], resamples, seed, level)
    overall = compare_table(previous, current, [], resamples, seed, level)
    overall.insert(0, "unit", OVERALL)
    return pd.concat([per, overall], ignore_index=True)


def overlap_is_small(overlap: pd.DataFrame, share: float = 0.5) -> bool:
    """True when fewer than `share` of the smaller sample's units appear in both versions."""
    smaller = overlap[["n_current", "n_previous"]].fillna(0).min(axis=1).sum()
    return smaller == 0 or overlap["overlap"].sum() < share * smaller


PAIRING_KEY = "(source_id, else instance_id; target_language, unit, paragraph_id)"


def overlap_sentence(overlap: pd.DataFrame) -> str:
    """The pairs per unit under the one pairing key, and the keys left unpaired as duplicates."""
    parts = [f"{int(r.overlap):,} {r.unit}" for r in in_unit_order(overlap).itertuples()]
    text = f"Pairs on {PAIRING_KEY}, each key once in both versions: " + ", ".join(parts) + "."
    dup_cur, dup_prev = duplicate_key_counts(overlap)
    if dup_cur or dup_prev:
        text += (f" Keys scored more than once are not paired: {dup_cur:,} in the current "
                 f"version, {dup_prev:,} in the previous.")
    return text


def duplicate_key_counts(overlap: pd.DataFrame) -> tuple[int, int]:
    """Pairing keys held by several rows of the current and of the previous version."""
    return tuple(int(overlap[c].fillna(0).sum()) if c in overlap else 0
                 for c in ("duplicate_keys_current", "duplicate_keys_previous"))


def paired_table(diff_counts: pd.DataFrame, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
                 level=LEVEL) -> pd.DataFrame:
    """Mean paired difference per unit with a bootstrap CI over the pairs' difference counts."""
    frame = diff_counts.rename(columns={"diff": "score"})
    out = bootstrap_table(frame, ["unit"], resamples, seed, level)
    out.insert(1, "pairs", [int(frame.loc[frame.unit == u, "n"].sum()) for u in out["unit"]])
    return out.rename(columns={"mean": "mean_diff"})
