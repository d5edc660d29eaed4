"""Source snapshots in the nested XHotpotQA / HotpotQA instance form, flattened to one row per unit.

A manifest entry with `kind = "source_snapshot"` and `form = "nested"` holds one record per
instance (JSON lines or Parquet). Accepted shape, following HotpotQA's public structure:

    {
      "id": "5a8b57f25542995d1e6f1371",      # or "_id" / "instance_id" → instance_id
      "source_id": "…",                      # optional, copied to every unit
      "question": "English question", "answer": "English answer",
      "context": [["Title A", ["Sentence 1.", "Sentence 2."]], …]
              # or {"title": ["Title A", …], "sentences": [["Sentence 1.", …], …]}
      "translations": {                      # the translated side, one entry per language
        "th": {"question": "…", "answer": "…", "context": <either context form above>}
      }
    }

or one record per instance and language: the same English fields plus
`"target_language": "th"` and `"translation": {"question": …, "answer": …, "context": …}`.

Each instance and language gives the flat rows (instance_id, source_id, target_language, unit,
paragraph_id, source_text, candidate_text): unit "question" and "answer" with paragraph_id
null, and unit "paragraph" per context paragraph with paragraph_id = its 0-based position
as text ("0", "1", …); a paragraph's text is " ".join(its sentences). English and translated
contexts must have the same number of paragraphs. Lineage (_file, _row) is the instance's.
"""

from __future__ import annotations

import json


from judgescope.ingest.manifest import DatasetSpec, SourceError
from judgescope.ingest.readers_base import replace_table

FORMS = ("flat", "nested")
FLAT_COLUMNS = ("instance_id", "source_id", "target_language", "unit", "paragraph_id",
                "source_text", "candidate_text")


def prepare(con, spec: DatasetSpec) -> list[dict]:
    """Called on the scratch relation `raw` before validation: flattens a nested snapshot in place.
    Returns the instance records that cannot be flattened, as ledger entries."""
    if spec.kind != "source_snapshot":
        return []
    if spec.form not in FORMS:
        raise SourceError(f"form {spec.form!r} is unknown; use one of {', '.join(FORMS)}",
                          dataset=spec.name)
    if spec.form == "nested":
        return flatten_table(con, "raw", spec.name)
    return []


def flatten_table(con, table: str, dataset: str) -> list[dict]:
    """Replace `table` (lineage columns plus nested fields) with its flat rows; an instance that
    cannot be flattened costs that instance only (returned as a ledger entry)."""
    import pandas as pd

    frame = con.execute(f"SELECT * FROM {table}").df()  # table is a fixed scratch name
    rows, broken = [], []
    for record in frame.to_dict("records"):
        try:
            units = flatten_record(_decoded(record), dataset, record["_row"])
        except SourceError as err:
            broken.append({"file": record["_file"], "row": int(record["_row"]),
                           "column": err.column, "reason": err.message, "value": None})
            continue
        rows += [{"_file": record["_file"], "_row": int(record["_row"]), **unit} for unit in units]
    # Typed even with no row (every instance broken, e.g. a translations column null throughout):
    # an untyped empty column would reach DuckDB as type NULL, which no later step can cast to.
    flat = pd.DataFrame(rows, columns=["_file", "_row", *FLAT_COLUMNS]).astype(
        {"_row": "int64"} | {c: "string" for c in ("_file", *FLAT_COLUMNS)})
    replace_table(con, table, flat)
    return broken


def _decoded(record: dict) -> dict:
    """Nested JSON fields arrive as JSON text (readers) or as Python structures (Parquet)."""
    out = {}
    for k, v in record.items():
        if isinstance(v, str) and v[:1] in "[{":
            try:
                v = json.loads(v)
            except (ValueError, RecursionError):
                pass
        out[k] = None if _is_na(v) else v
    return out


def _is_na(value) -> bool:
    import pandas as pd

    if value is None:
        return True
    if isinstance(value, str) or not hasattr(value, "__len__"):
        return bool(pd.isna(value))
    return False  # lists, dicts, numpy arrays from Parquet


def flatten_record(record: dict, dataset: str = "snapshot", row=None) -> list[dict]:
    """The flat unit rows of one nested instance record."""
    instance = _first(record, "instance_id", "id", "_id")
    if instance is None:
        raise SourceError("nested snapshot record has no id, _id or instance_id", dataset=dataset,
                          row=row)
    sides = record.get("translations")
    if sides is None and record.get("translation") is not None:
        sides = {record.get("target_language"): record["translation"]}
    if not isinstance(sides, dict) or not sides:
        raise SourceError(f"instance {instance}: no translations {{language: {{…}}}} or "
                          "target_language + translation", dataset=dataset, column="translations",
                          row=row)
    english = paragraphs(record.get("context"), dataset, row)
    base = {"instance_id": str(instance), "source_id": _text(record.get("source_id"))}
    out = []
    for lang, side in sides.items():
        if not isinstance(side, dict):
            raise SourceError(f"instance {instance}: translation for {lang!r} is not an object",
                              dataset=dataset, column="translations", row=row)
        unit = dict(base, target_language=_text(lang))
        for name in ("question", "answer"):
            out.append(dict(unit, unit=name, paragraph_id=None, source_text=_text(record.get(name)),
                            candidate_text=_text(side.get(name))))
        out += _paragraph_rows(unit, english, paragraphs(side.get("context"), dataset, row),
                               dataset, row)
    return out


def _paragraph_rows(unit: dict, english: list[str], translated: list[str], dataset, row) -> list:
    if len(english) != len(translated):
        raise SourceError(f"instance {unit['instance_id']} ({unit['target_language']}): "
                          f"{len(english)} English paragraphs but {len(translated)} translated",
                          dataset=dataset, column="context", row=row)
    return [dict(unit, unit="paragraph", paragraph_id=str(i), source_text=src, candidate_text=tgt)
            for i, (src, tgt) in enumerate(zip(english, translated))]


def paragraphs(context, dataset: str = "snapshot", row=None) -> list[str]:
    """Each paragraph's text, " ".join(sentences), from either HotpotQA context form."""
    if context is None:
        return []
    if isinstance(context, dict):
        sentences = context.get("sentences")
        if sentences is None:
            raise SourceError("context object has no sentences", dataset=dataset, column="context",
                              row=row)
        return [" ".join(map(str, s)) for s in sentences]
    try:
        return [" ".join(map(str, sentences)) for _title, sentences in context]
    except (TypeError, ValueError) as err:
        raise SourceError(f"context is neither [[title, [sentences]], …] nor "
                          f"{{title, sentences}}: {err}", dataset=dataset, column="context",
                          row=row) from err


def _first(record: dict, *names):
    return next((record[n] for n in names if record.get(n) is not None), None)


def _text(value) -> str | None:
    return None if value is None else str(value)
