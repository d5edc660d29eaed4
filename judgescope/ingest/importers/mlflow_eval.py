"""MLflow evaluation tables: 2.x `eval_results_table.json` (pandas "split" JSON: columns and data,
a metric's `<name>/score` or `<name>/v1/score` and `/justification`), and mlflow 3's
`mlflow.genai.evaluate` result_df or `mlflow.search_traces` saved as JSON records or Parquet,
each row a trace with its `assessments`.

2.x: each score → judge_audit; the table records no judge model (the metric's definition holds
it), so every row is "judge unknown" with that reason; a missing score is unscored. 3.x: feedback
from source LLM_JUDGE → calibration_judgements (yes/no, a bool) or judge_audit (a number), the
judge being source.source_id; a feedback with an error is unscored; HUMAN feedback of the same
name is a human label (→ calibration_items). Items are keyed by a hash of the request text, since
trace ids change with every run."""

from __future__ import annotations

import json
import re
from pathlib import Path

from judgescope.ingest.importers.import_rows import (JUDGE_UNKNOWN, UNDETERMINED, Imported,
                                                      human_items, is_nan, number, parse_json,
                                                      sha256_text, unknown_fields)
from judgescope.ingest.manifest import SourceError

NAME = "mlflow"
TITLE = "MLflow evaluation table"
SCORE_COLUMN = re.compile(r"^(.+?)(/v\d+)?/score$")
VERDICTS = {"yes": "match", "no": "no_match", True: "match", False: "no_match"}
NO_JUDGE_2X = ("eval_results_table.json records no judge model (it is part of the metric's "
               "definition, not of the table)")
KNOWN_ASSESSMENT = frozenset({"assessment_id", "assessment_name", "trace_id", "run_id", "span_id", "source",
                              "create_time", "last_update_time", "feedback", "expectation", "rationale",
                              "metadata", "error", "overrides", "valid"})


def sniff(path: Path, head: bytes) -> bool:
    suffix = path.suffix.lower()
    if suffix == ".json":
        return (re.match(rb'\{\s*"columns"\s*:\s*\[', head) is not None and b'/score"' in head) or \
            (re.match(rb'\[\s*\{\s*"trace_id"\s*:', head) is not None and b'"assessments"' in head)
    if suffix == ".parquet":
        return {"trace_id", "assessments"} <= set(_parquet_names(path))
    return False


def _parquet_names(path: Path) -> list[str]:
    import pyarrow.parquet as pq

    try:
        return list(pq.read_schema(path).names)
    except Exception:  # noqa: BLE001 — not Parquet: the Parquet reader names it
        return []


def load(path: Path) -> Imported:
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        return _traces(pq.read_table(path).to_pylist(), "MLflow traces (.parquet)")
    doc = parse_json(path.read_bytes(), "the MLflow table")
    if isinstance(doc, dict) and isinstance(doc.get("columns"), list):
        return _table(doc)
    if isinstance(doc, list):
        return _traces(doc, "MLflow traces (.json)")
    raise SourceError("neither an eval_results_table.json (columns, data) nor a list of traces")


def _table(doc: dict) -> Imported:
    imp = Imported("MLflow eval_results_table.json", "mlflow 2.x evaluate table (no version recorded)")
    columns = [str(c) for c in doc["columns"]]
    metrics = {m.group(1): c for c in columns if (m := SCORE_COLUMN.match(c))}
    text_in = next((c for c in ("inputs", "input", "question", "request") if c in columns), None)
    text_out = next((c for c in ("predictions", "outputs", "output", "response") if c in columns), None)
    used = {text_in, text_out, *metrics.values(), *(c.replace("/score", "/justification") for c in metrics.values())}
    for c in columns:
        if c not in used:
            imp.ignore(c)
    for n, values in enumerate(doc.get("data") or [], start=1):
        row = dict(zip(columns, values))
        request, output = row.get(text_in), row.get(text_out)
        digest = sha256_text(_text(request))
        for metric, col in metrics.items():
            key = f"{metric}:{(digest or '')[:12]}"
            score = number(row.get(col))
            if score is None:
                imp.exclude("judge_audit", n, "unscored: the metric gave no score", f"{key}: {row.get(col)!r}", col)
                continue
            imp.audit({
                "_row": n, "judge_record_id": key, "instance_id": (digest or "")[:12],
                "target_language": UNDETERMINED, "unit": "row", "score": score, "score_origin": metric,
                "judge_explanation": row.get(col.replace("/score", "/justification")),
                "requested_judge_model": None, "judge_unknown_reason": NO_JUDGE_2X,
                "source_text_sha256": digest, "candidate_text_sha256": sha256_text(_text(output))},
                _text(request), _text(output))
    return imp


