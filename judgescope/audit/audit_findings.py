"""The audit's headline findings (Overview, the report): the mean with its CI, the weakest
language × unit cells, exact copies, excluded rows and the hash check. Pure (no streamlit)."""

from __future__ import annotations

import pandas as pd

from judgescope import format as fmt
from judgescope.audit import interval_tables
from judgescope.audit import summary as audit
from judgescope.findings import Finding, isolated
from judgescope.schema import language_name
from judgescope.numbers import Number

# The headline numbers this domain shows (judgescope/numbers.py says what each field is).
# An audit's score figures come from its per-score counts, or (more distinct scores than
# stats.MAX_CATEGORIES, audit/binned.py) from its binned counts and exact order statistics: the
# binned path's functions follow the per-score ones, and audit_score_order_stats decides.
SCORES = ("audit_score_order_stats", "audit_score_counts", "audit_score_bins")
INTERVAL = ("judgescope.stats.bootstrap_mean_ci_from_counts", "judgescope.audit.binned.interval",
            "judgescope.stats.bootstrap_mean_ci_from_bins")

NUMBERS = (
    Number("unit_mean", "Mean score per unit with its bootstrap CI", "distributions",
           ("judgescope.audit.summary.distribution_table", "judgescope.audit.summary.mean_intervals",
            "judgescope.audit.summary.bootstrap_table",
            *INTERVAL), SCORES),
    Number("language_cell", "Languages cell: mean, n and bootstrap CI of one language × unit",
           "languages", ("judgescope.audit.summary.bootstrap_table", *INTERVAL), SCORES),
    Number("share_below", "Share below the threshold per language × unit, with its Wilson CI",
           "languages", ("judgescope.audit.summary.tails_table", "judgescope.audit.binned.below",
                         "judgescope.stats.wilson_ci"), (*SCORES, "audit_score_counts_below")),
    Number("exact_copies", "Candidates byte-identical to their source", "exact_copies",
           (), ("audit_exact_copy_counts",)),
    Number("excluded_rows", "Rows excluded at validation, by reason", "excluded",
           (), ("ledger_summary",)),
)

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


def _weakest(counts, overall_mean: float, k: int, seed: int, cells: pd.DataFrame | None = None) -> list[Finding]:
    """The weak cells (WEAK_RULE), lowest first, at most k; one 'no weak cell' finding if none.
    `cells`: the language × unit intervals when the caller has them (else drawn here)."""
    if cells is None:
        cells = audit.bootstrap_table(counts, ["target_language", "unit"], seed=seed)
    weak = weak_cells(cells, overall_mean)
    method = f"Rule: the cell's whole 95 % CI lies below the overall mean {fmt.mean(overall_mean)}."
    how = f"{WEAK_RULE} {audit.ci_label(seed=seed, method=audit.interval_rule(counts))}."
    if not weak:
        return [Finding(f"No weak cell: every language × unit CI reaches the overall mean "
                        f"{fmt.mean(overall_mean)}.", "languages", "Languages", {}, "ok", "green",
                        method=method, how=how)]
    out = []
    for c in weak[:k]:
        name = f"{isolated(language_name(c['target_language']))} × {isolated(c['unit'])}"
        rows = audit.count_rows(counts)
        n = int(rows.loc[(rows["target_language"] == c["target_language"])
                         & (rows["unit"] == c["unit"]), "n"].sum())
        more = f" ({len(weak)} weak cells in all)" if len(weak) > k and not out else ""
        out.append(Finding(
            f"Weak cell: {name} averages {fmt.mean(c['mean'])} (95 % CI "
            f"{fmt.interval(c['low'], c['high'])}, n = {fmt.count(n)}){more}.",
            "review", "Review its rows",
            {"lang": c["target_language"], "unit": c["unit"]}, "problem", "orange",
            method=method, how=how))
    return out


def audit_findings(counts, *, excluded: int, loaded: int, exact_copies: int | None,
                   hashes: tuple[str, str] | None, threshold: int = audit.DEFAULT_THRESHOLDS[0],
                   seed: int = audit.DEFAULT_SEED, intervals: tuple | None = None) -> list[Finding]:
    """Mean with its CI, the weakest language × unit cells, exact copies, excluded rows, hashes.
    `intervals`: (overall, language × unit) bootstrap_tables of `counts` at `seed` when the
    caller has them (collect reads them from the stored default intervals), else drawn here."""
    out = []
    if audit.no_rows(counts):
        return [Finding("The audit has no usable row.", "excluded", "See why rows were excluded",
                        {}, "problem", "red")]
    whole, cells = intervals or (audit.bootstrap_table(counts, [], seed=seed), None)
    whole = whole.iloc[0]
    n = int(audit.count_rows(counts)["n"].sum())
    out.append(Finding(
        f"Mean judge score {fmt.mean(whole['mean'])} over {fmt.count(n)} rows (95 % CI "
        f"{fmt.interval(whole['low'], whole['high'])}).", "distributions", "Distributions",
        method=f"95 % CI: percentile bootstrap, {audit.DEFAULT_RESAMPLES:,} resamples, seed {seed}.",
        how=audit.ci_label(seed=seed, method=audit.interval_rule(counts)) + "."))
    out += _weakest(counts, float(whole["mean"]), WEAKEST_CELLS, seed, cells)
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


def collect(run, report: dict, hashes: tuple[str, str] | None, stored: bool = False) -> list[Finding]:
    """The findings of a collection's audit: `run` runs its named queries, `report` is the
    audit's validation report, `hashes` the integrity badge (None without a snapshot); `stored`:
    the store holds the default intervals of the first open, read instead of drawn (the same
    function of the same counts, so the same numbers)."""
    copies = run("audit_exact_copy_counts")["exact_copies"].sum()
    counts = audit.score_counts(run)
    intervals = None
    if not audit.no_rows(counts):
        intervals = tuple(interval_tables.intervals(run, counts, [[], ["target_language", "unit"]],
                                                    audit.DEFAULT_RESAMPLES, audit.DEFAULT_SEED, stored))
    return audit_findings(counts, excluded=int(report.get("rows_excluded", 0)),
                          loaded=int(report.get("rows_loaded", 0)), exact_copies=int(copies),
                          hashes=hashes, intervals=intervals)
