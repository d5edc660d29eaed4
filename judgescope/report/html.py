"""Render a collected Report to one self-contained HTML file (Jinja2, autoescape on, templates
and CSS shipped in judgescope/report/templates/), and read its manifest back."""

from __future__ import annotations

import json
import re
from importlib import resources

import jinja2
import markupsafe

from judgescope.report import visible
from judgescope.report.assemble import Report
from judgescope.report.ledger import Shown

SECTIONS = ("audit", "calibration", "ranking", "ratings", "verification", "reviews", "drift", "staleness", "blind")
MANIFEST_ID = "judgescope-manifest"
_MANIFEST = re.compile(r'<script type="application/json" id="judgescope-manifest">(.*?)</script>', re.S)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("judgescope.report", "templates"),
                             autoescape=True, finalize=_bounded, undefined=jinja2.StrictUndefined,
                             trim_blocks=False, lstrip_blocks=False, keep_trailing_newline=True)
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": True}
    env.filters["svg"] = _svg
    env.filters["m"] = _manifest_bound
    return env


def _svg(value):
    """A shown entry inside SVG text: a <tspan> (an HTML <span> would end the SVG)."""
    return value.element("tspan") if isinstance(value, Shown) else value


def _manifest_bound(value, path: str, tag: str = "span"):
    """A manifest field shown as it is (`data-m` = its path; check-report compares the two)."""
    return markupsafe.Markup('<{0} data-m="{1}">{2}</{0}>').format(markupsafe.Markup(tag), path,
                                                                   visible.manifest_text(value))


MAX_TEXT = 2_000


def _bounded(value):
    """Every text a template prints is cut at MAX_TEXT characters (data text can be megabytes);
    markup the templates made themselves (the manifest's tojson) is left whole."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup) and len(value) > MAX_TEXT:
        return value[:MAX_TEXT] + "…"
    return value


def render(report: Report) -> str:
    """The report's HTML. Rendered twice: the manifest records how many elements show each
    entry (check-report finds a bound element removed or added), counted on the first pass."""
    env = _environment()
    css = resources.files("judgescope.report").joinpath("templates/report.css").read_text("utf-8")
    template = env.get_template("report.html.j2")
    manifest = report.manifest()

    def once() -> str:
        return template.render(r=report, s={k: report.sections.get(k) for k in SECTIONS}, css=css,
                               manifest=manifest)

    counts = visible.element_counts(once())
    for entry in manifest["numbers"]:
        entry["elements"] = counts.get(entry["id"], 0)
    return once()


def read_manifest(html: str) -> dict:
    """The manifest a report embeds (ValueError when the file holds none)."""
    found = _MANIFEST.search(html)
    if not found:
        raise ValueError("no JudgeScope manifest (script#judgescope-manifest) in this file")
    try:
        return json.loads(found.group(1))
    except RecursionError:
        raise ValueError("its manifest nests deeper than any report's") from None
