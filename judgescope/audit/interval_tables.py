"""The Distributions page's default intervals, computed once per audit file.

The seeded bootstrap CI of every unit's (× facet value's) mean and the overall one, at the page's
default resamples and seed: exactly what summary.mean_intervals returns for a facet, stored in two
tables. The bootstrap's cost follows a group's distinct scores or bins, not its rows (0.15–0.5 s
a facet on 2 cores at 10k rows and at 10M), so it is paid once and a default view of the page
reads a few rows (issue #28: every interaction at 10k rows within 100 ms). Any other resamples or
seed is drawn when asked, as before; both paths are the same function of the same counts.

- `audit_default_intervals` (VIEW), at the first open: the facets of PRIMARY, which more than one
  reader needs (the Distributions page's default view, the Languages page's cells, Overview's
  findings, `judgescope report` and the HTML report), and each language's own interval over all
  its units (LANGUAGES, the grouping ["target_language"] of the unsplit counts, which
  `judgescope report` shows in BOOTSTRAP.json): a report on a cache that holds this table draws
  nothing (issue 45 item 1).
- `audit_facet_intervals` (FACETS_VIEW), when first read: every other facet, which only the
  Distributions page shows (issue 45 item 2, a single page's table built when that page first
  reads it). A command that never reads it, like `judgescope report`, never draws it: on the
  demo-shaped float audit of issue 45 those facets' groups were a third of a cold report's draws.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

from judgescope import defaults
from judgescope.duck import db
from judgescope.duck import views
from judgescope.duck.views import parts_of
from judgescope.sources.derived import Tables, computed_views

if TYPE_CHECKING:
    import pandas as pd

# The statistics (summary, binned, stats: numpy and pandas) are imported where the intervals are
# drawn or read, not here: wiring.py declares this table for every command, and `judgescope
# validate` reads no interval (tests/test_cli_start.py: validate imports no pandas).

VIEW = "audit_default_intervals"
FACETS_VIEW = "audit_facet_intervals"
# The facets stored in VIEW at the first open; every other facet is in FACETS_VIEW.
PRIMARY = ("none", "target_language")
# The facet_name of each language's interval over all its units (not a facet: no page offers it).
LANGUAGES = "language_overall"
COLUMNS = ["facet_name", "position", "unit", "facet", "mean", "low", "high", "method", "ci_method"]
# What the stored intervals are a function of: the code that draws them and the queries that
# read the counts (a change to any of them builds the table again).
_CODE = (*(Path(find_spec(m).origin) for m in ("judgescope.stats", "judgescope.audit.binned",
                                               "judgescope.audit.summary")), Path(__file__))
_QUERIES = ("audit_score_order_stats", "audit_score_bins", "audit_score_counts",
            "audit_score_counts_below", "audit_score_counts_cells")


def code_text() -> str:
    return ("".join(p.read_text(encoding="utf-8") for p in _CODE)
            + "".join(db.query_text(q) for q in _QUERIES))


def table(run, facets: list[str], resamples: int = defaults.RESAMPLES,
          seed: int = defaults.SEED) -> pd.DataFrame:
    """summary.mean_intervals of every facet, one frame (COLUMNS): `facet_name` the facet,
    `position` the row's place in that facet's table, `mean` and `method` the group's (as
    `judgescope report` writes them), `ci_method` its attrs["ci_method"]. A group met again (the
    overall row of every facet, a facet with one value) is drawn once. Every facet's groups are
    drawn in one pool while the next facet's counts are read (summary.mean_intervals_later):
    no facet waits for another's last group, and the draws are the same (each group from the
    same seed, whatever the order)."""
    import pandas as pd

    from judgescope.audit import binned, summary

    memo: dict = {}
    later, plain = [], None
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for facet in facets:
            # A float audit's language split is its unsplit bins relabelled (binned.by_language):
            # read once.
            counts = (binned.by_language(plain) if facet == "target_language"
                      and isinstance(plain, binned.Binned) else summary.score_counts(run, facet))
            plain = counts if facet == "none" else plain
            if summary.no_rows(counts):
                continue  # no usable row: the page says so and shows no interval
            later.append((facet, summary.mean_intervals_later(counts, facet != "none", resamples, seed,
                                                              memo=memo, detail=True, pool=pool)))
        languages = (_languages(summary.score_counts(run) if plain is None else plain, resamples, seed,
                                memo, pool) if "target_language" in facets and later else None)
        frames = [_frame(facet, ci()) for facet, ci in later] + ([languages()] if languages else [])
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        {c: pd.Series(dtype=float if c in ("mean", "low", "high") else "int64" if c == "position" else str)
         for c in COLUMNS})


def _frame(facet: str, ci: pd.DataFrame) -> pd.DataFrame:
    """One facet's mean_intervals(…, detail=True) as rows of COLUMNS."""
    import pandas as pd

    return pd.DataFrame({
        "facet_name": facet, "position": range(len(ci)), "unit": ci["unit"].astype(str),
        "facet": ci["facet"].astype(str) if "facet" in ci else None,
        "mean": ci["mean"].astype(float), "low": ci["low"].astype(float),
        "high": ci["high"].astype(float), "method": ci["method"].astype(str),
        "ci_method": ci.attrs["ci_method"]})


