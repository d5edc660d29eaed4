"""Collect a collection's report: findings, sections per kind, "not measured, and why",
provenance and the manifest of every number shown. Pure: it takes a Catalog and returns data;
html.py renders it."""

from __future__ import annotations

import datetime
import subprocess
from dataclasses import dataclass, field

from judgescope import __version__
from judgescope import resources
from judgescope import format as fmt
from judgescope import schema, stats
from judgescope.audit import interval_tables
from judgescope.audit import summary as audit_summary
from judgescope.report import (audit_section, blind_section, calibration_section, drift_section, ranking_section,
                               ratings_section, reviews_section, staleness_section)
from judgescope.report.ledger import Ledger

MANIFEST_VERSION = 1


@dataclass
class Report:
    collection: str
    title: str
    description: str
    seed: int
    resamples: int
    generated_at: str
    app: dict
    sections: dict = field(default_factory=dict)
    not_measured: list[str] = field(default_factory=list)
    datasets: list[dict] = field(default_factory=list)
    excluded: list[dict] = field(default_factory=list)
    deviations: dict = field(default_factory=dict)
    synthetic: bool = False
    ledger: Ledger = field(default_factory=Ledger)
    shown: dict = field(default_factory=dict)  # the header's and findings' computed texts, bound

    def methods(self) -> list[dict]:
        """Each method the report's numbers use, stated once (the sections reference them)."""
        return [m for k in ("calibration", "audit", "ranking", "ratings")
                for m in (self.sections.get(k) or {}).get("methods", [])]

    def manifest(self) -> dict:
        """The machine-readable manifest embedded in the file (check-report reads it back)."""
        return {"judgescope_report": MANIFEST_VERSION, "collection": self.collection,
                "generated_at": self.generated_at, "app": self.app,
                "seed": self.seed, "resamples": self.resamples, "deviations": self.deviations,
                "datasets": self.datasets, "not_measured": self.not_measured,
                "numbers": list(self.ledger.numbers.values())}


def now() -> str:
    """The generation time: now, UTC, to the second (ISO 8601)."""
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def app_version() -> dict:
    """The package version and the git commit of the code that made the report (when known)."""
    checkout = resources.checkout()  # an installed package knows its version, not a commit
    if checkout is None:
        return {"version": __version__, "commit": None}
    try:
        commit = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=False).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        commit = None
    return {"version": __version__, "commit": commit}


