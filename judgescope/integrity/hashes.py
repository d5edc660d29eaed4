"""Hash-verified joins: prove each audit row refers to exactly the texts a pinned snapshot holds.

The hashing and the classification run in DuckDB (queries/verify_*.sql): `sha256(text)` there is
the lowercase hex SHA-256 of the text's UTF-8 bytes, exactly Python's hashlib. One SQL pass
returns the counts; rows are fetched per class with a LIMIT. This module turns results into
summaries, CLI JSON, the sidebar badge, and visible diffs; it never imports streamlit.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass, field
from typing import Callable

import pandas as pd

from judgescope.duck.db import DBError
from judgescope.integrity import verification_tables
from judgescope.ingest.manifest import SourceError
from judgescope.ingest.join_key import (  # noqa: F401  (the join-key rules, re-used here)
    HASH_COLUMNS, INFERRED_KEY, JOIN_COLUMNS, check_key, infer_key, input_problems, no_shared_key)
from judgescope.numbers import Number

# The headline number this domain shows (judgescope/numbers.py says what each field is).
NUMBERS = (
    Number("hash_verified", "Integrity: audit rows whose texts hash to the stored digests",
           "integrity", ("judgescope.integrity.hashes.summarise",), ("verify_summary",)),
)

# Columns both an audit and a snapshot carry; a join key is chosen from these only.
CLASSES = ("verified", "source_mismatch", "candidate_mismatch", "both_mismatch", "missing",
           "ambiguous")
PROBLEMS = CLASSES[1:]
MISMATCHES = CLASSES[1:4]
HINTS = ("nfc", "whitespace")
CLASS_LABELS = {
    "verified": "Verified", "source_mismatch": "Source mismatch",
    "candidate_mismatch": "Candidate mismatch", "both_mismatch": "Both mismatch",
    "missing": "Missing (no snapshot row)", "ambiguous": "Ambiguous (several snapshot rows)",
}
LABELS = {**CLASS_LABELS, "class": "Class", "rows": "Rows", "hint_nfc": "After NFC",
          "hint_whitespace": "After trimming", "target_language": "Language", "unit": "Unit",
          "checked": "Checked"}
# The characters the SQL trims for the whitespace hint (keep in step with verify_*.sql).
TRIM_CHARS = " \t\n\x0b\x0c\r\u00a0\u3000"

Runner = Callable[..., pd.DataFrame]


@dataclass
class Summary:
    counts: dict[str, int]
    by_cell: pd.DataFrame  # target_language, unit, class, hint, rows
    unreferenced: int
    hints: dict[str, int] = field(default_factory=dict)

    @property
    def checked(self) -> int:
        return sum(self.counts.values())

    @property
    def verified(self) -> int:
        return self.counts["verified"]

    @property
    def unverified(self) -> int:
        """Rows checked but not verified (a count; `problems` elsewhere is a list of sentences)."""
        return self.checked - self.verified


def summarise(run: Runner) -> Summary:
    """Counts per class, the language × unit breakdown and unreferenced rows, read from the
    verification built once per (audit, snapshot, join key): integrity/verification_tables.verification_views."""
    frame = run("verify_summary")
    rows = frame[frame["class"] != "unreferenced"]
    counts = {c: int(rows.loc[rows["class"] == c, "rows"].sum()) for c in CLASSES}
    hints = {h: int(rows.loc[rows["hint"] == h, "rows"].sum()) for h in HINTS}
    unref = int(frame.loc[frame["class"] == "unreferenced", "rows"].sum())
    return Summary(counts, rows.reset_index(drop=True), unref, hints)


ROW_COLUMNS = ["judge_record_id", "target_language", "unit", "paragraph_id", "class", "hint",
               "snapshot_rows", "stored_source_sha256", "source_sha256", "stored_candidate_sha256",
               "candidate_sha256", "source_text", "candidate_text"]


def class_rows(run: Runner, cls: str, limit: int) -> pd.DataFrame:
    """The first `limit` audit rows of one class, in snapshot order, with stored and
    recomputed hashes and the snapshot texts. A verified row's hashes are its snapshot row's
    digests (they matched); texts come with the classes that have one snapshot row. Only the
    first verification_tables.LISTED verified rows are stored for listing (verify_build_rows.sql)."""
    listed = verification_tables.LISTED
    if cls == "verified" and limit > listed:
        raise ValueError(f"at most {listed:,} verified rows can be listed, not {limit:,}")
    rows = run("verify_rows", **{"class": cls}, limit=limit)
    positions = [int(p) for p in rows["snapshot_position"].dropna()]
    if cls not in ("verified", *MISMATCHES) or not positions:  # missing, ambiguous: no one row
        return rows.assign(source_text=None, candidate_text=None)[ROW_COLUMNS]
    texts = run("verify_row_texts", positions=positions)
    rows = rows.merge(texts, on="snapshot_position", how="left")
    for side in ("source", "candidate"):
        digest = rows.pop(f"{side}_sha256_computed")
        for col in (f"stored_{side}_sha256", f"{side}_sha256"):
            rows[col] = rows[col].fillna(digest)
    return rows[ROW_COLUMNS]


def by_language_unit(summary: Summary) -> pd.DataFrame:
    """One row per target language × unit, a column per class (zeros kept), plus the total."""
    from judgescope.schema import unit_sort_key

    cells = summary.by_cell
    table = (cells.pivot_table(index=["target_language", "unit"], columns="class", values="rows",
                               aggfunc="sum", fill_value=0)
             .reindex(columns=list(CLASSES), fill_value=0).reset_index())
    table.columns.name = None
    table["checked"] = table[list(CLASSES)].sum(axis=1)
    order = table.apply(lambda r: (r["target_language"], unit_sort_key(r["unit"])), axis=1)
    return table.iloc[sorted(range(len(table)), key=lambda i: order.iloc[i])].reset_index(drop=True)


def report(run: Runner) -> dict:
    """The CLI's JSON: counts, ids per problem class (judge_record_id), hints, unreferenced rows."""
    summary = summarise(run)
    ids = run("verify_problem_ids")
    out = {"checked": summary.checked, "verified": summary.verified}
    for cls in PROBLEMS:
        out[cls] = ids.loc[ids["class"] == cls, "judge_record_id"].astype(str).tolist()
    hinted = ids[ids["hint"].notna()]
    out["normalization_hint"] = dict(zip(hinted["judge_record_id"].astype(str), hinted["hint"]))
    out["unreferenced_snapshot_rows"] = summary.unreferenced
    return out


