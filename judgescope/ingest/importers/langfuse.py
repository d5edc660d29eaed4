"""Langfuse scores exports: the blob-storage export's `scores/` files (Parquet, CSV, JSON lines)
with the columns Langfuse documents (core; the score_provenance and score_metadata field groups).

NUMERIC scores → judge_audit; BOOLEAN (1/0), and CATEGORICAL values that are a verdict
(match/no_match, yes/no, pass/fail, correct/incorrect, true/false) → calibration_judgements;
source ANNOTATION → human labels (rater: author_user_id) → calibration_items. A score holds no
judge model, so every judge row is "judge unknown" with that reason (the evaluator_id, when
exported, is kept). Source is a hint, not proof: SDK-written judges arrive as API, and so do
SDK-written human labels; API and EVAL scores are read as the judge's, and said so. A score
without a value is unscored. Scores hold no texts (they are in the traces/observations files),
so no text digests."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from judgescope.ingest.importers.import_rows import (JUDGE_UNKNOWN, UNDETERMINED, Imported,
                                                      human_items, is_nan, parse_json)
from judgescope.ingest.manifest import SourceError

NAME = "langfuse"
TITLE = "Langfuse scores export"
REQUIRED = frozenset({"trace_id", "name", "value", "data_type", "source"})
KNOWN = frozenset({"id", "timestamp", "project_id", "environment", "trace_id", "observation_id", "session_id",
                   "dataset_run_id", "name", "value", "source", "comment", "data_type", "string_value",
                   "created_at", "updated_at", "author_user_id", "config_id", "queue_id", "evaluator_id",
                   "evaluation_rule_id", "execution_trace_id", "metadata"})
WORDS = {"match": "match", "no_match": "no_match", "no_answer": "no_answer", "yes": "match", "no": "no_match",
         "pass": "match", "fail": "no_match", "correct": "match", "incorrect": "no_match",
         "true": "match", "false": "no_match"}
NO_MODEL = ("a Langfuse score records no judge model (the evaluator's configuration holds it; "
            "evaluator_id is kept where exported)")


def sniff(path: Path, head: bytes) -> bool:
    return REQUIRED <= set(_names(path, head))


def _names(path: Path, head: bytes) -> list[str]:
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            return list(pq.read_schema(path).names)
        except Exception:  # noqa: BLE001 — not Parquet: the Parquet reader names it
            return []
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace")
    if suffix == ".csv":
        return next(csv.reader(io.StringIO(first)), [])
    if suffix in (".jsonl", ".ndjson", ".json"):
        try:
            obj = json.loads(first)
        except ValueError:
            return []
        return list(obj) if isinstance(obj, dict) else []
    return []


def _rows(path: Path) -> list[dict]:
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    text = path.read_bytes()
    if suffix == ".csv":
        return [{k: (v if v != "" else None) for k, v in r.items()}
                for r in csv.DictReader(io.StringIO(text.decode("utf-8-sig")))]
    return [parse_json(line, f"line {n}") for n, line in enumerate(text.splitlines(), 1) if line.strip()]


def _float(value) -> float | None:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return None if is_nan(out) or out in (float("inf"), float("-inf")) else out


def load(path: Path) -> Imported:
    rows = _rows(path)
    if rows and not REQUIRED <= set(rows[0]):
        raise SourceError(f"not a Langfuse scores export: it lacks {', '.join(sorted(REQUIRED - set(rows[0])))}")
    imp = Imported(f"Langfuse scores export ({path.suffix.lower().lstrip('.')})",
                   "Langfuse blob-storage export (no version recorded)")
    for c in (rows[0] if rows else {}):
        if c not in KNOWN:
            imp.ignore(c)
    labels: dict[str, dict] = {}
    items: dict[str, dict] = {}
    api = 0
    for n, r in enumerate(rows, start=1):
        api += r.get("source") == "API"
        _score(imp, n, r, labels, items)
    human_items(imp, labels, items)
    if api:
        imp.notes.append(f"{api} score(s) from source API read as the judge's: SDK-written judges "
                         "arrive as API, and so do SDK-written human labels (source is a hint, not proof)")
    return imp


def _verdict(r: dict) -> str | None:
    if r.get("data_type") == "BOOLEAN":
        value = _float(r.get("value"))
        return None if value is None else ("match" if value == 1 else "no_match")
    return WORDS.get(str(r.get("string_value") or "").strip().lower())


def _score(imp: Imported, n: int, r: dict, labels: dict, items: dict) -> None:
    name, dtype, source = r.get("name"), r.get("data_type"), r.get("source")
    item = f"{r.get('trace_id')}/{r.get('observation_id') or '-'}/{name}"
    if source == "ANNOTATION":
        verdict = _verdict(r)
        if verdict is None:
            imp.ignore(f"annotations that are no verdict ({name}, {dtype})")
            return
        labels.setdefault(item, {})[r.get("author_user_id") or f"annotator {r.get('id')}"] = (n, verdict)
        items.setdefault(item, {"question_id": r.get("trace_id"), "category": name, "split": r.get("dataset_run_id")})
        return
    base = {"requested_judge_model": None, "judge_unknown_reason": NO_MODEL, "evaluator_id": r.get("evaluator_id"),
            "score_source": source}
    if dtype == "NUMERIC":
        value = _float(r.get("value"))
        if value is None:
            imp.exclude("judge_audit", n, "unscored: no value", item, "value")
            return
        imp.add("judge_audit", {
            "_row": n, "judge_record_id": r.get("id") or item, "instance_id": r.get("trace_id"),
            "paragraph_id": r.get("observation_id"), "target_language": UNDETERMINED, "unit": "trace",
            "score": value, "score_origin": name, "judge_explanation": r.get("comment"),
            "run_group": r.get("dataset_run_id"), **base})
        return
    verdict = _verdict(r)
    if verdict is None:
        imp.exclude("calibration_judgements", n, f"unscored: {dtype} score without a verdict value", item, "value")
        return
    imp.add("calibration_judgements", {
        "_row": n, "key": item, "question_id": r.get("trace_id"), "judge": name, "judge_model": JUDGE_UNKNOWN,
        "verdict": verdict, "verdict_binary": int(verdict == "match"), "reason": r.get("comment"), **base})
