"""The app's one stylesheet: where Streamlit's defaults fall short of WCAG 2.2 AA.

Colours follow the active theme (light or dark): the rules fade or ring with the inherited
text colour, so one rule serves both. Tested by tests/test_accessibility.py (axe-core and keyboard walks).
"""

import streamlit as st

CSS = """
/* Captions: Streamlit fades them to 60 % opacity, 3.9:1 on white (1.4.3 Contrast needs 4.5:1).
   At 75 % they stay lighter than body text and reach 6:1 (light) and 9:1 (dark). */
.stApp [data-testid="stCaptionContainer"] {
  opacity: 0.75;
}
/* One visible focus ring (2.4.7, 2.4.13): the text colour, offset from the element. */
:focus-visible {
  outline: 2px solid currentColor !important;
  outline-offset: 2px;
}
/* A table (a canvas grid) moves focus among hidden cells: ring the whole table meanwhile. */
[data-testid="stDataFrame"]:has(:focus-visible) {
  outline: 2px solid currentColor;
  outline-offset: 2px;
}
/* A wide screen gives the page's tables the width Streamlit's 5rem side margins keep empty:
   at 1400 px the Distributions summary (13 columns) is drawn whole instead of cut. */
@media (min-width: 1024px) {
  [data-testid="stMainBlockContainer"] {
    padding-left: 2.5rem;
    padding-right: 2.5rem;
  }
}
/* Radio buttons, checkboxes and toggles hide their input: ring the label a person sees. */
label:has(input[type="radio"]:focus-visible),
label:has(input[type="checkbox"]:focus-visible) {
  outline: 2px solid currentColor;
  outline-offset: 2px;
  border-radius: 4px;
}
"""


def apply() -> None:
    """Add the stylesheet to the page (app.py, before the sidebar and the page)."""
    st.html(f"<style>{CSS}</style>")
