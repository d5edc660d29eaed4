"""JudgeScope: the frame. Page config, explicit navigation, the shared sidebar."""

import streamlit as st

from judgescope import sidebar

st.set_page_config(page_title="JudgeScope", page_icon="⚖️", layout="wide")

pages = {
    "Collection": [
        st.Page("pages/overview.py", title="Overview", icon="🗂️", default=True),
        st.Page("pages/excluded.py", title="Excluded rows", icon="🧾"),
    ],
}
nav = st.navigation(pages)
sidebar.draw()
nav.run()
