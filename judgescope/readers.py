"""Read data files into a scratch DuckDB table `raw` with lineage columns _file and _row."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from judgescope.sources import ResolvedFiles, SourceError

# Lineage and validation columns the build adds beside the data's own: a data column of one of
# these names would be taken for them (a row's exclusion reason chosen by the data), so it is
# refused by name rather than renamed behind the user's back.
RESERVED = ("_file", "_row", "_reason", "_column", "file_row_number", "source_sha256_computed",
            "candidate_sha256_computed")


def check_names(names, dataset: str, file: str) -> None:
    clash = [n for n in names if str(n).lower() in RESERVED]
    if clash:
        raise SourceError(f"column name {clash[0]!r} is reserved for JudgeScope's own lineage and "
                          f"validation columns ({', '.join(RESERVED)}); rename it in the data",
                          dataset=dataset, file=file, column=str(clash[0]))


def read_raw(con, resolved: ResolvedFiles, dataset: str) -> list[dict]:
    """Create table raw(_file, _row, ...); return the unreadable lines as ledger entries."""
    for f in resolved.files:
        if f.stat().st_size == 0:
            raise SourceError("file is empty", dataset=dataset, file=f.name)
    reader = {"parquet": _parquet, "jsonl": _jsonl, "csv": _csv}[resolved.format]
    broken: list[dict] = []
    parts = []
    for i, f in enumerate(resolved.files):
        rel = _rel(f, resolved.root)
        try:
            parts.append(reader(con, f, rel, i, broken))
        except SourceError as err:
            if err.dataset is None:
                raise SourceError(err.message, dataset=dataset, file=err.file, column=err.column,
                                  row=err.row) from err
            raise
        except Exception as err:  # DuckDB's own message says what is wrong with the bytes
            raise SourceError(f"cannot read {resolved.format}: {_first_line(err)}",
                              dataset=dataset, file=rel) from err
    con.execute("CREATE OR REPLACE TABLE raw AS " +
                " UNION ALL BY NAME ".join(f"SELECT * FROM {p}" for p in parts))
    for p in parts:
        con.execute(f"DROP TABLE IF EXISTS {p}")
    return broken


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0][:300]


def _described(con, source: str, params: dict) -> list[str]:
    return [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {source}", params).fetchall()]


def _parquet(con, path: Path, rel: str, i: int, broken: list) -> str:
    check_names(_described(con, "read_parquet($p)", {"p": str(path)}), None, rel)
    con.execute(f"CREATE TABLE part_{i} AS SELECT $rel AS _file, file_row_number + 1 AS _row, * "
                f"EXCLUDE (file_row_number) FROM read_parquet($p, file_row_number = true)",
                {"rel": rel, "p": str(path)})
    return f"part_{i}"


def _csv(con, path: Path, rel: str, i: int, broken: list) -> str:
    # All text: typing is validation's job, so a stray "n/a" in a number column costs one row.
    check_names(_described(con, "read_csv($p, all_varchar = true, header = true)",
                           {"p": str(path)}), None, rel)
    con.execute(f"CREATE TABLE part_{i} AS SELECT $rel AS _file, "
                f"row_number() OVER () + 1 AS _row, * FROM read_csv($p, all_varchar = true, "
                f"header = true)", {"rel": rel, "p": str(path)})
    return f"part_{i}"


def _jsonl(con, path: Path, rel: str, i: int, broken: list) -> str:
    """JSON lines, parsed in Python so that one broken line is listed, not fatal."""
    records, lines = [], []
    with path.open("r", encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("line is not a JSON object")
                # A lone surrogate ("\ud800") is valid JSON but no text: it costs its line only.
                json.dumps(obj, ensure_ascii=False).encode("utf-8")
            except ValueError as err:
                broken.append({"file": rel, "row": n, "column": None,
                               "reason": "invalid JSON line", "value": f"{err}: {line[:200]}"})
                continue
            records.append(obj)
            lines.append(n)
    check_names(list(dict.fromkeys(k for r in records for k in r)), None, rel)
    frame = _frame(records)
    frame.insert(0, "_row", pd.array(lines, dtype="int64"))
    frame.insert(0, "_file", rel)
    con.register(f"frame_{i}", frame)
    con.execute(f"CREATE TABLE part_{i} AS SELECT * FROM frame_{i}")
    con.unregister(f"frame_{i}")
    return f"part_{i}"


def _frame(records: list[dict]) -> pd.DataFrame:
    """Columns of one JSON type keep it; mixed or nested ones travel as JSON text."""
    columns = list(dict.fromkeys(k for r in records for k in r))
    data = {}
    for c in columns:
        values = [r.get(c) for r in records]
        kinds = {type(v) for v in values if v is not None}
        if kinds <= {str}:  # also a column that is null throughout
            data[c] = pd.array(values, dtype="string")
        elif kinds <= {int} and kinds:
            data[c] = pd.array(values, dtype="Int64")
        elif kinds <= {int, float} and kinds and not any(v != v for v in values if v is not None):
            # NaN has no place in a nullable float column: it travels as text and is flagged.
            data[c] = pd.array([None if v is None else float(v) for v in values], dtype="Float64")
        elif kinds <= {bool} and kinds:
            data[c] = pd.array(values, dtype="boolean")
        else:
            data[c] = pd.array([None if v is None else json.dumps(v, ensure_ascii=False)
                                for v in values], dtype="string")
    return pd.DataFrame(data, index=range(len(records)))
