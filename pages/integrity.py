"""Integrity: every audit row joined to the pinned source snapshot and checked by SHA-256."""

import streamlit as st

from judgescope.web import review as review_view
from judgescope.web import how
from judgescope import format as fmt
from judgescope.text import md_literal
from judgescope.web import context, export, render, results
from judgescope.web import urls
from judgescope.integrity import hashes as verify

LIST_LIMIT, DETAIL_ROWS = 500, 10

context.title("Integrity")
st.caption("Each audit row is joined to the snapshot on the collection's key, and SHA-256 of the "
           "UTF-8 bytes of both snapshot texts is recomputed and compared with the stored hashes. "
           "A normalisation hint (NFC, whitespace) explains a mismatch; it is never a pass.")
key = context.catalog().join_key(context.collection_name())
declared = context.catalog().manifest.collections[context.collection_name()].join_key_declared
st.caption(f"Joined on {md_literal(', '.join(key) or 'no shared column')}"
           f"{'' if declared else ' (inferred: the key columns both datasets have)'}. "
           "The snapshot's texts are hashed once per file revision "
           "and the join is built once per pair of revisions, then read from the cache.")
summary, origin, problems = results.verification()
for problem in problems:
    st.error(f"Cannot verify: {md_literal(problem, limit=400)}. Set join_key for this collection in the manifest.")
if summary is None:
    context.stop()

text, colour = verify.badge(summary, origin)
st.markdown(f":{colour}[**{text}**]")
c = st.columns(4)
c[0].metric("Audit rows checked", fmt.count(summary.checked))
c[1].metric("Verified", fmt.count(summary.verified))
c[2].metric("Problems", fmt.count(summary.unverified))
c[3].metric("Snapshot rows no audit row uses", fmt.count(summary.unreferenced))
how.number("hash_verified")
by_class, by_cell = st.tabs(["By class", "By language × unit"])
by_class.dataframe(verify.class_table(summary).rename(columns=verify.LABELS), hide_index=True)
by_cell.dataframe(verify.by_language_unit(summary).rename(columns=verify.LABELS), hide_index=True,
                  height=300)

st.header("Rows of one class")
present = [cl for cl in verify.CLASSES if summary.counts[cl]]
default = next((cl for cl in verify.PROBLEMS if summary.counts[cl]), "verified")
# Options are the class names themselves: a bound widget writes the option's label to the URL.
chosen = st.radio("Class", present, index=present.index(default), key=urls.bound("class", present),
                  bind="query-params", horizontal=True)
rows = verify.class_rows(context.run, chosen, LIST_LIMIT)
shown = summary.counts[chosen]
listed = f"; the first {LIST_LIMIT:,} in snapshot order are listed" if shown > LIST_LIMIT else ""
st.caption(f"{shown:,} row{'s' if shown != 1 else ''}" + listed
           + f"; texts of the first {min(DETAIL_ROWS, len(rows))} below. Differences are marked ⟦…⟧ "
           "with invisible characters written out (⟨space⟩, ⟨U+0301⟩).")
urls.record_table(rows, "class_rows", rows.drop(columns=["source_text", "candidate_text"]),
                  **review_view.origin_params("integrity", **{"class": chosen}))
export.rows(rows, f"integrity_{chosen}", {"class": chosen, "join_key": list(key)},
            limit=LIST_LIMIT, available=shown)

for _, row in rows.head(DETAIL_ROWS).iterrows():
    with st.container(border=True):
        st.markdown(f"**{verify.CLASS_LABELS[row['class']]}**")
        st.text(verify.row_title(row))
        render.table(verify.hash_table(row))
        cols = st.columns(2)
        for col, (side, view) in zip(cols, verify.side_views(row).items()):
            with col:
                st.caption(f"{side.capitalize()} text in the snapshot"
                           + (" (matches the stored hash)" if view["ok"] else " (does not match)"))
                lang = row["target_language"] if side == "candidate" else "en"
                render.text_block(view["text"], lang, empty="(no single snapshot row for this key)")
                if view["diff"] is not None:
                    st.caption(f"After {row['hint']} normalisation (matches the stored hash):")
                    render.text_block(view["diff"], lang)

st.header("Data files")
st.caption("SHA-256 and size of every file, checked once per process against the recorded "
           "checksums and, for Hub snapshots, the Hub's LFS sha256.")
render.table(verify.file_table([context.dataset_for("audit"), context.dataset_for("snapshot")]))
