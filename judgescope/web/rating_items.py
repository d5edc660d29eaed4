"""Human ratings' item view: one item's source and translation as the raters saw them, each
rating beside them (verdict, MQM, the file's error counts), and each rater's error spans
highlighted when the file has spans; when it has counts instead, the page says so."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.calibration import human_ratings as hr
from judgescope.text import md_literal, visible_text
from judgescope.web import context, render


def _first(rows: pd.DataFrame, column: str):
    values = rows[column].dropna() if column in rows else pd.Series(dtype=object)
    return values.iloc[0] if len(values) else None


def _what_it_has(has_spans: bool, spanned: int, items: int, counts: list[str], capped: str) -> str:
    if has_spans and spanned:
        return (f"{spanned:,} of {items:,} items{capped} have ratings that mark error spans: each rater's "
                "spans are highlighted in the translation with their category and severity.")
    if counts:
        return (f"This file records error counts per rating ({', '.join(counts)}), not error spans: each "
                "translation is shown as rated, with each rater's counts; no span can be highlighted.")
    return "This file marks no error spans: each translation is shown as rated, with each rating."


def section(missing: set[str]) -> None:
    """Shown when the ratings carry a source or target text."""
    if "target_text" in missing and "source_text" in missing:
        return
    st.header("Items: texts and ratings")
    items = context.run("ratings_items", limit=hr.MAX_ITEMS)
    if items.empty:
        st.info("No item has a rating.")
        return
    loaded = context.dataset_for("ratings")
    extra = (loaded.report or {}).get("columns_extra", []) if loaded else []
    counts = [c for c in extra if str(c).startswith(hr.COUNT_PREFIX)]
    has_spans = "error_spans" not in missing
    capped = f" (the first {hr.MAX_ITEMS:,} listed)" if len(items) >= hr.MAX_ITEMS else ""
    st.caption(_what_it_has(has_spans, int((items.rated_with_spans > 0).sum()), len(items), counts, capped))
    marks = dict(zip(items["item"], items["rated_with_spans"]))
    spanned = [i for i, n in enumerate(items["rated_with_spans"]) if n]
    item = st.selectbox("Item", items["item"].tolist(), key="rating_item", index=spanned[0] if spanned else 0,
                        format_func=lambda k: visible_text(hr.item_label(k))[:200]
                        + (" · spans" if marks.get(k) else ""))
    rows = context.run("ratings_item", item=item)
    rows = rows.iloc[sorted(range(len(rows)), key=lambda i: hr.natural_key(rows["rater"].iloc[i]))]
    source, target = _first(rows, "source_text"), _first(rows, "target_text")
    if source is not None:
        st.markdown("**Source**")
        render.text_block(source, _first(rows, "source_language"))
    spans = has_spans and rows["error_spans"].notna().any()
    once = target is not None and not spans and rows["target_text"].nunique() <= 1
    if once:  # one translation, rated by several: shown once, the ratings under it
        system = _first(rows, "system")
        st.markdown("**Translation**" + (f" · {md_literal(str(system), 120)}" if system is not None else ""))
        render.text_block(target, _first(rows, "target_language"))
    found = hr.error_count_columns(rows)
    for _, r in rows.iterrows():
        st.caption(md_literal(hr.rating_line(r, found), limit=300))
        if target is not None and not once:  # each rater's spans in the text they rated
            pieces, problems = hr.span_pieces(r.get("target_text"), r.get("error_spans"))
            render.spans_block(pieces)
            for problem in problems:
                st.caption(md_literal(problem, limit=300))
