"""Row-level helpers of the translation-audit pages: exact-copy triage hints, keyset paging,
record details and the raw records a release excluded. Pure (no streamlit)."""

from __future__ import annotations

import pandas as pd

from judgescope.audit import binned
from judgescope.audit.summary import OVERALL
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


def record_fields(record: pd.DataFrame) -> pd.DataFrame:
    """One record as a two-column field/value table (values as text; missing stays None)."""
    row = record.iloc[0]
    return pd.DataFrame({"field": list(record.columns),
                         "value": [None if pd.isna(v) else str(v) for v in row]})


def exact_copy_total(counts: pd.DataFrame, languages: list, units: list) -> int:
    """Exact copies among the chosen languages and units (an empty choice means all)."""
    keep = pd.Series(True, index=counts.index)
    if languages:
        keep &= counts["target_language"].isin(languages)
    if units:
        keep &= counts["unit"].isin(units)
    return int(counts.loc[keep, "exact_copies"].sum())


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
    from judgescope.duck import db

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


# The prebuilt-counts queries of Review and their twins for a binned audit, which read the score
# bins (audit_bins) and only the edge bins' per-score counts: the same count and position, and
# a page bound never short of the exact one (the same page), without summing one count per row.
BINNED = {"audit_review_count_prebuilt": "audit_review_count_binned",
          "audit_review_rank_prebuilt": "audit_review_rank_binned",
          "audit_review_page_bound": "audit_review_page_bound_binned",
          "audit_review_neighbour_bounds": "audit_review_neighbour_bounds_binned"}


def _prebuilt(run, name: str, binned_audit: bool | None = None) -> str:
    """`name`, or its BINNED twin when the audit is binned (binned.is_binned: the rule
    summary.score_counts follows; `binned_audit`, when the caller has read it)."""
    return BINNED[name] if (binned.is_binned(run) if binned_audit is None else binned_audit) else name


def review_count(run, filters: dict) -> int:
    """Rows matching the Review filters: from the prebuilt counts unless text is searched."""
    if filters["q"]:
        return int(run("audit_review_count", **filters)["rows"].iloc[0])
    name = _prebuilt(run, "audit_review_count_prebuilt")
    return int(run(name, **_without_search(filters))["rows"].iloc[0])


def review_page(run, filters: dict, after: tuple[float, str], desc: bool, page_size: int) -> pd.DataFrame:
    """One Review page by keyset. Without a text search the prebuilt counts bound the scores the
    page can hold (audit_review_page_bound, or on a binned audit audit_review_page_bound_binned,
    never short of it), so the score-sorted audit is read only that far."""
    bounded = dict(filters)
    if not filters["q"]:
        name = _prebuilt(run, "audit_review_page_bound")
        bound = float(run(name, **_without_search(filters), after_score=after[0], descending=desc,
                          page_size=page_size)["bound"].iloc[0])
        bounded["min_score" if desc else "max_score"] = bound
    return run("audit_review_page_desc" if desc else "audit_review_page", **bounded,
               after_score=after[0], after_id=after[1], page_size=page_size)


SNIPPET = 160


def snippet(text, limit: int = SNIPPET) -> str | None:
    """The start of a text for a list cell: one line, at most `limit` characters."""
    if text is None or (isinstance(text, float) and text != text):
        return None
    one = " ".join(str(text).split())
    return one if len(one) <= limit else one[:limit - 1] + "…"


def snapshot_texts(run, ids: list[str]) -> pd.DataFrame:
    """judge_record_id → source_text, candidate_text, snapshot_rows, class, for audit rows, by
    Integrity's join (hash_verification). Texts only where exactly one snapshot row matches."""
    cols = ["judge_record_id", "snapshot_rows", "class", "source_text", "candidate_text"]
    if not ids:
        return pd.DataFrame(columns=cols)
    found = run("verify_rows_by_id", ids=list(ids))
    positions = [int(p) for p in found.loc[found["snapshot_rows"] == 1, "snapshot_position"].dropna()]
    texts = (run("verify_row_texts", positions=positions)[["snapshot_position", "source_text", "candidate_text"]]
             if positions else pd.DataFrame(columns=["snapshot_position", "source_text", "candidate_text"]))
    one = found.assign(snapshot_position=found["snapshot_position"].where(found["snapshot_rows"] == 1))
    return one.merge(texts, on="snapshot_position", how="left")[cols]


def with_snippets(rows: pd.DataFrame, texts: pd.DataFrame) -> pd.DataFrame:
    """A Review page with the start of its source and candidate texts after the score."""
    merged = rows.merge(texts[["judge_record_id", "source_text", "candidate_text"]],
                        on="judge_record_id", how="left")
    out = rows.copy()
    out.insert(3, "source", merged["source_text"].map(snippet).to_numpy())
    out.insert(4, "candidate", merged["candidate_text"].map(snippet).to_numpy())
    return out


def match_note(texts_row) -> str:
    """What Integrity's join says of one record's snapshot row(s), as a sentence."""
    n = int(texts_row["snapshot_rows"]) if pd.notna(texts_row["snapshot_rows"]) else 0
    if n == 0:
        return "No snapshot row has this row's join key: no text to show."
    if n > 1:
        return (f"Ambiguous: {n} snapshot rows have this row's join key, so no one text is shown "
                "(Integrity lists these rows as ambiguous).")
    cls = str(texts_row["class"])
    return ("Both texts hash to the audit's recorded SHA-256 values (verified, as on Integrity)."
            if cls == "verified" else f"Hash check: {cls.replace('_', ' ')} (see Integrity).")


