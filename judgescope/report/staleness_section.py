"""Stale calibrations in the report (issue 43 item 5): for a collection whose judgements include an
unlabelled run beside the calibration items, each judge's verdict on whether it was run with the
settings it was calibrated with ("calibrated on X; this run was judged by Y"), as bound texts that
check-report recomputes and names in a note when stale."""

from __future__ import annotations

from judgescope.calibration import calibration_findings, staleness
from judgescope.report.ledger import Ledger

F = "judgescope.calibration.staleness.staleness"


def build(run, ledger: Ledger, audit: bool = False) -> dict | None:
    """The section, or None when no judge has unlabelled judgements and the collection holds no
    judge audit (audit: its fingerprint against the calibration's, staleness.audit_staleness)."""
    checked = staleness.staleness(run("calib_judge_fingerprints"))
    if audit:
        checked.append(calibration_findings.audit_check(run))
    if not checked:
        return None
    rows = [{"badge": ledger.text(f"staleness.{i}.badge", "STALE CALIBRATION" if j["stale"] else "AS CALIBRATED", F),
             "sentence": ledger.text(f"staleness.{i}.sentence", j["sentence"], F), "stale": j["stale"]}
            for i, j in enumerate(checked)]
    return {"rows": rows, "stale": [j["sentence"] for j in checked if j["stale"]],
            "rule": ledger.text("staleness.rule", staleness.RULE + ("; " + staleness.AUDIT_RULE if audit else ""), F)}


def notes(section: dict | None) -> list[str]:
    """check-report's note per stale judge."""
    return [f"stale calibration: {s}" for s in (section or {}).get("stale", [])]
