"""drift_pairs read at any size, for drift_report. One query per bucket of the paired key
(queries/drift_pairs.sql), so that DuckDB's grouping and join hold one bucket at a time within
the Store's memory bound: at 10M rows a run, the one query over every key ran out of it. Of each
bucket only what the statistics read is kept (the language and unit as categories, both scores,
the difference, the flags, the rows per unit); the keys and record ids are kept only for the
bucket's anchors that moved most, since the MOVED_MOST that moved most over every key are among
the buckets' own.

Nothing leaves unseen: drift_pairs returns the units only one run scored too, and read() counts
the rows of each run that are paired, in a unit the other run did not score, or without a unit key
(drift_unkeyed), listing the first UNPAIRED_LISTED of each kind and run."""

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
KEY = ["paired_on", "unit_id", "target_language", "unit", "paragraph_id"]
MOVED_COLUMNS = ["target_language", "unit", "paired_on", "unit_id", "paragraph_id", "old_score", "new_score",
                 "diff", "old_record_id", "new_record_id"]
UNPAIRED_LISTED = 25
UNPAIRED_COLUMNS = KEY + ["rows", "record_id"]
RUNS = ("old", "new")
OTHER = {"old": "new", "new": "old"}
NARROW = {"target_language": None, "unit": None, "old_score": "float64", "new_score": "float64",
          "diff": "float64", "anchor": "bool", "stable": "bool", "old_rows": "int32", "new_rows": "int32"}


class Pairs(NamedTuple):
    frame: pd.DataFrame  # one row per paired unit, the NARROW columns
    moved: list[dict]  # each bucket's anchors that moved most (moved_most rows)
    unpaired: dict  # per run (old, new): rows paired, not paired and why, the first listed (unpaired_counts)


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
    frames[:] = [f for f in frames if len(f)] or frames[:1]  # an empty bucket's categories have no type
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
        ["size", "target_language", "unit", "paired_on", "unit_id", "paragraph_id"],
        ascending=[False, True, True, True, True, True], kind="stable")
    order = order[order["size"] > 0].head(limit)
    return [{k: (None if pd.isna(v) else v) for k, v in row.items()}
            for row in order[MOVED_COLUMNS].to_dict("records")]


def _first_unpaired(part: pd.DataFrame, run: str, limit: int) -> list[dict]:
    """The units of `part` only `run` scored, the first `limit` by key (record id: the unit's lowest)."""
    only = part[(part[f"{run}_rows"] > 0) & (part[f"{OTHER[run]}_rows"] == 0)]
    if only.empty:
        return []
    only = only.sort_values(KEY, kind="stable", na_position="first").head(limit)
    rows = pd.DataFrame({**{c: only[c] for c in KEY}, "rows": only[f"{run}_rows"],
                         "record_id": only[f"{run}_record_id"]})
    return [{k: (None if pd.isna(v) else v) for k, v in r.items()} for r in rows.to_dict("records")]


def _sorted_first(rows: list[dict], limit: int) -> list[dict]:
    """The first `limit` rows by KEY (None first, as na_position='first' above)."""
    return sorted(rows, key=lambda r: tuple((r[c] is not None, r[c] or "") for c in KEY))[:limit]


def read(run: Callable[..., pd.DataFrame], old_rows: int, new_rows: int,
         listed: int | None = None) -> Pairs:
    """Every unit of the two runs (`old_rows` and `new_rows` rows), bucket by bucket: the paired
    ones for the statistics; of the others, per run, counts and the first `listed` (UNPAIRED_LISTED)."""
    listed = UNPAIRED_LISTED if listed is None else listed
    buckets = bucket_count(old_rows + new_rows)
    frames, moved = [], []
    keyed = {r: 0 for r in RUNS}
    unpaired = {r: {"rows": 0, "units": 0, "listed": []} for r in RUNS}
    for bucket in range(buckets):
        part = run("drift_pairs", buckets=buckets, bucket=bucket)
        for r in RUNS:
            alone = part[f"{OTHER[r]}_rows"] == 0
            keyed[r] += int(part[f"{r}_rows"].sum())
            unpaired[r]["rows"] += int(part.loc[alone, f"{r}_rows"].sum())
            unpaired[r]["units"] += int((alone & (part[f"{r}_rows"] > 0)).sum())
            unpaired[r]["listed"] = _sorted_first(unpaired[r]["listed"] + _first_unpaired(part, r, listed), listed)
        part = part[(part["old_rows"] > 0) & (part["new_rows"] > 0)]
        moved += moved_most(part[part["anchor"] & part["stable"]])
        frames.append(narrow(part))
        del part
    totals = {"old": int(old_rows), "new": int(new_rows)}
    unkeyed = _unkeyed(run, listed) if any(keyed[r] < totals[r] for r in RUNS) else {}
    counts = {r: unpaired_counts(totals[r], keyed[r], unpaired[r], unkeyed.get(r, {"rows": 0, "listed": []}))
              for r in RUNS}
    return Pairs(_joined(frames), moved, counts)


def _unkeyed(run, listed: int) -> dict:
    """Per run, the rows without a unit key: their count and the first `listed` (drift_unkeyed)."""
    found = run("drift_unkeyed", limit=listed)
    return {r: {"rows": int(g["n_rows"].iloc[0]),
                "listed": [{"record_id": None if pd.isna(x.judge_record_id) else x.judge_record_id,
                            "file": x.file, "row": int(x.row)} for x in g.itertuples()]}
            for r, g in found.groupby("run", sort=True)}


def unpaired_counts(total: int, keyed: int, unpaired: dict, unkeyed: dict) -> dict:
    """One run's rows: paired (in a unit both runs scored), in a unit only this run scored, and
    without a unit key; the three add up to the run's rows, which the query's counts must explain."""
    paired = keyed - unpaired["rows"]
    if paired + unpaired["rows"] + unkeyed["rows"] != total:
        raise RuntimeError(f"drift: {total:,} rows in a run, but {paired:,} paired + {unpaired['rows']:,} "
                           f"unpaired + {unkeyed['rows']:,} without a key")
    return {"rows": total, "paired_rows": paired,
            "unpaired_rows": unpaired["rows"], "unpaired_units": unpaired["units"],
            "unpaired_listed": unpaired["listed"],
            "unkeyed_rows": unkeyed["rows"], "unkeyed_listed": unkeyed["listed"]}
