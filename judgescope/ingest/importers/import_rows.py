"""What every importer shares: the rows it maps a tool's file onto (one list per existing kind),
the ledger entries of rows it cannot use (unscored samples, grader errors), the judge's identity
and the fields it ignored. An importer never guesses: a judge it cannot name is JUDGE_UNKNOWN
with the reason, a sample without a language is UNDETERMINED."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field

JUDGE_UNKNOWN = "judge unknown"
UNDETERMINED = "und"  # BCP 47's code for an undetermined language: the tool recorded none
HUMAN_RATERS = 3  # calibration_items holds three human verdicts
VERDICT_BY_BOOL = {True: "match", False: "no_match"}
MAX_MEMBER_BYTES = 512 << 20  # a zip member or JSON document larger than this is refused


@dataclass
class Imported:
    """A tool's file mapped onto JudgeScope's kinds. rows[kind]: dicts of the kind's columns
    (plus `_row`, the record's position in the file, 1-based); excluded[kind]: ledger entries
    (row, reason, value, column) of records kept apart with their reason, never as rows."""
    format: str
    version: str
    rows: dict[str, list[dict]] = field(default_factory=dict)
    excluded: dict[str, list[dict]] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _snapshot: set = field(default_factory=set, repr=False)

    def add(self, kind: str, row: dict) -> None:
        self.rows.setdefault(kind, []).append(row)

    def exclude(self, kind: str, row: int, reason: str, value=None, column: str | None = None) -> None:
        self.excluded.setdefault(kind, []).append(
            {"row": row, "reason": reason, "value": None if value is None else str(value)[:300],
             "column": column})

    def audit(self, row: dict, source, candidate) -> None:
        """A judge_audit row, and the snapshot row of its item (its texts, once per item): the
        audit holds only their digests, the snapshot lets Integrity verify them and Review show
        them (joined on instance_id, target_language, unit)."""
        self.add("judge_audit", row)
        key = (row["instance_id"], row["target_language"], row["unit"])
        if source is None or candidate is None or key in self._snapshot:
            return
        self._snapshot.add(key)
        self.add("source_snapshot", {"_row": row["_row"], "instance_id": key[0], "target_language": key[1],
                                     "unit": key[2], "source_text": source, "candidate_text": candidate})

    def ignore(self, name: str) -> None:
        if name not in self.ignored:
            self.ignored.append(name)

    def kinds(self) -> list[str]:
        """The kinds this file offers, the one detection picks first."""
        order = ("judge_audit", "source_snapshot", "calibration_judgements", "calibration_items")
        have = set(self.rows) | set(self.excluded)
        return [k for k in order if k in have]

    def summary(self, kind: str) -> dict:
        """What validate prints and report.json keeps for one kind read from this file."""
        judge_col = "judge_model" if kind == "calibration_judgements" else "requested_judge_model"
        unknown: dict[str, int] = {}
        judges: dict[str, int] = {}
        for r in self.rows.get(kind, []):
            if judge_col not in r:
                continue
            if r.get(judge_col) in (None, JUDGE_UNKNOWN):
                why = r.get("judge_unknown_reason") or "not recorded"
                unknown[why] = unknown.get(why, 0) + 1
            else:
                judges[r[judge_col]] = judges.get(r[judge_col], 0) + 1
        return {"format": self.format, "version": self.version, "kind": kind,
                "offers": self.kinds(), "judges": judges, "judge_unknown": unknown,
                "ignored": list(self.ignored), "notes": list(self.notes)}


def sha256_text(text) -> str | None:
    """SHA-256 of a text's UTF-8 bytes (the audit schema's source/candidate digests)."""
    if text is None:
        return None
    return hashlib.sha256(str(text).encode("utf-8")).hexdigest()


def is_nan(value) -> bool:
    return isinstance(value, float) and math.isnan(value) or value in ("NaN", "nan")


def number(value) -> float | None:
    """A finite number, or None (a bool is no number here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def parse_json(data: bytes, what: str):
    """JSON as the tools write it (Inspect writes bare NaN, which Python's parser accepts)."""
    from judgescope.ingest.manifest import SourceError

    if len(data) > MAX_MEMBER_BYTES:
        raise SourceError(f"{what} is over {MAX_MEMBER_BYTES >> 20} MB: not read")
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError) as err:
        raise SourceError(f"{what} is not valid JSON: {str(err)[:200]}") from err


def human_items(imp: Imported, labels: dict[str, dict], item_row: dict[str, dict]) -> None:
    """calibration_items from human labels: labels[key] = {rater: (row, verdict)} in the order
    the raters labelled. An item with three raters or more is a row (the first three, named in
    human_raters; a fourth is named as ignored); one with fewer goes to the ledger."""
    for key, by_rater in labels.items():
        raters = list(by_rater)
        row = next(iter(by_rater.values()))[0]
        if len(raters) < HUMAN_RATERS:
            imp.exclude("calibration_items", row, f"{len(raters)} human label(s): calibration "
                        f"items need {HUMAN_RATERS} raters", ", ".join(raters), "human_1_verdict")
            continue
        if len(raters) > HUMAN_RATERS:
            imp.ignore(f"human labels after the third rater ({key}: {', '.join(raters[3:])})")
        out = dict(item_row[key], key=key, _row=row, human_raters=", ".join(raters[:HUMAN_RATERS]))
        for n, rater in enumerate(raters[:HUMAN_RATERS], start=1):
            out[f"human_{n}_verdict"] = by_rater[rater][1]
        imp.add("calibration_items", out)


def unknown_fields(imp: Imported, record: dict, known: frozenset, where: str) -> None:
    """Name every field of `record` this importer does not know (a newer tool's addition)."""
    for k in record:
        if k not in known:
            imp.ignore(f"{where}.{k}" if where else str(k))
