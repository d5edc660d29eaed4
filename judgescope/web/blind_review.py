"""Blind review (issue 43 item 6) on Review and Reviews: with ?blind=1 the judge's score and
explanation stay hidden on a record until this reviewer's own pass / fail label on it is saved
(judgescope.reviews.blind_labels), then they are revealed; on Reviews, the judge calibrated on those
blind labels (judgescope.calibration.blind)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.calibration import blind as blind_cal
from judgescope.reviews import blind_labels
from judgescope.reviews import states
from judgescope.reviews import database
from judgescope.text import md_literal
from judgescope.web import context, render, urls, verdicts

BUTTONS = (("pass", "Pass", "1"), ("fail", "Fail", "2"), ("unsure", "Unsure", "3"))
# List columns a blind reviewer does not see: the judge's, and the verdict state ("judge too harsh"
# says which way the hidden score went).
HIDDEN = ("score", "judge_explanation", "review")


def toggle() -> bool:
    """The Blind review switch, held in the URL as ?blind=1 (any other value is named)."""
    if "blind_toggle" not in st.session_state:
        st.session_state["blind_toggle"] = urls.read("blind") == "1"

    def write():
        if st.session_state["blind_toggle"]:
            st.query_params["blind"] = "1"
        else:
            st.query_params.pop("blind", None)
    st.toggle("Blind review: hide the judge's score and explanation until I label the row", key="blind_toggle",
              on_change=write, help="Your own pass / fail, saved as a blind label; these calibrate "
              "the judge on Reviews (URL ?blind=1)")
    return active()


def active() -> bool:
    return st.query_params.get("blind") == "1" and verdicts.mode() != "off"


def _dataset() -> str:
    loaded = context.dataset_for("audit")
    return loaded.spec.name if loaded else "audit"


def hides(r: pd.Series) -> bool:
    """True while blind review is on and this reviewer has no blind label on row r."""
    if not active():
        return False
    who = verdicts.current_reviewer()
    return not who or blind_labels.mine(who, _dataset(), str(r["judge_record_id"]), verdicts.state_path()) is None


def labelled_ids() -> pd.DataFrame:
    """Each reviewer's latest blind label on this audit's rows (the queue skips them under blind review)."""
    return blind_labels.latest(verdicts.state_path(), _dataset())


def without_judge(rows: pd.DataFrame) -> pd.DataFrame:
    """A listed page without the judge's score and explanation while blind review is on."""
    return rows.drop(columns=[c for c in HIDDEN if c in rows], errors="ignore") if active() else rows


def _save(ctx: dict, label: str, who: str) -> None:
    try:
        blind_labels.save(verdicts.state_path(), reviewer=who, label=label, **ctx)
    except (database.ReviewStoreBusy, database.ReviewStoreUnavailable, ValueError) as err:
        st.session_state["_review_error"] = str(err)
        return
    st.toast(f"Saved your blind label {label} on record {ctx['judge_record_id'][:80]}", icon=":material/check:")


def label_panel(r: pd.Series) -> None:
    """Hidden state: what is hidden and the buttons to give one's own label."""
    st.info("Blind review: the judge's score and explanation are hidden until you save your own "
            "label on this row (pass = the candidate is right / acceptable).")
    if "_review_error" in st.session_state:
        st.error(st.session_state.pop("_review_error"))
    who = verdicts.reviewer()
    if not who:
        return
    ctx = states.verdict_target(r, context.collection_name(), context.dataset_for("audit"))
    row = st.container(horizontal=True)
    for label, text, short in BUTTONS:
        row.button(text, key=f"blind_label_{label}", shortcut=short, on_click=_save, args=(ctx, label, who),
                   help=f"Save “{text}” as your blind label on this record as {who} ({short})")


def revealed_note(r: pd.Series) -> None:
    """Revealed state: this reviewer's blind label beside the judge's score."""
    if not active():
        return
    who = verdicts.current_reviewer()
    mine = blind_labels.mine(who, _dataset(), str(r["judge_record_id"]), verdicts.state_path()) if who else None
    if mine:
        st.success(f"Your blind label: **{mine}**. Revealed: the judge's score {r['score']:g} and "
                   "explanation below.")


def section() -> None:
    """On Reviews: the judge calibrated on this audit's blind labels."""
    st.header("Blind labels: the judge calibrated by reviewers who did not see its score")
    labels = blind_labels.latest(verdicts.state_path(), _dataset())
    if labels.empty:
        st.caption("No blind label yet: open Review with Blind review on (?blind=1) and label rows.")
        return
    threshold = st.number_input("Judge pass when its score is at least", 0.0, 100.0,
                                blind_cal.DEFAULT_THRESHOLD, key="blind_threshold")
    ids = sorted(labels.judge_record_id.astype(str).unique().tolist())
    counts = context.run("audit_blind_unlabelled", ids=ids, threshold=float(threshold))
    cal = blind_cal.calibration(labels, int(counts.passes.iloc[0]), int(counts.n.iloc[0]), float(threshold))
    st.caption("Rule: " + md_literal(cal["rule"]) + ".")
    for line in blind_cal.lines(cal):
        st.markdown("- " + md_literal(line, limit=2_000))
    render.table(blind_cal.confusion_table(cal), placeholder="n/a")
    st.caption("CLI twin: `judgescope reviews blind --collection " + md_literal(context.collection_name())
               + f" --threshold {float(threshold):g} --json`.")
