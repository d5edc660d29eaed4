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
    human verification; every other dataset (ratings, an unusable file, a lone snapshot) alone."""
    taken: set[int] = set()
    groups: list[Group] = []
    for i, lead in enumerate(found):
        if i in taken:
            continue
        taken.add(i)
        members, key = [lead], None
        partner_kind = PARTNERS.get(lead.kind) if not lead.error else None
        options = [j for j, f in enumerate(found) if j not in taken and not f.error
                   and partner_kind and f.kind == partner_kind and _may_pair(lead, f)]
        if lead.kind == "judge_audit":
            options = [j for j in options if _key(lead, found[j])]
        if options:
            # A partner from the same file first (a tool's file gives both), then the closest name.
            j = max(options, key=lambda j: (found[j].where == lead.where,
                                            _prefix(lead.spec.name, found[j].spec.name), -j))
            taken.add(j)
            members.append(found[j])
            key = _key(lead, found[j]) if lead.kind == "judge_audit" else None
        groups.append(Group(lead.spec.name, lead.spec.title, members, key, lead.description))
    # A partner met before its lead (a snapshot listed first) leads a group of its own: fold it
    # into the lead's group when that one has no partner yet.
    return _fold(groups)


def _fold(groups: list[Group]) -> list[Group]:
    out: list[Group] = []
    for g in groups:
        lone = len(g.members) == 1 and not g.members[0].error
        host = next((h for h in out if lone and len(h.members) == 1 and not h.members[0].error
                     and PARTNERS.get(g.members[0].kind) == h.members[0].kind
                     and _may_pair(g.members[0], h.members[0])
                     and (g.members[0].kind != "judge_audit" or _key(g.members[0], h.members[0]))),
                    None)
        if host:  # g leads (an audit), host is its partner (a snapshot) met earlier
            host.members.insert(0, g.members[0])
            host.name, host.title, host.description = g.name, g.title, g.description
            if g.members[0].kind == "judge_audit":
                host.join_key = _key(g.members[0], host.members[1])
        else:
            out.append(g)
    return out


def _may_pair(a: Found, b: Found) -> bool:
    """Datasets from a file an evaluation tool wrote pair only with each other: another file's
    snapshot is not the texts this tool's judge saw."""
    return (not a.tool_file and not b.tool_file) or a.where == b.where


def _key(audit: Found, snapshot: Found) -> list[str]:
    def missing(f):
        return [c for c in INFERRED_KEY if c not in f.columns]
    return infer_key(missing(audit), missing(snapshot))
