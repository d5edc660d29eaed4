"""The join key between an audit and its source snapshot: which columns may form it, which
are inferred when a collection declares none, and why a key cannot be used. Part of the data
layer (the catalog builds the hash-verified join with it); integrity reads the same rules."""

from __future__ import annotations

from judgescope.ingest.manifest import SourceError

JOIN_COLUMNS = ("instance_id", "source_id", "target_language", "unit", "paragraph_id")
HASH_COLUMNS = ("source_text_sha256", "candidate_text_sha256")


def check_key(key) -> list[str]:
    """The join key as a list, refusing columns outside JOIN_COLUMNS (identifiers never come from users)."""
    key = [str(k).strip() for k in key if str(k).strip()]
    bad = [k for k in key if k not in JOIN_COLUMNS]
    if not key or bad:
        raise SourceError(f"join key {bad or key!r} is not usable: choose one or more of "
                          f"{', '.join(JOIN_COLUMNS)}")
    return key


INFERRED_KEY = ("instance_id", "target_language", "unit", "paragraph_id")


def infer_key(audit_missing, snapshot_missing) -> list[str]:
    """The join key when a collection declares none: every column of INFERRED_KEY that both
    the audit and the snapshot have (empty when they share none)."""
    return [c for c in INFERRED_KEY if c not in audit_missing and c not in snapshot_missing]


def no_shared_key(audit_missing, snapshot_missing) -> str:
    have = {side: [c for c in INFERRED_KEY if c not in missing]
            for side, missing in (("audit", audit_missing), ("snapshot", snapshot_missing))}
    return (f"no join-key column is in both datasets (the audit has {', '.join(have['audit']) or 'none'}; "
            f"the snapshot has {', '.join(have['snapshot']) or 'none'} of {', '.join(INFERRED_KEY)}); "
            "set join_key for this collection in the manifest")


def input_problems(key, audit_missing, snapshot_missing) -> list[str]:
    """Why a verification cannot be meaningful: absent hash columns or join-key columns."""
    out = [f"the audit has no {c} column" for c in HASH_COLUMNS if c in audit_missing]
    for name, missing in (("audit", audit_missing), ("snapshot", snapshot_missing)):
        out += [f"join-key column {c} is not in the {name}" for c in key if c in missing]
    return out