def language_heading(code, fallback: str) -> str:
    """'Thai (th)' for a code; the fallback ('Source', 'Candidate') when the data has none."""
    from judgescope.schema import language_name
    # a source language is named alone: the pair label belongs to the target
    return fallback if code is None or code != code or str(code) == "" else language_name(code, pair=False)


# The Review list's one total order: (score, judge_record_id) ascending; "highest first" is its
# exact reverse (score and judge_record_id both descending). Every neighbour, page, position and
# queue step below is read through these two directions of the same order, so Prev after Next
# returns to the same row and ties on score cannot skip or repeat a row.
ORDER = ("score", "judge_record_id")


def sort_key(score: float, record_id: str) -> tuple[float, str]:
    """A row's place in the Review order (ascending; the descending list is its reverse)."""
    return (float(score), str(record_id))


def neighbours(run, filters: dict, key: tuple[float, str], desc: bool,
               binned_audit: bool | None = None) -> tuple:
    """The (score, id) keys just before and just after one row in the filtered list, in the
    list's direction: the rows beside it in the total order (score, judge_record_id), read by one
    query bounded by the prebuilt counts (audit_review_neighbours, with its bounds from
    audit_review_neighbour_bounds; a text search reads up to the filter's score range).
    `binned_audit`: binned.is_binned(run), when the caller has read it."""
    if filters["q"]:
        low, high = filters["min_score"], filters["max_score"]
    else:
        name = _prebuilt(run, "audit_review_neighbour_bounds", binned_audit)
        bounds = run(name, **_without_search(filters), key_score=float(key[0])).iloc[0]
        low, high = float(bounds["low_bound"]), float(bounds["high_bound"])
    found = run("audit_review_neighbours", **filters, key_score=float(key[0]), key_id=str(key[1]),
                low_bound=float(low), high_bound=float(high))
    side = {r.side: (float(r.score), str(r.judge_record_id)) for r in found.itertuples()}
    lower, higher = side.get("lower"), side.get("higher")
    return (higher, lower) if desc else (lower, higher)


def _rank(run, filters: dict, key: tuple[float, str], desc: bool, binned_audit: bool | None) -> tuple[int, int]:
    """(rows of the filtered list before `key`, 1 when the key itself is in it else 0)."""
    # Without a text search the per-score counts answer all but the key's own score (its ties
    # are read from the few row groups holding it); a search reads the rows it matches.
    name, params = (("audit_review_rank", filters) if filters["q"] else
                    (_prebuilt(run, "audit_review_rank_prebuilt", binned_audit), _without_search(filters)))
    found = run(name, **params, key_score=float(key[0]), key_id=str(key[1]), descending=desc)
    return int(found["before"].iloc[0]), int(found["here"].iloc[0])


def review_position(run, filters: dict, key: tuple[float, str], desc: bool,
                    binned_audit: bool | None = None) -> int | None:
    """The 1-based position of the row `key` in the filtered list, None when it is not in it."""
    before, here = _rank(run, filters, key, desc, binned_audit)
    return before + 1 if here else None


def rows_through(run, filters: dict, key: tuple[float, str], desc: bool) -> int:
    """How many rows of the filtered list come at or before `key` (a page cursor: the row before
    the page, which may have left the list since)."""
    return sum(_rank(run, filters, key, desc, None))


def review_walk(run, filters: dict, key: tuple[float, str], desc: bool) -> tuple:
    """(previous key, next key, 1-based position or None) of one row in the filtered list:
    neighbours and review_position, with the audit's binned rule read once for both."""
    binned_audit = None if filters["q"] else binned.is_binned(run)
    before, after = neighbours(run, filters, key, desc, binned_audit)
    return before, after, review_position(run, filters, key, desc, binned_audit)


def next_unreviewed(run, filters: dict, key: tuple[float, str] | None, desc: bool,
                    reviewed: list[str]) -> tuple[float, str] | None:
    """The first row after `key` (from the start when None) in the filtered list whose id is
    not in `reviewed`, wrapping round to the list's start; None when every row is reviewed."""
    after = key or ((1e308, "") if desc else (-1e308, ""))  # before every row (pager.start)
    skip = set(map(str, reviewed)) | ({str(key[1])} if key else set())  # never the row itself
    found = run("audit_review_next_unreviewed", **filters, ids=sorted(skip),
                after_score=float(after[0]), after_id=str(after[1]), descending=desc)
    return None if found.empty else (float(found.score.iloc[0]), str(found.judge_record_id.iloc[0]))


def list_step(ids: list[str], current: str) -> tuple[str | None, str | None, int | None]:
    """(previous id, next id, 1-based position) of `current` in a list already in its total
    order (an in-memory list: exact copies, an integrity class, disagreement items, pairs);
    (None, None, None) when it is not in the list."""
    ids = [str(i) for i in ids]
    if str(current) not in ids:
        return None, None, None
    i = ids.index(str(current))
    return (ids[i - 1] if i > 0 else None), (ids[i + 1] if i + 1 < len(ids) else None), i + 1


def list_next_unreviewed(ids: list[str], current: str | None, done) -> str | None:
    """The first id after `current` (from the start when None or not listed) not in `done`,
    wrapping round to the list's start; None when every id is done."""
    ids, done = [str(i) for i in ids], set(map(str, done))
    start = ids.index(str(current)) + 1 if current is not None and str(current) in ids else 0
    for i in ids[start:] + ids[:start]:
        if i not in done and i != str(current):
            return i
    return None
