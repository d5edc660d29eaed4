"""Bulk judgements: verdict distributions, judge–judge agreement and provenance, computed from
the small aggregates SQL returns (counts per judge/verdict pair), never from rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from judgescope.calibration import agreement as cs
from judgescope.schema import NOT_RECORDED, VERDICTS
from judgescope.stats import DEFAULT_SEED

PROVENANCE_TEXT = ("judge", "prompts", "template", "output_mode", "reasoning_effort",
                   "finish_reason")
PROVENANCE_COLUMNS = PROVENANCE_TEXT + ("tokens_in", "tokens_out")


def ci_method() -> str:
    return cs.ci_method().replace("over items", "over keys")


def _categories(values) -> list[str]:
    seen = {str(v) for v in values if v is not None and not pd.isna(v)}
    return [v for v in VERDICTS if v in seen] + sorted(seen - set(VERDICTS))


def verdict_distribution(counts: pd.DataFrame) -> pd.DataFrame:
    """judge × verdict table of 'n (share)' from calib_verdict_counts rows."""
    if counts.empty:
        return pd.DataFrame(columns=["judge_model"])
    cats = _categories(counts["verdict"])
    text = counts.assign(cell=[f"{n:,} ({s:.1%})" for n, s in zip(counts["n"], counts["share"])])
    wide = text.pivot(index="judge_model", columns="verdict", values="cell")
    wide = wide.reindex(columns=cats).fillna("0")
    totals = counts.groupby("judge_model")["n"].sum().map("{:,}".format).rename("total")
    return wide.join(totals).reset_index().rename_axis(columns=None)


def pair_agreement(pairs: pd.DataFrame, resamples=cs.RESAMPLES, seed=DEFAULT_SEED) -> pd.DataFrame:
    """Per judge pair: shared keys, observed three-way agreement, Cohen's κ with a bootstrap
    CI, Scott's π, and binary (match vs not) agreement, from calib_judge_pairs counts."""
    cols = ["Judge A", "Judge B", "Shared keys", "Agreement (3-way)", "Cohen's κ", "κ 95% CI",
            "Scott's π", "Agreement (binary)"]
    if pairs.empty:
        return pd.DataFrame(columns=cols)
    cats = _categories(pd.concat([pairs["verdict_a"], pairs["verdict_b"]]))
    out = []
    for (a, b), group in pairs.groupby(["judge_a", "judge_b"], sort=True):
        table = (group.pivot_table(index="verdict_a", columns="verdict_b", values="n",
                                   aggfunc="sum")
                 .reindex(index=cats, columns=cats).fillna(0).to_numpy(dtype=np.int64))
        kappa, pi = cs.kappa_pi_of_tables(table)
        k = len(cats)
        ci = cs.multinomial_ci(table, lambda d, k=k: cs.kappa_pi_of_tables(d.reshape(-1, k, k))[0],
                               resamples, seed)
        n = int(table.sum())
        m = cats.index("match") if "match" in cats else None
        same_binary = n - (0 if m is None else int(table[m].sum() + table[:, m].sum()
                                                   - 2 * table[m, m]))
        out.append([a, b, n, _fmt(np.trace(table) / n), _fmt(kappa),
                    _fmt_ci(ci, cs.undefined_reason(table, ci)), _fmt(pi), _fmt(same_binary / n)])
    return pd.DataFrame(out, columns=cols)


def provenance_table(rows: pd.DataFrame) -> pd.DataFrame:
    """calib_provenance rows for display: every NULL is 'not recorded', never a value."""
    out = pd.DataFrame({"judge_model": rows["judge_model"],
                        "judgements": rows["judgements"].map("{:,}".format)})
    for col in PROVENANCE_TEXT:
        out[col] = [NOT_RECORDED if v is None or pd.isna(v) else str(v) for v in rows[col]]
    for side in ("tokens_in", "tokens_out"):
        out[side] = [_tokens(t, m, r, n) for t, m, r, n in zip(
            rows[f"{side}_total"], rows[f"{side}_mean"], rows[f"{side}_recorded"],
            rows["judgements"])]
    return out


def _tokens(total, mean, recorded, n) -> str:
    if not recorded:
        return NOT_RECORDED
    part = "" if recorded == n else f" ({recorded:,} of {n:,} recorded)"
    return f"{int(total):,} total, mean {mean:,.1f}{part}"


def _fmt(x) -> str:
    x = float(np.asarray(x))
    return "n/a" if np.isnan(x) else f"{x:.4f}"


def _fmt_ci(ci, reason: str | None = None) -> str:
    return cs.undefined_text(reason) if ci[0] is None else f"[{ci[0]:.3f}, {ci[1]:.3f}]"
