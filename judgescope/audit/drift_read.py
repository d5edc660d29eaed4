"""drift_pairs read at any size, for drift_report. One query per bucket of the paired key
(queries/drift_pairs.sql), so that DuckDB's grouping and join hold one bucket at a time within
the Store's memory bound: at 10M rows a run, the one query over every key ran out of it. Of each
bucket only what the statistics read is kept (the language and unit as categories, both scores,
the difference, the flags, the rows per unit); the keys and record ids are kept only for the
bucket's anchors that moved most, since the MOVED_MOST that moved most over every key are among
the buckets' own."""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

# Rows of both runs together per query (one bucket, every key, up to this). Measured on the bench's
# two 10M-row runs (bench/kinds.py), warm, within the Store's 1,536 MB: a bucket of 1M pairs took
# 4 s, the scan of both runs 2 s of it; buckets of 2M pairs took 12 s each, and the query over
# every key 64 s, spilling. With three digest texts a group (min = max of the texts), a 1M-pair
# bucket ran out of memory in one run of four; with their hashes, in none of five.
ROWS_PER_BUCKET = 2_000_000
CATEGORIES = ("target_language", "unit")
MOVED_MOST = 25
MOVED_COLUMNS = ["target_language", "unit", "source_id", "paragraph_id", "old_score", "new_score", "diff",
                 "old_record_id", "new_record_id"]
NARROW = {"target_language": None, "unit": None, "old_score": "float64", "new_score": "float64",
          "diff": "float64", "anchor": "bool", "stable": "bool", "old_rows": "int32", "new_rows": "int32"}


class Pairs(NamedTuple):
    frame: pd.DataFrame  # one row per paired unit, the NARROW columns
    moved: list[dict]  # each bucket's anchors that moved most (moved_most rows)


def bucket_count(rows: int) -> int:
    """Queries for runs holding `rows` rows together: one per ROWS_PER_BUCKET, at least one."""
    return max(1, -(-int(rows) // ROWS_PER_BUCKET))


def narrow(part: pd.DataFrame) -> pd.DataFrame:
    """The columns the statistics read, languages and units as categories."""
    return pd.DataFrame({c: part[c].astype("category" if kind is None else kind) for c, kind in NARROW.items()})


def _joined(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The buckets' rows as one frame in one order, whatever order the buckets' rows came in:
    sorted by every column (rows equal in all of them are interchangeable), so that sums of float
    differences, which depend on their order in the last digits, come out the same in every run.
    Each category column's categories are sorted, so that grouping by it (sort=True) orders its
    values as text, as over the query's strings. Empties `frames` as it goes: the buckets, their
    concatenation and the sorted frame are never held all at once."""
    columns = {c: union_categoricals([f[c] for f in frames], sort_categories=True) for c in CATEGORIES}
    columns |= {c: np.concatenate([f[c].to_numpy() for f in frames]) for c in NARROW if c not in CATEGORIES}
    frames.clear()
    keys = [columns[c].codes if c in CATEGORIES else columns[c] for c in reversed(NARROW)]
    order = np.lexsort(keys)  # the last key first: target_language, then unit, …
    del keys
    out = {}
    for c in NARROW:
        values = columns.pop(c)
        out[c] = values.take(order)
        del values
    return pd.DataFrame(out, copy=False)


def moved_most(anchors: pd.DataFrame, limit: int = MOVED_MOST) -> list[dict]:
    """The anchors whose score changed most (largest |new − old|, then language, unit, key)."""
    if anchors.empty:
        return []
    size = anchors["diff"].abs().to_numpy()
    if size.size > limit:  # only sizes at least the limit-th largest can be listed (ties kept)
        kept = size >= np.partition(size, -limit)[-limit]
        anchors, size = anchors[kept], size[kept]
    order = anchors.assign(size=size).sort_values(
        ["size", "target_language", "unit", "source_id", "paragraph_id"],
        ascending=[False, True, True, True, True], kind="stable")
    order = order[order["size"] > 0].head(limit)
    return [{k: (None if pd.isna(v) else v) for k, v in row.items()}
            for row in order[MOVED_COLUMNS].to_dict("records")]


def read(run: Callable[..., pd.DataFrame], rows: int) -> Pairs:
    """Every paired unit of the two runs (`rows` rows together), bucket by bucket."""
    buckets = bucket_count(rows)
    frames, moved = [], []
    for bucket in range(buckets):
        part = run("drift_pairs", buckets=buckets, bucket=bucket)
        moved += moved_most(part[part["anchor"] & part["stable"]])
        frames.append(narrow(part))
        del part
    return Pairs(_joined(frames), moved)
