"""The headline findings Overview opens with, each pointing at the view that proves it. Pure (no
streamlit): every function takes tables the pages already compute and returns Findings."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from judgescope import format as fmt
from judgescope.audit import summary as audit
from judgescope.calibration.panel import JUDGE_PREFIX
from judgescope.ranking.decisions import DECISION_RULE
from judgescope.schema import language_name

_BIDI = frozenset(("R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"))


def isolated(label) -> str:
    """A data label inside a sentence: isolated (U+2068…U+2069) only when it holds right-to-left
    text or direction controls, so numbers and plain labels carry no invisible character."""
    import unicodedata

    label = str(label)
    if any(unicodedata.bidirectional(ch) in _BIDI for ch in label):
        return "\u2068" + label + "\u2069"
    return label

WEAKEST_CELLS = 3
WEAK_RULE = ("A weak cell is a language × unit whose whole 95 % CI of the mean lies below the "
             "audit's overall mean (its upper end is lower); a cell whose CI includes the overall "
             "mean is not flagged.")


def weak_cells(cells: pd.DataFrame, overall_mean: float) -> list[dict]:
    """Language × unit cells (bootstrap_table rows: target_language, unit, mean, low, high) whose
    CI lies entirely below the overall mean, lowest upper end first (WEAK_RULE)."""
    if cells.empty or overall_mean is None:
        return []
    weak = cells[cells["high"].notna() & (cells["high"] < overall_mean)]
    weak = weak.sort_values(["high", "mean", "target_language", "unit"], kind="stable")
    return weak.to_dict("records")


@dataclass(frozen=True)
class Finding:
    text: str  # one sentence, plain text (the page shows it literally)
    page: str  # the registry's page stem the link opens
    link: str  # the link's label
    params: dict = field(default_factory=dict)  # URL parameters narrowing that view
    status: str | None = None  # PASS / FAIL (· inconclusive), or ok / problem, or None
    colour: str = "gray"
    method: str = ""  # one line under the sentence: how its numbers are made
    how: str = ""  # the full rule, folded
    note: str = ""  # shown beside the badge: a deviation the release recorded


GATE_RULE = ("The verdict is the gate as the release defines it: the exact point estimate π "
             "against the threshold (PASS when π ≥ gate, else FAIL; rounding never makes it "
             "pass). When the 95 % CI includes the gate the same badge adds “· inconclusive”: "
             "more items could change the verdict.")


def gate_label(r: dict) -> str:
    """'PASS', 'FAIL', or either with '· inconclusive' when the 95 % CI includes the gate."""
    if r.get("scotts_pi") is None:
        return "FAIL"
    return r["verdict"] + (" · inconclusive" if r["inconclusive"] else "")


def gate_badge(r: dict) -> tuple[str, str, str]:
    """(badge label, colour, the rule in one sentence) for one rater's gate result.

    The verdict is decided by the exact π against the gate (GATE_RULE); the label and the
    sentence say whether the 95 % CI lies on one side of the gate or includes it."""
    gate = fmt.gate_value(r["gate"])
    if r.get("scotts_pi") is None:
        return ("FAIL", "red", f"π is undefined on {fmt.count(r['n'])} items, so nothing "
                f"shows the gate π ≥ {gate} is met.")
    verdict = r["verdict"]
    sign = "≥" if verdict == "PASS" else "<"
    low, high = r["ci"]
    ci = fmt.interval(low, high, fmt.agreement)
    if r["inconclusive"]:
        tail = (f"the 95 % CI {ci} includes the gate, so more items could change the verdict "
                f"(n = {fmt.count(r['n'])} items)")
        colour = "orange"
    else:
        side = "above" if verdict == "PASS" else "below"
        tail = f"the 95 % CI {ci} lies {side} the gate (n = {fmt.count(r['n'])} items)"
        colour = "green" if verdict == "PASS" else "red"
    return gate_label(r), colour, f"π = {r['scotts_pi_shown']} {sign} {gate}; {tail}."


def calibration(rep: dict, panel_name: str = "panel", deviations: dict | None = None) -> list[Finding]:
    """The panel's gate result first, then each judge's, with its disagreements counted; a
    deviation the release recorded for a gate (deviations[name]) is shown beside its badge."""
    raters = ([(panel_name, rep["panel"])] if rep["panel"] else []) + list(rep["judges"].items())
    deviations = deviations or {}
    out = []
    for name, r in raters:
        verdict, colour, sentence = gate_badge(r)
        who = ("Panel (strict majority of the judges)" if r is rep["panel"] else f"Judge {isolated(name)}")
        wrong = r.get("fp", 0) + r.get("fn", 0)
        out.append(Finding(f"{who}: {sentence} It disagrees with the human majority on "
                           f"{fmt.count(wrong)} items.", "disagreements",
                           f"{name}'s disagreements",
                           {"judge": name if r is rep["panel"] else JUDGE_PREFIX + name, "cell": "disagree"},
                           verdict, colour,
                           method=f"Scott's π against the human 2-of-3 majority; gate π ≥ "
                                  f"{fmt.gate_value(r['gate'])}.",
                           how=f"{GATE_RULE} Interval: {rep.get('ci_method', '')}.",
                           note=deviations.get(name, "")))
    return out


def _weakest(counts: pd.DataFrame, overall_mean: float, k: int, seed: int) -> list[Finding]:
    """The weak cells (WEAK_RULE), lowest first, at most k; one 'no weak cell' finding if none."""
    cells = audit.bootstrap_table(counts, ["target_language", "unit"], seed=seed)
    weak = weak_cells(cells, overall_mean)
    method = f"Rule: the cell's whole 95 % CI lies below the overall mean {fmt.mean(overall_mean)}."
    how = f"{WEAK_RULE} {audit.ci_label(seed=seed)}."
    if not weak:
        return [Finding(f"No weak cell: every language × unit CI reaches the overall mean "
                        f"{fmt.mean(overall_mean)}.", "languages", "Languages", {}, "ok", "green",
                        method=method, how=how)]
    out = []
    for c in weak[:k]:
        name = f"{isolated(language_name(c['target_language']))} × {isolated(c['unit'])}"
        n = int(counts.loc[(counts["target_language"] == c["target_language"])
                           & (counts["unit"] == c["unit"]), "n"].sum())
        more = f" ({len(weak)} weak cells in all)" if len(weak) > k and not out else ""
        out.append(Finding(
            f"Weak cell: {name} averages {fmt.mean(c['mean'])} (95 % CI "
            f"{fmt.interval(c['low'], c['high'])}, n = {fmt.count(n)}){more}.",
            "review", "Review its rows",
            {"lang": c["target_language"], "unit": c["unit"]}, "problem", "orange",
            method=method, how=how))
    return out


def audit_findings(counts: pd.DataFrame, *, excluded: int, loaded: int, exact_copies: int | None,
                   hashes: tuple[str, str] | None, threshold: int = audit.DEFAULT_THRESHOLDS[0],
                   seed: int = audit.DEFAULT_SEED) -> list[Finding]:
    """Mean with its CI, the weakest language × unit cells, exact copies, excluded rows, hashes."""
    out = []
    if counts.empty or int(counts["n"].sum()) == 0:
        return [Finding("The audit has no usable row.", "excluded", "See why rows were excluded",
                        {}, "problem", "red")]
    whole = audit.bootstrap_table(counts, [], seed=seed).iloc[0]
    n = int(counts["n"].sum())
    out.append(Finding(
        f"Mean judge score {fmt.mean(whole['mean'])} over {fmt.count(n)} rows (95 % CI "
        f"{fmt.interval(whole['low'], whole['high'])}).", "distributions", "Distributions",
        method=f"95 % CI: percentile bootstrap, {audit.DEFAULT_RESAMPLES:,} resamples, seed {seed}.",
        how=audit.ci_label(seed=seed) + "."))
    out += _weakest(counts, float(whole["mean"]), WEAKEST_CELLS, seed)
    if exact_copies is not None:
        out.append(Finding(f"{fmt.count(exact_copies)} candidates are byte-identical to their source.",
                           "exact_copies", "Exact copies", {},
                           "problem" if exact_copies else "ok", "orange" if exact_copies else "green"))
    out.append(Finding(f"{fmt.share_of(excluded, loaded)} loaded rows were excluded by validation."
                       if excluded else f"All {fmt.count(loaded)} loaded rows of the audit are usable.",
                       "excluded", "Excluded rows", {}, "problem" if excluded else "ok",
                       "orange" if excluded else "green"))
    if hashes is not None:
        text, colour = hashes
        out.append(Finding(f"Hashes: {text}.", "integrity", "Integrity", {},
                           "ok" if colour == "green" else "problem", colour))
    return out


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


def ratings_findings(result: dict, verdict: str | None) -> list[Finding]:
    """Long-format human ratings: Krippendorff's α per scale, and on verdicts Fleiss' κ and the
    nominal α with their bootstrap CIs."""
    size = (f"{fmt.count(result['items'])} items, {fmt.count(result['raters'])} raters, "
            f"{fmt.count(result['ratings'])} ratings")
    out = []
    alphas = "; ".join(f"{isolated(name)} {fmt.agreement(v)}" for name, v in result["alpha"].items())
    if alphas:
        out.append(Finding(f"Krippendorff's α among the raters ({size}): {alphas}.", "human_ratings",
                           "Human ratings", method="Krippendorff (2011); point estimates (no CI "
                           "is computed for α on scores).",
                           how="Items with one rating are unpairable and counted apart."))
    v = result.get("verdicts")
    if verdict and v:
        k, a = v["fleiss_kappa"], v["krippendorff_alpha"]
        out.append(Finding(
            f"On the {isolated(verdict)} labels: Fleiss' κ {fmt.agreement(k['value'])} (95 % CI "
            f"{fmt.interval(*(k['ci'] or (None, None)), fmt.agreement)}), Krippendorff's α (nominal) "
            f"{fmt.agreement(a['value'])} (95 % CI {fmt.interval(*(a['ci'] or (None, None)), fmt.agreement)}).",
            "human_ratings", "Human ratings", method=v.get("ci_method", ""),
            how="κ and α on the verdicts as nominal labels; pairwise Cohen's κ per rater pair on Human ratings."))
    return out
