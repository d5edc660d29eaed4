"""Streamlit pieces of the Review page: the opened record with previous / next, and the export
with texts. Domain work stays in judgescope.audit.rows; this module only renders."""

from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st

from judgescope import bounded
from judgescope.audit import rows as audit_rows
from judgescope.integrity import hashes as verify
from judgescope.reviews import verdict_stats as reviews_stats
from judgescope.web import blind_review
from judgescope.web import earlier_version
from judgescope.web import verdicts
from judgescope.web import context, pager, results, urls
from judgescope.schema import language_name
from judgescope.text import md_literal
from judgescope.web.context import run
from judgescope.web.render import table, text_block


def go_to(record_id: str) -> None:
    """Open record_id from a click's callback: the run that follows draws it, once."""
    st.query_params["record"] = str(record_id)
    st.session_state.pop("open_record", None)


def open_record(record_id: str) -> None:
    """Open record_id from within a run: that run ends and another draws it."""
    go_to(record_id)
    st.rerun()


def checked_page(filters: dict, desc: bool, pos: pager.Position, rows: pd.DataFrame, total: int,
                 page_size: int, sig: str) -> tuple[pager.Position, pd.DataFrame]:
    """The page at the URL's position, made to fit the list: its first row's number counted from
    the cursor (a hand-edited `at` is not believed), and a cursor past the end moved to the last
    page, said. The URL follows."""
    if pos.after is None:
        return pos, rows
    if rows.empty:  # past the end: the last page, from the rows at the list's end read backwards
        end = audit_rows.review_page(run, filters, pager.start(not desc), not desc, page_size + 1)
        moved = pager.previous_position(pager.Position(pos.after, total + 1),
                                        list(zip(end.score, end.judge_record_id)), page_size)
        st.warning(f"The page position in the URL is past the end of the {total:,} matching rows; "
                   "showing the last page instead.")
        rows = audit_rows.review_page(run, filters, moved.after or pager.start(desc), desc, page_size)
    else:
        moved = pager.Position(pos.after, audit_rows.rows_through(run, filters, pos.after, desc) + 1)
    if moved != pos:
        urls.set_position(moved, sig, rerun=False)
    return moved, rows


def record_labels(rows: pd.DataFrame) -> dict[str, str]:
    """Each listed record's label in the record picker: score · language · unit · id (no score
    under blind review)."""
    blind = blind_review.active()
    return {i: ("" if blind else f"{score:g} · ") + f"{language_name(lang)} · {unit} · {i}"
            for i, score, lang, unit in zip(rows.judge_record_id, rows.score, rows.target_language, rows.unit)}


# Lists a record can be opened from and walked in (URL `list=`), each read by the same query
# and order as the page that lists it, so Prev / Next on Review walk exactly that list.
ORIGIN_LIMIT = 5_000
ORIGINS = {"exact_copies": "the exact copies", "integrity": "the Integrity class"}


def origin_params(name: str, **params) -> dict:
    """The URL parameters a row link of list `name` carries to Review."""
    return {"list": name, **{f"{name}_{k}": v for k, v in params.items()}}


def origin_list() -> tuple[str, list[str], str] | None:
    """(name, ids in the list's order, description) of the list in the URL, else None."""
    name = urls.read("list")
    if name == "exact_copies":
        langs = st.query_params.get_all("exact_copies_lang")
        units = st.query_params.get_all("exact_copies_unit")
        rows = run("audit_exact_copy_rows", languages=langs, units=units, limit=ORIGIN_LIMIT)
        what = ", ".join([*map(language_name, langs), *units]) or "every language and unit"
        return name, rows.judge_record_id.astype(str).tolist(), f"the exact copies ({what})"
    if name == "integrity":
        cls = urls.read("integrity_class", verify.CLASSES)
        if cls is None:
            return None
        rows = verify.class_rows(run, cls, ORIGIN_LIMIT)
        return name, rows.judge_record_id.astype(str).tolist(), f"the Integrity class “{cls.replace('_', ' ')}”"
    return None


def leave_origin() -> None:
    for key in [k for k in st.query_params if k == "list" or k.startswith(tuple(f"{n}_" for n in ORIGINS))]:
        st.query_params.pop(key, None)


def walk(r: pd.Series, filters: dict, desc: bool, total: int, origin) -> tuple:
    """(previous id, next id, position, total, what) of the record in the list it is walked in:
    the list it was opened from, else Review's filtered list (one total order, both ways)."""
    rid = str(r["judge_record_id"])
    if origin:
        before, after, position = audit_rows.list_step(origin[1], rid)
        return before, after, position, len(origin[1]), origin[2]
    key = audit_rows.sort_key(r["score"], rid)
    before, after, position = audit_rows.review_walk(run, filters, key, desc)
    return (before and before[1]), (after and after[1]), position, total, "the filtered list"


