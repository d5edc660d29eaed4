"""On Review, for a collection with an earlier audit: the same unit's row of the earlier run
beside the opened record (score, judge and prompt, explanation, whether the texts are
byte-identical), so an anchor that moved opens with both versions side by side."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from judgescope.text import md_literal
from judgescope.web import context
from judgescope.web.render import text_block


def _judge(row) -> str:
    def v(col):
        return "not recorded" if pd.isna(row.get(col)) else str(row[col])
    return f"{v('requested_judge_model')} / prompt {v('judge_prompt_version')}"


def panel(r: pd.Series) -> None:
    """Both runs' scores, judges and explanations for the opened record's unit."""
    if "audit_previous" not in context.roles():
        return
    earlier = context.run("audit_previous_record", record_id=str(r["judge_record_id"]))
    st.markdown("**Both runs of this unit**")
    if earlier.empty or int(earlier["current_rows"].iloc[0]) != 1:
        st.caption("The earlier run has no single row for this unit (source_id, else instance_id; language, unit, "
                   "paragraph): nothing to set beside it.")
        return
    e = earlier.iloc[0]
    st.caption(("Anchor: source and candidate texts byte-identical in both runs (SHA-256), so a change "
                "of score is the judge's." if e["anchor"] else
                "Not an anchor: a text changed between the runs (or its hash is not recorded).")
               + f" New − old: {e['diff']:+g}.")
    now, then = st.columns(2)
    with now:
        st.markdown(f"**This run** · score {r['score']:g} · " + md_literal(_judge(r), limit=200))
        st.caption("Its explanation is shown above.")
    with then:
        st.markdown(f"**Earlier run** · score {e['score']:g} · " + md_literal(_judge(e), limit=200))
        text_block(None if pd.isna(e["judge_explanation"]) else str(e["judge_explanation"]), "en",
                   empty="(no explanation recorded)")
        st.caption("Earlier record " + md_literal(str(e["judge_record_id"]), limit=80))
