"""The one view registry: every DuckDB view a query can read, declared here by its literal name,
with where its rows come from and what it holds. `grep -n '"audit_counts"' judgescope/duck/views.py`
finds any view a query names (tests/test_views.py checks that every name is written out here).

Five origins:
- dataset: a dataset's validated rows (the clean Parquet file of the collection's dataset of
  that role, judgescope.schema gives the role of each kind);
- part: another file validation writes beside the clean rows (per-score and binned counts,
  order statistics, excluded rows);
- derived: a table built once per input revision by a named query in queries/ and cached on disk
  (sources/derived.py builds them);
- computed: a table a domain computes in Python once per input revision, cached as derived
  tables are (`source` names the module that computes it).
The derived and computed views are declared, as literal names too, by the domain that builds
them (`derived(...)` / `computed(...)` in its derived.Tables: integrity/verification_tables.py,
audit/record_tables.py, audit/interval_tables.py); a Registry holds BASE, the views declared
here, and those: judgescope/wiring.py's VIEWS, a catalog's `views`. The views declared here:
- ledger: the excluded-rows ledger of every dataset of the collection.
Pure (no streamlit, no DuckDB).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class View:
    name: str
    origin: str  # "dataset", "part", "derived", "computed" or "ledger"
    role: str | None  # the dataset role it reads (catalog.roles)
    source: str  # dataset: "clean"; part: the file part; derived: the query that builds it;
    # computed: the module that computes it
    doc: str
    numbered: bool = False  # exposes file_row_number (a row's position in its file)
    inputs: tuple[str, ...] = ()  # derived: the dataset roles its query reads

    @property
    def source_roles(self) -> tuple[str, ...]:
        return self.inputs or ((self.role,) if self.role else ())


def _dataset(role: str, doc: str) -> View:
    return View(role, "dataset", role, "clean", doc)


def _part(name: str, role: str, part: str, doc: str) -> View:
    """A file part of a dataset of `role`, its view named `name` (ROLE_PART, written out)."""
    return View(name, "part", role, part, doc)


def derived(name: str, inputs: tuple[str, ...], query: str, doc: str) -> View:
    """A view a domain builds by the named query `query` from the dataset roles `inputs`."""
    return View(name, "derived", inputs[0], query, doc, inputs=inputs)


def computed(name: str, module: str, inputs: tuple[str, ...], doc: str) -> View:
    """A view the domain module `module` computes in Python from the dataset roles `inputs`."""
    return View(name, "computed", inputs[0], module, doc, inputs=inputs)


# The views of every collection's datasets: their rows, the parts validation writes, the ledger.
BASE: tuple[View, ...] = (
    _dataset("audit", "The judge audit's used rows, sorted by score."),
    _dataset("audit_previous", "The earlier audit version's used rows (Compare versions)."),
    _dataset("snapshot", "The source snapshot: source and candidate texts per unit."),
    _dataset("raw_records", "Every raw judge record, including runs a release excludes."),
    _dataset("items", "Calibration items with three human verdicts."),
    _dataset("judgements", "One judge verdict per calibration item and judge."),
    _dataset("ranking", "Pairwise ranking rows: two translations, human scores, decisions."),
    _dataset("verification", "Model evaluations with human verification annotations."),
    _dataset("ratings", "Long-format human ratings: one row per rater per item."),
    View("snapshot_numbered", "dataset", "snapshot", "clean",
         "The snapshot with file_row_number, so rows are fetched by position.", numbered=True),
    _part("audit_counts", "audit", "counts",
          "Rows per score and facet (language, unit, origin, run group) of the audit, as n: one row per "
          "combination, or one per audit row (n = 1, in score order) when nearly every row is its own "
          "(float scores); sum n over the rows you select."),
    _part("audit_bins", "audit", "bins", "Rows per bin of one audit-wide score grid and facet, with each bin's n, "
          "Σx, Σx², lowest and highest score (a float audit's summaries read these)."),
    _part("audit_order_stats", "audit", "order_stats", "Exact n, median, P5 and P10 per grouping set of the audit "
          "(unit × facet, language × unit, language, unit, overall) and its distinct scores."),
    _part("audit_previous_counts", "audit_previous", "counts",
          "Rows per score and facet of the earlier audit version, as audit_counts holds them."),
    _part("audit_excluded", "audit", "excluded", "The audit's excluded rows in full, with their reason."),
    _part("raw_records_excluded", "raw_records", "excluded", "Raw judge records a release excluded, in full."),
    _part("snapshot_excluded", "snapshot", "excluded", "Snapshot rows validation excluded, in full."),
    _part("items_excluded", "items", "excluded", "Calibration items validation excluded, in full."),
    _part("judgements_excluded", "judgements", "excluded", "Judgements validation excluded, in full."),
    _part("ranking_excluded", "ranking", "excluded", "Ranking rows validation excluded, in full."),
    _part("verification_excluded", "verification", "excluded", "Verification rows validation excluded, in full."),
    _part("ratings_excluded", "ratings", "excluded", "Ratings validation excluded, in full."),
    View("ledger", "ledger", None, "ledger", "Every excluded row of every dataset: file, row, "
         "column, reason, value."),
)
PARTS = tuple(dict.fromkeys(v.source for v in BASE if v.origin == "part"))


def parts_of(role: str) -> list[View]:
    """The file parts validation writes for a dataset of this role that are views."""
    return [v for v in BASE if v.origin == "part" and v.role == role]


_NAME = re.compile(r"(?<!DISTINCT )\b(?:FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*\()", re.IGNORECASE)
_CTE = re.compile(r"(?:\bWITH\s+(?:RECURSIVE\s+)?|,\s*)([A-Za-z_][A-Za-z0-9_]*)"
                  r"\s+AS\s*(?:NOT\s+)?(?:MATERIALIZED\s*)?\(",
                  re.IGNORECASE)


class Registry:
    """Views by name: BASE and the derived and computed views of the domains' tables
    (sources/derived.registry). A name declared twice is an error."""

    def __init__(self, views):
        self.views = tuple(views)
        self.by_name = {v.name: v for v in self.views}
        twice = sorted({v.name for v in self.views if sum(w.name == v.name for w in self.views) > 1})
        if twice:
            raise ValueError(f"views declared twice: {', '.join(twice)}")

    def __contains__(self, name) -> bool:
        return name in self.by_name

    def view(self, name: str) -> View:
        """The declaration of a view; KeyError names a view nobody declared."""
        return self.by_name[name]

    def names_in(self, sql: str) -> list[str]:
        """The registered views a query's SQL reads (FROM / JOIN names that are views, in order)."""
        body = re.sub(r"--[^\n]*", "", sql)
        return list(dict.fromkeys(n for n in _NAME.findall(body) if n in self.by_name))

    def unknown_names(self, sql: str, known: set[str]) -> list[str]:
        """FROM / JOIN names that are neither views, CTEs of the query, macros nor `known` names."""
        body = re.sub(r"--[^\n]*", "", sql)
        ctes = set(_CTE.findall(body))
        return [n for n in dict.fromkeys(_NAME.findall(body))
                if n not in self.by_name and n not in ctes and n not in known]


BASE_VIEWS = Registry(BASE)  # what the data rooms know without the domains (numbered, parts)
