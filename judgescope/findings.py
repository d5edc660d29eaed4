"""What a finding is: one sentence with its badge, method and rule, pointing at the view that
proves it. Each domain words its own (audit/audit_findings.py, calibration/calibration_findings.py,
ranking/ranking_findings.py); judgescope/headlines.py gathers them. Pure (no streamlit)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

_BIDI = frozenset(("R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"))


def isolated(label) -> str:
    """A data label inside a sentence: isolated (U+2068…U+2069) only when it holds right-to-left
    text or direction controls, so numbers and plain labels carry no invisible character."""
    label = str(label)
    if any(unicodedata.bidirectional(ch) in _BIDI for ch in label):
        return "\u2068" + label + "\u2069"
    return label


@dataclass(frozen=True)
class Finding:
    text: str  # one sentence, plain text (the page shows it literally)
    page: str  # the registry's page stem the link opens
    link: str  # the link's label
    params: dict = field(default_factory=dict)  # URL parameters narrowing that view
    status: str | None = None  # PASS / FAIL (· inconclusive), or ok / problem, or None
    colour: str = "gray"
    method: str = ""  # one line under the sentence: how its numbers are made
    how: str = ""  # the full rule, folded
    note: str = ""  # shown beside the badge: a deviation the release recorded
    stale: str = ""  # shown beside the badge: the judge's calibration is stale for its run
