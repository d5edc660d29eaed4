"""JudgeScope: the frame. Page config, navigation from the page registry, the shared sidebar.
Each page's first line (context.title) checks that the collection can fill it."""

import streamlit as st

from judgescope import navigation
from judgescope.web import sidebar
from judgescope.web import style
from judgescope.web import how
from judgescope.web import context

st.set_page_config(page_title="JudgeScope", page_icon=":material/balance:", layout="wide")
style.apply()  # contrast and focus where Streamlit's defaults fall short (WCAG 2.2 AA)

# Every page is routable (a shared URL always opens); the sidebar lists only those the
# collection can fill, so the built-in menu is hidden.
current = st.navigation([st.Page(p.path, title=p.title, icon=p.icon, default=p.default)
                         for p in navigation.PAGES], position="hidden")
page = navigation.page(current.url_path)
sidebar.draw(page)
with context.page_trace(page):  # the page's queries only: the sidebar's are not part of its numbers
    try:
        current.run()
    except context.PageStopped:  # a page that ended early still explains what it showed
        pass
    how.page_disclosure()
