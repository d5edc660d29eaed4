"""What a headline number is: its name, title, page, the Python functions that make it
(outermost first, as dotted paths) and the named queries whose rows they take. Each domain
declares its own numbers as data (audit/audit_findings.py, integrity/hashes.py,
calibration/calibration_findings.py, ranking/ranking_findings.py); judgescope/headlines.py
gathers them for "how" under a number on its page and `judgescope explain NUMBER`; tests check
every function and query exists. Pure (no streamlit)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Number:
    name: str
    title: str
    page: str  # the page that shows it: its stem in the page registry (judgescope/navigation.py)
    functions: tuple[str, ...]  # dotted paths, outermost first
    queries: tuple[str, ...]  # queries/<name>.sql
