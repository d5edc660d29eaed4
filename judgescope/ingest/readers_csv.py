"""CSV files read row by row (see readers.py for the rules): all text, a ragged, undecodable
or malformed row goes to the ledger, the rest is stored in chunks."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING


from judgescope.ingest import readers_base as base
from judgescope.ingest.readers_base import check_names
from judgescope.ingest.manifest import SourceError

if TYPE_CHECKING:
    import pandas as pd

CHUNK_ROWS = 50_000


def _csv_records(path: Path, rel: str, broken: list):
    """(line, fields) of each CSV record after the header; bad rows go to `broken`, named by
    their line and, when the header is known, the column where the record breaks."""
    lines = ((n, raw.decode("utf-8", "surrogateescape") + "\n") for n, raw in base.lines(path))
    current, pending, header = [0], [], []
    delimiter = _delimiter(path)

    def numbered():
        for n, text in lines:
            current[0] = n
            pending.append(text)
            yield text
    reader = csv.reader(numbered(), strict=True, delimiter=delimiter)
    while True:
        start = current[0] + 1
        pending.clear()
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as err:
            k = _bad_field("".join(pending), delimiter)
            column = header[k] if header and k < len(header) else None
            where = f" (column {column!r})" if column else ""
            broken.append(base.entry(rel, start, f"malformed CSV row{where}: {err}".replace(
                " - do you need to open the file in universal-newline mode?", ""),
                "".join(pending)[:200], column))
            continue
        if fields:  # a blank line is no row
            if not header:
                header.extend(fields)
            yield start, fields


def _bad_field(text: str, delimiter: str) -> int:
    """The 0-based field where a strict CSV reader stops on `text`: text after a closing quote,
    or a quote never closed (then the field it opened)."""
    field, i, quoted, opened = 0, 0, False, 0
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == '"':
                if text[i + 1:i + 2] == '"':
                    i += 1
                elif text[i + 1:i + 2] not in (delimiter, "\n", "\r", ""):
                    return field  # something after the closing quote
                else:
                    quoted = False
        elif ch == '"' and i == opened:
            quoted = True
        elif ch == delimiter:
            field, opened = field + 1, i + 1
        elif ch in "\r\n":
            break
        i += 1
    return field


def _delimiter(path: Path) -> str:
    """The header's most frequent of , ; tab | (DuckDB's sniffer chose among the same)."""
    with path.open("rb") as fh:
        head = fh.readline().decode("utf-8", "replace")
    return max([",", ";", "\t", "|"], key=head.count)


def _csv_row_problem(fields: list[str], width: int) -> str | None:
    if len(fields) != width:
        return f"row has {len(fields)} fields, the header {width}"
    if any("\udc80" <= ch <= "\udcff" for f in fields for ch in f):
        return "row is not valid UTF-8"
    return None


def read_csv(con, path: Path, rel: str, i: int, broken: list, text_columns) -> str:
    """CSV read row by row, all text: typing is validation's job, so a stray "n/a" in a number
    column costs one row; a ragged or undecodable row costs that row."""
    records = _csv_records(path, rel, broken)
    header = next(records, (1, []))[1]
    if not header or _csv_row_problem(header, len(header)):
        raise SourceError("CSV header is missing or not valid UTF-8", file=rel)
    if len(set(header)) != len(header):
        raise SourceError(f"CSV header repeats a column name: {header}", file=rel)
    check_names(header, None, rel)
    table, chunk = f"part_{i}", []
    created = False
    for n, fields in records:
        problem = _csv_row_problem(fields, len(header))
        if problem:
            broken.append(base.entry(rel, n, problem, ",".join(fields).encode(
                "utf-8", "surrogateescape").decode("utf-8", "backslashreplace")))
            continue
        chunk.append([n, *fields])
        if len(chunk) >= CHUNK_ROWS:
            base.store(con, table, _csv_frame(chunk, header, rel), create=not created)
            created, chunk = True, []
    if chunk or not created:
        base.store(con, table, _csv_frame(chunk, header, rel), create=not created)
    return table


def _csv_frame(rows: list[list], header: list[str], rel: str) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame([r[1:] for r in rows], columns=header, dtype="string") if rows else \
        pd.DataFrame({h: pd.array([], dtype="string") for h in header})
    frame = frame.replace({"": None})  # an empty field is a missing value, as DuckDB reads it
    frame.insert(0, "_row", pd.array([r[0] for r in rows], dtype="int64"))
    frame.insert(0, "_file", pd.array([rel] * len(rows), dtype="string"))
    return frame