def _languages(counts, resamples: int, seed: int, memo: dict, pool=None):
    """Each language's interval over all its units (summary.bootstrap_table of ["target_language"]
    on the unsplit counts, as `judgescope report` draws it), as rows of facet_name LANGUAGES: a
    function to call for them, drawn in `pool` meanwhile."""
    import pandas as pd

    from judgescope.audit import binned, summary

    drawn = summary.bootstrap_tables_later(counts, [["target_language"]], resamples, seed, method=True,
                                           memo=memo, pool=pool)

    def frame() -> pd.DataFrame:
        ci = drawn()[0]
        return pd.DataFrame({
            "facet_name": LANGUAGES, "position": range(len(ci)), "unit": summary.OVERALL,
            "facet": ci["target_language"].astype(str), "mean": ci["mean"].astype(float),
            "low": ci["low"].astype(float), "high": ci["high"].astype(float),
            "method": ci["method"].astype(str),
            "ci_method": summary.method_summary(ci, counts.width if isinstance(counts, binned.Binned) else None)})
    return frame


def view_of(facet: str) -> str:
    """The view that stores the intervals of `facet` (VIEW or FACETS_VIEW); the query that reads
    one facet of it has its name (queries/audit_default_intervals.sql, audit_facet_intervals.sql)."""
    return VIEW if facet in PRIMARY else FACETS_VIEW


def stored(run, facet: str) -> pd.DataFrame | None:
    """The stored intervals of one facet as summary.mean_intervals returns them (columns unit
    [, facet], low, high; attrs["ci_method"]), or None when none are stored for it; a facet not
    in PRIMARY is read from FACETS_VIEW, which reading builds the first time."""
    rows = run(view_of(facet), facet=facet)
    if rows.empty:
        return None
    out = rows[["unit", "facet", "low", "high"] if facet != "none" else ["unit", "low", "high"]]
    out = out.reset_index(drop=True)
    out.attrs["ci_method"] = str(rows["ci_method"].iloc[0])
    return out


def stored_groups(run, facet: str) -> pd.DataFrame | None:
    """The stored intervals of one facet with each group's mean and method (unit, facet, mean,
    low, high, method; the overall row's unit is summary.OVERALL), or None when none are stored."""
    rows = run("audit_default_interval_groups", facet=facet)
    return None if rows.empty else rows.reset_index(drop=True)


def stored_cells(run) -> pd.DataFrame | None:
    """summary.bootstrap_table(counts, ["target_language", "unit"], method=True) read from the
    language facet's stored intervals (its unit × language groups are the same samples; the
    thresholds never enter a bootstrap), or None when they are not stored."""
    from judgescope.audit import summary

    by_language = stored_groups(run, "target_language")
    if by_language is None:
        return None
    cells = by_language[by_language.unit != summary.OVERALL].rename(columns={"facet": "target_language"})
    return summary._ordered(cells[["target_language", "unit", "mean", "low", "high", "method"]],
                            ["target_language", "unit"])


def stored_tables(run) -> dict[tuple, pd.DataFrame]:
    """The summary.bootstrap_table(…, method=True) groupings the stored intervals hold, by
    grouping: units ("unit",), overall (), language × unit ("target_language", "unit") and
    language ("target_language",), each in bootstrap_table's order with mean, low, high and
    method; {} when they are not stored (a table stored before LANGUAGES: without language)."""
    from judgescope.audit import summary

    plain, langs, languages = stored_groups(run, "none"), stored_cells(run), stored_groups(run, LANGUAGES)
    if plain is None or langs is None:
        return {}
    cols = ["mean", "low", "high", "method"]
    units = plain[plain.unit != summary.OVERALL][["unit", *cols]].reset_index(drop=True)
    overall = plain[plain.unit == summary.OVERALL][cols].reset_index(drop=True)
    out = {("unit",): units, (): overall, ("target_language", "unit"): langs}
    if languages is not None:
        out[("target_language",)] = languages.rename(columns={"facet": "target_language"})[
            ["target_language", *cols]].reset_index(drop=True)
    return out


