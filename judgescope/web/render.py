"""How the pages draw data: tables with readable column labels, and data text (escaped, wrapped,
right-to-left where needed, error spans marked) shown as text, never as HTML or markdown."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from judgescope import bounded
from judgescope.schema import RTL_LANGUAGES, label
from judgescope.text import visible_text

SPAN_COLOURS = {"major": "#f6c1c1", "critical": "#f09a9a", "minor": "#fbe3a6"}


def table(frame: pd.DataFrame, **kwargs):
    """A dataframe with readable column labels (SQL returns snake_case)."""
    shown = frame.rename(columns={c: label(c) for c in frame.columns})
    return st.dataframe(shown, hide_index=True, **kwargs)


def text_block(text: str | None, lang: str | None = None, empty: str = "(empty)") -> None:
    """Data text shown as text: escaped, wrapped, right-to-left where needed; a very long text
    shows its first characters with its size and a download of the whole (judgescope.bounded)."""
    if text is None or (pd.api.types.is_scalar(text) and pd.isna(text)):
        st.caption(empty)
        return
    part = bounded.prefix(str(text))
    shown = visible_text(part.shown)
    base = str(lang or "").split("-")[0].lower()
    direction = "rtl" if base in RTL_LANGUAGES else "auto"
    st.html(f'<div dir="{direction}" lang="{html.escape(base)}" style="white-space:pre-wrap;'
            f'overflow-wrap:anywhere;unicode-bidi:isolate;font-size:0.95rem;line-height:1.5;'
            f'border:1px solid #ddd;border-radius:6px;padding:0.6rem;max-height:24rem;'
            f'overflow-y:auto">{html.escape(shown)}</div>')
    if part.truncated:
        st.caption(part.note())
        st.download_button("⬇ The whole text", str(text).encode("utf-8", "surrogatepass"),
                           "text.txt", "text/plain", on_click="ignore")


def spans_block(pieces: list[tuple[str, str | None, str | None]]) -> None:
    """A text with its error spans highlighted (as Marot shows MQM annotations): every piece and
    label from the data is escaped; a span's category and severity follow it as text, so they
    are read aloud and copied too, not only coloured."""
    parts = []
    for piece, span_label, severity in pieces:
        shown = html.escape(visible_text(piece))
        if span_label is None:
            parts.append(shown)
            continue
        colour = SPAN_COLOURS.get(severity or "", "#dcdcf4")
        tag = html.escape(visible_text(span_label))
        parts.append(f'<mark style="background:{colour};border-radius:3px;padding:0 2px">{shown}'
                     f'</mark><sup style="font-size:0.7rem;color:#444"> [{tag}]</sup>')
    st.html('<div style="white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:isolate;'
            'line-height:1.8;border:1px solid #ddd;border-radius:6px;padding:0.6rem">'
            + "".join(parts) + "</div>")