def badge(summary: Summary | None, origin: str | None) -> tuple[str, str]:
    """Sidebar badge text and colour ("green" all verified, "red" problems, "gray" nothing to check)."""
    if summary is None or origin is None:
        return "not verified: no snapshot in this collection", "gray"
    if summary.checked and not summary.unverified:
        return f"{summary.verified:,} / {summary.checked:,} verified against {origin}", "green"
    if not summary.checked:
        return f"not verified: the audit has no rows to check against {origin}", "gray"
    word = "problem" if summary.unverified == 1 else "problems"
    return (f"{summary.unverified:,} {word}: {summary.verified:,} / {summary.checked:,} verified "
            f"against {origin}"), "red"


def status(summary: Summary | None, origin: str | None, problems: list[str]) -> tuple[str, str]:
    """The badge (text, colour), or "not verified" with the first problem in red when the
    inputs could not be verified at all."""
    if problems:
        return f"not verified: {problems[0]}", "red"
    return badge(summary, origin)


def verification(catalog, collection: str):
    """(summary, origin, problems) for a collection's audit against its snapshot.

    summary is None when there is nothing to verify or the inputs cannot be joined; problems
    then says why (empty when the collection simply has no snapshot).
    """
    have = catalog.roles(collection)
    if "audit" not in have or "snapshot" not in have:
        return None, None, []
    origin = have["snapshot"].spec.origin.removeprefix("local: ")
    problems = catalog.verify_problems(collection)
    if problems:
        return None, origin, problems
    try:
        return summarise(catalog.store(collection).run), origin, []
    except (SourceError, DBError) as err:
        return None, origin, [str(err).splitlines()[0]]


def normalised(text: str | None, hint: str | None) -> str | None:
    """The snapshot text as the hint says it would match (same rules as the SQL)."""
    if text is None or hint is None:
        return None
    return unicodedata.normalize("NFC", text) if hint == "nfc" else text.strip(TRIM_CHARS)


