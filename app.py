"""JudgeScope: the frame. Page config, explicit navigation, the shared sidebar."""

import streamlit as st

from judgescope import sidebar

st.set_page_config(page_title="JudgeScope", page_icon=":material/balance:", layout="wide")

pages = {
    "Collection": [
        st.Page("pages/overview.py", title="Overview", icon=":material/dashboard:", default=True),
        st.Page("pages/excluded.py", title="Excluded rows", icon=":material/playlist_remove:"),
        st.Page("pages/integrity.py", title="Integrity", icon=":material/verified:"),
    ],
    "Translation audit": [
        st.Page("pages/distributions.py", title="Distributions", icon=":material/bar_chart:"),
        st.Page("pages/languages.py", title="Languages", icon=":material/translate:"),
        st.Page("pages/review.py", title="Review", icon=":material/rate_review:"),
        st.Page("pages/exact_copies.py", title="Exact copies", icon=":material/content_copy:"),
        st.Page("pages/provenance.py", title="Provenance", icon=":material/history_edu:"),
        st.Page("pages/compare.py", title="Compare versions", icon=":material/difference:"),
    ],
    "Calibration": [
        st.Page("pages/calibration.py", title="Judges vs humans", icon=":material/gavel:"),
        st.Page("pages/calibration_humans.py", title="Human agreement", icon=":material/groups:"),
        st.Page("pages/disagreements.py", title="Disagreements", icon=":material/call_split:"),
        st.Page("pages/judgements.py", title="Bulk judgements", icon=":material/inventory_2:"),
    ],
    "Ranking": [
        st.Page("pages/ranking.py", title="Ranking accuracy", icon=":material/leaderboard:"),
        st.Page("pages/position_bias.py", title="Position bias", icon=":material/swap_horiz:"),
        st.Page("pages/pairs.py", title="Pairs", icon=":material/compare:"),
        st.Page("pages/verification.py", title="Human verification", icon=":material/fact_check:"),
    ],
}
nav = st.navigation(pages, expanded=True)
sidebar.draw()
nav.run()
