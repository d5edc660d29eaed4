"""Files other evaluation tools write, read as JudgeScope's kinds: one module per format (as
`datasets`' packaged modules), each detected by its content as well as its extension.

A module has NAME, TITLE, sniff(path, head) -> bool and load(path) -> import_rows.Imported. One file
may offer several kinds (an Inspect log: the judge's verdicts and the human labels); the reader
takes the kind it is asked for, detection the file's first (Imported.kinds)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING


from judgescope.schema import BINARY, INT, NUMBER, SCHEMAS, SCORE
from judgescope.ingest import readers_base as base
from judgescope.ingest.importers import deepeval, inspect_log, langfuse, mlflow_eval, promptfoo
from judgescope.ingest.importers.import_rows import Imported
from judgescope.ingest.manifest import SourceError

if TYPE_CHECKING:
    import pandas as pd

MODULES = (inspect_log, promptfoo, deepeval, mlflow_eval, langfuse)
BY_NAME = {m.NAME: m for m in MODULES}
# Extensions only an importer reads (the others are also JudgeScope's own formats).
EXTENSIONS = {".eval": inspect_log.NAME}
SNIFF_BYTES = 64 << 10


def detect(path: Path) -> str | None:
    """The importer whose format this file is, by content (and extension), else None."""
    try:
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES).removeprefix(base.BOM).lstrip()
    except OSError:
        return None
    for module in MODULES:
        if module.sniff(path, head):
            return module.NAME
    return EXTENSIONS.get(path.suffix.lower())


def load(path: Path, fmt: str) -> Imported:
    """The file mapped onto the kinds (parsed once per file version in a process)."""
    st = path.stat()
    return _load(str(path), st.st_size, st.st_mtime_ns, fmt)


@lru_cache(maxsize=8)
def _load(path: str, size: int, mtime: int, fmt: str) -> Imported:
    module = BY_NAME[fmt]
    try:
        return module.load(Path(path))
    except SourceError as err:
        raise SourceError(f"{module.TITLE}: {err.message}", file=Path(path).name) from err
    except (KeyError, TypeError, AttributeError, ValueError) as err:  # a shape this reader does not know
        raise SourceError(f"{module.TITLE}: unexpected structure ({type(err).__name__}: "
                          f"{str(err)[:200]})", file=Path(path).name) from err


def default_kind(path: Path, fmt: str) -> str:
    kinds = load(path, fmt).kinds()
    if not kinds:
        raise SourceError(f"{BY_NAME[fmt].TITLE}: no judge score, verdict or human label found",
                          file=path.name)
    return kinds[0]


def columns(path: Path, fmt: str, kind: str | None = None) -> list[str]:
    """The columns the file gives as `kind` (default: its first kind)."""
    imp = load(path, fmt)
    kind = kind or default_kind(path, fmt)
    return list(dict.fromkeys(k for r in imp.rows.get(kind, []) for k in r if k != "_row")) \
        or [c.name for c in SCHEMAS[kind].columns if c.required]


def reader(fmt: str, kind: str, notes: dict):
    """A readers.READERS-style reader of `fmt` files as `kind`; `notes` receives what validate
    names (format, version, judges, judge unknown, ignored fields)."""
    def read(con, path: Path, rel: str, i: int, broken: list, text_columns) -> str:
        import pandas as pd

        imp = load(path, fmt)
        if kind not in imp.kinds():
            offered = ", ".join(imp.kinds()) or "none"
            raise SourceError(f"{imp.format} gives no {kind} (it gives: {offered})", file=rel)
        for e in imp.excluded.get(kind, []):
            broken.append(base.entry(rel, e["row"], e["reason"], e["value"], e["column"]))
        frame = _frame(imp.rows.get(kind, []), kind)
        frame["tool_version"] = pd.array([imp.version] * len(frame), dtype="string")  # the judge's identity
        frame.insert(0, "_row", pd.array([r["_row"] for r in imp.rows.get(kind, [])], dtype="int64"))
        frame.insert(0, "_file", pd.array([rel] * len(frame), dtype="string"))
        base.check_names(list(frame.columns[2:]), None, rel)
        base.store(con, f"part_{i}", frame, create=True)
        notes.setdefault("files", []).append({"file": rel, **imp.summary(kind)})
        return f"part_{i}"
    return read


def describe(imported: list[dict] | None) -> list[str]:
    """What an importer said of each file another tool wrote: its format and version, the
    judges (or why unknown), what it gives besides and the fields it ignored."""
    out = []
    for f in imported or []:
        out.append(f"format: {f['format']}; {f['version']}")
        judges = ", ".join(f"{m} ({n:,} rows)" for m, n in f["judges"].items())
        if judges:
            out.append(f"judge: {judges}")
        for why, n in f["judge_unknown"].items():
            out.append(f"judge unknown: {n:,} rows ({why})")
        others = [k for k in f["offers"] if k != f["kind"]]
        if others:
            out.append(f"also gives: {', '.join(others)} (--kind)")
        if f["ignored"]:
            out.append(f"ignored (not read): {'; '.join(f['ignored'][:10])}"
                       + (f" … {len(f['ignored']) - 10} more" if len(f["ignored"]) > 10 else ""))
        out += [f"note: {n}" for n in f["notes"]]
    return out


def _frame(rows: list[dict], kind: str) -> pd.DataFrame:
    """Rows typed by the kind's schema (numbers as numbers, the rest as text)."""
    import pandas as pd

    schema = SCHEMAS[kind]
    names = list(dict.fromkeys([c.name for c in schema.columns if c.required] +
                               [k for r in rows for k in r if k != "_row"]))
    data = {}
    for name in names:
        col = schema.column(name)
        values = [r.get(name) for r in rows]
        if col is not None and col.type in (SCORE, NUMBER):
            data[name] = pd.array(values, dtype="Float64")
        elif col is not None and col.type in (INT, BINARY):
            data[name] = pd.array(values, dtype="Int64")
        else:
            data[name] = pd.array([None if v is None else str(v) for v in values], dtype="string")
    return pd.DataFrame(data, index=range(len(rows)))
