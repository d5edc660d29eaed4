"""promptfoo results: `promptfoo eval -o results.json` (an object with evalId and a `results`
object holding `version` 3 and the list of results) and `-o results.jsonl` (one result a line).
Source: promptfoo's own output (tests/fixtures/importers/make_promptfoo.py) and its
EvaluateResult/GradingResult types.

Each model-graded assertion of a result (gradingResult.componentResults[], llm-rubric, g-eval, …)
gives a score (0–1, shown ×100) → judge_audit and a pass → calibration_judgements; a component
with metadata.graderError goes to the ledger as unscored. The grader is the assertion's
`provider`, else the test's options.provider, else defaultTest.options.provider; when none is
recorded it is unknown (promptfoo's default grader depends on which API keys were set)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from judgescope.ingest.importers.import_rows import (JUDGE_UNKNOWN, UNDETERMINED, VERDICT_BY_BOOL,
                                                      Imported, human_items, number, parse_json,
                                                      sha256_text, unknown_fields)
from judgescope.ingest.manifest import SourceError

NAME = "promptfoo"
TITLE = "promptfoo results"
MODEL_GRADED = frozenset({"llm-rubric", "g-eval", "model-graded-closedqa", "model-graded-factuality",
                          "factuality", "answer-relevance", "context-faithfulness", "context-recall",
                          "context-relevance", "conversation-relevance", "select-best", "search-rubric",
                          "trajectory:goal-success"})
UNKNOWN_JUDGE = ("no grader recorded (no assertion provider, test options.provider or "
                 "defaultTest.options.provider): promptfoo's default grader depends on which API "
                 "keys were set when it ran")
KNOWN_TOP = frozenset({"evalId", "results", "config", "shareableUrl", "metadata", "vars", "runtimeOptions"})
KNOWN_RESULT = frozenset({"cost", "gradingResult", "id", "latencyMs", "namedScores", "prompt", "promptId",
                          "promptIdx", "provider", "response", "score", "success", "testCase", "testIdx",
                          "tokenUsage", "vars", "metadata", "failureReason", "error", "description"})


def sniff(path: Path, head: bytes) -> bool:
    suffix = path.suffix.lower()
    if suffix == ".json":
        return re.match(rb'\{\s*"evalId"\s*:', head) is not None
    if suffix in (".jsonl", ".ndjson"):
        first = head.split(b"\n", 1)[0]
        return b'"testIdx"' in first and b'"gradingResult"' in first and b'"promptIdx"' in first
    return False


def load(path: Path) -> Imported:
    if path.suffix.lower() == ".json":
        doc = parse_json(path.read_bytes(), "the promptfoo results")
        if not isinstance(doc, dict) or not isinstance(doc.get("results"), dict):
            raise SourceError("not a promptfoo results file: no `results` object")
        results, meta = doc["results"].get("results") or [], doc.get("metadata") or {}
        default = ((doc.get("config") or {}).get("defaultTest") or {})
        imp = Imported("promptfoo results (.json)", f"promptfoo {meta.get('promptfooVersion', '?')}, "
                       f"results format {doc['results'].get('version', '?')}")
        unknown_fields(imp, doc, KNOWN_TOP, "")
        eval_id = doc.get("evalId")
    else:
        results = [parse_json(line, f"line {n}") for n, line in enumerate(path.read_bytes().splitlines(), 1)
                   if line.strip()]
        default, eval_id = {}, None
        imp = Imported("promptfoo results (.jsonl)", "promptfoo version not recorded in JSON lines")
    labels: dict[str, dict] = {}
    items: dict[str, dict] = {}
    for n, result in enumerate(results, start=1):
        _result(imp, n, result, default if isinstance(default, dict) else {}, eval_id, labels, items)
    human_items(imp, labels, items)
    return imp


def _provider_name(provider) -> str | None:
    if isinstance(provider, str):
        return provider
    if isinstance(provider, dict):
        return provider.get("id") or provider.get("providerId") or provider.get("label") or None
    return None


def _judge(component: dict, result: dict, default: dict) -> tuple[str, str | None]:
    for provider in ((component.get("assertion") or {}).get("provider"),
                     ((result.get("testCase") or {}).get("options") or {}).get("provider"),
                     (default.get("options") or {}).get("provider")):
        name = _provider_name(provider)
        if name:
            return name, None
    return JUDGE_UNKNOWN, UNKNOWN_JUDGE


def _text(value):
    return value if isinstance(value, str) or value is None else json.dumps(value, ensure_ascii=False)


def _result(imp: Imported, n: int, result: dict, default: dict, eval_id, labels: dict, items: dict) -> None:
    unknown_fields(imp, result, KNOWN_RESULT, "result")
    test, prompt_idx = result.get("testIdx"), result.get("promptIdx")
    variables = result.get("vars") or {}
    system = _provider_name(result.get("provider"))
    item = f"{test}-{sha256_text(json.dumps(variables, sort_keys=True))[:8]}-p{prompt_idx}-{system}"
    source, output = _text((result.get("prompt") or {}).get("raw")), _text((result.get("response") or {}).get("output"))
    components = ((result.get("gradingResult") or {}).get("componentResults")) or []
    if not result.get("gradingResult"):
        for kind in ("judge_audit", "calibration_judgements"):
            imp.exclude(kind, n, "not graded: " + ("provider error" if result.get("error") else "no gradingResult"),
                        f"{item}: {str(result.get('error') or '')[:200]}", "gradingResult")
        return
    graded = [(c, comp) for c, comp in enumerate(components) if _type(comp) in MODEL_GRADED]
    for c, comp in enumerate(components):
        if _type(comp) == "human" and comp.get("pass") is not None:
            rater = (comp.get("metadata") or {}).get("author") or f"human {c + 1}"
            labels.setdefault(item, {})[rater] = (n, VERDICT_BY_BOOL[bool(comp["pass"])])
        elif _type(comp) not in MODEL_GRADED:
            imp.ignore(f"assertions that are no judge ({_type(comp)})")
    base = {"source_text_sha256": sha256_text(source), "candidate_text_sha256": sha256_text(output)}
    language = variables.get("language") if isinstance(variables.get("language"), str) else UNDETERMINED
    for c, comp in graded:
        key = item if len(graded) == 1 else f"{item}-a{c}"
        judge, why = _judge(comp, result, default)
        if (comp.get("metadata") or {}).get("graderError"):
            for kind in ("judge_audit", "calibration_judgements"):
                imp.exclude(kind, n, "unscored: grader error", f"{key}: {comp.get('reason')}", _type(comp))
            continue
        prompt = sha256_text((comp.get("metadata") or {}).get("renderedGradingPrompt"))
        score = number(comp.get("score"))
        imp.audit({
            "_row": n, "judge_record_id": f"{eval_id or 'promptfoo'}/{key}", "instance_id": item,
            "target_language": language, "unit": "test", "score": None if score is None else score * 100,
            "score_origin": f"{_type(comp)} (promptfoo score × 100)", "judge_explanation": comp.get("reason"),
            "requested_judge_model": None if judge == JUDGE_UNKNOWN else judge, "judge_unknown_reason": why,
            "judge_prompt_sha256": prompt, "run_group": eval_id, "system": system, **base}, source, output)
        if isinstance(comp.get("pass"), bool):
            verdict = VERDICT_BY_BOOL[comp["pass"]]
            imp.add("calibration_judgements", {
                "_row": n, "key": key, "question_id": str(test), "rep": prompt_idx, "judge": _type(comp),
                "judge_model": judge, "verdict": verdict, "verdict_binary": int(comp["pass"]),
                "reason": comp.get("reason"), "judge_unknown_reason": why, "judge_prompt_sha256": prompt, **base})
        items.setdefault(item, {"question_id": str(test), "rep": prompt_idx, "question": source,
                                "model_response": output, "category": language})


def _type(component: dict) -> str:
    kind = str((component.get("assertion") or {}).get("type") or "")
    return kind.removeprefix("not-")
