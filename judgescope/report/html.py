"""Render a collected Report to one self-contained HTML file (Jinja2, autoescape on, templates
and CSS shipped in judgescope/report/templates/), and read its manifest back."""

from __future__ import annotations

import json
import re
from importlib import resources

import jinja2
import markupsafe

from judgescope.calibration import calibration_findings
from judgescope.report.assemble import Report

SECTIONS = ("audit", "calibration", "ranking", "ratings", "verification", "reviews")
MANIFEST_ID = "judgescope-manifest"
_MANIFEST = re.compile(r'<script type="application/json" id="judgescope-manifest">(.*?)</script>', re.S)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("judgescope.report", "templates"),
                             autoescape=True, finalize=_bounded, undefined=jinja2.StrictUndefined,
                             trim_blocks=False, lstrip_blocks=False, keep_trailing_newline=True)
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": True}
    return env


MAX_TEXT = 2_000


def _bounded(value):
    """Every text a template prints is cut at MAX_TEXT characters (data text can be megabytes);
    markup the templates made themselves (the manifest's tojson) is left whole."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup) and len(value) > MAX_TEXT:
        return value[:MAX_TEXT] + "…"
    return value


def render(report: Report) -> str:
    env = _environment()
    css = resources.files("judgescope.report").joinpath("templates/report.css").read_text("utf-8")
    return env.get_template("report.html.j2").render(
        r=report, s={k: report.sections.get(k) for k in SECTIONS}, css=css, manifest=report.manifest(),
        gate_rule=calibration_findings.GATE_RULE)


def read_manifest(html: str) -> dict:
    """The manifest a report embeds (ValueError when the file holds none)."""
    found = _MANIFEST.search(html)
    if not found:
        raise ValueError("no JudgeScope manifest (script#judgescope-manifest) in this file")
    return json.loads(found.group(1))
