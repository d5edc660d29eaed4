"""Row-level helpers of the translation-audit pages: exact-copy triage hints, keyset paging,
record details and the raw records a release excluded. Pure (no streamlit)."""

from __future__ import annotations

import pandas as pd

from judgescope.audit import OVERALL
from judgescope.schema import sort_units


# Languages written in the Latin script; others expect non-Latin candidates. Vocabulary kept here
# because only the exact-copy hint uses it; unknown codes get no script hint at all.
LATIN_SCRIPT = frozenset("af az ca cs cy da de en es et eu fi fil fr ga gl hr ht hu id is it lt lv "
                         "ms mt nl no nb nn pl pt ro sk sl so sq sv sw tl tr uz vi yo zu".split())
NON_LATIN_SCRIPT = frozenset("am ar be bg bn el fa gu he hi hy ja ka kk km kn ko lo mk ml mn mr my "
                             "ne or pa ps ru si sr ta te th uk ur yi zh".split())


def _base(code) -> str:
    return str(code or "").split("-")[0].split("_")[0].lower()


def is_latin_only(text) -> bool:
    """Every letter of the text is Latin (ASCII or Latin-1/Extended); at least one letter."""
    letters = [ch for ch in str(text or "") if ch.isalpha()]
    return bool(letters) and all(ord(ch) < 0x250 for ch in letters)


def looks_like_name_or_number(text) -> bool:
    """Short, no sentence punctuation, and either digits only or every word capitalised."""
    words = str(text or "").split()
    if not words or len(words) > 6 or any(ch in str(text) for ch in ".?!;:"):
        return False
    if all(any(ch.isdigit() for ch in w) or not any(ch.isalpha() for ch in w) for w in words):
        return True
    small = {"of", "the", "and", "de", "la", "von", "van", "da", "du", "di", "del", "y", "&"}
    return all(w[0].isupper() or w.lower() in small or w[0].isdigit() for w in words)


def exact_copy_hints(rows: pd.DataFrame) -> pd.DataFrame:
    """Add triage hints to exact-copy rows that carry `candidate_text` (None where unknown)."""
    out = rows.copy()
    has_text = out["candidate_text"].notna()
    non_latin = out["target_language"].map(lambda c: _base(c) in NON_LATIN_SCRIPT)
    latin = out["candidate_text"].map(is_latin_only)
    out["latin_in_non_latin_language"] = (latin & non_latin).where(has_text, None)
    out["name_or_number"] = out["candidate_text"].map(looks_like_name_or_number).where(has_text, None)
    first = [c for c in ("score", "target_language", "unit", "candidate_text",
                         "latin_in_non_latin_language", "name_or_number") if c in out]
    return out[first + [c for c in out.columns if c not in first]]


def keyset_pages(state, signature) -> list:
    """The stack of keyset cursors (last score, last id) of the pages before the current one,
    kept in `state` (a dict-like session) and reset whenever `signature` (the filters) changes."""
    if state.get("_keyset_signature") != signature:
        state["_keyset_signature"] = signature
        state["_keyset_pages"] = []
    return state["_keyset_pages"]


def hash_note(texts) -> str:
    """Whether the snapshot texts hash to the audit row's recorded SHA-256 values."""
    def word(flag):
        return "not recorded" if flag is None or flag != flag else ("matches" if flag else "DIFFERS")
    return (f"SHA-256 of the shown source text {word(texts['source_hash_matches'])} the audit's "
            f"source_text_sha256; candidate text {word(texts['candidate_hash_matches'])} its "
            "candidate_text_sha256.")


def record_fields(record: pd.DataFrame) -> pd.DataFrame:
    """One record as a two-column field/value table (values as text; missing stays None)."""
    row = record.iloc[0]
    return pd.DataFrame({"field": list(record.columns),
                         "value": [None if pd.isna(v) else str(v) for v in row]})


