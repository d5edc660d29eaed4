"""Stores built in code for the query tests: audit rows, tables written to Parquet as validation
writes them (with the _file and _row columns), the per-score counts and summaries the catalog
builds beside an audit, and a DuckDB SELECT written as it is. Each test file's `store` fixture
holds its own rows and opens a Store over these files."""

from pathlib import Path

import pandas as pd

from judgescope.schema import SCHEMAS
from judgescope.duck import db

AUDIT_COLUMNS = [c.name for c in SCHEMAS["judge_audit"].columns]


def audit_row(i, lang, unit, score, **kw) -> dict:
    """Judge audit row `r{i}`: every audit column, the ones not given filled in from i."""
    base = {c: None for c in AUDIT_COLUMNS}
    base.update(judge_record_id=f"r{i}", target_language=lang, unit=unit, score=float(score),
                source_id=f"s{i}", instance_id=f"i{i}", source_text_sha256=f"h{i}",
                candidate_text_sha256=f"c{i}", score_origin="explicit", run_group="main",
                judge_explanation=f"explanation {i}")
    base.update(kw)
    return base


def write_table(con, frame: pd.DataFrame, path) -> list:
    """`frame` as a validated table's Parquet file (with _file and _row): a view's file list."""
    con.register("frame", frame)
    con.execute("COPY (SELECT *, 'f.jsonl' AS _file, row_number() OVER () AS _row FROM frame) "
                "TO $p (FORMAT parquet)", {"p": str(path)})
    con.unregister("frame")
    return [path]


def write_counts(con, path) -> list:
    """The per-score counts the catalog builds beside an audit (catalog.write_counts)."""
    from judgescope.sources.catalog import write_counts

    out = path.with_suffix(".counts.parquet")
    write_counts(con, path, out)
    return [out]


def write_summaries(con, path) -> dict:
    """The binned counts and order statistics validation writes beside an audit
    (catalog.write_score_summaries), as views."""
    from judgescope.sources.catalog import write_score_summaries

    folder = path.with_suffix(".summaries")
    folder.mkdir()
    write_score_summaries(con, path, folder)
    return {"audit_bins": [folder / "bins.parquet"], "audit_order_stats": [folder / "order_stats.parquet"]}


def write_select(path: Path, select: str) -> Path:
    """The rows of a DuckDB SELECT (over no table: range(), literals) as a Parquet file."""
    con = db.scratch()
    con.execute(f"COPY ({select}) TO {db.sql_path(path)}")
    con.close()
    return path
