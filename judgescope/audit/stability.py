"""Stability of a judge that scored the same unit more than once (repeated runs, run groups).

Scores: the mean within-unit SD and the one-way intraclass correlation ICC(1) (Shrout & Fleiss
1979, case 1: each unit scored by a different random set of runs), with its exact F-based CI.
Binary (score below a threshold, or a verdict): the share of units whose repeated verdicts
flip (not unanimous), with a Wilson CI, and the units that flip.
"""

from __future__ import annotations

import pandas as pd

from judgescope import stats

ICC_METHOD = ("ICC(1), one-way random effects, single rating (Shrout & Fleiss 1979); CI from the "
              "F distribution of MSB/MSW; with unequal repeats per unit, k is the adjusted mean "
              "k0 = (N − Σk²/N) / (n − 1)")


def _groups(scores: pd.DataFrame, unit: str, value: str) -> pd.DataFrame:
    counts = scores.groupby(unit, sort=True)[value].count()
    return scores[scores[unit].isin(counts[counts >= 2].index)]


def icc1(scores: pd.DataFrame, unit: str = "unit_key", value: str = "score",
         level: float = 0.95) -> dict:
    """ICC(1) of units scored at least twice, with its F-based CI; None when undefined."""
    rep = _groups(scores, unit, value)
    g = rep.groupby(unit)[value]
    n, big_n = g.ngroups, int(g.count().sum())
    out = {"icc": None, "ci": [None, None], "units": n, "ratings": big_n, "method": ICC_METHOD}
    if n < 2:
        return out
    k_i = g.count().to_numpy(float)
    grand = rep[value].mean()
    ss_b = float((k_i * (g.mean().to_numpy() - grand) ** 2).sum())
    ss_w = float(((rep[value] - g.transform("mean")) ** 2).sum())
    df_b, df_w = n - 1, big_n - n
    k0 = (big_n - (k_i ** 2).sum() / big_n) / (n - 1)
    msb, msw = ss_b / df_b, ss_w / df_w
    if msb + (k0 - 1) * msw == 0:
        return out
    icc = (msb - msw) / (msb + (k0 - 1) * msw)
    out.update(icc=float(icc), k0=float(k0), msb=msb, msw=msw)
    if msw > 0:
        f = msb / msw
        a = (1 - level) / 2
        from scipy import stats as sps  # here, not at import: scipy.stats takes ~1 s to import

        f_low = f / sps.f.ppf(1 - a, df_b, df_w)
        f_high = f * sps.f.ppf(1 - a, df_w, df_b)
        out["ci"] = [float((f_low - 1) / (f_low + k0 - 1)), float((f_high - 1) / (f_high + k0 - 1))]
    return out


def flips(verdicts: pd.DataFrame, unit: str = "unit_key", value: str = "verdict",
          level: float = 0.95) -> dict:
    """Units whose repeated binary verdicts are not all the same: share (Wilson CI), the units."""
    rep = _groups(verdicts, unit, value)
    per_unit = rep.groupby(unit)[value].nunique()
    flipped = sorted(per_unit[per_unit > 1].index.tolist())
    n = int(per_unit.size)
    ci = stats.wilson_ci(len(flipped), n, level)
    return {"units": n, "flipped": len(flipped), "flip_rate": ci["share"],
            "unanimity": None if ci["share"] is None else 1 - ci["share"],
            "ci": [ci["low"], ci["high"]], "flipping_units": flipped,
            "method": f"share of units scored at least twice whose verdicts differ; {level:.0%} "
                      "Wilson score CI (unanimity = 1 − flip rate)"}


def score_spread(scores: pd.DataFrame, unit: str = "unit_key", value: str = "score") -> dict:
    """Mean and largest within-unit SD (ddof 1) over units scored at least twice."""
    sd = _groups(scores, unit, value).groupby(unit)[value].std(ddof=1)
    return {"mean_sd": None if sd.empty else float(sd.mean()),
            "max_sd": None if sd.empty else float(sd.max()), "units": int(sd.size)}


def stability(records: pd.DataFrame, threshold: float | None = None,
              level: float = 0.95) -> dict:
    """Everything above from one row per record (unit_key, score); threshold makes verdicts
    (score < threshold = fail) for the flip rate."""
    out = {"units_repeated": int((records.groupby("unit_key").size() >= 2).sum()),
           "spread": score_spread(records), "icc": icc1(records, level=level), "flips": None}
    if threshold is not None:
        verdicts = records.assign(verdict=records["score"] < threshold)
        out["flips"] = flips(verdicts, level=level)
        out["flips"]["definition"] = f"verdict = score < {threshold:g}"
    return out


