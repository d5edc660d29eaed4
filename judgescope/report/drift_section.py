"""Drift between the audit and its earlier version in the report (issue 43): the fingerprint
difference, the anchors, the judge's shift with its CI and tests, the Bland–Altman limits, judge
change vs system change per language with its alarms. The numbers are drift_report.report's, as
`judgescope drift OLD NEW --json F` writes them; check-report recomputes them."""

from __future__ import annotations

from judgescope import format as fmt
from judgescope.audit import drift, drift_report, drift_split
from judgescope.report.ledger import Ledger, bound
from judgescope.schema import language_name
from judgescope.significance.paired import fmt_p

F = "judgescope.audit.drift_report.report"
Q = "drift_pairs"
CLI = ["drift", "--json"]  # judgescope drift OLD NEW --json F: the paths below are its keys
MAX_LANGUAGES = 50


def _signed(x) -> str:
    return fmt.NA if fmt._missing(x) else f"{float(x):+.2f}".replace("-", "−")


class _Add:
    """Ledger entries under drift.<id>, each naming drift_pairs, the function and its CLI path."""

    def __init__(self, ledger: Ledger):
        self.ledger = ledger

    def num(self, id: str, value, shown: str, path: list):
        return self.ledger.add(f"drift.{id}", value, shown, query=Q, function=F, cli=CLI + path)

    def shift(self, id: str, value, path: list):
        return self.num(id, value, _signed(value), path)

    def ci(self, id: str, ci, path: list):
        if ci[0] is None:
            return fmt.NA
        return bound("[{}, {}]", self.shift(f"{id}.low", ci[0], path + ["0"]),
                     self.shift(f"{id}.high", ci[1], path + ["1"]))

    def text(self, id: str, text: str):
        return self.ledger.text(f"drift.{id}", text, F)


def _bland_altman(add: _Add, ba: dict) -> dict | None:
    if ba["bias"] is None:
        return None
    p = ["bland_altman"]
    return {"bias": add.shift("ba.bias", ba["bias"], p + ["bias"]),
            "bias_ci": add.ci("ba.bias_ci", ba["bias_ci"], p + ["bias_ci"]),
            "lower": add.shift("ba.lower", ba["loa"][0], p + ["loa", "0"]),
            "lower_ci": add.ci("ba.lower_ci", ba["loa_ci"][0], p + ["loa_ci", "0"]),
            "upper": add.shift("ba.upper", ba["loa"][1], p + ["loa", "1"]),
            "upper_ci": add.ci("ba.upper_ci", ba["loa_ci"][1], p + ["loa_ci", "1"])}


def _split(add: _Add, row: dict, id: str, path: list) -> dict:
    return {"headline": add.shift(f"{id}.headline", row["headline"], path + ["headline"]),
            "headline_ci": add.ci(f"{id}.headline_ci", row["headline_ci"], path + ["headline_ci"]),
            "judge": add.shift(f"{id}.judge", row["judge_shift"], path + ["judge_shift"]),
            "judge_ci": add.ci(f"{id}.judge_ci", row["judge_ci"], path + ["judge_ci"]),
            "systems": add.shift(f"{id}.systems", row["system_shift"], path + ["system_shift"]),
            "systems_ci": add.ci(f"{id}.systems_ci", row["system_ci"], path + ["system_ci"]),
            "anchors": add.num(f"{id}.anchors", row["anchors"], fmt.count(row["anchors"]), path + ["anchors"]),
            "changed": add.num(f"{id}.changed", row["changed"], fmt.count(row["changed"]), path + ["changed"]),
            "alarm": add.text(f"{id}.alarm", "ALARM: opposite directions" if row["alarm"] else
                              "too few anchors" if row["too_few_to_decide"] else "no alarm")}


def _not_paired(add: _Add, by_run: dict) -> list[dict]:
    """Per run with rows that are not compared: its rows, those in units the other run did not
    score, those without a unit key (each a ledger entry)."""
    out = []
    for run, name in (("old", "the earlier run"), ("new", "the audit")):
        c, path = by_run[run], ["counts", "by_run", run]
        if c["paired_rows"] == c["rows"]:
            continue
        out.append({"run": name,
                    "rows": add.num(f"{run}.rows", c["rows"], fmt.count(c["rows"]), path + ["rows"]),
                    "unpaired": add.num(f"{run}.unpaired_rows", c["unpaired_rows"], fmt.count(c["unpaired_rows"]),
                                        path + ["unpaired_rows"]),
                    "unkeyed": add.num(f"{run}.unkeyed_rows", c["unkeyed_rows"], fmt.count(c["unkeyed_rows"]),
                                       path + ["unkeyed_rows"])})
    return out


def build(run, ledger: Ledger, seed: int, resamples: int) -> tuple[dict | None, list[str]]:
    """(section or None, what could not be measured and why)."""
    result, _ = drift_report.measure(run, None, resamples, seed)
    add, counts, judge = _Add(ledger), result["counts"], result["judge_shift"]["overall"]
    j = ["judge_shift", "overall"]
    split = result["judge_vs_system"]
    section = {
        "fingerprint": add.text("fingerprint", result["fingerprint"]["difference"]["sentence"]),
        "anchors": add.num("anchors", counts["anchors"], fmt.count(counts["anchors"]), ["counts", "anchors"]),
        "paired": add.num("paired", counts["paired_units"], fmt.count(counts["paired_units"]),
                          ["counts", "paired_units"]),
        "changed": add.num("changed", counts["changed"], fmt.count(counts["changed"]), ["counts", "changed"]),
        "decide": add.text("decide", f"too few anchors to decide (fewer than {drift.MIN_ANCHORS})"
                           if judge["too_few_to_decide"] else "enough anchors to decide"),
        "judge": {"mean": add.shift("judge.mean", judge["mean_diff"], j + ["mean_diff"]),
                  "ci": add.ci("judge.ci", judge["ci"], j + ["ci"]),
                  "sign_p": add.num("judge.sign_p", judge["sign_test"]["p"], fmt_p(judge["sign_test"]["p"]),
                                    j + ["sign_test", "p"]),
                  "wilcoxon_p": add.num("judge.wilcoxon_p", judge["wilcoxon"]["p"], fmt_p(judge["wilcoxon"]["p"]),
                                        j + ["wilcoxon", "p"])},
        "bland_altman": _bland_altman(add, result["bland_altman"]),
        "overall": _split(add, split["overall"], "split", ["judge_vs_system", "overall"]),
        "languages": [{"language": language_name(r["target_language"]),
                       **_split(add, r, f"split.{r['target_language']}", ["judge_vs_system", "by_language", str(i)])}
                      for i, r in enumerate(split["by_language"][:MAX_LANGUAGES])],
        "more": max(0, len(split["by_language"]) - MAX_LANGUAGES),
        "not_paired": _not_paired(add, counts["by_run"]),
        "alarms": [add.text(f"alarm.{i}", a) for i, a in enumerate(result["alarms"])],
        "methods": [add.text(f"method.{i}", text) for i, text in enumerate(
            (counts["pairing"], counts["definition"],
             f"{drift.SHIFT_METHOD}, overall drawn as: {judge['draws']}; {drift.SIGN_METHOD}",
             drift.BA_METHOD,
             drift_split.DEFINITION, drift_split.ALARM_RULE))],
    }
    missing = ["Verdict flips between the judge runs (flip rate, McNemar, κ): the report has no verdict "
               "threshold; `judgescope drift OLD NEW --threshold T` gives them."]
    return section, missing
