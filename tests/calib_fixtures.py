"""Calibration fixtures built in code: a LocalGate-like demo folder and a small manifest for it,
and a small collection of calibration items with the judgements (and judge audit) a test gives."""

import json
from pathlib import Path

import pytest

from judgescope.demo import localgate

MANIFEST = """
[[collection]]
name = "localgate"
title = "LocalGate judge-panel calibration"
datasets = ["localgate_items", "localgate_judgements"]

[[dataset]]
name = "localgate_items"
kind = "calibration_items"
title = "LocalGate calibration items"
path = "demo/localgate_calibration"
config = "calibration_items"
split = "train"

[[dataset]]
name = "localgate_judgements"
kind = "calibration_judgements"
title = "LocalGate calibration judgements"
path = "demo/localgate_calibration"
config = "calibration"
split = "train"
"""


@pytest.fixture(scope="module")
def localgate_manifest(tmp_path_factory) -> Path:
    """The LocalGate demo generated once per module, and its manifest."""
    return write_demo(tmp_path_factory.mktemp("localgate"))


def write_demo(root: Path) -> Path:
    """Generate the LocalGate demo under root/demo and return the manifest beside it."""
    localgate.generate(root / "demo")
    path = root / "sources.toml"
    path.write_text(MANIFEST, encoding="utf-8")
    return path


# Twelve calibration items: humans 1 and 2 say match on each, human 3 on every third only.
ITEMS = [{"key": f"k{i}", "human_1_verdict": "match", "human_2_verdict": "match",
          "human_3_verdict": "no_match" if i % 3 else "match"} for i in range(12)]
KINDS = {"items": "calibration_items", "judg": "calibration_judgements", "audit": "judge_audit"}


@pytest.fixture
def calibration_collection(tmp_path, use_manifest):
    """Collection `c`: ITEMS, the judgements given and, when given, a judge audit, as JSON lines
    (datasets items, judg, audit) beside the manifest JUDGESCOPE_SOURCES names."""
    def write(judgements: list[dict], audit: list[dict] | None = None) -> None:
        tables = {"items": ITEMS, "judg": judgements} | ({} if audit is None else {"audit": audit})
        for name, rows in tables.items():
            (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        use_manifest(f'[[collection]]\nname = "c"\ndatasets = {json.dumps(list(tables))}\n' + "".join(
            f'[[dataset]]\nname = "{n}"\nkind = "{KINDS[n]}"\npath = "{n}.jsonl"\n' for n in tables))
    return write
