"""The one view registry: every DuckDB view a query can read, declared here by its literal name,
with where its rows come from and what it holds. `grep -n '"audit_counts"' judgescope/duck/views.py`
finds any view a query names (tests/test_views.py checks that every name is written out here).

Five origins:
- dataset: a dataset's validated rows (the clean Parquet file of the collection's dataset of
  that role, judgescope.schema gives the role of each kind);
- part: another file validation writes beside the clean rows (per-score and binned counts,
  order statistics, excluded rows);
- derived: a table built once per input revision by a named query in queries/ and cached on disk
  (sources/derived.py builds them; each domain declares its own as data, derived.Tables, which
  judgescope/wiring.py gathers: tests/test_layout.py checks each declared view is declared here);
- computed: a table a domain computes in Python once per input revision, cached as derived
  tables are (`source` names the module that computes it);
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


def _derived(name: str, inputs: tuple[str, ...], query: str, doc: str) -> View:
    return View(name, "derived", inputs[0], query, doc, inputs=inputs)


VIEWS: tuple[View, ...] = (
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
          "Rows per score and facet (language, unit, origin, run group) of the audit."),
    _part("audit_bins", "audit", "bins", "Rows per bin of one audit-wide score grid and facet, with each bin's n, "
          "Σx, Σx², lowest and highest score (a float audit's summaries read these)."),
    _part("audit_order_stats", "audit", "order_stats", "Exact n, median, P5 and P10 per grouping set of the audit "
          "(unit × facet, language × unit, language, unit, overall) and its distinct scores."),
    _part("audit_previous_counts", "audit_previous", "counts",
          "Rows per score and facet of the earlier audit version."),
    _part("audit_excluded", "audit", "excluded", "The audit's excluded rows in full, with their reason."),
    _part("raw_records_excluded", "raw_records", "excluded", "Raw judge records a release excluded, in full."),
    _part("snapshot_excluded", "snapshot", "excluded", "Snapshot rows validation excluded, in full."),
    _part("items_excluded", "items", "excluded", "Calibration items validation excluded, in full."),
    _part("judgements_excluded", "judgements", "excluded", "Judgements validation excluded, in full."),
    _part("ranking_excluded", "ranking", "excluded", "Ranking rows validation excluded, in full."),
    _part("verification_excluded", "verification", "excluded", "Verification rows validation excluded, in full."),
    _part("ratings_excluded", "ratings", "excluded", "Ratings validation excluded, in full."),
    _derived("hash_verification", ("audit", "snapshot"), "verify_build_rows",
             "The rows Integrity lists, sorted by class: every row not verified (class, hint, "
             "position, hashes) and the first verified ones in snapshot order."),
    _derived("hash_verification_summary", ("audit", "snapshot"), "verify_build_summary",
             "Rows per language × unit × hash class × hint, and unreferenced snapshot rows."),
    _derived("hash_verification_by_id", ("audit", "snapshot"), "verify_build_by_id",
             "Every audit row joined to the snapshot on the join key: hash class, hint, snapshot "
             "match count and position, sorted by id (a lookup of a few ids reads one row group "
             "each)."),
    _derived("audit_record_index", ("audit",), "audit_build_record_index",
             "judge_record_id → score, sorted by id (opening one record prunes the audit)."),
    _derived("audit_model_provenance_summary", ("audit",), "audit_build_model_provenance",
             "Rows per requested and resolved judge model and prompt version."),
    _derived("audit_exact_copies", ("audit", "snapshot"), "audit_build_exact_copies_texts",
             "Audit rows whose candidate hash equals the source hash, with the candidate text of "
             "the snapshot row Integrity joined (audit_build_exact_copies when none is joined)."),
    _derived("audit_exact_copy_summary", ("audit",), "audit_build_exact_copy_counts",
             "Exact copies per language × unit."),
    _derived("audit_version_overlap", ("audit", "audit_previous"), "audit_build_overlap",
             "Units both audit versions scored, per unit, with duplicated keys counted."),
    _derived("audit_paired_diffs", ("audit", "audit_previous"), "audit_build_paired_diff_counts",
             "Current minus previous score on units both versions scored once, counted."),
    View("audit_default_intervals", "computed", "audit", "judgescope.audit.interval_tables",
         "The Distributions page's default intervals: the seeded bootstrap CI of each unit's "
         "(× facet value's) mean at the default resamples and seed, per facet the audit has.",
         inputs=("audit",)),
    View("ledger", "ledger", None, "ledger", "Every excluded row of every dataset: file, row, "
         "column, reason, value."),
)
BY_NAME = {v.name: v for v in VIEWS}
PARTS = tuple(dict.fromkeys(v.source for v in VIEWS if v.origin == "part"))


def view(name: str) -> View:
    """The declaration of a view; KeyError names a view nobody declared."""
    return BY_NAME[name]


def parts_of(role: str) -> list[View]:
    """The file parts validation writes for a dataset of this role that are views."""
    return [v for v in VIEWS if v.origin == "part" and v.role == role]


_NAME = re.compile(r"(?<!DISTINCT )\b(?:FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*\()", re.IGNORECASE)
_CTE = re.compile(r"(?:\bWITH\s+(?:RECURSIVE\s+)?|,\s*)([A-Za-z_][A-Za-z0-9_]*)"
                  r"\s+AS\s*(?:NOT\s+)?(?:MATERIALIZED\s*)?\(",
                  re.IGNORECASE)


def names_in(sql: str) -> list[str]:
    """The registered views a query's SQL reads (FROM / JOIN names that are views, in order)."""
    body = re.sub(r"--[^\n]*", "", sql)
    return list(dict.fromkeys(n for n in _NAME.findall(body) if n in BY_NAME))


def unknown_names(sql: str, known: set[str]) -> list[str]:
    """FROM / JOIN names that are neither views, CTEs of the query, macros nor `known` names."""
    body = re.sub(r"--[^\n]*", "", sql)
    ctes = set(_CTE.findall(body))
    return [n for n in dict.fromkeys(_NAME.findall(body))
            if n not in BY_NAME and n not in ctes and n not in known]