def split(run, groupings: list[list[str]], resamples: int, seed: int, stored: bool) -> tuple[dict, list]:
    """({index: table} of the groupings read from the stored intervals, [indices to draw]): read
    only at the default resamples and seed and when the store has them (`stored`)."""
    from judgescope.audit import summary

    found = (stored_tables(run) if stored and (resamples, seed) == (summary.DEFAULT_RESAMPLES,
                                                                     summary.DEFAULT_SEED) else {})
    tables = {i: found[tuple(by)] for i, by in enumerate(groupings) if tuple(by) in found}
    return tables, [i for i in range(len(groupings)) if i not in tables]


def intervals(run, counts, groupings: list[list[str]], resamples: int, seed: int, stored: bool,
              method: bool = False, on_group=None) -> list[pd.DataFrame]:
    """summary.bootstrap_tables of `groupings` (with the column `method` when asked), those the
    stored default intervals hold read from them (split): the same function of the same counts,
    so the same numbers."""
    from judgescope.audit import summary

    tables, todo = split(run, groupings, resamples, seed, stored)
    drawn = summary.bootstrap_tables(counts, [groupings[i] for i in todo], resamples, seed,
                                     method=method, on_group=on_group)
    tables.update(zip(todo, drawn))
    keep = ["mean", "low", "high"] + (["method"] if method else [])
    return [tables[i][[*groupings[i], *keep]] for i in range(len(groupings))]


def _inputs(audit: Path) -> tuple[dict[str, Path], list[str]]:
    """The files of the views the score counts read (audit, audit_counts, audit_bins,
    audit_order_stats) of one clean audit file, and the facets whose column it has."""
    from judgescope.audit import summary

    folder = audit.parent
    inputs = {"audit": audit} | {v.name: folder / f"{v.source}.parquet" for v in parts_of("audit")
                                  if (folder / f"{v.source}.parquet").exists()}
    report = folder / "report.json"
    missing = json.loads(report.read_text(encoding="utf-8")).get("columns_missing", []) if report.exists() else []
    return inputs, summary.available_facets(missing)


def interval_views(audit: Path, notes: list[str] | None = None) -> dict[str, list[Path]]:
    """The view `audit_default_intervals` of one clean audit file (its counts, bins and order
    statistics beside it): the facets of PRIMARY the audit has, and LANGUAGES."""
    inputs, facets = _inputs(audit)
    return views_of(inputs, [f for f in facets if f in PRIMARY], notes)


def facet_interval_views(audit: Path, notes: list[str] | None = None) -> dict[str, list[Path]]:
    """The view `audit_facet_intervals` of one clean audit file: every other facet it has."""
    inputs, facets = _inputs(audit)
    return views_of(inputs, [f for f in facets if f not in PRIMARY], notes, FACETS_VIEW)


def views_of(inputs: dict[str, Path], facets: list[str], notes: list[str] | None = None,
             view: str = VIEW) -> dict[str, list[Path]]:
    """The view `view` holding the intervals of `facets`, from the files of the views the score
    counts read (audit, audit_counts, audit_bins, audit_order_stats), built once."""
    kind, what = {VIEW: ("intervals", "default intervals"), FACETS_VIEW: ("facet-intervals", "facet intervals")}[view]
    return computed_views(kind, inputs, what, lambda run: {view: table(run, facets)},
                          code_text() + json.dumps(facets), notes, names=(view,))


def _build(clean, built, key, notes) -> dict[str, list[Path]]:
    return interval_views(clean["audit"], notes)


def _build_facets(clean, built, key, notes) -> dict[str, list[Path]]:
    return facet_interval_views(clean["audit"], notes)


# Computed in Python (table), from the counts the queries of _QUERIES read: no build query.
DEFAULT_INTERVALS = Tables(
    what="default intervals", needs=("audit",), queries=(), build=_build,
    views=(views.computed(
        VIEW, "judgescope.audit.interval_tables", ("audit",),
        "The default intervals many readers share: the seeded bootstrap CI of each unit's "
        "(× facet value's) mean at the default resamples and seed, unsplit and by language, and "
        "each language's over all its units."),))
FACET_INTERVALS = Tables(
    what="facet intervals", needs=("audit",), queries=(), build=_build_facets, lazy=True,
    views=(views.computed(
        FACETS_VIEW, "judgescope.audit.interval_tables", ("audit",),
        "The Distributions page's default intervals of every other facet the audit has, built "
        "when the page first reads them."),))
TABLES = (DEFAULT_INTERVALS, FACET_INTERVALS)  # the domain's tables, in build order (judgescope/wiring.py)
