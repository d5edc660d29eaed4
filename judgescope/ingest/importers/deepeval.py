"""DeepEval test runs: `test_run_<timestamp>.json` (DisplayConfig(results_folder=…) or
DEEPEVAL_RESULTS_FOLDER), `.deepeval/.latest_run_full.json` and `.deepeval/.latest_test_run.json`
(the same TestRun inside a `testRunData` wrapper); camelCase, as DeepEval writes them.

Each test case's metricsData[]: the score (0–1, shown ×100) → judge_audit; `success` (the score
against the metric's threshold) → calibration_judgements; a metric with `error` is unscored (the
ledger). The judge is the metric's evaluationModel. A case without a name is DeepEval's
`test_case_<n>`, its position in the run: said so, since another run's test_case_3 may be
another case."""

from __future__ import annotations

import re
from pathlib import Path

from judgescope.ingest.importers.import_rows import (JUDGE_UNKNOWN, UNDETERMINED, VERDICT_BY_BOOL,
                                                      Imported, number, parse_json, sha256_text,
                                                      unknown_fields)
from judgescope.ingest.manifest import SourceError

NAME = "deepeval"
TITLE = "DeepEval test run"
DEFAULT_NAME = re.compile(r"^test_case_\d+$")
KNOWN_RUN = frozenset({"testFile", "testCases", "conversationalTestCases", "metricsScores", "prompts",
                       "hyperparameters", "testPassed", "testFailed", "runDuration", "evaluationCost",
                       "identifier", "official", "traceMetricsScores", "datasetAlias", "datasetId",
                       "metricCollection"})
KNOWN_CASE = frozenset({"name", "input", "actualOutput", "expectedOutput", "context", "retrievalContext",
                        "toolsCalled", "expectedTools", "flaky", "success", "metricsData", "runDuration",
                        "order", "evaluationCost", "comments", "additionalMetadata", "tags",
                        "multimodal", "trace", "datasetAlias", "datasetId", "identifier"})
KNOWN_METRIC = frozenset({"name", "threshold", "success", "score", "reason", "strictMode", "flaky",
                          "evaluationModel", "error", "verboseLogs", "evaluationCost"})
NO_MODEL = "the metric recorded no evaluationModel (a metric that is no LLM judge, or a custom one)"


def sniff(path: Path, head: bytes) -> bool:
    return path.suffix.lower() == ".json" and re.match(
        rb'\{\s*(?:"testRunData"\s*:\s*\{\s*)?"(?:testFile"\s*:\s*(?:null|"[^"]*")\s*,\s*")?testCases"\s*:',
        head) is not None


def load(path: Path) -> Imported:
    doc = parse_json(path.read_bytes(), "the DeepEval test run")
    run = doc.get("testRunData", doc) if isinstance(doc, dict) else None
    if not isinstance(run, dict) or not isinstance(run.get("testCases"), list):
        raise SourceError("not a DeepEval test run: no `testCases` list")
    imp = Imported("DeepEval test run", "deepeval version not recorded in a test run")
    unknown_fields(imp, run, KNOWN_RUN, "testRun")
    if run.get("conversationalTestCases"):
        imp.ignore(f"conversationalTestCases ({len(run['conversationalTestCases'])}: multi-turn cases are not read)")
    unnamed = 0
    for n, case in enumerate(run["testCases"], start=1):
        unnamed += bool(DEFAULT_NAME.match(str(case.get("name") or "")))
        _case(imp, n, case)
    if unnamed:
        imp.notes.append(f"{unnamed} test case(s) carry DeepEval's default name test_case_<n>, their "
                         "position in this run: the same name in another run may be another case")
    return imp


def _case(imp: Imported, n: int, case: dict) -> None:
    unknown_fields(imp, case, KNOWN_CASE, "testCase")
    name = str(case.get("name") or f"test_case_{n - 1}")
    digests = {"source_text_sha256": sha256_text(case.get("input")),
               "candidate_text_sha256": sha256_text(case.get("actualOutput"))}
    for metric in case.get("metricsData") or []:
        unknown_fields(imp, metric, KNOWN_METRIC, "metricsData")
        key = f"{name}/{metric.get('name')}"
        judge = metric.get("evaluationModel") or JUDGE_UNKNOWN
        why = None if metric.get("evaluationModel") else NO_MODEL
        score = number(metric.get("score"))
        if metric.get("error") or score is None:
            reason = "unscored: metric error" if metric.get("error") else "unscored: no score recorded"
            for kind in ("judge_audit", "calibration_judgements"):
                imp.exclude(kind, n, reason, f"{key}: {metric.get('error') or ''}", metric.get("name"))
            continue
        imp.audit({
            "_row": n, "judge_record_id": key, "instance_id": name, "target_language": UNDETERMINED,
            "unit": "test case", "score": score * 100, "score_origin": f"{metric.get('name')} (DeepEval score × 100)",
            "judge_explanation": metric.get("reason"), "requested_judge_model": None if why else judge,
            "judge_unknown_reason": why, "threshold": number(metric.get("threshold")), **digests},
            case.get("input"), case.get("actualOutput"))
        if isinstance(metric.get("success"), bool):
            imp.add("calibration_judgements", {
                "_row": n, "key": key, "question_id": name, "judge": metric.get("name"), "judge_model": judge,
                "verdict": VERDICT_BY_BOOL[metric["success"]], "verdict_binary": int(metric["success"]),
                "reason": metric.get("reason"), "judge_unknown_reason": why,
                "threshold": number(metric.get("threshold")), **digests})
