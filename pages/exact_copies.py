"""Exact copies: units whose candidate hash equals the source hash, with triage hints."""

import streamlit as st

from judgescope.audit import rows as audit_rows
from judgescope.web import review as review_view
from judgescope.web import verdicts
from judgescope.web import how
from judgescope import navigation
from judgescope.web import context, export, render
from judgescope.web import urls
from judgescope.schema import language_name, sort_units

context.title("Exact copies of the source")
st.info("An exact copy is a **review signal, not automatically an error**: proper names, "
        "numbers and titles are often rightly kept as they are, while a copied sentence usually "
        "means the translation fell back to the source. Read the judge's score and explanation "
        "beside each one.")
counts = context.run("audit_exact_copy_counts")
if counts["hashed"].sum() == 0:
    st.warning("This audit records no source_text_sha256 / candidate_text_sha256, so exact "
               "copies cannot be found.")
    context.stop()
st.caption(f"Found by hash alone (candidate_text_sha256 = source_text_sha256) among "
           f"{int(counts['hashed'].sum()):,} hashed rows of {int(counts['n'].sum()):,}.")
matrix = audit_rows.exact_copy_matrix(counts)
render.table(matrix.assign(language=[c if c == audit_rows.OVERALL else language_name(c) for c in matrix.language]))
how.number("exact_copies")

langs, units = sorted(counts.target_language.unique()), sort_units(counts.unit.unique())
c = st.columns(2)
lang = urls.url_multiselect(c[0], "Language", langs, key="lang", format_func=language_name)
unit = c[1].multiselect("Unit", units, key=urls.bound("unit", units), bind="query-params")
limit = 5_000
has_texts = "snapshot" in context.roles()
rows = context.run("audit_exact_copy_rows", languages=lang, units=unit, limit=limit)
if has_texts:
    rows = audit_rows.exact_copy_hints(rows)
    st.caption("Hints, from the snapshot's candidate text: *Latin in non-Latin language* — only "
               "Latin letters although the target language is written in another script; "
               "*name or number* — short, capitalised words or digits rather than a sentence.")
else:
    rows = rows.drop(columns="candidate_text")
    st.caption("This collection has no source snapshot, so texts and triage hints are not "
               "available; the judge's score and explanation are.")
total = audit_rows.exact_copy_total(counts, lang, unit)
st.markdown(f"**{total:,}** exact copies match" + (f"; the first {limit:,} are listed." if total > limit else "."))
shown = verdicts.with_state(rows)
st.caption("Select a row to open it on Review, where Prev / Next walk these exact copies.")
urls.record_table(rows, "copy_rows", shown.assign(target_language=shown.target_language.map(language_name)),
                  column_config={"Explanation": st.column_config.TextColumn(width="large"),
                                 "Candidate text": st.column_config.TextColumn(width="medium")},
                  **review_view.origin_params("exact_copies", lang=lang, unit=unit))
verdicts.pick_and_review(rows)
export.rows(rows, "exact_copies", {"languages": lang, "units": unit, "limit": limit},
            available=total)
if lang or unit:
    review = navigation.page("review")
    st.page_link(review.path, label="Review these languages and units", icon=":material/rate_review:",
                 query_params=navigation.link_params(review, collection=context.collection_name(), lang=lang,
                                                     unit=unit))
