"""The audit domain's derived tables: the record index, the model provenance, the exact copies'
counts and rows (with Integrity's texts when the audit is joined to a snapshot) and the
comparison of two audit versions, each built once per input revision; those only one page reads
(provenance, the exact copies' rows, the comparison) when a query first reads them (lazy).
Each is declared as data here (RECORD_INDEX, PROVENANCE, EXACT_COPY_COUNTS, EXACT_COPIES,
COMPARISON); judgescope/wiring.py hands them to the catalog."""

from __future__ import annotations

from pathlib import Path

from judgescope.duck import views
from judgescope.sources.derived import Tables, derived_views


def exact_copy_views(audit: Path, verification: dict[str, list[Path]] | None = None,
                     notes: list[str] | None = None) -> dict[str, list[Path]]:
    """View `audit_exact_copies`: every exact-copy row, with its candidate text when the audit is
    joined to a snapshot (`verification` holds Integrity's hash_verification_by_id and
    snapshot_numbered views, so the text is that of the row Integrity checked), built once per
    audit (and verification): the Exact copies page then filters a few rows."""
    joined = verification and "hash_verification_by_id" in verification
    inputs = {"audit": audit}
    if joined:
        inputs |= {"hash_verification_by_id": verification["hash_verification_by_id"][0],
                   "snapshot_numbered": verification["snapshot_numbered"][0]}
    rows = "audit_build_exact_copies_texts" if joined else "audit_build_exact_copies"
    return derived_views("copies", inputs, [("audit_exact_copies", rows, {})], notes)


def exact_copy_count_views(audit: Path, notes: list[str] | None = None) -> dict[str, list[Path]]:
    """View `audit_exact_copy_summary`: exact copies per language × unit, built once per audit."""
    return derived_views("copy-counts", {"audit": audit},
                         [("audit_exact_copy_summary", "audit_build_exact_copy_counts", {})], notes)


def compare_views(audit: Path, previous: Path, notes: list[str] | None = None) -> dict[str, list[Path]]:
    """Views `audit_version_overlap` and `audit_paired_diffs` (Compare versions), built once per
    pair of audit files: both join every row of one version to the other."""
    return derived_views("compare", {"audit": audit, "audit_previous": previous},
                         [("audit_version_overlap", "audit_build_overlap", {}),
                          ("audit_paired_diffs", "audit_build_paired_diff_counts", {})], notes)


def audit_summary_views(audit: Path, notes: list[str] | None = None,
                        verification: dict[str, list[Path]] | None = None) -> dict[str, list[Path]]:
    """View `audit_record_index`, built once per audit file: judge_record_id, score sorted by id,
    so opening one record reads a row group of it, then only the audit's row groups holding that
    score (the audit being stored sorted by score).

    With a snapshot joined, Integrity's `hash_verification_by_id` (in `verification`) already holds
    every audit row's id and score sorted by (id, score), as the index is (verify_build_by_id.sql):
    it is the index, so a first open sorts the audit's ids once, not twice (10M rows: a sort of
    about 7 s of CPU). Its other columns are the verification's; the index's readers
    (audit_record.sql, audit_record_explanation.sql) read only the id and score."""
    by_id = (verification or {}).get("hash_verification_by_id")
    if by_id:
        return {"audit_record_index": by_id}
    return derived_views("audit", {"audit": audit},
                         [("audit_record_index", "audit_build_record_index", {})], notes)


def provenance_views(audit: Path, notes: list[str] | None = None) -> dict[str, list[Path]]:
    """View `audit_model_provenance_summary`, built once per audit file."""
    return derived_views("provenance", {"audit": audit},
                         [("audit_model_provenance_summary", "audit_build_model_provenance", {})], notes)


def _summary(clean, built, key, notes) -> dict[str, list[Path]]:
    return audit_summary_views(clean["audit"], notes, built)


def _provenance(clean, built, key, notes) -> dict[str, list[Path]]:
    return provenance_views(clean["audit"], notes)


def _exact_copies(clean, built, key, notes) -> dict[str, list[Path]]:
    return exact_copy_views(clean["audit"], built, notes)


def _exact_copy_counts(clean, built, key, notes) -> dict[str, list[Path]]:
    return exact_copy_count_views(clean["audit"], notes)


def _comparison(clean, built, key, notes) -> dict[str, list[Path]]:
    return compare_views(clean["audit"], clean["audit_previous"], notes)


# Review opens records by it (an interaction, timed by the bench): built at first open.
RECORD_INDEX = Tables(
    what="record index", needs=("audit",),
    views=(views.derived("audit_record_index", ("audit",), "audit_build_record_index",
                         "judge_record_id → score, sorted by id (opening one record prunes the audit); with a "
                         "snapshot joined, the file of hash_verification_by_id, which holds both, sorted alike."),),
    queries=("audit_build_record_index",), build=_summary)
# Only the Provenance page reads it: built when it first does (lazy).
PROVENANCE = Tables(
    what="model provenance", needs=("audit",),
    views=(views.derived("audit_model_provenance_summary", ("audit",), "audit_build_model_provenance",
                         "Rows per requested and resolved judge model and prompt version."),),
    queries=("audit_build_model_provenance",), build=_provenance, lazy=True)
# Overview's findings, `report` and the Exact copies page read the counts: built at first open.
EXACT_COPY_COUNTS = Tables(
    what="exact copy counts", needs=("audit",),
    views=(views.derived("audit_exact_copy_summary", ("audit",), "audit_build_exact_copy_counts",
                         "Exact copies per language × unit."),),
    queries=("audit_build_exact_copy_counts",), build=_exact_copy_counts)
# Only the Exact copies page (and Review's list opened from it) reads the rows: built when it
# first does (lazy). With the hash verification built before it, they carry the texts of the
# rows it joined.
EXACT_COPIES = Tables(
    what="exact copies", needs=("audit",),
    views=(
        views.derived("audit_exact_copies", ("audit", "snapshot"), "audit_build_exact_copies_texts",
                      "Audit rows whose candidate hash equals the source hash, with the candidate text of "
                      "the snapshot row Integrity joined (audit_build_exact_copies when none is joined)."),),
    queries=("audit_build_exact_copies_texts", "audit_build_exact_copies"),
    build=_exact_copies, lazy=True)
# Only the Compare versions page reads them (each joins every row of both versions): built when
# it first does (lazy).
COMPARISON = Tables(
    what="version comparison", needs=("audit", "audit_previous"),
    views=(
        views.derived("audit_version_overlap", ("audit", "audit_previous"), "audit_build_overlap",
                      "Units both audit versions scored, per unit, with duplicated keys counted."),
        views.derived("audit_paired_diffs", ("audit", "audit_previous"), "audit_build_paired_diff_counts",
                      "Current minus previous score on units both versions scored once, counted.")),
    queries=("audit_build_overlap", "audit_build_paired_diff_counts"), build=_comparison, lazy=True)
# The domain's tables, in build order (judgescope/wiring.py).
TABLES = (RECORD_INDEX, PROVENANCE, EXACT_COPY_COUNTS, EXACT_COPIES, COMPARISON)
