"""The judge's scores per system (the MT system or model whose output was judged).

From the score counts split by the audit's `system` column (summary.score_counts with
facet = system): per system over all its rows, and per target language × system, the number of
rows, the mean score and its seeded percentile bootstrap CI (the same draw as every audit mean,
summary.bootstrap_table), beside the overall mean. Rows without a system value form their own
group, "not recorded". A system's pooled mean mixes the language pairs it translated, so the
language × system rows are the ones to compare systems by.
"""

from __future__ import annotations

from judgescope.audit import summary as audit

METHOD = ("mean judge score per system, 95% percentile bootstrap over the system's rows "
          "(multinomial over per-score counts, float scores over stated bins; seeded); per "
          "target language × system as well, since a pooled system mean mixes language pairs")
NO_HUMAN = ("the audit holds no human scores for its segments; where reviewers have given "
            "verdicts, the judge-right share per system stands for judge–human agreement")
REVIEWED_METHOD = ("of reviewed rows scored below the low-score threshold with a reviewer call (the "
                   "strict majority of judge right / too harsh / too lenient): share where the "
                   "call is judge right, per system, 95% Wilson score interval")


def by_system(counts, resamples: int = audit.DEFAULT_RESAMPLES,
              seed: int = audit.DEFAULT_SEED) -> dict:
    """counts: summary.score_counts(run, "system") (per score: unit, target_language, facet,
    score, n; or binned). Returns per-system and per language × system rows with n, mean, CI."""
    c = audit.with_facet_labels(counts)
    overall = audit.overall_mean(c) if len(audit.count_rows(c)) else None

    def rows(keys: list[str]) -> list[dict]:
        n = audit.count_rows(c).groupby(keys, as_index=False)["n"].sum()
        ci = audit.bootstrap_table(c, keys, resamples, seed, method=True).merge(n, on=keys)
        return [{**({"target_language": r["target_language"]} if "target_language" in keys else {}),
                 "system": r["facet"], "n": int(r["n"]), "mean": float(r["mean"]),
                 "ci": [float(r["low"]), float(r["high"])], "interval": r["method"]}
                for _, r in ci.iterrows()]

    return {"overall_mean": overall, "systems": rows(["facet"]),
            "by_language": rows(["target_language", "facet"]),
            "method": METHOD, "resamples": resamples, "seed": seed, "human_agreement": NO_HUMAN}