def sentence(result: dict) -> str:
    """One line for a page: how many units repeat, ICC(1) with CI, mean within-unit SD."""
    if not result["units_repeated"]:
        return ("No unit was scored more than once by the same judge: stability (ICC, SD, flip "
                "rate) is not measurable here.")
    icc, spread = result["icc"], result["spread"]
    ci = "" if icc["ci"][0] is None else f" (95% CI {icc['ci'][0]:.3f} to {icc['ci'][1]:.3f})"
    value = "n/a" if icc["icc"] is None else f"{icc['icc']:.3f}"
    return (f"{result['units_repeated']:,} units scored more than once: ICC(1) {value}{ci}; "
            f"mean within-unit SD {spread['mean_sd']:.3g}, largest {spread['max_sd']:.3g}.")


UNIT_KEY = ("a unit is its source_id, else its instance_id (a source_id never matches an "
            "instance_id), with target_language, unit and paragraph_id, as drift and Compare "
            "versions pair units; rows with neither id belong to no unit")
RERUN_DEFINITION = ("the same unit scored once in each audit by the same judge (requested model "
                    "and prompt version) on the same texts (source and candidate SHA-256); " + UNIT_KEY)
REPEAT_DEFINITION = "the same unit scored more than once by the same judge (requested model); " + UNIT_KEY
RUNS = (("current", "this audit"), ("earlier", "the earlier audit"))
UNKEYED_LISTED = 25  # record ids listed of the raw records with neither id (the rest counted)


def from_pairs(pairs: pd.DataFrame, threshold: float | None = None,
               level: float = 0.95) -> dict:
    """stability() of audit_rerun_pairs rows (unit_key, score, previous_score), each unit once
    per run; the definition of a repeated unit is stated."""
    records = pd.concat([pairs[["unit_key", "score"]],
                         pairs[["unit_key", "previous_score"]].rename(
                             columns={"previous_score": "score"})], ignore_index=True)
    out = stability(records, threshold, level)
    out["definition"] = RERUN_DEFINITION
    return out


def rerun_accounting(counts: pd.DataFrame, paired: int) -> dict:
    """Every row of each run accounted for (audit_rerun_counts rows; `paired` units paired, one
    row of each run each): paired, without a unit key, in a key the run holds more than once, or
    with no unit of the same judge and texts in the other run. The parts must add up to the run's
    rows: an error, never a number, when they do not."""
    out = {}
    for run, _ in RUNS:
        row = counts[counts["run"] == run]
        rows, unkeyed, repeated = ((int(row[c].iloc[0]) for c in ("rows", "unkeyed_rows", "repeated_rows"))
                                   if len(row) else (0, 0, 0))
        other = rows - unkeyed - repeated - paired
        if other < 0:
            raise RuntimeError(f"stability: the {run} run's {rows} rows do not hold {paired} paired, "
                               f"{unkeyed} unkeyed and {repeated} repeated rows")
        out[run] = {"rows": rows, "paired_rows": paired, "unkeyed_rows": unkeyed,
                    "repeated_rows": repeated, "unmatched_rows": other}
    return out


def not_paired(by_run: dict) -> list[str]:
    """One sentence per run that has rows stability between the runs leaves out (none when every
    row is paired)."""
    out = []
    for run, name in RUNS:
        c = by_run[run]
        parts = [f"{n:,} {what}" for n, what in (
            (c["unkeyed_rows"], "without a source_id or an instance_id"),
            (c["repeated_rows"], "in units this run scored more than once"),
            (c["unmatched_rows"], "with no unit of the same judge, prompt and texts in the other run")) if n]
        if parts:
            left = c["rows"] - c["paired_rows"]
            out.append(f"Not paired, {name}: {left:,} of {c['rows']:,} rows — " + "; ".join(parts) + ".")
    return out


def unkeyed_sentence(unkeyed: dict, ids: bool = True) -> str:
    """What the repeated-scores statistics leave out: the raw records with no unit key ('' when
    none), from audit_repeat_unkeyed's count, with their first ids (ids=False: a page lists them
    in a table of its own)."""
    if not unkeyed["rows"]:
        return ""
    one = unkeyed["rows"] == 1
    said = (f"{unkeyed['rows']:,} record{'' if one else 's'} {'has' if one else 'have'} neither a source_id nor "
            f"an instance_id: {'it belongs' if one else 'they belong'} to no unit and {'is' if one else 'are'} "
            "left out")
    if not ids:
        return said + "."
    more = f" (the first {len(unkeyed['listed'])} by id)" if unkeyed["rows"] > len(unkeyed["listed"]) else ""
    return f"{said}{more}: " + ", ".join(unkeyed["listed"]) + "."


def unkeyed_records(run) -> dict:
    """audit_repeat_unkeyed through `run`, as {rows, listed}."""
    got = run("audit_repeat_unkeyed", limit=UNKEYED_LISTED)
    return {"rows": int(got["rows"].iloc[0]), "listed": [str(x) for x in got["listed"].iloc[0]]}