def _text(value):
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _assessments(value) -> list:
    if isinstance(value, str):
        value = json.loads(value)
    return list(value) if value is not None else []


def _traces(rows: list, title: str) -> Imported:
    schema = (rows[0].get("trace_metadata") or {}).get("mlflow.trace_schema.version", "?") if rows else "?"
    imp = Imported(title, f"mlflow 3 traces (trace schema {schema})")
    labels: dict[str, dict] = {}
    items: dict[str, dict] = {}
    for n, row in enumerate(rows, start=1):
        request, response = _text(row.get("request")), _text(row.get("response"))
        digests = {"source_text_sha256": sha256_text(request), "candidate_text_sha256": sha256_text(response)}
        for a in _assessments(row.get("assessments")):
            unknown_fields(imp, a, KNOWN_ASSESSMENT, "assessment")
            _assessment(imp, n, a, digests, labels, items, request, response)
    human_items(imp, labels, items)
    return imp


def _assessment(imp, n, a, digests, labels, items, request, response) -> None:
    name, source = a.get("assessment_name"), a.get("source") or {}
    feedback = a.get("feedback")
    if feedback is None or a.get("valid") is False:
        if a.get("expectation") is not None:
            imp.ignore("expectations (ground truth, not a verdict)")
        return
    key = f"{name}:{(digests['source_text_sha256'] or '')[:12]}"
    value, kind = feedback.get("value"), source.get("source_type")
    if kind == "HUMAN":
        if value in VERDICTS:
            labels.setdefault(key, {})[source.get("source_id") or "human"] = (n, VERDICTS[value])
            items.setdefault(key, {"question": request, "model_response": response, "category": name})
        return
    if feedback.get("error") or a.get("error") or value is None or is_nan(value):
        error = feedback.get("error") or a.get("error") or {}
        target = "judge_audit" if number(value) is not None else "calibration_judgements"
        imp.exclude(target, n, f"unscored: {error.get('error_code') or 'no value'}",
                    f"{key}: {error.get('error_message') or ''}", name)
        return
    if kind != "LLM_JUDGE":
        imp.ignore(f"feedback from source {kind} (no LLM judge)")
        return
    judge = source.get("source_id") or JUDGE_UNKNOWN
    why = None if source.get("source_id") else "the LLM_JUDGE feedback names no source_id"
    if value in VERDICTS:
        imp.add("calibration_judgements", {
            "_row": n, "key": key, "judge": name, "judge_model": judge, "verdict": VERDICTS[value],
            "verdict_binary": int(VERDICTS[value] == "match"), "reason": a.get("rationale"),
            "judge_unknown_reason": why, **digests})
    elif number(value) is not None:
        imp.audit({
            "_row": n, "judge_record_id": key, "instance_id": key.split(":", 1)[1],
            "target_language": UNDETERMINED, "unit": "trace", "score": number(value), "score_origin": name,
            "judge_explanation": a.get("rationale"), "requested_judge_model": None if why else judge,
            "judge_unknown_reason": why, **digests}, request, response)
    else:
        imp.exclude("calibration_judgements", n,
                    f"feedback value {str(value)[:20]!r} is neither yes/no, a bool nor a number", key, name)
