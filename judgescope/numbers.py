"""The headline numbers and what makes each: the Python functions (outermost first) and the
named queries whose rows they take. "how" under a number on its page, and
`judgescope explain NUMBER`, read this one table; tests check every function and query exists.
Pure (no streamlit)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Number:
    name: str
    title: str
    page: str  # the page that shows it: its stem in the page registry (judgescope/navigation.py)
    functions: tuple[str, ...]  # dotted paths, outermost first
    queries: tuple[str, ...]  # queries/<name>.sql


# An audit's score figures come from its per-score counts, or (more distinct scores than
# stats.MAX_CATEGORIES, audit/binned.py) from its binned counts and exact order statistics: the
# binned path's functions follow the per-score ones, and audit_score_order_stats decides.
SCORES = ("audit_score_order_stats", "audit_score_counts", "audit_score_bins")
INTERVAL = ("judgescope.stats.bootstrap_mean_ci_from_counts", "judgescope.audit.binned.interval",
            "judgescope.stats.bootstrap_mean_ci_from_bins")

NUMBERS: tuple[Number, ...] = (
    Number("unit_mean", "Mean score per unit with its bootstrap CI", "distributions",
           ("judgescope.audit.summary.distribution_table", "judgescope.audit.summary.mean_intervals",
            "judgescope.audit.summary.bootstrap_table",
            *INTERVAL), SCORES),
    Number("language_cell", "Languages cell: mean, n and bootstrap CI of one language × unit",
           "languages", ("judgescope.audit.summary.bootstrap_table", *INTERVAL), SCORES),
    Number("share_below", "Share below the threshold per language × unit, with its Wilson CI",
           "languages", ("judgescope.audit.summary.tails_table", "judgescope.audit.binned.below",
                         "judgescope.stats.wilson_ci"), (*SCORES, "audit_score_counts_below")),
    Number("hash_verified", "Integrity: audit rows whose texts hash to the stored digests",
           "integrity", ("judgescope.integrity.hashes.summarise",), ("verify_summary",)),
    Number("exact_copies", "Candidates byte-identical to their source", "exact_copies",
           (), ("audit_exact_copy_counts",)),
    Number("excluded_rows", "Rows excluded at validation, by reason", "excluded",
           (), ("ledger_summary",)),
    Number("judge_pi", "Each judge's and the panel's Scott's π against the human majority, gate "
           "verdict and CI", "calibration",
           ("judgescope.calibration.panel.rater_stats", "judgescope.stats.scotts_pi_fraction",
            "judgescope.calibration.exact.clustered_table_ci", "judgescope.calibration.exact.table_ci",
            "judgescope.stats.gate_verdict"),
           ("calib_items", "calib_item_judgements")),
    Number("human_agreement", "Human–human agreement: pairwise Cohen's κ, Fleiss' κ, "
           "Krippendorff's α with CIs", "calibration_humans",
           ("judgescope.calibration.agreement.human_agreement",
            "judgescope.calibration.agreement.pairwise_kappa"), ("calib_items",)),
    Number("ranking_accuracy", "Ranking accuracy per method and model with its Wilson CI",
           "ranking", ("judgescope.ranking.decisions.results",
                                "judgescope.ranking.decisions.summarize", "judgescope.stats.wilson_ci"),
           ("rank_pairs", "rank_columns", "rank_decisions")),
)


def number(name: str) -> Number:
    for n in NUMBERS:
        if n.name == name:
            return n
    raise KeyError(name)


def names() -> list[str]:
    return [n.name for n in NUMBERS]


def on_page(page: str) -> list[Number]:
    return [n for n in NUMBERS if n.page == page]


def resolve(path: str):
    """The object a dotted path names (module attribute), or ImportError/AttributeError."""
    module, _, attr = path.rpartition(".")
    return getattr(importlib.import_module(module), attr)
