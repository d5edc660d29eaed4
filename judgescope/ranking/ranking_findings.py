"""The ranking's headline findings: the best method/model against the fair coin and "always
Translation 1", or, for pairs without model decisions, what the human preferences hold. Pure
(no streamlit)."""

from __future__ import annotations

import pandas as pd

from judgescope import format as fmt
from judgescope.findings import Finding, isolated
from judgescope.ranking import decisions as ranking
from judgescope.ranking.decisions import DECISION_RULE
from judgescope.numbers import Number

# The headline number this domain shows (judgescope/numbers.py says what each field is).
NUMBERS = (
    Number("ranking_accuracy", "Ranking accuracy per method and model with its Wilson CI",
           "ranking", ("judgescope.ranking.decisions.results",
                                "judgescope.ranking.decisions.summarize", "judgescope.stats.wilson_ci"),
           ("rank_pairs", "rank_columns", "rank_decisions")),
)

def ranking_findings(rows: list[dict], all_label: str) -> list[Finding]:
    """The best method/model against the fair coin and "always Translation 1"."""
    pooled = [r for r in rows if r["dataset"] == all_label] or rows
    scored = [r for r in pooled if r["accuracy"] is not None]
    if not scored:
        return []
    best = max(scored, key=lambda r: (r["accuracy"], r["n"]))
    low, high = best["ci"]
    beats = "above" if low > 0.5 else "not clearly above"
    first = best["always_first"]
    text = (f"Best: {isolated(best['method'])} / {isolated(best['model'])} picks the human-preferred translation in "
            f"{fmt.share(best['accuracy'])} of {fmt.count(best['n'])} pairs (95 % Wilson CI "
            f"{fmt.interval(low, high, fmt.share)}), {beats} a fair coin (50 %); always choosing "
            f"Translation 1 would score {fmt.share(first['rate'])}.")
    params = {"dataset": best["dataset"], "decision": f"{best['method']}/{best['model']}"}
    return [Finding(text, "ranking", "Ranking accuracy", params,
                    "ok" if low > 0.5 else "problem", "green" if low > 0.5 else "orange",
                    method="95 % Wilson score CI; human ties excluded, model ties and unparsed "
                           "decisions count as wrong.", how=DECISION_RULE)]


def pairs_findings(humans: pd.DataFrame) -> list[Finding]:
    """Pairwise data without model decisions: what it holds and which pages read it."""
    out = []
    for h in humans.to_dict("records"):
        out.append(Finding(
            f"{isolated(h['dataset'])}: {fmt.count(h['pairs'])} pairs of translations with human "
            f"scores, {fmt.count(h['human_ties'])} of them human ties; humans prefer Translation 1 "
            f"in {fmt.share(h['human_first_rate'])} of the rest. No model decision columns, so "
            "no judge is scored: Pairs shows each pair beside its texts and scores, Ranking "
            "accuracy and Position bias show this human-only summary.", "pairs", "Pairs",
            {}, None, "gray", method="Human preference: the higher human score; equal scores are a tie."))
    return out


def collect(run, fallback: str) -> list[Finding]:
    """The findings of a collection's ranking data (`fallback`: the dataset name rows without
    one take, as decisions.load reads it)."""
    pairs, decisions = ranking.load(run, fallback)
    if not decisions.empty:
        return ranking_findings(ranking.results(decisions, with_total=True), ranking.ALL_DATASETS)
    if not pairs.empty:
        return pairs_findings(ranking.human_summary(pairs))
    return []
