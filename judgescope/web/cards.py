"""Findings drawn as cards: a coloured badge (and a recorded deviation beside it), the sentence
as text, its method below, the full rule folded, and a link to the view proving it."""

from __future__ import annotations

import streamlit as st

from judgescope.findings import Finding
from judgescope.text import md_literal
from judgescope import navigation
from judgescope.web.context import collection_name

BADGE_ICONS = {"PASS": ":material/check_circle:", "FAIL": ":material/cancel:",
               "INCONCLUSIVE": ":material/help:", "ok": ":material/check:",
               "problem": ":material/warning:"}
INCONCLUSIVE_ICON = ":material/help:"


def badge_md(status: str | None, colour: str) -> str:
    """A coloured markdown badge for a fixed status word (never data text); a gate verdict whose
    CI includes the gate reads 'FAIL · inconclusive' with its own icon and colour."""
    word, _, qualifier = (status or "").partition(" · ")
    if word not in BADGE_ICONS:
        return ""
    icon = INCONCLUSIVE_ICON if qualifier else BADGE_ICONS[word]
    label = status if word.isupper() else ""
    return f":{colour}-badge[{icon} {label}]".replace(" ]", "]") + " "


STALE_BADGE = ":red-badge[:material/history: stale calibration] "


def finding(f: Finding) -> None:
    """One finding: its badge and sentence (whose numbers copy as typed), its method on one line
    below, the full rule folded, and a link to the view proving it."""
    spec = navigation.page(f.page)
    text, link = st.columns([5, 2], vertical_alignment="top")
    with text:
        st.markdown(badge_md(f.status, f.colour) + md_literal(f.text, limit=2_000, isolate=False))
        if f.note:
            st.markdown(":orange-badge[:material/flag: recorded deviation] "
                        + md_literal(f.note, limit=500))
        if f.stale:
            st.markdown(STALE_BADGE + md_literal(f.stale, limit=600))
        if f.method:
            st.caption(md_literal(f.method, limit=300, isolate=False))
        if f.how:
            with st.expander("How", icon=":material/info:"):
                st.caption(md_literal(f.how, limit=3_000, isolate=False))
    link.page_link(spec.path, label=f"{md_literal(f.link, limit=80)} →", icon=spec.icon,
                   query_params=navigation.link_params(spec, collection=collection_name(), **f.params))
