"""Narrow screens (a phone, about 390 px): a chart too dense to read there is swapped, by CSS
alone, for a sorted table of the same numbers (the server cannot know the screen's width)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.schema import language_name

NARROW = 640  # px: below this width the table replaces the chart


def swap(wide_key: str, narrow_key: str) -> None:
    """Show the element keyed `wide_key` on wide screens and `narrow_key` on narrow ones (both
    keys are fixed names from the page, never data)."""
    st.html(f"<style>.st-key-{narrow_key} {{ display: none; }}"
            f"@media (max-width: {NARROW}px) {{ .st-key-{wide_key} {{ display: none; }}"
            f" .st-key-{narrow_key} {{ display: block; }} }}</style>")


def sorted_cells(cells, review_href) -> pd.DataFrame:
    """The heatmap's cells as rows, lowest mean first: language, unit, mean, CI, n, Review link."""
    out = cells.sort_values(["mean", "target_language", "unit"], kind="stable")
    return out.assign(review=[review_href(r.target_language, r.unit) for r in out.itertuples()],
                      target_language=out["target_language"].map(language_name))[
        ["target_language", "unit", "mean", "low", "high", "n", "review"]]
