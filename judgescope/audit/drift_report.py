"""One drift result for `judgescope drift` and the Drift page: the fingerprint difference first,
then the anchors, the judge's shift (overall, per language, per unit, per language × unit), the
Bland–Altman limits, verdict flips, judge change vs system change with its alarms, and the
anchors that moved most. Every definitional choice sits beside the number it shapes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from judgescope.audit import drift, drift_read, drift_split, fingerprint
from judgescope.audit.drift_read import MOVED_COLUMNS, MOVED_MOST, moved_most  # noqa: F401 (MOVED_MOST: callers read it here)
from judgescope.significance.paired import fmt_p

PAIRING = ("a unit is keyed by source_id, target_language, unit and paragraph_id; a row without a "
           "source_id is keyed by its instance_id instead (never pairing with a source_id key); a unit "
           "is paired when both runs scored it. Rows in a unit only one run scored, and rows with neither "
           "a source_id nor an instance_id, are counted and listed per run, never compared")
ANCHOR_DEFINITION = ("anchor = a paired unit whose source and candidate SHA-256 are recorded and equal in the two "
                     "runs; a unit without a recorded hash is never an anchor. A unit a run scored more "
                     "than once (repeated runs) is compared only when every repeat gave the same score in "
                     "each run (stable within each run); the others are counted, never counted as moved")


def verdict_rule(pairs: pd.DataFrame, threshold: float | None) -> tuple[float | None, str]:
    """The threshold that makes verdicts (fail = score below it) and how it was chosen."""
    if threshold is not None:
        return threshold, f"fail = score < {threshold:g} (--threshold)"
    scores = pd.concat([pairs["old_score"], pairs["new_score"]])
    if len(scores) and scores.isin([0, 1]).all():
        return 0.5, "fail = score 0, pass = score 1 (every score is 0 or 1)"
    return None, "scores are not verdicts (not all 0 or 1) and no threshold was given"


def _verdicts(anchors: pd.DataFrame, threshold, rule, resamples, seed, level) -> dict:
    if threshold is None:
        return {"rule": rule, "result": None}
    return {"rule": rule, "result": drift.verdict_drift(anchors["old_score"] < threshold,
                                                        anchors["new_score"] < threshold,
                                                        resamples, seed, level)}


def measure(run, threshold=None, resamples=drift.DEFAULT_RESAMPLES, seed=drift.DEFAULT_SEED,
            level=drift.LEVEL) -> tuple[dict, pd.DataFrame]:
    """The drift result of a store's two runs (`run` runs a named query), and the paired units it
    was measured on (drift_read.NARROW columns)."""
    old_fp, new_fp = run("audit_previous_fingerprint"), run("audit_fingerprint")
    pairs = drift_read.read(run, int(old_fp["n"].sum()), int(new_fp["n"].sum()))
    result = report(pairs.frame, old_fp, new_fp, threshold, resamples, seed, level, moved=pairs.moved)
    result["counts"]["by_run"] = pairs.unpaired
    return result, pairs.frame


def report(pairs: pd.DataFrame, old_fp: pd.DataFrame, new_fp: pd.DataFrame, threshold=None,
           resamples=drift.DEFAULT_RESAMPLES, seed=drift.DEFAULT_SEED, level=drift.LEVEL,
           moved: list[dict] | None = None) -> dict:
    """The whole drift result from drift_pairs rows and both runs' audit_fingerprint rows;
    `moved`: moved_most rows that hold the anchors that moved most (drift_read keeps each
    bucket's), else they are found among the pairs' anchors."""
    old, new = fingerprint.fingerprint(old_fp), fingerprint.fingerprint(new_fp)
    repeated = int(((pairs["old_rows"] > 1) | (pairs["new_rows"] > 1)).sum())
    unstable = int((~pairs["stable"]).sum())
    pairs = pairs if unstable == 0 else pairs[pairs["stable"]]  # no copy when every unit is stable
    anchors = pairs[pairs["anchor"]]
    args = (resamples, seed, level)
    cut, rule = verdict_rule(pairs, threshold)
    split = drift_split.decompose(anchors["diff"], pairs.loc[~pairs["anchor"], "diff"], *args)
    by_language = drift_split.decompose_by(pairs, "target_language", *args)
    out = {
        "fingerprint": {"difference": fingerprint.difference(old, new), "old": old, "new": new},
        "counts": {"old_rows": old["rows"], "new_rows": new["rows"], "paired_units": int(len(pairs)),
                   "anchors": int(len(anchors)), "changed": int(len(pairs) - len(anchors)),
                   "repeated_within_a_run": repeated, "unstable_within_a_run": unstable,
                   "pairing": PAIRING, "definition": ANCHOR_DEFINITION},
        "judge_shift": {"overall": drift.shift(anchors["diff"], *args),
                        "by_language": drift.shift_table(anchors, ["target_language"], *args),
                        "by_unit": drift.shift_table(anchors, ["unit"], *args),
                        "by_language_unit": drift.shift_table(anchors, ["target_language", "unit"], *args),
                        "minimum_anchors": drift.MIN_ANCHORS},
        "bland_altman": drift.bland_altman(anchors["old_score"], anchors["new_score"], level),
        "verdicts": _verdicts(anchors, cut, rule, *args),
        "judge_vs_system": {"overall": split, "by_language": by_language},
        "moved_most": moved_most(anchors if moved is None else pd.DataFrame(moved, columns=MOVED_COLUMNS)),
        "settings": {"resamples": resamples, "seed": seed, "level": level, "threshold": threshold,
                     "minimum_anchors": drift.MIN_ANCHORS, "minimum_anchors_kappa": drift.MIN_KAPPA,
                     "difference": "new − old (the audit minus the earlier audit)"},
    }
    out["alarms"] = alarms(split, by_language)
    return out


def alarms(overall: dict, by_language: list[dict]) -> list[str]:
    """A sentence per alarm: overall and per language."""
    out = [drift_split.alarm_sentence(overall, "all languages")] if overall["alarm"] else []
    return out + [drift_split.alarm_sentence(r, r["target_language"]) for r in by_language if r["alarm"]]


def _f(x, signed=True) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "n/a"
    return (f"{x:+.2f}" if signed else f"{x:.3f}").replace("-", "−")


def summary_lines(result: dict) -> list[str]:
    """The result in a few lines, fingerprint difference first (the CLI prints these)."""
    c, j = result["counts"], result["judge_shift"]["overall"]
    few = " — too few anchors to decide" if j["too_few_to_decide"] else ""
    listed = [f"{line} (listed in --json: counts.by_run)" for _, line in not_paired(result)]
    lines = [f"judge: {result['fingerprint']['difference']['sentence']}", *listed,
             f"anchors: {c['anchors']:,} of {c['paired_units']:,} paired units "
             f"({c['changed']:,} with a changed text){few}",
             f"judge's shift on anchors: {_f(j['mean_diff'])} [{_f(j['ci'][0])}, {_f(j['ci'][1])}], "
             f"exact sign test p {fmt_p(j['sign_test']['p'])}, Wilcoxon p {fmt_p(j['wilcoxon']['p'])}"]
    ba = result["bland_altman"]
    if ba["bias"] is not None:
        lines.append(f"Bland–Altman: bias {_f(ba['bias'])}, 95% limits of agreement {_f(ba['loa'][0])} "
                     f"[{_f(ba['loa_ci'][0][0])}, {_f(ba['loa_ci'][0][1])}] to {_f(ba['loa'][1])} "
                     f"[{_f(ba['loa_ci'][1][0])}, {_f(ba['loa_ci'][1][1])}]")
    s = result["judge_vs_system"]["overall"]
    lines.append(f"headline {_f(s['headline'])} = judge {_f(s['judge_shift'])} "
                 f"[{_f(s['judge_ci'][0])}, {_f(s['judge_ci'][1])}] + {_f(s['share_changed'], False)} × "
                 f"systems {_f(s['system_shift'])} [{_f(s['system_ci'][0])}, {_f(s['system_ci'][1])}]")
    if result["verdicts"]["result"]:
        lines.append(verdict_line(result))
    return lines + [f"ALARM: {a}" for a in result["alarms"]]


def not_paired(result: dict) -> list[tuple[str, str]]:
    """(run, sentence) per run with rows not compared: how many, and why (none when every row of
    both runs is paired)."""
    out = []
    for run, name in (("old", "earlier run"), ("new", "later run")):
        c = result["counts"].get("by_run", {}).get(run)
        if not c or c["paired_rows"] == c["rows"]:
            continue
        why = [f"{c['unpaired_rows']:,} in {c['unpaired_units']:,} units the other run did not score"] * bool(
            c["unpaired_rows"]) + [f"{c['unkeyed_rows']:,} without a unit key (neither source_id nor "
                                   f"instance_id)"] * bool(c["unkeyed_rows"])
        out.append((run, f"not paired, {name}: {c['rows'] - c['paired_rows']:,} of {c['rows']:,} rows — "
                    + "; ".join(why)))
    return out


def verdict_line(result: dict) -> str:
    """The verdicts on anchors in one line: flips with their CI, direction, McNemar, κ."""
    v = result["verdicts"]["result"]
    return (f"verdicts ({result['verdicts']['rule']}): {v['flips']} of {v['anchors']} anchors flipped "
            f"({_f(v['flip_rate'], False)}, 95% Wilson CI [{_f(v['flip_ci'][0], False)}, "
            f"{_f(v['flip_ci'][1], False)}]), {v['direction']} ({v['pass_to_fail']} pass → fail, "
            f"{v['fail_to_pass']} fail → pass; exact McNemar p {fmt_p(v['mcnemar_p'])}); κ between the "
            f"versions {_f(v['kappa'], False)} [{_f(v['kappa_ci'][0], False)}, {_f(v['kappa_ci'][1], False)}]"
            + (f" — too few anchors for κ (fewer than {drift.MIN_KAPPA})" if v["kappa_too_few_to_decide"] else ""))
