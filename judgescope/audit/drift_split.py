"""Judge change vs system change on the units present in both runs. On anchors (texts
byte-identical in both runs) only the judge changed: its shift J is their mean difference. On
the other paired units (a text changed: a changed system) the difference is the judge's shift
plus the systems'; the systems' shift is S = mean difference on them − J, assuming the judge
moved them as it moved the anchors. Then, exactly, headline = J + share_changed · S."""

from __future__ import annotations

import numpy as np
import pandas as pd

from judgescope.audit.drift import (DEFAULT_RESAMPLES, DEFAULT_SEED, LEVEL, MIN_ANCHORS, _ci,
                                    boot_means, draw_plan, draws_method)

DEFINITION = ("headline = mean of new − old over the units paired in both runs; judge's shift J = "
              "that mean over the anchors (texts unchanged); systems' shift S = that mean over the "
              "paired units whose source or candidate text changed, minus J (the judge is assumed to "
              "move changed units as it moved the anchors); headline = J + share_changed × S exactly. "
              "CIs: percentile bootstrap, anchors and changed units resampled separately, seeded")
ALARM_RULE = ("alarm when J and S point in opposite directions with both CIs excluding 0 and at "
              f"least {MIN_ANCHORS} anchors")


def _mean(x: np.ndarray):
    return float(x.mean()) if x.size else None


def decompose(anchor_diffs, changed_diffs, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
              level=LEVEL) -> dict:
    """Headline, judge's and systems' shift, each with its CI, and the alarm."""
    a, c = np.asarray(anchor_diffs, dtype=float), np.asarray(changed_diffs, dtype=float)
    n = a.size + c.size
    rng = np.random.default_rng(seed)
    pa, pc = (draw_plan(x, resamples) if x.size else None for x in (a, c))
    ja, jc = boot_means(rng, a, resamples, pa), boot_means(rng, c, resamples, pc)
    j, cm = _mean(a), _mean(c)
    s = None if j is None or cm is None else cm - j
    head = None if n == 0 else float((a.sum() + c.sum()) / n)
    if a.size and c.size:
        head_draws, s_draws = (a.size * ja + c.size * jc) / n, jc - ja
    else:
        head_draws, s_draws = (ja if a.size else jc), np.array([])
    out = {"paired_units": int(n), "anchors": int(a.size), "changed": int(c.size),
           "share_changed": None if n == 0 else c.size / n,
           "headline": head, "headline_ci": _ci(head_draws, level),
           "judge_shift": j, "judge_ci": _ci(ja, level), "system_shift": s, "system_ci": _ci(s_draws, level),
           "too_few_to_decide": a.size < MIN_ANCHORS, "definition": DEFINITION,
           "alarm_rule": ALARM_RULE, "draws": {"anchors": draws_method(pa), "changed": draws_method(pc)},
           "resamples": resamples, "seed": seed, "level": level}
    out["opposite_directions"] = bool(j is not None and s is not None and j * s < 0)
    out["alarm"] = bool(out["opposite_directions"] and not out["too_few_to_decide"]
                        and _excludes_zero(out["judge_ci"]) and _excludes_zero(out["system_ci"]))
    return out


def _excludes_zero(ci) -> bool:
    return ci[0] is not None and (ci[0] > 0 or ci[1] < 0)


def decompose_by(pairs: pd.DataFrame, by: str, resamples=DEFAULT_RESAMPLES, seed=DEFAULT_SEED,
                 level=LEVEL) -> list[dict]:
    """decompose() per value of `by` over drift_pairs rows (anchor flag, diff)."""
    return [{by: key, **decompose(part.loc[part["anchor"], "diff"], part.loc[~part["anchor"], "diff"],
                                  resamples, seed, level)}
            for key, part in pairs.groupby(by, sort=True)]


def _signed(x: float) -> str:
    return f"{x:+.2f}".replace("-", "−")


def alarm_sentence(row: dict, where: str) -> str:
    """'the judge moved +4.00 on th; the systems moved −6.00' for a decomposed row."""
    return (f"the judge moved {_signed(row['judge_shift'])} on {where}; the systems moved "
            f"{_signed(row['system_shift'])} (95% CIs {_interval(row['judge_ci'])} and "
            f"{_interval(row['system_ci'])}): the headline {_signed(row['headline'])} hides opposite changes")


def _interval(ci) -> str:
    return f"[{_signed(ci[0])}, {_signed(ci[1])}]"
