"""Kind detection: each kind's schema decides whether a table fits it (its required columns,
alternative names and one-of groups); exactly one fitting kind is chosen, else every candidate
is named with all its missing columns."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from judgescope.ingest import importers
from judgescope.ingest.layout import ResolvedFiles
from judgescope.ingest.readers import MAX_JSON_ARRAY_BYTES
from judgescope.schema import SCHEMAS, Schema
from judgescope.ingest.manifest import SourceError

# JSON lines read for their keys: enough for any real header, bounded for a large file.
SAMPLE_LINES = 2_000


def missing_columns(schema: Schema, columns) -> list[str]:
    """Every required column (or one-of group, shown 'a|b') the table lacks, in schema order."""
    have = set(columns)
    out = [c for c in schema.required
           if c not in have and not have.intersection(schema.alternatives.get(c, ()))]
    out += ["|".join(group) for group in schema.any_of if not have.intersection(group)]
    return out


def candidates(columns) -> dict[str, list[str]]:
    """Detectable kind → its missing columns (empty: it fits)."""
    return {k: missing_columns(s, columns) for k, s in SCHEMAS.items() if s.detectable}


def detect(columns, what: str = "this table") -> str:
    """The one kind that fits `columns`; a SourceError listing each candidate otherwise."""
    found = candidates(columns)
    fitting = [k for k, miss in found.items() if not miss]
    if len(fitting) == 1:
        return fitting[0]
    if fitting:
        listed = ", ".join(fitting)
        raise SourceError(f"{what} fits several kinds ({listed}): say which with --kind "
                          "(or kind = … in the manifest)")
    listed = "; ".join(f"{k} misses {', '.join(miss)}" for k, miss in found.items())
    raise SourceError(f"{what} fits no kind ({listed}): add the missing columns, or say which "
                      "kind it is with --kind (or kind = … in the manifest)")


def file_columns(resolved: ResolvedFiles, kind: str | None = None) -> list[str]:
    """Column names over every data file (the union, in first-seen order); a file another tool
    wrote gives the columns of `kind` (default: its first kind, see ingest/importers)."""
    seen: dict[str, None] = {}
    for f in resolved.files:
        names = importers.columns(f, resolved.format, kind) if resolved.format in importers.BY_NAME \
            else _columns(f, resolved.format)
        for name in names:
            seen.setdefault(name, None)
    return list(seen)


def _columns(path: Path, fmt: str) -> list[str]:
    if fmt == "parquet":
        import pyarrow.parquet as pq

        try:
            return list(pq.read_schema(path).names)
        except Exception as err:  # noqa: BLE001 — pyarrow raises several types; validation names it
            raise SourceError(f"cannot read the Parquet schema: {err}", file=path.name) from err
    with path.open("rb") as fh:
        head = fh.read(1 << 20).decode("utf-8-sig", "replace")
    if fmt == "csv":
        first = next(csv.reader(io.StringIO(head.split("\n", 1)[0])), [])
        return [c.strip() for c in first]
    return _json_keys(path)


def _json_keys(path: Path) -> list[str]:
    seen: dict[str, None] = {}
    with path.open("rb") as fh:
        for n, line in enumerate(fh):
            if n >= SAMPLE_LINES:
                break
            try:
                obj = json.loads(line.decode("utf-8-sig"))
            except (ValueError, UnicodeDecodeError):
                continue  # validation puts the line in the ledger; detection reads the rest
            _keys(obj, seen)
    if not seen and path.stat().st_size <= MAX_JSON_ARRAY_BYTES:  # a pretty-printed JSON array
        try:
            _keys(json.loads(path.read_bytes().decode("utf-8-sig")), seen)
        except (ValueError, UnicodeDecodeError):
            pass  # unreadable: validation names it
    return list(seen)


def _keys(obj, seen: dict) -> None:
    for record in (obj if isinstance(obj, list) else [obj])[:SAMPLE_LINES]:
        if isinstance(record, dict):
            for key in record:
                seen.setdefault(str(key), None)


def detect_resolved(resolved: ResolvedFiles, dataset: str, form: str = "flat") -> str:
    """The kind of a resolved dataset; a nested-form dataset is a source snapshot."""
    if form == "nested":
        return "source_snapshot"
    if resolved.files and all(f.stat().st_size == 0 for f in resolved.files):
        raise SourceError("the file is empty (0 bytes): there is nothing to read", dataset=dataset,
                          file=resolved.files[0].name if len(resolved.files) == 1 else None)
    if resolved.format in importers.BY_NAME:  # the tool's format says what it holds
        return importers.default_kind(resolved.files[0], resolved.format)
    return detect(file_columns(resolved), "the table")
