"""Streamlit pieces the calibration pages share: filters bound to the URL, the cached report,
and confusion matrices whose cells link to the items they count."""

from __future__ import annotations

import re
from fractions import Fraction

import pandas as pd
import streamlit as st

from judgescope.calibration import panel as cal
from judgescope.web import cards
from judgescope import navigation
from judgescope.text import md_literal
from judgescope.web import context
from judgescope.web import urls
from judgescope.schema import VERDICTS

CELL_PAGE = navigation.page("disagreements")
CELL_LABELS = {"TP": "TP: both match", "FP": "FP: judge match, humans not",
               "FN": "FN: humans match, judge not", "TN": "TN: neither match",
               cal.DISAGREE: "All disagreements (FP + FN)"}
CELL_HELP = ("TP / FP / FN / TN: the binary confusion against the human majority; disagree: FP "
             "and FN; 'human/judge': a three-way cell, e.g. match/no_match.")


def split_filter(container=st) -> list[str]:
    """Split multiselect bound to ?split=…; returns the chosen options (empty = all), where
    cal.NO_SPLIT stands for the items whose split is NULL."""
    splits = cal.split_options(context.run("calib_splits")["split"])
    return container.multiselect("Split", splits, key=urls.bound("split", splits), bind="query-params",
                                 help=f"Only items of these splits (empty = all; {cal.NO_SPLIT}"
                                      ": items without one).")


def gate_inputs(c1, c2) -> tuple[float, float]:
    # "%g" shows the value entered (0.7999 stays 0.7999): a gate must never be shown rounded.
    judge = urls.url_number(c1, "Per-judge gate (Scott's π ≥)", step=0.05, key="judge_gate")
    panel = urls.url_number(c2, "Panel gate (Scott's π ≥)", step=0.05, key="panel_gate")
    return judge, panel


@st.cache_data(max_entries=32, show_spinner="Computing agreement…")
def _report(items: pd.DataFrame, judgements: pd.DataFrame, judge_gate, panel_gate):
    return cal.build_frame(items, judgements), cal.report(items, judgements, judge_gate,
                                                          panel_gate, qa=True)


def load(splits: list[str], judge_gate=cal.JUDGE_GATE, panel_gate=cal.PANEL_GATE):
    """(frame, report) for the chosen splits; stops the page politely when nothing is left."""
    items = context.run("calib_items", **cal.split_params(splits))
    judgements = context.run("calib_item_judgements", **cal.split_params(splits))
    if items.empty or judgements.empty:
        st.info("No calibration item with judge verdicts matches these filters.")
        context.stop()
    frame, rep = _report(items, judgements, Fraction(str(judge_gate)), Fraction(str(panel_gate)))
    return frame.copy(), rep


def _link(rater: str, cell: str, count: int, splits: list[str], label: str | None = None):
    st.page_link(CELL_PAGE.path, label=label or f"{cell} · {count}", help=f"List the {count} items in this cell",
                 query_params=navigation.link_params(CELL_PAGE, collection=context.collection_name(), judge=rater,
                                                     cell=cell, **({"split": splits} if splits else {})))


def _row(first: int, rest: int, n: int) -> list:
    """One matrix row of fixed-width cells that stays a row on a phone (st.columns stack):
    the widths fit a 390 px screen, inside a bordered box too, so nothing scrolls sideways."""
    row = st.container(horizontal=True, wrap=False, vertical_alignment="center", gap="xsmall")
    with row:
        return [st.container(width=first)] + [st.container(width=rest) for _ in range(n - 1)]


def binary_matrix(rater: str, name: str, r: dict, splits: list[str]) -> None:
    """2 × 2 confusion (rows: human majority; columns: this rater) with linked counts."""
    label = md_literal(name)
    badge = cards.badge_md(r['verdict'], 'green' if r['verdict'] == 'PASS' else 'red')
    st.markdown(f"**{label}** · π {r['scotts_pi_shown']} · {badge}")
    head = _row(104, 96, 3)
    head[0].caption("judge says →")
    head[1].caption("match")
    head[2].caption("not match")
    for human, cells in (("Humans: match", ("TP", "FN")), ("Humans: not match", ("FP", "TN"))):
        row = _row(104, 96, 3)
        row[0].caption(human)
        for col, cell in zip(row[1:], cells):
            with col:
                _link(rater, cell, r[cell.lower()], splits)


def three_way_matrix(frame: pd.DataFrame, rater: str, name: str, splits: list[str]) -> None:
    """3 × 3 counts of (human modal verdict, rater verdict), each count a link."""
    table, left_out = cal.three_way_matrix(frame, rater)
    st.caption(f"Rows: humans · columns: {md_literal(name)}")
    head = _row(84, 76, 4)
    head[0].caption("&nbsp;")
    for col, v in zip(head[1:], VERDICTS):
        col.caption(v)
    for h in VERDICTS:
        row = _row(84, 76, 4)
        row[0].caption(h)
        for col, v in zip(row[1:], VERDICTS):
            with col:
                _link(rater, f"{h}/{v}", int(table.loc[h, v]), splits, label=str(table.loc[h, v]))
    st.caption(f"{left_out} item(s) are not in this matrix: three different human verdicts, or "
               "no verdict from the rater (missing, or for the panel none held by a strict "
               "majority of the judges).")


def cell_label(cell: str) -> str:
    if cell in CELL_LABELS:
        return CELL_LABELS[cell]
    human, _, judge = cell.partition("/")
    return f"Humans {md_literal(human)}, judge {md_literal(judge)}"


def export_stem(judge: str, cell: str) -> str:
    """A file name (and widget key) for a cell's export: only [a-z0-9_], whatever the names."""
    return re.sub(r"[^a-z0-9]+", "_", f"calibration {judge} {cell}".lower()).strip("_")


def ci_caption(rep: dict, gates: bool = True) -> None:
    if gates:
        st.caption(f"π CI: {rep['pi_ci_method']}. Gates compare the exact fraction; a decimal is "
                   "shown with enough digits never to round across its gate.")
    else:
        st.caption(f"CI: {rep['humans']['ci_method']}.")


def table(frame: pd.DataFrame, **kwargs):
    """A dataframe whose column names are already display labels (render.table would recase them)."""
    return st.dataframe(frame, hide_index=True, width="stretch", **kwargs)
