"""The collection's headline findings, Overview's first lines: each domain's own findings
(audit, integrity, calibration, ranking, human ratings), gathered from the collection's store,
with the named queries they read; and the headline numbers each domain declares, gathered for
"how" under a number and `judgescope explain NUMBER`. Pure (no streamlit)."""

from __future__ import annotations

from judgescope.audit import audit_findings, interval_tables
from judgescope.calibration import calibration_findings
from judgescope.findings import Finding
from judgescope.integrity import hashes
from judgescope.numbers import Number
from judgescope.ranking import ranking_findings

NUMBERS: tuple[Number, ...] = (*audit_findings.NUMBERS, *hashes.NUMBERS, *calibration_findings.NUMBERS,
                               *ranking_findings.NUMBERS)


def number(name: str) -> Number:
    for n in NUMBERS:
        if n.name == name:
            return n
    raise KeyError(name)


def names() -> list[str]:
    return [n.name for n in NUMBERS]


def collect(catalog, collection: str) -> tuple[list[Finding], list[str]]:
    """(findings, the named queries they read, in order) for one collection of `catalog`."""
    have = catalog.roles(collection)
    used: list[str] = []

    def run(query, **params):  # records what the findings read, for "How is this computed"
        used.append(query)
        return catalog.store(collection).run(query, **params)
    out = []
    if "audit" in have:
        summary, origin, problems = hashes.verification(catalog, collection)
        if summary is not None:
            used.append("verify_summary")
        badge = hashes.status(summary, origin, problems) if "snapshot" in have else None
        stored = catalog.store(collection).has(interval_tables.VIEW)
        out += audit_findings.collect(run, have["audit"].report or {}, badge, stored)
    if "items" in have and "judgements" in have:
        out += calibration_findings.collect_panel(
            run, catalog.manifest.collections[collection].deviations, audit="audit" in have)
    if "ranking" in have:
        out += ranking_findings.collect(run, have["ranking"].spec.name)
    if "ratings" in have:
        out += calibration_findings.collect_ratings(run, set(have["ratings"].report["columns_missing"]))
    return out, list(dict.fromkeys(used))