def collect(catalog, collection: str, *, generated_at: str, seed: int = stats.DEFAULT_SEED,
            resamples: int = audit_summary.DEFAULT_RESAMPLES, app: dict | None = None) -> Report:
    coll = catalog.manifest.collections[collection]
    loaded = catalog.collection_datasets(collection)
    rep = Report(collection, coll.title, coll.description, seed, resamples, generated_at,
                 app or app_version(), deviations=dict(getattr(coll, "deviations", {}) or {}),
                 synthetic=any(d.spec.synthetic for d in loaded))
    fn = "judgescope.ingest.manifest (the collection's title and description)"
    rep.shown = {"title": rep.ledger.text("collection.title", coll.title, fn),
                 "description": rep.ledger.text("collection.description", coll.description or "", fn)}
    rep.datasets = [_provenance(rep.ledger, d) for d in loaded]
    for notice in catalog.notices(collection):
        rep.not_measured.append(notice)
    roles = catalog.roles(collection)
    if not roles:
        rep.not_measured.append("Every statistic: no dataset of this collection could be loaded.")
        return rep
    run = catalog.store(collection).run
    rep.excluded = _excluded(run, rep.ledger)
    rep.shown["rows_badge"] = rep.ledger.text("findings.rows_badge", "EXCLUDED" if rep.excluded else "ALL ROWS USED",
                                              "judgescope.report.assemble._excluded")
    if "audit" in roles:
        a = roles["audit"]
        snapshot = None
        if "snapshot" in roles:
            snapshot = {"origin": roles["snapshot"].spec.origin.removeprefix("local: "),
                        "problems": catalog.verify_problems(collection)}
        previous = schema._PAIRS.get()
        # Labels name the direction ("Mandarin Chinese → English (zh-en)") as the pages do.
        pairs = run("audit_language_pairs")
        schema.use_language_pairs(schema.language_pairs(zip(pairs.target_language, pairs.source_language)))
        try:
            section, missing = audit_section.build(
                run, rep.ledger, name=a.spec.name, seed=seed, resamples=resamples,
                explanations="judge_explanation" not in a.report["columns_missing"], snapshot=snapshot,
                systems="system" not in a.report["columns_missing"],
                stored=catalog.store(collection).has(interval_tables.VIEW))
        finally:
            schema._PAIRS.set(previous)
        rep.sections["audit"] = section
        rep.not_measured += missing
        if "audit_previous" not in roles:
            rep.not_measured.append("Version comparison (paired and unpaired differences): the "
                                    "collection names no earlier audit (`previous`).")
        else:
            section, missing = drift_section.build(run, rep.ledger, seed, resamples)
            rep.sections["drift"] = section
            rep.not_measured += missing
        section, missing = reviews_section.build(rep.ledger, a.spec.name)
        if section:
            rep.sections["reviews"] = section
        rep.not_measured += missing
        blind = blind_section.build(run, rep.ledger, a.spec.name)  # only when blind labels exist
        if blind:
            rep.sections["blind"] = blind
    if "items" in roles and "judgements" in roles:
        section, missing = calibration_section.build(run, rep.ledger, rep.deviations)
        if section:
            rep.sections["calibration"] = section
        rep.not_measured += missing
        stale = staleness_section.build(run, rep.ledger, audit="audit" in roles)
        if stale:
            rep.sections["staleness"] = stale
    elif "items" in roles or "judgements" in roles:
        rep.not_measured.append("Judge calibration: it needs both calibration items and judgements.")
    if "ranking" in roles:
        section, missing = ranking_section.build(run, rep.ledger, roles["ranking"].spec.name)
        rep.sections["ranking"] = section
        rep.not_measured += missing
    if "ratings" in roles:
        section, missing = ratings_section.build(run, rep.ledger, roles["ratings"].report["columns_missing"], seed)
        rep.sections["ratings"] = section
        rep.not_measured += missing
    if "verification" in roles:
        d = roles["verification"]
        rep.sections["verification"] = {"name": d.spec.name, "rows": fmt.count(d.report["rows_used"])}
    return rep


def _provenance(ledger: Ledger, d) -> dict:
    s = d.spec
    out = {"name": s.name, "kind": s.kind, "title": s.title, "synthetic": bool(s.synthetic),
           "hub": s.hub, "revision": s.revision, "path": s.path, "config": s.config,
           "split": s.split, "ok": d.ok, "error": d.error, "files": []}
    if not d.ok:
        return out
    r = d.report
    for col in ("rows_loaded", "rows_used", "rows_excluded"):
        out[col] = ledger.add(f"dataset.{s.name}.{col}", r[col], fmt.count(r[col]), query=None,
                              function="judgescope.ingest.validate (the dataset's report.json)")
    out["files"] = [{"file": f["file"], "sha256": f["sha256"], "size": f["size"],
                     "recorded": bool(f.get("recorded"))} for f in r["files"]]
    return out


def _excluded(run, ledger: Ledger) -> list[dict]:
    rows = run("ledger_summary")
    out = []
    for i, r in enumerate(rows.itertuples(index=False)):
        if i >= 50:
            break
        out.append({"dataset": str(r.dataset), "reason": calibration_section.short(r.reason, 300),
                    "rows": ledger.add(f"excluded.{r.dataset}.{i}", int(r.rows), fmt.count(r.rows),
                                       query="ledger_summary", function="judgescope.report.assemble._excluded")})
    return out