def exact_copy_matrix(counts: pd.DataFrame) -> pd.DataFrame:
    """Exact copies per language (rows) × unit (columns) with a total row and column."""
    wide = counts.pivot_table(index="target_language", columns="unit", values="exact_copies",
                              aggfunc="sum", fill_value=0)
    wide = wide[sort_units(wide.columns)]
    wide["total"] = wide.sum(axis=1)
    wide.loc[OVERALL] = wide.sum(axis=0)
    return wide.astype(int).reset_index().rename(columns={"target_language": "language"})


def excluded_raw_rows(loaded, limit: int = 5_000) -> pd.DataFrame:
    """Full raw records of a dataset that validation excluded, with their reason."""
    from judgescope import db

    # A Store of its own (with db's memory limit), closed as soon as the rows are read.
    with db.Store({"raw_records_excluded": [loaded.path("excluded")]}) as store:
        return store.run("audit_raw_excluded_rows", limit=limit)


def excluded_summary(rows: pd.DataFrame) -> str:
    """One sentence on excluded raw rows: how many, how many scored, their mean score."""
    if rows.empty:
        return "No raw record was excluded."
    scores = pd.to_numeric(rows.get("score"), errors="coerce") if "score" in rows else pd.Series(dtype=float)
    scored = int(scores.notna().sum())
    mean = f", mean score {scores.mean():.3f}" if scored else ""
    return (f"{len(rows):,} excluded raw records: {scored:,} scored{mean}; "
            f"{len(rows) - scored:,} without a score.")


def _without_search(filters: dict) -> dict:
    """The Review filters the prebuilt per-score counts can answer (all but the text search)."""
    return {k: v for k, v in filters.items() if k != "q"}


def review_count(run, filters: dict) -> int:
    """Rows matching the Review filters: from the prebuilt counts unless text is searched."""
    if filters["q"]:
        return int(run("audit_review_count", **filters)["rows"].iloc[0])
    return int(run("audit_review_count_prebuilt", **_without_search(filters))["rows"].iloc[0])


def review_page(run, filters: dict, after: tuple[float, str], desc: bool, page_size: int) -> pd.DataFrame:
    """One Review page by keyset. Without a text search the prebuilt counts bound the scores the
    page can hold (audit_review_page_bound), so the score-sorted audit is read only that far."""
    bounded = dict(filters)
    if not filters["q"]:
        bound = float(run("audit_review_page_bound", **_without_search(filters), after_score=after[0], descending=desc,
                          page_size=page_size)["bound"].iloc[0])
        bounded["min_score" if desc else "max_score"] = bound
    return run("audit_review_page_desc" if desc else "audit_review_page", **bounded,
               after_score=after[0], after_id=after[1], page_size=page_size)


def _text(record: pd.Series, col: str) -> str | None:
    v = record[col]
    return None if v is None or (isinstance(v, float) and v != v) or v is pd.NA else str(v)


def _key_values(record: pd.Series) -> dict:
    return {k: _text(record, k) for k in ("instance_id", "target_language", "unit",
                                          "paragraph_id")}


def record_texts(run, record: pd.Series) -> pd.DataFrame:
    """Up to two snapshot rows matching one audit row (a row of audit_record.sql) by its key
    values; more than one means the match is ambiguous (see record_text_lookup)."""
    return run("audit_record_texts", **_key_values(record),
               source_sha256=_text(record, "source_text_sha256"),
               candidate_sha256=_text(record, "candidate_text_sha256"))


NO_TEXT = "The source snapshot has no text for this row."


def record_text_lookup(run, record: pd.Series) -> tuple[pd.DataFrame, str]:
    """(the one matching snapshot row, its hash note), or (empty, why none is shown): no row
    matches, or several do, and picking one would show texts the audit may not have scored."""
    texts = record_texts(run, record)
    if texts.empty:
        return texts, NO_TEXT
    if len(texts) > 1:
        n = int(run("audit_record_text_count", **_key_values(record))["matches"].iloc[0])
        return texts.iloc[0:0], (f"Ambiguous: {n:,} snapshot rows match this record's "
                                 "(instance_id, target_language, unit, paragraph_id); none is shown.")
    return texts, hash_note(texts.iloc[0])
