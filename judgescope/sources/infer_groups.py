"""Collections of the datasets infer.py found, by role: an audit with the snapshot that joins
it (the audit–snapshot join key inferred, join_key.py), calibration items with their judgements,
a ranking with its human verification. No streamlit."""

from __future__ import annotations

import os
from dataclasses import dataclass

from judgescope.ingest.join_key import INFERRED_KEY, infer_key
from judgescope.sources.infer import PARTNERS, Found


@dataclass
class Group:
    name: str
    title: str
    members: list[Found]
    join_key: list[str] | None = None
    description: str = ""


def _prefix(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


def group(found: list[Found]) -> list[Group]:
    """Collections by role: an audit with the snapshot that joins it (the key columns both have,
    the closest file name first), calibration items with their judgements, a ranking with its
    human verification; every other dataset (ratings, an unusable file, a lone snapshot) alone.

    Pairs are chosen over all the datasets at once, the best-matched pair first: a partner from
    the same file (a tool's file gives both), then the longest common name. So a snapshot goes
    to its namesake audit wherever the two are listed, not to whichever audit came first."""
    pairs = sorted(((i, j) for i, lead in enumerate(found) for j, f in enumerate(found)
                    if _can_pair(lead, f)),
                   key=lambda ij: (-(found[ij[0]].where == found[ij[1]].where),
                                   -_prefix(found[ij[0]].spec.name, found[ij[1]].spec.name),
                                   ij[0], ij[1]))
    partner: dict[int, int] = {}
    taken: set[int] = set()
    for i, j in pairs:
        if i not in taken and j not in taken:
            partner[i] = j
            taken.update((i, j))
    groups: list[tuple[int, Group]] = []
    for i, lead in enumerate(found):
        if i in taken and i not in partner:
            continue  # a partner: it is in its lead's collection
        members, key = [lead], None
        if i in partner:
            members.append(found[partner[i]])
            key = _key(lead, found[partner[i]]) if lead.kind == "judge_audit" else None
        # A collection stands where the first of its datasets was listed.
        groups.append((min(i, partner.get(i, i)),
                       Group(lead.spec.name, lead.spec.title, members, key, lead.description)))
    return [g for _, g in sorted(groups, key=lambda pg: pg[0])]


def _can_pair(lead: Found, f: Found) -> bool:
    if lead.error or f.error or PARTNERS.get(lead.kind) != f.kind or not _may_pair(lead, f):
        return False
    return lead.kind != "judge_audit" or bool(_key(lead, f))


def _may_pair(a: Found, b: Found) -> bool:
    """Datasets from a file an evaluation tool wrote pair only with each other: another file's
    snapshot is not the texts this tool's judge saw."""
    return (not a.tool_file and not b.tool_file) or a.where == b.where


def _key(audit: Found, snapshot: Found) -> list[str]:
    def missing(f):
        return [c for c in INFERRED_KEY if c not in f.columns]
    return infer_key(missing(audit), missing(snapshot))
