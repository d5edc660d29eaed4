"""Themes: words and phrases over-represented in each language's low-score explanations, each a
link to the Review rows that contain it."""

import pandas as pd
import streamlit as st

from judgescope.audit import summary as audit
from judgescope import navigation
from judgescope.audit import themes
from judgescope.text import md_literal
from judgescope.web import context, export, render
from judgescope.web import urls
from judgescope.schema import language_name, sort_units

context.title("Explanation themes")
if not int(context.run("audit_explanation_count")["explained"].iloc[0]):
    st.info("This audit has no judge explanations (its judge_explanation column is absent or "
            "empty), so there are no explanation themes to show.")
    context.stop()
values = context.run("audit_filter_values")
langs, units = sorted(values.target_language.unique()), sort_units(values.unit.unique())
c = st.columns([2, 2, 1, 1])
lang = urls.url_multiselect(c[0], "Language", langs, key="lang", format_func=language_name)
unit = c[1].multiselect("Unit", units, key=urls.bound("unit", units), bind="query-params")
threshold = urls.url_number(c[2], "Low = score below", key="threshold")
min_low = urls.url_number(c[3], "Min. low count", key="min_count")


@st.cache_data(max_entries=32, show_spinner="Counting words and phrases…")
def _themes(rows: pd.DataFrame, min_low: int):
    return themes.themes_by_language(rows, min_low=min_low), themes.group_sizes(rows)


rows = context.run("audit_theme_texts", languages=lang, units=unit, threshold=float(threshold),
                   per_group=themes.PER_GROUP)
by_lang, sizes = _themes(rows, int(min_low))
st.caption(themes.RULE.replace(f"at least {themes.MIN_LOW_COUNT}", f"at least {min_low}") +
           f" At most {themes.PER_GROUP:,} explanations per language and group are read "
           "(a deterministic sample by record id). Each term links to Review: rows below the "
           "threshold whose explanation contains it (Review matches the text case-insensitively, "
           "so a phrase split by punctuation there is not found).")
review, top = navigation.page("review"), audit.review_params_for_bin(0, threshold)["max"]
found = {k: v for k, v in by_lang.items() if not v.empty}
quiet = [language_name(k) for k in by_lang if k not in found]
if quiet:
    st.caption("No theme (too few low-score explanations or none over-represented): "
               + md_literal(", ".join(quiet), limit=2000))
exported = []
for code, frame in found.items():
    n_low, n_rest = sizes[code]
    st.markdown(f"**{md_literal(language_name(code))}** · {n_low:,} low-score and "
                f"{n_rest:,} other explanations")
    links = [navigation.href(review, collection=context.collection_name(), lang=code, unit=unit,
                             q=t, max=top) for t in frame["term"]]  # min: Review's default, 0
    shown = frame.assign(open=links)[["open", "term", "folded", "z", "low_count", "rest_count",
                                      "delta"]]
    picked = render.table(shown, key=f"themes_{code}", on_select="rerun", selection_mode="single-row",
                          column_config={
                          "Open": st.column_config.LinkColumn("Open", display_text="rows", width="small"),
                          "Z": st.column_config.NumberColumn(format="%.2f"),
                          "Delta": st.column_config.NumberColumn(format="%.3f")})
    if picked and picked.selection.rows:  # selecting a term opens its rows in this tab
        term = str(frame["term"].iloc[picked.selection.rows[0]])
        urls.open_page("review", lang=code, q=term, max=str(top), **({"unit": list(unit)} if unit else {}))
    exported.append(frame.assign(target_language=code))
if exported:
    export.rows(pd.concat(exported, ignore_index=True), "themes",
                {"languages": lang, "units": unit, "threshold": threshold,
                 "min_low_count": min_low, "method": themes.RULE})
elif not quiet:
    st.info("No explanation matches these filters.")