def review_record(r: pd.Series, filters: dict, desc: bool, has_snapshot: bool, total: int = 0,
                  origin=None, reviewed=None) -> None:
    """The opened record, where the user is looking: score, texts, explanation, prev / next."""
    with st.container(border=True):
        head, prev, nxt, close = st.columns([5, 1.3, 1.3, 1], vertical_alignment="center")
        head.markdown(f"**Record** {md_literal(r['judge_record_id'], limit=80)}")
        before, after, position, n, what = walk(r, filters, desc, total, origin)
        # Moved in the click's callback: the next run draws the new record and its verdict panel
        # (moved within the run, the old record was drawn again first and the panel waited a run).
        prev.button("◀ Prev", key="rec_prev", disabled=before is None, shortcut="k", on_click=go_to,
                    args=(before,), help=f"Previous record of {what} (k)")
        nxt.button("Next ▶", key="rec_next", disabled=after is None, shortcut="j", on_click=go_to,
                   args=(after,), help=f"Next record of {what} (j)")
        if close.button("Close", key="rec_close"):
            st.query_params.pop("record", None)
            st.rerun()
        st.caption((f"Row {position:,} of {n:,} in {md_literal(what, 200)}" if position else
                    f"This record is not in {md_literal(what, 200)} ({n:,} rows); Prev / Next "
                    "go to the rows on either side of where it would stand.") + ".")
        if origin and st.button("Walk Review's filtered list instead", key="rec_leave_origin"):
            leave_origin()
            st.rerun()
        if reviewed is not None:
            queue(r, filters, desc, origin, reviewed)
        hide = blind_review.hides(r)  # blind review: hidden until this reviewer's label is saved
        m = st.columns(4)
        m[0].metric("Score", "hidden" if hide else f"{r['score']:g}")
        # A metric's value renders markdown: data text goes through the one escaper.
        m[1].metric("Language", md_literal(language_name(r["target_language"]), 60))
        m[2].metric("Unit", md_literal(str(r["unit"]), 60))
        with m[3]:  # origins are long phrases: shown whole, wrapped, not as a clipped metric
            st.caption("Score origin")
            st.text(r["score_origin"] or "not recorded")
        if pd.notna(r.get("system")):
            st.caption("System (whose output was judged): " + md_literal(str(r["system"]), 200))
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
        elif "snapshot" in context.roles():
            problems = results.verification()[2]
            st.caption("The snapshot's texts cannot be joined to this audit"
                       + (f": {md_literal(problems[0], limit=300)}" if problems else "") + ". See Integrity.")
        else:
            st.caption("This collection has no source snapshot: texts cannot be shown, only hashes.")
        if hide:
            blind_review.label_panel(r)
            return
        blind_review.revealed_note(r)
        st.markdown("**Judge explanation**")
        text_block(explanation(r), "en", empty="(no explanation recorded)",  # asked per record
                   key=f"whole_explanation_{hashlib.sha256(str(r['judge_record_id']).encode()).hexdigest()[:16]}",
                   whole=lambda: run("audit_record_explanation", record_id=r["judge_record_id"])
                   .judge_explanation.iloc[0])
        earlier_version.panel(r)
        with st.expander("Every field of this record"):
            table(audit_rows.record_fields(pd.DataFrame([r])), placeholder="not recorded")
        coll = context.catalog().manifest.collections[context.collection_name()]
        verdicts.verdict_panel(r, guidelines=coll.guidelines or None)


def explanation(r: pd.Series) -> bounded.Prefix | None:
    """The opened record's explanation as audit_record reads it: its first characters and the
    whole one's size (the whole text is read only for its download)."""
    if pd.isna(r.get("judge_explanation")):
        return None
    return bounded.Prefix(str(r["judge_explanation"]), int(r["judge_explanation_chars"]),
                          int(r["judge_explanation_bytes"]))


def queue_source():
    """What the queue skips: rows with a verdict, or under blind review rows with a blind label."""
    return blind_review.labelled_ids if blind_review.active() else verdicts.reviewed_ids


def queue_start(filters: dict, desc: bool, origin) -> None:
    """With no record open: start the queue at the list's first unreviewed (unlabelled) row."""
    queue(None, filters, desc, origin, queue_source())


def queue(r: pd.Series | None, filters: dict, desc: bool, origin, reviewed) -> None:
    """Next unreviewed (by me, by anyone) after this record (from the start when none is open)
    in the list it is walked in, under the current filters and order."""
    who = verdicts.current_reviewer()
    latest = reviewed()
    c = st.columns([1.6, 1.6, 3], vertical_alignment="center")
    for col, (label, mine) in zip(c, (("Next unreviewed by me", True), ("Next unreviewed by anyone", False))):
        done = latest[latest.reviewer == who] if mine else latest
        ids = done.judge_record_id.astype(str).unique().tolist()
        if col.button(label, key=f"queue_{'me' if mine else 'any'}", disabled=mine and not who,
                      help="Skips this record and every reviewed one, in the list's order"):
            rid = None if r is None else str(r["judge_record_id"])
            if origin:
                target = audit_rows.list_next_unreviewed(origin[1], rid, ids)
            else:
                key = None if r is None else audit_rows.sort_key(r["score"], rid)
                found = audit_rows.next_unreviewed(run, filters, key, desc, ids)
                target = found and found[1]
            if target is None:
                st.session_state["_queue_note"] = "Every row of this list is reviewed."
            else:
                open_record(target)
    if "_queue_note" in st.session_state:
        c[2].caption(st.session_state.pop("_queue_note"))


def review_export(filters: dict, has_snapshot: bool) -> pd.DataFrame:
    """The filtered rows for export, with their snapshot texts when the collection has one and
    their review state (verdict_stats.review_state) when reviewing is on."""
    rows = run("audit_review_export", **filters)
    if has_snapshot and not rows.empty:
        texts = audit_rows.snapshot_texts(run, rows.judge_record_id.tolist())
        rows = rows.merge(texts.rename(columns={"class": "hash_class"}), on="judge_record_id", how="left")
    if verdicts.mode() == "off":
        return rows
    return reviews_stats.review_state(rows, verdicts.reviewed_ids())
