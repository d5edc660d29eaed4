"""The integrity domain's derived tables: every audit row joined to the snapshot on the join key
and classified (hash_verification_by_id, the one table of every row), the mismatched rows'
normalisation hints (hash_verification_hints), the rows Integrity lists
(hash_verification) and the summary per language × unit × class (hash_verification_summary),
built once per (audit file, snapshot file, join key). Declared as
data in HASH_VERIFICATION; judgescope/wiring.py hands the declaration to the catalog."""

from __future__ import annotations

from pathlib import Path

from judgescope.duck import views
from judgescope.sources.derived import Tables, derived_views

# Verified rows kept in `hash_verification` (the others are all kept): the longest list of a
# class a page shows (Review's list of an Integrity class, web/review.py ORIGIN_LIMIT).
LISTED = 5_000


def verification_steps(key: list[str]) -> list[tuple[str, str, dict]]:
    """(view, build query, parameters) of each view HASH_VERIFICATION declares, in its order:
    the declaration is the one list of what verification builds."""
    params = {"hash_verification_by_id": {"key": list(key)}, "hash_verification": {"listed": LISTED}}
    return [(v.name, v.source, params.get(v.name, {})) for v in HASH_VERIFICATION.views]


def verification_views(audit: Path, snapshot: Path, key: list[str], notes: list[str] | None = None
                       ) -> dict[str, list[Path]]:
    """Views `hash_verification_by_id` (every audit row's class, match count and position,
    sorted by id so a lookup prunes row groups), `hash_verification_hints` (each mismatched row's
    normalisation hint, from its snapshot texts), `hash_verification` (the rows not verified and
    the first LISTED verified ones, in class and snapshot order, for Integrity's lists),
    `hash_verification_summary` (counts per language × unit × class × hint, and unreferenced
    snapshot rows) and `snapshot_numbered` (the snapshot with file_row_number), built once per
    (audit file, snapshot file, join key): the join of millions of audit keys to millions of
    snapshot keys is the expensive part of verification; pages and the badge read a few rows."""
    inputs = {"audit": audit, "snapshot_numbered": snapshot}
    return derived_views("verify", inputs, verification_steps(key), notes) | {"snapshot_numbered": [snapshot]}


def _build(clean, built, key, notes) -> dict[str, list[Path]]:
    return verification_views(clean["audit"], clean["snapshot"], key, notes)


HASH_VERIFICATION = Tables(
    what="hash verification", needs=("audit", "snapshot"), keyed=True,
    views=(
        views.derived("hash_verification_by_id", ("audit", "snapshot"), "verify_build_by_id",
                      "Every audit row joined to the snapshot on the join key: hash class, snapshot "
                      "match count and position, sorted by id (a lookup of a few ids reads one row group "
                      "each)."),
        views.derived("hash_verification_hints", ("audit", "snapshot"), "verify_build_hints",
                      "Each mismatched row's normalisation hint: would its snapshot text match the stored "
                      "digest once NFC-normalised ('nfc') or trimmed ('whitespace')? NULL when neither."),
        views.derived("hash_verification", ("audit", "snapshot"), "verify_build_rows",
                      "The rows Integrity lists, sorted by class: every row not verified (class, hint, "
                      "position, hashes) and the first verified ones in snapshot order."),
        views.derived("hash_verification_summary", ("audit", "snapshot"), "verify_build_summary",
                      "Rows per language × unit × hash class × hint, and unreferenced snapshot rows.")),
    queries=("verify_build_by_id", "verify_build_hints", "verify_build_rows", "verify_build_summary"), build=_build)
TABLES = (HASH_VERIFICATION,)  # the domain's tables, in build order (judgescope/wiring.py)
