"""The schema of prebuilt.json, a prebuilt cache's index (remote/prebuilt.py), checked before any
of it is used: whoever can push to a published cache writes this file, so every value that
reaches DuckDB (view names, file names) or a page (a dataset's report) has its shape and type
checked here, and a file's recorded size and Parquet footer digest bind the index to the files
it names. Each problem is a SourceError naming prebuilt.json and where in it. Pure: no DuckDB."""

from __future__ import annotations

import json
import re

from judgescope.duck.cache import footer_sha256  # noqa: F401 (what the index records)
from judgescope.ingest.manifest import SourceError

INDEX = "prebuilt.json"
FORMAT = 2  # 2: every file's size and footer digest (format 1 had neither)
MAX_INDEX_BYTES = 32 << 20
# A file of the cache: a relative path of plain names, no '..', no scheme, no backslash.
FILE_RE = re.compile(r"^(?!.*(?:^|/)\.\.?(?:/|$))[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+){0,7}$")
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")

_COUNT = "a whole number ≥ 0"
_TEXT_OR_NONE = "text or null"
# A dataset's report as catalog pages read it: field → (check, what it must be).
_REPORT = {
    "dataset": (lambda v: isinstance(v, str), "text"),
    "kind": (lambda v: isinstance(v, str), "text"),
    "rows_loaded": (lambda v: _count(v), _COUNT),
    "rows_used": (lambda v: _count(v), _COUNT),
    "rows_excluded": (lambda v: _count(v), _COUNT),
    "unreadable_lines": (lambda v: _count(v), _COUNT),
    "reasons": (lambda v: isinstance(v, dict) and all(_count(n) for n in v.values()),
                "an object of reason → count"),
    "columns_missing": (lambda v: _texts(v), "a list of text"),
    "columns_extra": (lambda v: _texts(v), "a list of text"),
    "files": (lambda v: isinstance(v, list) and all(_file_record(f) for f in v),
              'a list of {"file": text, "sha256": text, "size": count}'),
}
_REPORT_OPTIONAL = {
    **{k: (lambda v: v is None or isinstance(v, str), _TEXT_OR_NONE)
       for k in ("title", "origin", "hub", "revision", "path", "config", "split")},
    "synthetic": (lambda v: v is None or isinstance(v, bool), "true, false or null"),
    "digests_normalised": (lambda v: isinstance(v, dict) and all(_count(n) for n in v.values()),
                           "an object of column → count"),
}


def _count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _texts(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _file_record(f) -> bool:
    return (isinstance(f, dict) and isinstance(f.get("file"), str) and isinstance(f.get("sha256"), str)
            and _count(f.get("size")))


def _refuse(where: str, what: str) -> SourceError:
    """where: a place in the index (collections.x.views), or '' for the whole file."""
    return SourceError(f"{INDEX}{': ' + where[:200] if where else ''} {what}; not a JudgeScope "
                       f"prebuilt cache index (format {FORMAT}), so the cache is not opened")


def parse(data: bytes, derived=()) -> dict:
    """prebuilt.json's bytes, parsed and checked (check)."""
    if len(data) > MAX_INDEX_BYTES:
        raise _refuse("", f"is {len(data):,} bytes, over {MAX_INDEX_BYTES:,}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise _refuse("", f"is not UTF-8 text ({err.reason} at byte {err.start})") from err
    try:
        index = json.loads(text)
    except RecursionError:  # nesting deeper than Python's parser goes: no index nests so deep
        raise _refuse("", "nests too deep to be read") from None
    except ValueError as err:
        raise _refuse("", f"is not JSON ({err})") from err
    return check(index, derived)


def check(index, derived=()) -> dict:
    """The index, if its shape and every type in it are as `judgescope build` writes them; a view
    is one the registry declares (views.BASE) or one of `derived`, the names of the derived and
    computed views the domains declare (wiring.VIEWS)."""
    from judgescope.duck.views import BASE_VIEWS

    if not isinstance(index, dict):
        raise _refuse("", f"holds a JSON {type(index).__name__}, not an object")
    if index.get("format") != FORMAT:
        raise _refuse("format", f"is {str(index.get('format'))[:40]!r}, not {FORMAT}")
    for key in ("datasets", "collections", "files"):
        if not isinstance(index.get(key), dict):
            raise _refuse(key, "is missing or not an object")
    files = index["files"]
    for name, rec in files.items():
        if not FILE_RE.match(name):
            raise _refuse(f"files.{name!r}", "is not a file name inside the cache")
        if not (isinstance(rec, dict) and _count(rec.get("size"))
                and isinstance(rec.get("footer_sha256"), str) and SHA256_RE.match(rec["footer_sha256"])):
            raise _refuse(f"files.{name}", 'is not {"size": count, "footer_sha256": 64 hex digits}')
    for coll, entry in index["collections"].items():
        at = f"collections.{coll}"
        if not isinstance(entry, dict) or not isinstance(entry.get("views"), dict):
            raise _refuse(f"{at}.views", "is missing or not an object of view → files")
        if not _texts(entry.get("verify_problems", [])):
            raise _refuse(f"{at}.verify_problems", "is not a list of text")
        for view, paths in entry["views"].items():
            if view not in BASE_VIEWS and view not in derived:
                raise _refuse(f"{at}.views: {view!r}", "is not a view JudgeScope declares")
            if not (isinstance(paths, list) and paths and all(isinstance(p, str) for p in paths)):
                raise _refuse(f"{at}.views.{view}", "is not a non-empty list of file names")
            for p in paths:
                if not FILE_RE.match(p):
                    raise _refuse(f"{at}.views.{view}: {p!r}", "names a file outside the cache")
                if p not in files:
                    raise _refuse(f"{at}.views.{view}: {p}", "has no size and footer digest in files")
    for name, report in index["datasets"].items():
        _check_report(name, report)
    return index


def _check_report(name: str, report) -> None:
    at = f"datasets.{name}"
    if not isinstance(report, dict):
        raise _refuse(at, "is not an object (a dataset's validation report)")
    for field, (ok, what) in _REPORT.items():
        if field not in report or not ok(report[field]):
            raise _refuse(f"{at}.{field}", f"is {_shown(report.get(field))}, not {what}")
    for field, (ok, what) in _REPORT_OPTIONAL.items():
        if field in report and not ok(report[field]):
            raise _refuse(f"{at}.{field}", f"is {_shown(report[field])}, not {what}")
    if report["dataset"] != name:
        raise _refuse(f"{at}.dataset", f"is {report['dataset'][:80]!r}, not the dataset's name")


def _shown(value) -> str:
    if value is None:
        return "missing or null"
    if isinstance(value, str):
        return "text"
    return f"a JSON {type(value).__name__}"
