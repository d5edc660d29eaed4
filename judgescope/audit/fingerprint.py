"""The judge fingerprint of one audit run: which judge scored it (requested model and the
revision the provider resolved), with which prompt (version and SHA-256), per unit; and the
difference between two runs' fingerprints, said first whenever two runs are compared
("glm-5.1 / prompt v3 → glm-5.2 / prompt v4"). Pure: the rows come from
queries/audit_fingerprint.sql (or audit_previous_fingerprint.sql)."""

from __future__ import annotations

import pandas as pd

FIELDS = ("requested_judge_model", "resolved_judge_revision", "judge_prompt_version",
          "judge_prompt_sha256")
FIELD_NAMES = {"requested_judge_model": "requested judge model",
               "resolved_judge_revision": "resolved judge revision",
               "judge_prompt_version": "prompt version", "judge_prompt_sha256": "prompt SHA-256"}
DECODING = ("not recorded: the judge_audit schema has no column for decoding settings "
            "(temperature, top-p, maximum tokens, seed)")
NOT_RECORDED = "not recorded"


def _values(rows: pd.DataFrame, field: str) -> dict:
    """Each recorded value of `field` with its row count, most rows first; None for the rows
    that do not record it."""
    present = rows[rows[field].notna()]
    counts = present.groupby(field, sort=True)["n"].sum().sort_values(ascending=False, kind="stable")
    return {"values": {str(k): int(v) for k, v in counts.items()},
            "rows_not_recorded": int(rows.loc[rows[field].isna(), "n"].sum())}


def _part(values: dict, one: str, many: str, short: bool = False) -> str:
    names = [v[:12] + "…" if short else v for v in values["values"]]
    if not names:
        return f"{one} {NOT_RECORDED}"
    return f"{one} {names[0]}" if len(names) == 1 else f"{many} {', '.join(names)}"


def label(fp: dict) -> str:
    """'glm-5.2 / prompt v3' in a few words: the requested model (and the resolved revision when
    recorded), the prompt version, else the prompt's hash prefix."""
    fields = fp["fields"]
    models = list(fields["requested_judge_model"]["values"]) or [f"judge {NOT_RECORDED}"]
    text = ", ".join(models)
    if fields["resolved_judge_revision"]["values"]:
        text += " (resolved " + ", ".join(fields["resolved_judge_revision"]["values"]) + ")"
    if fields["judge_prompt_version"]["values"]:
        return text + " / " + _part(fields["judge_prompt_version"], "prompt", "prompts")
    if fields["judge_prompt_sha256"]["values"]:
        return text + " / " + _part(fields["judge_prompt_sha256"], "prompt sha256", "prompts sha256", short=True)
    return text + f" / prompt {NOT_RECORDED}"


def fingerprint(rows: pd.DataFrame) -> dict:
    """The fingerprint of one run from its audit_fingerprint rows (unit, the four FIELDS, n)."""
    fields = {f: _values(rows, f) for f in FIELDS}
    components = [{"unit": r["unit"], **{f: None if pd.isna(r[f]) else str(r[f]) for f in FIELDS},
                   "rows": int(r["n"])} for _, r in rows.iterrows()]
    out = {"rows": int(rows["n"].sum()), "fields": fields, "by_unit": components,
           "decoding_settings": DECODING,
           "definition": "the distinct recorded values of " + ", ".join(FIELD_NAMES.values())
                         + " over the run's rows (per unit in by_unit); a NULL is 'not recorded'"}
    out["label"] = label(out)
    return out


def unit_lines(fp: dict) -> list[str]:
    """One line per unit and recorded judge: 'answer: glm-5.2 / prompt v2 (sha256 7e56…), 460 rows'."""
    def value(row, field):
        return NOT_RECORDED if row[field] is None else row[field]
    return [f"{r['unit']}: {value(r, 'requested_judge_model')} (resolved "
            f"{value(r, 'resolved_judge_revision')}) / prompt {value(r, 'judge_prompt_version')} "
            f"(sha256 {value(r, 'judge_prompt_sha256')}), {r['rows']:,} rows" for r in fp["by_unit"]]


def _unit_labels(fp: dict) -> dict[str, str]:
    out = {}
    for unit in dict.fromkeys(c["unit"] for c in fp["by_unit"]):
        rows = pd.DataFrame([{**c, "n": c["rows"]} for c in fp["by_unit"] if c["unit"] == unit])
        out[unit] = label({"fields": {f: _values(rows, f) for f in FIELDS}})
    return out


def difference(old: dict, new: dict) -> dict:
    """What changed between two runs' fingerprints: the fields whose recorded values differ, a
    sentence 'old → new' (or 'same judge: …'), and the same per unit both runs scored."""
    changed = [f for f in FIELDS if set(old["fields"][f]["values"]) != set(new["fields"][f]["values"])]
    old_units, new_units = _unit_labels(old), _unit_labels(new)
    by_unit = [{"unit": u, "old": old_units[u], "new": new_units[u],
                "changed": old_units[u] != new_units[u]} for u in old_units if u in new_units]
    sentence = (f"{old['label']} → {new['label']}" if changed else f"same judge: {new['label']}")
    if changed:
        sentence += " (changed: " + ", ".join(FIELD_NAMES[f] for f in changed) + ")"
    return {"same": not changed, "changed_fields": changed, "sentence": sentence,
            "old": old["label"], "new": new["label"], "by_unit": by_unit,
            "definition": "two fingerprints differ in a field when the sets of its recorded values "
                          "differ; rows that do not record a field are counted, not compared"}