def escape_char(ch: str) -> str:
    """A character made visible: ⟨space⟩, ⟨tab⟩, ⟨U+0301⟩ …; ordinary visible characters as they are."""
    names = {" ": "⟨space⟩", "\t": "⟨tab⟩", "\n": "⟨newline⟩", "\r": "⟨CR⟩"}
    if ch in names:
        return names[ch]
    if unicodedata.category(ch)[0] in "MCZ":  # marks, controls/format, separators
        return f"⟨U+{ord(ch):04X}⟩"
    return ch


def _soft(text: str) -> str:
    """Outside a difference: only invisible format/control characters are escaped."""
    return "".join(escape_char(c) if unicodedata.category(c) in ("Cf", "Cc") and c != "\n"
                   else c for c in text)


def mark_differences(left: str, right: str) -> tuple[str, str]:
    """Both texts as plain text, each differing stretch in ⟦…⟧ with every invisible character escaped."""
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    out_l, out_r = [], []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out_l.append(_soft(left[i1:i2]))
            out_r.append(_soft(right[j1:j2]))
            continue
        out_l.append("⟦" + "".join(map(escape_char, left[i1:i2])) + "⟧")
        out_r.append("⟦" + "".join(map(escape_char, right[j1:j2])) + "⟧")
    return "".join(out_l), "".join(out_r)


def explain_side(text: str | None, stored: str | None, computed: str | None,
                 hint: str | None) -> dict:
    """What to show for one side of a listed row: the snapshot text, and the diff when hinted."""
    ok = stored is not None and stored == computed
    fixed = None if ok else normalised(text, hint)
    if text is None:
        return {"ok": ok, "text": None, "diff": None}
    if fixed is not None and fixed != text:
        shown, target = mark_differences(text, fixed)
        return {"ok": ok, "text": shown, "diff": target}
    edges = len(text) - len(text.strip(TRIM_CHARS))
    shown = _soft(text) if not edges else mark_differences(text, text.strip(TRIM_CHARS))[0]
    return {"ok": ok, "text": shown, "diff": None}


def hash_table(row) -> pd.DataFrame:
    """Stored against recomputed SHA-256 for both sides of one listed row."""
    sides = (("source", row["stored_source_sha256"], row["source_sha256"]),
             ("candidate", row["stored_candidate_sha256"], row["candidate_sha256"]))
    return pd.DataFrame([{"side": side, "match": "yes" if _na(stored) and _na(stored) == _na(got) else "NO",
                          "stored_sha256": _na(stored), "recomputed_sha256": _na(got)}
                         for side, stored, got in sides])


def _na(value):
    return None if value is None or (not isinstance(value, str) and pd.isna(value)) else value


def side_views(row) -> dict[str, dict]:
    """explain_side for the source and the candidate of one listed row."""
    hint = _na(row["hint"])
    return {side: explain_side(_na(row[f"{side}_text"]), _na(row[f"stored_{side}_sha256"]),
                               _na(row[f"{side}_sha256"]), hint)
            for side in ("source", "candidate")}


def file_table(datasets) -> pd.DataFrame:
    """sha256, size and Hub LFS sha256 of every data file of the given Loaded datasets."""
    rows = [{"dataset": d.spec.name, "file": f["file"], "size": f["size"], "sha256": f["sha256"],
             "lfs_sha256": f.get("lfs_sha256"), "recorded": f.get("recorded", False)}
            for d in datasets if d.ok for f in d.report["files"]]
    return pd.DataFrame(rows, columns=["dataset", "file", "size", "sha256", "lfs_sha256", "recorded"])


def class_table(summary: Summary) -> pd.DataFrame:
    """Rows per class, with how many of them carry each normalisation hint."""
    cells = summary.by_cell
    return pd.DataFrame([{"class": CLASS_LABELS[c], "rows": summary.counts[c],
                          **{f"hint_{h}": int(cells.loc[(cells["class"] == c) & (cells["hint"] == h),
                                                         "rows"].sum()) for h in HINTS}}
                         for c in CLASSES])


def row_title(row) -> str:
    """One plain-text line naming a listed row (data values, so never markdown)."""
    hint = f" · would match after {row['hint']} normalisation" if _na(row["hint"]) else ""
    paragraph = _na(row["paragraph_id"])  # an audit without paragraphs says nothing of them
    return (f"{row['judge_record_id']} · {row['target_language']} · {row['unit']}"
            + (f" · paragraph_id {paragraph}" if paragraph else "")
            + f" · snapshot rows {int(_na(row['snapshot_rows']) or 0)}{hint}")
