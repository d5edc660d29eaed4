"""Review logs as files: a Parquet or CSV log checked and imported (idempotent, by review_id),
the whole log exported, logs merged. Pure: no streamlit."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from judgescope.reviews import checks, verdict_log


def merge_logs(*logs: pd.DataFrame) -> pd.DataFrame:
    """Append-only logs merged: the union, one row per review_id (conflict-free by construction)."""
    frames = [f for f in logs if f is not None and len(f)]
    if not frames:
        return pd.DataFrame(columns=list(verdict_log.COLUMNS))
    merged = pd.concat([f.reindex(columns=list(verdict_log.COLUMNS)) for f in frames], ignore_index=True)
    return (merged.drop_duplicates("review_id", keep="first")
            .sort_values(["created_at", "review_id"], kind="stable").reset_index(drop=True))


REQUIRED = ("review_id", "reviewer", "created_at", "collection", "dataset", "judge_record_id", "verdict")


def check_log(frame: pd.DataFrame, source: str = "the log") -> pd.DataFrame:
    """A log read from a file, checked: the required columns present and filled, verdicts known."""
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise ValueError(f"{source}: missing column(s) {', '.join(missing)}")
    for col in REQUIRED:
        empty = frame[frame[col].isna() | (frame[col].astype(str).str.strip() == "")]
        if len(empty):
            raise ValueError(f"{source}: row {empty.index[0]} has no {col}")
    bad = frame[~frame.verdict.isin(verdict_log.VERDICTS)]
    if len(bad):
        raise ValueError(f"{source}: row {bad.index[0]} has verdict {bad.verdict.iloc[0]!r}, "
                         f"not one of {', '.join(verdict_log.VERDICTS)}")
    out = frame.reindex(columns=list(verdict_log.COLUMNS))
    out["tags"] = out["tags"].fillna("[]")
    out["note"] = out["note"].fillna("")
    return checks.check_rows(out, source)


def import_frame(frame: pd.DataFrame, path=None, source: str = "the log") -> int:
    """Add the rows of a log not yet stored (by review_id); returns how many were added."""
    rows = check_log(frame, source).to_dict("records")
    return verdict_log.insert(path, rows) if rows else 0


def read_file(file: Path | str) -> pd.DataFrame:
    file = Path(file)
    if file.suffix.lower() == ".parquet":
        return pd.read_parquet(file)
    if file.suffix.lower() == ".csv":
        return pd.read_csv(file, dtype=str, keep_default_na=False).replace({"": None})
    raise ValueError(f"{file}: a review log is a .parquet or .csv file")


def import_file(file: Path | str, path=None) -> int:
    """Import a Parquet or CSV log; importing the same log twice adds nothing."""
    frame = read_file(file)
    if "score" in frame:
        frame["score"] = pd.to_numeric(frame["score"], errors="coerce")
    return import_frame(frame, path, Path(file).name)


def export_file(out: Path | str, path=None) -> int:
    """The whole log as Parquet (lossless) or CSV (formulas neutralised) by suffix; rows written."""
    from judgescope.sources import exports as export

    out, frame = Path(out), verdict_log.log(path)
    if out.suffix.lower() == ".parquet":
        out.write_bytes(export.parquet_bytes(frame))
    elif out.suffix.lower() == ".csv":
        out.write_bytes(export.csv_bytes(frame))
    else:
        raise ValueError(f"{out}: export to a .parquet or .csv file")
    return len(frame)

