"""Streamlit pieces of the Review page: the opened record with previous / next, and the export
with texts. Domain work stays in judgescope.audit.rows; this module only renders."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.audit import rows as audit_rows
from judgescope.web import reviews as reviews_view
from judgescope.web import ui
from judgescope.schema import language_name
from judgescope.web.ui import md_literal, run, table, text_block


def open_record(record_id: str) -> None:
    st.query_params["record"] = str(record_id)
    st.session_state.pop("open_record", None)
    st.rerun()


def record_label(rows: pd.DataFrame, record_id: str) -> str:
    r = rows[rows.judge_record_id == record_id].iloc[0]
    return f"{r['score']:g} · {language_name(r['target_language'])} · {r['unit']} · {record_id}"


def review_record(r: pd.Series, filters: dict, desc: bool, has_snapshot: bool) -> None:
    """The opened record, where the user is looking: score, texts, explanation, prev / next."""
    with st.container(border=True):
        head, prev, nxt, close = st.columns([5, 1.3, 1.3, 1], vertical_alignment="center")
        head.markdown(f"**Record** {md_literal(r['judge_record_id'], limit=80)}")
        before, after = audit_rows.neighbours(run, filters, (float(r["score"]), str(r["judge_record_id"])), desc)
        if prev.button("◀ Prev", key="rec_prev", disabled=before is None, shortcut="k",
                       help="Previous record of the filtered list (k)"):
            open_record(before[1])
        if nxt.button("Next ▶", key="rec_next", disabled=after is None, shortcut="j",
                      help="Next record of the filtered list (j)"):
            open_record(after[1])
        if close.button("Close", key="rec_close"):
            st.query_params.pop("record", None)
            st.rerun()
        m = st.columns(4)
        m[0].metric("Score", f"{r['score']:g}")
        # A metric's value renders markdown: data text goes through the one escaper.
        m[1].metric("Language", md_literal(language_name(r["target_language"]), 60))
        m[2].metric("Unit", md_literal(str(r["unit"]), 60))
        with m[3]:  # origins are long phrases: shown whole, wrapped, not as a clipped metric
            st.caption("Score origin")
            st.text(r["score_origin"] or "not recorded")
        if has_snapshot:
            texts = audit_rows.snapshot_texts(run, [str(r["judge_record_id"])])
            if texts.empty:
                st.info("The hash verification has no entry for this row.")
            else:
                t = texts.iloc[0]
                s, c = st.columns(2)
                with s:
                    st.markdown("**" + md_literal(audit_rows.language_heading(r.get("source_language"), "Source"))
                                + (" source**" if pd.notna(r.get("source_language")) else "**"))
                    text_block(t["source_text"], r.get("source_language"), empty="(no text)")
                with c:
                    st.markdown(f"**Candidate · {md_literal(language_name(r['target_language']))}**")
                    text_block(t["candidate_text"], r["target_language"], empty="(no text)")
                st.caption(audit_rows.match_note(t))
        elif "snapshot" in ui.roles():
            problems = ui.verification()[2]
            st.caption("The snapshot's texts cannot be joined to this audit"
                       + (f": {md_literal(problems[0], limit=300)}" if problems else "") + ". See Integrity.")
        else:
            st.caption("This collection has no source snapshot: texts cannot be shown, only hashes.")
        st.markdown("**Judge explanation**")
        text_block(r["judge_explanation"], "en", empty="(no explanation recorded)")
        with st.expander("Every field of this record"):
            table(audit_rows.record_fields(pd.DataFrame([r])), placeholder="not recorded")
        reviews_view.verdict_panel(r)


def review_export(filters: dict, has_snapshot: bool) -> pd.DataFrame:
    """The filtered rows for export, with their snapshot texts when the collection has one."""
    rows = run("audit_review_export", **filters)
    if not has_snapshot or rows.empty:
        return rows
    texts = audit_rows.snapshot_texts(run, rows.judge_record_id.tolist())
    return rows.merge(texts.rename(columns={"class": "hash_class"}), on="judge_record_id", how="left")
