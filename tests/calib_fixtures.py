"""Calibration fixtures built in code: a LocalGate-like demo folder and a small manifest for it."""

from pathlib import Path

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


def write_demo(root: Path) -> Path:
    """Generate the LocalGate demo under root/demo and return the manifest beside it."""
    localgate.generate(root / "demo")
    path = root / "sources.toml"
    path.write_text(MANIFEST, encoding="utf-8")
    return path
