"""The domains' costlier results for the active collection, cached across reruns: ranking
decisions, hash verification, bootstrap tables, score counts. Where there is nothing to show,
the page says why and stops."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope import headlines
from judgescope.audit import interval_tables
from judgescope.audit import summary as audit
from judgescope.audit import versions
from judgescope.calibration import clustered
from judgescope.integrity import hashes as verify
from judgescope.ranking import decisions as ranking
from judgescope.ranking import probes
from judgescope.ranking.tables import NO_DECISIONS
from judgescope.web.context import catalog, collection_name, per_collection, run, stop
from judgescope.web.render import table


@per_collection(max_entries=16, show_spinner="Parsing ranking decisions…")
def ranking_frames(collection: str):
    """(pairs, decisions) of the collection's ranking view, decisions parsed once and cached."""
    cat = catalog()
    return ranking.load(cat.store(collection).run, cat.roles(collection)["ranking"].spec.name)


@per_collection(max_entries=16, show_spinner="Reading swapped-order decisions and system families…")
def ranking_probe_frames(collection: str):
    """(swapped-order decisions, system families) of the collection's ranking view, cached."""
    return probes.load(catalog().store(collection).run)


@per_collection(max_entries=16, show_spinner=False)
def ranking_results(collection: str, with_total: bool = True) -> list[dict]:
    """judgescope.ranking.decisions.results on the parsed decisions, cached across reruns."""
    return ranking.results(ranking_frames()[1], with_total=with_total)


def ranking_decisions(what: str):
    """Pairs and parsed decisions of the collection's ranking data; without model decisions the
    page says so, shows the human-only summary and stops."""
    pairs, decisions = ranking_frames()
    if decisions.empty:
        st.info(NO_DECISIONS)
        table(ranking.human_summary(pairs))
        stop()
    return pairs, decisions


class _NotVerified(Exception):
    """Raised out of the cache, so a verification that could not be read (a store that failed to
    open, a database error) is tried again on the next run instead of being kept."""


@per_collection(max_entries=32, show_spinner=False)
def _verified(collection: str):
    summary, origin, problems = verify.verification(catalog(), collection)
    if summary is None and problems:
        raise _NotVerified(origin, problems)
    return summary, origin, problems


def verification():
    """(summary, origin, problems) for the active collection (integrity.hashes.verification),
    cached when it could be read: the sidebar's badge reads it on every page run."""
    try:
        return _verified()
    except _NotVerified as err:
        return (None, *err.args)


@per_collection(max_entries=16, show_spinner="Bootstrapping the raters' agreement…")
def ratings_agreement(collection: str, score: str | None, verdict: str | None) -> dict:
    """calibration.clustered.agreement of the collection's human ratings (every α, κ and their
    bootstrap intervals), cached across reruns: the intervals' resamples take about half a second
    on a thousand items, which every interaction with the page would otherwise pay again."""
    store = catalog().store(collection)
    return clustered.agreement(store.run("ratings_long"), store.run("ratings_item_clusters"), score, verdict)


@per_collection(max_entries=32, show_spinner="Summarising the collection…")
def findings(collection: str) -> list:
    """The collection's headline findings (judgescope.headlines), cached per collection; a hit
    notes the queries they read, as every cached result does."""
    return headlines.collect(catalog(), collection)[0]


@st.cache_data(max_entries=64, show_spinner="Bootstrapping…")
def _drawn_intervals(counts, split: bool, resamples: int, seed: int) -> pd.DataFrame:
    return audit.mean_intervals(counts, split, resamples, seed)


def mean_intervals(facet: str, resamples: int, seed: int) -> pd.DataFrame:
    """summary.mean_intervals of the audit's counts split by `facet`: at the default resamples
    and seed those stored (audit/interval_tables.py: at the first open, or for a facet only this
    page shows when it first reads them; the same function of the same counts), else drawn now
    and cached. The bootstrap reads the counts without
    thresholds (per-score counts, or a float audit's bins), so moving one never draws again."""
    defaults = (resamples, seed) == (audit.DEFAULT_RESAMPLES, audit.DEFAULT_SEED)
    if defaults and catalog().store(collection_name()).has(interval_tables.view_of(facet)):
        found = interval_tables.stored(run, facet)
        if found is not None:
            return found
    return _drawn_intervals(audit_counts(facet), facet != "none", resamples, seed)


@st.cache_data(max_entries=64, show_spinner=False)
def distribution_table(counts, thresholds: tuple, split: bool, resamples: int, seed: int,
                       intervals: pd.DataFrame) -> pd.DataFrame:
    """summary.distribution_table with the intervals mean_intervals drew, cached."""
    return audit.distribution_table(counts, thresholds, split, resamples, seed, intervals)


@st.cache_data(max_entries=16, show_spinner="Bootstrapping each cell…")
def _drawn_cells(counts) -> pd.DataFrame:
    return audit.bootstrap_table(counts, ["target_language", "unit"])


def cell_bootstrap(counts) -> pd.DataFrame:
    """Mean, n and seeded bootstrap CI per language × unit (the heatmap's hover), at the default
    resamples and seed: read from the intervals the first open stored (audit/interval_tables.py,
    the language facet's cells: the same function of the same counts), else drawn and cached."""
    boot = None
    if catalog().store(collection_name()).has(interval_tables.VIEW):
        boot = interval_tables.stored_cells(run)
    if boot is None:
        boot = _drawn_cells(counts)
    n = audit.count_rows(counts).groupby(["target_language", "unit"], as_index=False)["n"].sum()
    return boot[["target_language", "unit", "mean", "low", "high"]].merge(n, on=["target_language", "unit"])


def audit_counts(facet: str = "none", thresholds: tuple = ()):
    """The audit's score counts (summary.score_counts: per score, or binned with exact counts
    below `thresholds`); a page of an audit without usable rows says so and stops."""
    counts = audit.score_counts(run, facet, thresholds)
    note = audit.no_rows(counts)
    if note:
        st.info(note)
        stop()
    return counts


@st.cache_data(max_entries=16, show_spinner="Bootstrapping both versions…")
def version_tables(previous: pd.DataFrame, current: pd.DataFrame, resamples: int, seed: int):
    """(per unit, per language) of audit.versions for both versions' per-score counts, cached:
    the unpaired bootstraps are Compare's costliest step, and any widget on it reruns the page."""
    return (versions.unit_compare(previous, current, resamples, seed),
            versions.compare_table(previous, current, ["target_language"], resamples, seed))
