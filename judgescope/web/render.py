"""How the pages draw data: tables with readable column labels, and data text (escaped, wrapped,
right-to-left where needed, error spans marked) shown as text, never as HTML or markdown."""

from __future__ import annotations

import hashlib
import html
import json

import pandas as pd
import streamlit as st

from judgescope import bounded
from judgescope.schema import RTL_LANGUAGES, label
from judgescope.text import visible_text

SPAN_COLOURS = {"major": "#f6c1c1", "critical": "#f09a9a", "minor": "#fbe3a6"}


# A share and its interval's ends, as percentages (by the labels `table` gives share, ci_low, ci_high).
SHARE_COLUMNS = {label(c): st.column_config.NumberColumn(label(c), format="percent")
                 for c in ("share", "ci_low", "ci_high")}


def table(frame: pd.DataFrame, *, identity=None, **kwargs):
    """A dataframe with readable column labels (SQL returns snake_case).

    A selectable table (`on_select`) is keyed by `key` and by what its rows are (`identity`, by
    default the frame shown): Streamlit keeps a selection, a row position, for as long as the key
    lives, so under a fixed key a row picked in one list would be read against the rows of the
    next (another filter, page or judge)."""
    if kwargs.get("on_select", "ignore") != "ignore":
        kwargs["key"] = selection_key(kwargs["key"], frame if identity is None else identity)
    shown = frame.rename(columns={c: label(c) for c in frame.columns})
    return st.dataframe(shown, hide_index=True, **kwargs)


def opened_in(ids, opened) -> dict:
    """The keywords of a selectable table listing `ids` of which `opened` is shown beside it: its
    rows' identity holds the opened one too (a selection must outlive neither), and its default
    selection marks the opened row when it is listed, so the mark is always what is shown."""
    ids = [str(i) for i in ids]
    opened = None if opened is None else str(opened)
    hits = [i for i, v in enumerate(ids) if v == opened]
    return {"identity": [opened, ids],
            "selection_default": {"selection": {"rows": hits[:1]}} if hits else None}


def selection_key(key: str, identity) -> str:
    """`key` and a digest of `identity` (a frame, or anything JSON can write): equal for equal
    rows in equal order, different when a row, its position or a column changes."""
    h = hashlib.sha256()
    if isinstance(identity, (pd.DataFrame, pd.Series)):
        frame = identity.to_frame() if isinstance(identity, pd.Series) else identity
        h.update(json.dumps([str(c) for c in frame.columns]).encode())
        try:
            h.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
        except TypeError:  # a cell holds a list or dict: its text stands for it
            h.update(frame.astype(str).to_json(orient="values").encode())
    else:
        h.update(json.dumps(identity, default=str).encode())
    return f"{key}.{h.hexdigest()[:16]}"


def text_block(text: str | bounded.Prefix | None, lang: str | None = None, empty: str = "(empty)",
               whole=None, key: str = "whole_text") -> None:
    """Data text shown as text: escaped, wrapped, right-to-left where needed; a very long text
    shows its first characters with its size and a download of the whole (judgescope.bounded).
    `text` may be a Prefix a query already cut (its whole size known): the whole text is then
    read by `whole()` only when the reader asks for the download (toggle `key`)."""
    if text is None or (pd.api.types.is_scalar(text) and pd.isna(text)):
        st.caption(empty)
        return
    part = text if isinstance(text, bounded.Prefix) else bounded.prefix(str(text))
    shown = visible_text(part.shown)
    base = str(lang or "").split("-")[0].lower()
    direction = "rtl" if base in RTL_LANGUAGES else "auto"
    st.html(f'<div dir="{direction}" lang="{html.escape(base)}" style="white-space:pre-wrap;'
            f'overflow-wrap:anywhere;unicode-bidi:isolate;font-size:0.95rem;line-height:1.5;'
            f'border:1px solid #ddd;border-radius:6px;padding:0.6rem;max-height:24rem;'
            f'overflow-y:auto">{html.escape(shown)}</div>')
    if not part.truncated:
        return
    st.caption(part.note())
    if whole is not None and not st.toggle(f"Prepare the whole text ({part.utf8_bytes / 2**20:.1f} MB) "
                                           "for download", key=key):
        return
    st.download_button("⬇ The whole text", str(whole() if whole is not None else text).encode(
        "utf-8", "surrogatepass"), "text.txt", "text/plain", on_click="ignore")


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
