"""What every reader shares: the reserved lineage names, the ledger entry, the line splitter and
the frame → table step. The format readers (readers.py: Parquet, JSONL; readers_csv.py: CSV) each
import this, and readers.READERS maps a format to its reader, so no reader imports another."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING


from judgescope.ingest.manifest import SourceError

if TYPE_CHECKING:
    import pandas as pd

# Lineage and validation columns the build adds beside the data's own: a data column of one of
# these names would be taken for them (a row's exclusion reason chosen by the data), so it is
# refused by name rather than renamed behind the user's back.
RESERVED = ("_file", "_row", "_reason", "_column", "file_row_number", "source_sha256_computed",
            "candidate_sha256_computed")
BOM = b"\xef\xbb\xbf"
PREVIEW = 200


def check_names(names, dataset: str | None, file: str) -> None:
    clash = [n for n in names if str(n).lower() in RESERVED]
    if clash:
        raise SourceError(f"column name {clash[0]!r} is reserved for JudgeScope's own lineage and "
                          f"validation columns ({', '.join(RESERVED)}); rename it in the data",
                          dataset=dataset, file=file, column=str(clash[0]))


def entry(rel: str, row: int, reason: str, value, column: str | None = None) -> dict:
    return {"file": rel, "row": row, "column": column, "reason": reason,
            "value": None if value is None else str(value)[:PREVIEW + 100]}


def lines(path: Path):
    """(line number, bytes without its ending) of a file; only LF (or CRLF) ends a line."""
    with path.open("rb") as fh:
        for n, line in enumerate(fh, start=1):
            if n == 1 and line.startswith(BOM):
                line = line[len(BOM):]
            yield n, line.rstrip(b"\n").removesuffix(b"\r")


def replace_table(con, table: str, frame: pd.DataFrame) -> None:
    """`table` (a fixed scratch name) becomes the frame's rows, whether it was a table or a view
    over lazily read files (readers.read_raw): a reshaping step (nested snapshots, pairwise
    files) reads the rows once into pandas and writes them back."""
    is_view = con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = $t AND NOT internal",
                          {"t": table}).fetchone()[0]
    con.execute(f"DROP {'VIEW' if is_view else 'TABLE'} IF EXISTS {table}")
    store(con, table, frame, create=True)


def store(con, table: str, frame: pd.DataFrame, create: bool) -> None:
    name = f"frame_{table}"
    con.register(name, frame)
    try:
        con.execute(f"CREATE TABLE {table} AS SELECT * FROM {name}" if create
                    else f"INSERT INTO {table} BY NAME SELECT * FROM {name}")
    finally:
        con.unregister(name)
