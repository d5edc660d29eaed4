"""Read data files into a scratch DuckDB relation `raw` with lineage columns _file and _row.

Parquet, which DuckDB reads lazily, makes `raw` a view over the files: validation then reads
each file in the passes it makes (checks, sorted write) instead of first copying every row into
a table. JSON lines and CSV are parsed in Python, so their `raw` is the table they fill.

A bad line (JSONL) or row (CSV) costs that line or row only: it goes to the ledger with its
reason and the rest of the file is used. Rules, each with its ledger reason:
- bytes that are not UTF-8 (Latin-1, say) are not replaced: the line or row is listed;
- a byte-order mark opens the file without costing its first row;
- only LF (or CRLF in a CRLF file) ends a line; a bare CR inside an unquoted CSV field is
  listed rather than splitting its record in two;
- a CSV row whose field count differs from the header's is listed;
- a JSON integer beyond 64 bits, nesting deeper than MAX_DEPTH, a lone surrogate or a line
  that is not a JSON object is listed;
- in a text column of the schema, a JSON value of another type among texts is listed (the
  texts are kept as they are, never JSON-quoted).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from judgescope.ingest import importers
from judgescope.duck.db import sql_path
from judgescope.ingest.layout import ResolvedFiles
from judgescope.ingest.manifest import SourceError
from judgescope.ingest import readers_base as base
from judgescope.ingest.readers_base import BOM, PREVIEW, check_names
from judgescope.ingest.readers_csv import read_csv

if TYPE_CHECKING:
    import pandas as pd

MAX_DEPTH = 64
INT64 = (-(2 ** 63), 2 ** 63 - 1)
MAX_JSON_ARRAY_BYTES = 256 << 20


def read_raw(con, resolved: ResolvedFiles, dataset: str,
             text_columns: frozenset[str] = frozenset(), kind: str | None = None,
             notes: dict | None = None) -> list[dict]:
    """Create relation raw(_file, _row, ...); return the unreadable lines as ledger entries.
    A file another tool wrote (ingest/importers) is read as `kind`; `notes` receives what its
    importer says of it (format, version, judges, ignored fields)."""
    for f in resolved.files:
        if f.stat().st_size == 0:
            raise SourceError("file is empty", dataset=dataset, file=_rel(f, resolved.root))
    if resolved.format in importers.BY_NAME:
        reader = importers.reader(resolved.format, kind or importers.default_kind(
            resolved.files[0], resolved.format), {} if notes is None else notes)
    else:
        reader = READERS[resolved.format]
    broken: list[dict] = []
    parts = []
    for i, f in enumerate(resolved.files):
        rel = _rel(f, resolved.root)
        try:
            parts.append(reader(con, f, rel, i, broken, text_columns))
        except SourceError as err:
            raise SourceError(err.message, dataset=dataset, file=err.file or rel,
                              column=err.column, row=err.row) from err
        except (duckdb.Error, OSError) as err:  # DuckDB's own message says what is wrong
            raise SourceError(f"cannot read {resolved.format}: {_first_line(err)}",
                              dataset=dataset, file=rel) from err
    _union(con, parts, lazy=resolved.format in LAZY)
    return broken


def _union(con, parts: list[str], lazy: bool) -> None:
    """raw as the rows of every part in order (UNION ALL keeps it): a view over lazily read
    files, else one table (a single part's table is renamed, not copied)."""
    if not lazy and len(parts) == 1:
        con.execute(f"ALTER TABLE {parts[0]} RENAME TO raw")
        return
    union = " UNION ALL BY NAME ".join(f"SELECT * FROM {p}" for p in parts)
    con.execute(f"CREATE OR REPLACE {'VIEW' if lazy else 'TABLE'} raw AS {union}")
    if not lazy:
        for p in parts:
            con.execute(f"DROP TABLE IF EXISTS {p}")


def failed_file(err: Exception, resolved: ResolvedFiles) -> str | None:
    """The data file a DuckDB error names ("Failed to read file …"), relative to the dataset's
    folder: a lazily read file that breaks mid-way (a corrupt page) is found only when a later
    pass reads it, and its message still names the file."""
    text = str(err)
    return next((_rel(f, resolved.root) for f in resolved.files if str(f) in text), None)


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _first_line(err: Exception) -> str:
    """The first line of an error (catalog.load_dataset redacts server paths from it)."""
    text = str(err).strip().splitlines()[0][:300]
    return text


def _described(con, source: str, params: dict) -> list[str]:
    return [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {source}", params).fetchall()]


def _parquet(con, path: Path, rel: str, i: int, broken: list, text_columns) -> str:
    """A view over the file (its footer read now, so a file that is no Parquet fails here):
    read_raw's view `raw` reads its rows only when validation does. The path and name are
    literals of the view's SQL (a view binds no parameters), quoted as db.view_sql quotes paths."""
    check_names(_described(con, "read_parquet($p)", {"p": str(path)}), None, rel)
    con.execute(f"CREATE VIEW part_{i} AS SELECT {sql_path(Path(rel))} AS _file, "
                f"file_row_number + 1 AS _row, * EXCLUDE (file_row_number) "
                f"FROM read_parquet({sql_path(path)}, file_row_number = true)")
    return f"part_{i}"


def _decode(raw: bytes) -> tuple[str | None, str | None]:
    """(text, None), or (None, reason) for bytes that are not UTF-8."""
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as err:
        return None, f"not valid UTF-8 (byte 0x{raw[err.start]:02x} at position {err.start})"


def _depth(value) -> int:
    """Nesting depth of a JSON value, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, d)
            if d > MAX_DEPTH:
                break
            stack += [(x, d + 1) for x in (v.values() if isinstance(v, dict) else v)]
    return deepest


def _json_problem(obj) -> tuple[str | None, str | None]:
    """(reason, column) when a parsed line cannot be used, else (None, None)."""
    if not isinstance(obj, dict):
        return "line is not a JSON object", None
    if _depth(obj) > MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels", None
    for k, v in obj.items():
        if isinstance(v, int) and not isinstance(v, bool) and not INT64[0] <= v <= INT64[1]:
            return f"{k} is an integer beyond 64 bits", k
    try:  # a lone surrogate ("\ud800") is valid JSON but no text
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate (not text)", None
    return None, None


def _parse_json_line(raw: bytes, top: type = dict) -> tuple[dict | None, str | None, str | None, str]:
    """(record, None, None, ''), or (None, reason, column, detail) for a line that is unusable."""
    text, bad = _decode(raw)
    if bad:
        return None, "line is not valid UTF-8", None, bad
    try:
        obj = json.loads(text)
    except RecursionError:
        return None, f"nested deeper than {MAX_DEPTH} levels", None, ""
    except ValueError as err:
        return None, "invalid JSON line", None, str(err)
    if top is list:
        return (obj, None, None, "") if isinstance(obj, list) else (None, "not an array", None, "")
    reason, column = _json_problem(obj)
    return (None, reason, column, "") if reason else (obj, None, None, "")


def _json_array(path: Path, rel: str, broken: list):
    """(row, record) of a .json file holding one JSON array of objects (row = position + 1)."""
    if path.stat().st_size > MAX_JSON_ARRAY_BYTES:
        raise SourceError(f"a JSON array file over {MAX_JSON_ARRAY_BYTES >> 20} MB: write it as "
                          "JSON lines (one object per line)", file=rel)
    obj, reason, _, detail = _parse_json_line(path.read_bytes().removeprefix(BOM), top=list)
    if reason:
        raise SourceError(f"not JSON lines and not a JSON array: {reason} {detail}".strip(), file=rel)
    for n, item in enumerate(obj, start=1):
        why, column = _json_problem(item)
        if why:
            broken.append(base.entry(rel, n, why, json.dumps(item, ensure_ascii=False)[:PREVIEW], column))
        else:
            yield n, item


def _json_records(path: Path, rel: str, broken: list):
    """(line, record) of each usable JSON line; a .json file may hold one JSON array instead."""
    with path.open("rb") as fh:
        head = fh.read(64).removeprefix(BOM).lstrip()
    if path.suffix.lower() == ".json" and head.startswith(b"["):
        yield from _json_array(path, rel, broken)
        return
    for n, raw in base.lines(path):
        if not raw.strip():
            continue
        obj, reason, column, detail = _parse_json_line(raw)
        if reason:
            preview = raw[:PREVIEW * 4].decode("utf-8", "backslashreplace")
            broken.append(base.entry(rel, n, reason, f"{detail}: {preview}" if detail else preview,
                                 column))
            continue
        yield n, obj


def _jsonl(con, path: Path, rel: str, i: int, broken: list, text_columns) -> str:
    """JSON lines, parsed in Python so that one broken line is listed, not fatal."""
    import pandas as pd

    records, lines = [], []
    for n, obj in _json_records(path, rel, broken):
        records.append(obj)
        lines.append(n)
    check_names(list(dict.fromkeys(k for r in records for k in r)), None, rel)
    records, lines = _odd_types(records, lines, text_columns, rel, broken)
    frame = _frame(records)
    frame.insert(0, "_row", pd.array(lines, dtype="int64"))
    frame.insert(0, "_file", rel)
    base.store(con, f"part_{i}", frame, create=True)
    return f"part_{i}"


def _odd_types(records, lines, text_columns, rel, broken):
    """In a text column of the schema, a value of another JSON type among texts costs its row."""
    odd: dict[int, tuple[str, object]] = {}
    for c in text_columns:
        kinds = {type(r[c]) for r in records if r.get(c) is not None}
        if str in kinds and len(kinds) > 1:
            for k, r in enumerate(records):
                v = r.get(c)
                if v is not None and not isinstance(v, str) and k not in odd:
                    odd[k] = (c, v)
    for k, (c, v) in sorted(odd.items()):
        kind = {bool: "boolean", int: "number", float: "number", dict: "object", list: "array"}
        broken.append(base.entry(rel, lines[k], f"{c} is a JSON {kind.get(type(v), 'value')} among texts",
                             json.dumps(v, ensure_ascii=False), c))
    keep = [k for k in range(len(records)) if k not in odd]
    return [records[k] for k in keep], [lines[k] for k in keep]


def _frame(records: list[dict]) -> pd.DataFrame:
    """Columns of one JSON type keep it; in a mixed column texts stay texts and the other
    values travel as their JSON text (validation then judges them like any text)."""
    import pandas as pd

    columns = list(dict.fromkeys(k for r in records for k in r))
    data = {}
    for c in columns:
        values = [r.get(c) for r in records]
        kinds = {type(v) for v in values if v is not None}
        if kinds <= {str}:  # also a column that is null throughout
            data[c] = pd.array(values, dtype="string")
        elif kinds == {int}:
            data[c] = pd.array(values, dtype="Int64")
        elif kinds <= {int, float} and not any(v != v for v in values if v is not None):
            # NaN has no place in a nullable float column: it travels as text and is flagged.
            data[c] = pd.array([None if v is None else float(v) for v in values], dtype="Float64")
        elif kinds == {bool}:
            data[c] = pd.array(values, dtype="boolean")
        else:
            data[c] = pd.array([v if v is None or isinstance(v, str) else
                                json.dumps(v, ensure_ascii=False) for v in values], dtype="string")
    return pd.DataFrame(data, index=range(len(records)))


# One reader per format (as `datasets`' packaged modules map an extension to its builder).
READERS = {"parquet": _parquet, "jsonl": _jsonl, "csv": read_csv}
# Formats whose reader makes a view (the rows are read where validation reads them).
LAZY = frozenset({"parquet"})
