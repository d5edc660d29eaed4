"""Small calibration tables built in code (items with three human verdicts, judges' verdicts), written
as JSONL with a manifest beside them, for the CLI and the report (issue 39 items 2 and 6)."""

import json
from pathlib import Path

MANIFEST = """
[[collection]]
name = "tiny"
title = "A small calibration table"
datasets = ["tiny_items", "tiny_judgements"]

[[dataset]]
name = "tiny_items"
kind = "calibration_items"
path = "items.jsonl"

[[dataset]]
name = "tiny_judgements"
kind = "calibration_judgements"
path = "judgements.jsonl"
"""


def write_table(folder: Path, humans: list, judges: dict) -> Path:
    """humans: per item a triple of verdicts (None = missing); judges: name → per-item verdicts
    (None = no judgement). Returns the manifest's path."""
    folder.mkdir(parents=True, exist_ok=True)
    items = [{"key": f"k{i}", "question_id": f"q{i}", "question": f"question {i}",
              "reference_answer": "a", "model_response": "b",
              **{f"human_{h + 1}_verdict": v for h, v in enumerate(triple)}}
             for i, triple in enumerate(humans)]
    judgements = [{"key": f"k{i}", "question_id": f"q{i}", "judge_model": name, "verdict": v,
                   "reason": "r"}
                  for name, verdicts in judges.items() for i, v in enumerate(verdicts) if v is not None]
    (folder / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in items), encoding="utf-8")
    (folder / "judgements.jsonl").write_text("".join(json.dumps(r) + "\n" for r in judgements),
                                             encoding="utf-8")
    (folder / "sources.toml").write_text(MANIFEST, encoding="utf-8")
    return folder / "sources.toml"
