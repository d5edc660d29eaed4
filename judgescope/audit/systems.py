"""The judge's scores per system (the MT system or model whose output was judged).

From the per-score counts split by the audit's `system` column (audit_score_counts with
facet = system): per system over all its rows, and per target language × system, the number of
rows, the mean score and its seeded percentile bootstrap CI (the same draw as every audit mean,
summary.bootstrap_table), beside the overall mean. Rows without a system value form their own
group, "not recorded". A system's pooled mean mixes the language pairs it translated, so the
language × system rows are the ones to compare systems by.
"""

from __future__ import annotations

import pandas as pd

from judgescope.audit import summary as audit
from judgescope.schema import NOT_RECORDED

METHOD = ("mean judge score per system, 95% percentile bootstrap over the system's rows "
          "(multinomial over per-score counts, float scores over stated bins; seeded); per "
          "target language × system as well, since a pooled system mean mixes language pairs")
NO_HUMAN = ("the audit holds no human scores for its segments; where reviewers have given "
            "verdicts, the judge-right share per system stands for judge–human agreement")
REVIEWED_METHOD = ("of reviewed rows scored below the low-score threshold with a reviewer call (the "
                   "strict majority of judge right / too harsh / too lenient): share where the "
                   "call is judge right, per system, 95% Wilson score interval")


def _named(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(facet=frame["facet"].fillna(NOT_RECORDED).astype(str))


def by_system(counts: pd.DataFrame, resamples: int = audit.DEFAULT_RESAMPLES,
              seed: int = audit.DEFAULT_SEED) -> dict:
    """counts: audit_score_counts rows with facet = system (unit, target_language, facet, score,
    n). Returns per-system and per language × system rows with n, mean and CI."""
    c = _named(counts)
    overall = audit.describe_counts(*audit._pooled(c))["mean"] if len(c) else None

    def rows(keys: list[str]) -> list[dict]:
        n = c.groupby(keys, as_index=False)["n"].sum()
        ci = audit.bootstrap_table(c, keys, resamples, seed, method=True).merge(n, on=keys)
        return [{**({"target_language": r["target_language"]} if "target_language" in keys else {}),
                 "system": r["facet"], "n": int(r["n"]), "mean": float(r["mean"]),
                 "ci": [float(r["low"]), float(r["high"])], "interval": r["method"]}
                for _, r in ci.iterrows()]

    return {"overall_mean": overall, "systems": rows(["facet"]),
            "by_language": rows(["target_language", "facet"]),
            "method": METHOD, "resamples": resamples, "seed": seed, "human_agreement": NO_HUMAN}
