"""JudgeScope: the frame. Page config, explicit navigation, the shared sidebar."""

import streamlit as st

from judgescope import sidebar

st.set_page_config(page_title="JudgeScope", page_icon="⚖️", layout="wide")

pages = {
    "Collection": [
        st.Page("pages/overview.py", title="Overview", icon="🗂️", default=True),
        st.Page("pages/excluded.py", title="Excluded rows", icon="🧾"),
        st.Page("pages/integrity.py", title="Integrity", icon="🔐"),
    ],
    "Translation audit": [
        st.Page("pages/distributions.py", title="Distributions", icon="📊"),
        st.Page("pages/languages.py", title="Languages", icon="🌐"),
        st.Page("pages/review.py", title="Review", icon="🔎"),
    ],
    "Ranking": [
        st.Page("pages/ranking.py", title="Ranking accuracy", icon="🏁"),
        st.Page("pages/position_bias.py", title="Position bias", icon="↔️"),
        st.Page("pages/pairs.py", title="Pairs", icon="🔍"),
        st.Page("pages/verification.py", title="Human verification", icon="✅"),
    ],
}
nav = st.navigation(pages)
sidebar.draw()
nav.run()
