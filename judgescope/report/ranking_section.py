"""The ranking part of a report: accuracy against the coin and "always Translation 1" with Wilson
CIs, position bias, and what pairwise data without model decisions holds; from
ranking.decisions (the functions Ranking accuracy, Position bias and `rank --json` use)."""

from __future__ import annotations

from judgescope import format as fmt
from judgescope.ranking import decisions as ranking
from judgescope.report import svg
from judgescope.report.calibration_section import _more, short
from judgescope.report.ledger import Ledger, bound

F = "judgescope.ranking.decisions.results"
Q = "rank_pairs + rank_columns + rank_decisions"
MAX_ROWS = 50


def build(run, ledger: Ledger, dataset: str) -> tuple[dict, list[str]]:
    pairs, decisions = ranking.load(run, dataset)
    humans = ranking.human_summary(pairs)
    held = []
    for i, h in enumerate(humans.to_dict("records")):
        id = f"ranking.pairs.{i}"
        held.append({"dataset": ledger.label(id, short(h["dataset"])),
                     "pairs": ledger.add(f"{id}.pairs", h["pairs"], fmt.count(h["pairs"]), query="rank_pairs",
                                         function="judgescope.ranking.decisions.human_summary"),
                     "ties": ledger.add(f"{id}.human_ties", h["human_ties"], fmt.count(h["human_ties"]),
                                        query="rank_pairs", function="judgescope.ranking.decisions.human_summary"),
                     "first": ledger.add(f"{id}.human_first_rate", h["human_first_rate"],
                                         fmt.share(h["human_first_rate"]), query="rank_pairs",
                                         function="judgescope.ranking.decisions.human_summary")})
    fn = "judgescope.ranking.decisions (the method as the report states it)"
    section = {"held": held[:MAX_ROWS], "rows": [], "pooled": [], "best": None, "more": None,
               "has_decisions": not decisions.empty,
               "methods": [{"ref": "m-rank", "name": "Ranking accuracy and its 95 % CI",
                            "text": ledger.text("method.ranking.ci", f"{ranking.CI_METHOD} interval; human ties "
                                                "excluded, model ties and unparsed decisions count as wrong.", fn)},
                           {"ref": "m-decisions", "name": "How decisions are read",
                            "text": ledger.text("method.ranking.rule", ranking.DECISION_RULE, fn)}]}
    if decisions.empty:
        return section, [
            "Ranking accuracy and position bias: the pairs carry no model decision columns "
            "(<method>/<model>), so no judge can be scored; the pairs, their human scores and ties "
            "are read by the Pairs page, and the human preference for Translation 1 above."]
    # Per dataset × method × model, the same rows as `rank --json` (results without the total).
    rows = ranking.results(decisions)
    for i, r in enumerate(rows):
        rows[i] = _row(ledger, f"ranking.results.{i}", ["rank", "--json", "results", i], r)
    section["rows"] = rows[:MAX_ROWS]
    section["more"] = _more(ledger, "ranking.results.more", len(rows))
    # The charts and the headline: each method × model pooled over every dataset (one row each).
    pooled = [r for r in ranking.results(decisions, with_total=True)
              if r["dataset"] == ranking.ALL_DATASETS] or ranking.results(decisions)
    pooled = [_row(ledger, f"ranking.pooled.{i}", None, r) for i, r in enumerate(pooled[:MAX_ROWS])]
    section["pooled"] = pooled
    scored = [r for r in pooled if r["acc_value"] is not None]
    section["best"] = max(scored, key=lambda r: (r["acc_value"], r["n_value"])) if scored else None
    if section["best"]:
        section["best"]["badge"] = ledger.text("ranking.best.badge", "ABOVE COIN" if section["best"]["beats_coin"]
                                               else "NOT CLEARLY ABOVE COIN", F)
    chart_rows = [{"label": f"{r['method']} / {r['model']}", "value": r["acc_value"],
                   "low": r["low_value"], "high": r["high_value"], "first": r["first_value"]}
                  for r in pooled]
    section["forest"] = svg.forest(chart_rows, 0.0, 1.0, [{"value": 0.5, "label": "coin 50 %"}], percent=True)
    section["bias"] = svg.forest(
        [{"label": c["label"], "value": r["first_choice_value"], "low": r["first_choice_value"],
          "high": r["first_choice_value"], "first": r["human_first_value"]}
         for c, r in zip(chart_rows, pooled)], 0.0, 1.0, [{"value": 0.5, "label": "50 %"}], percent=True)
    return section, []


def _row(ledger: Ledger, id: str, cli: list | None, r: dict) -> dict:
    """One result row, every number recorded (cli: its place in `rank --json`, when there)."""
    twin = (lambda *path: cli + list(path)) if cli else (lambda *path: None)
    low, high = r["ci"]
    out = {"dataset": ledger.label(f"{id}.dataset", short(r["dataset"])),
           "method": ledger.label(f"{id}.method", short(r["method"])),
           "model": ledger.label(f"{id}.model", short(r["model"])),
           "acc_value": r["accuracy"], "low_value": low, "high_value": high,
           "first_value": r["always_first"]["rate"], "first_choice_value": r["first_choice"]["rate"],
           "human_first_value": r["human_first"]["rate"], "n_value": r["n"]}
    out["n"] = ledger.add(f"{id}.n", r["n"], fmt.count(r["n"]), query=Q, function=F, cli=twin("n"))
    out["accuracy"] = ledger.add(f"{id}.accuracy", r["accuracy"], fmt.share(r["accuracy"]), query=Q,
                                 function=F, cli=twin("accuracy"))
    out["ci"] = bound("[{}, {}]",
        ledger.add(f"{id}.ci_low", low, fmt.share(low), query=Q, function=F, cli=twin("ci", 0)),
        ledger.add(f"{id}.ci_high", high, fmt.share(high), query=Q, function=F, cli=twin("ci", 1)))
    out["always_first"] = ledger.add(f"{id}.always_first", r["always_first"]["rate"],
                                     fmt.share(r["always_first"]["rate"]), query=Q, function=F)
    out["first_choice"] = ledger.add(f"{id}.first_choice_rate", r["first_choice"]["rate"],
                                     fmt.share(r["first_choice"]["rate"]), query=Q, function=F,
                                     cli=twin("first_choice_rate"))
    out["human_first"] = ledger.add(f"{id}.human_first_rate", r["human_first"]["rate"],
                                    fmt.share(r["human_first"]["rate"]), query=Q, function=F,
                                    cli=twin("human_first_rate"))
    out["beats_coin"] = low is not None and low > 0.5
    return out
