"""Figures for the ranking pages: pure builders (result rows -> plotly Figure)."""

from __future__ import annotations

import html

import plotly.graph_objects as go

from judgescope.chart_style import INK, cell_fill, readable, text_on
from judgescope.ranking.decisions import CI_METHOD, row_label

# Plotly reads a few HTML tags in labels and hover text: data names are escaped there (values
# stay raw, so a click on a cell still names its dataset and column).
_e = html.escape

# Colour-blind-safe sequential scale (viridis); baselines sit in their own rows.
COIN, ALWAYS_1 = "baseline · fair coin", "baseline · always Translation 1"


def _wrapped(label: str) -> str:
    """'method · model' on two lines (escaped), so the labels leave the grid its width."""
    return "<br>".join(_e(part) for part in label.split(" · ", 1))


def _fmt(v) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def _cell(r: dict) -> tuple[float | None, str]:
    hover = (f"{_e(row_label(r['method'], r['model']))}<br>{_e(r['dataset'])}<br>accuracy {_fmt(r['accuracy'])}"
             f" [{_fmt(r['ci'][0])}, {_fmt(r['ci'][1])}] ({CI_METHOD})<br>correct {r['correct']}"
             f" of n={r['n']} · human ties excluded {r['human_ties']}<br>model ties "
             f"{r['model_ties']} · unparsed {r['unparsed']} (both counted wrong)")
    return r["accuracy"], hover


def _baseline_cells(rows: list[dict], datasets: list[str]) -> dict:
    first = {r["dataset"]: r for r in rows}
    out = {}
    for ds in datasets:
        a = first[ds]["always_first"]
        out[(ALWAYS_1, ds)] = (a["rate"], f"always Translation 1<br>{_e(ds)}<br>accuracy {_fmt(a['rate'])} "
                               f"[{_fmt(a['low'])}, {_fmt(a['high'])}] ({CI_METHOD}) on n={a['n']}")
        out[(COIN, ds)] = (0.5 if a["n"] else None, f"fair coin<br>{_e(ds)}<br>expected accuracy 0.500")
    return out


def accuracy_grid(rows: list[dict]) -> go.Figure:
    """Heatmap: method · model rows (baselines last), dataset columns, accuracy with CI on hover."""
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    labels = list(dict.fromkeys(row_label(r["method"], r["model"]) for r in rows))
    cells = {(row_label(r["method"], r["model"]), r["dataset"]): _cell(r) for r in rows}
    cells |= _baseline_cells(rows, datasets)
    ys = labels + [ALWAYS_1, COIN]
    z = [[cells.get((y, x), (None, ""))[0] for x in datasets] for y in ys]
    hover = [[cells.get((y, x), (None, "no data"))[1] for x in datasets] for y in ys]
    # Two decimals at 10 px in the cells (they fit a phone's narrow cells); three on hover.
    text = [[f"{v:.2f}" if v is not None else "" for v in row] for row in z]
    scale = {"colorscale": "PuOr", "zmin": 0.3, "zmax": 1.0}  # orange = worse, as on every page
    # Each value in black or white, whichever reads better on its cell.
    ink = [INK if v is None else text_on(cell_fill(v, **scale)) for row in z for v in row]
    fig = go.Figure(go.Heatmap(
        z=z, x=datasets, y=ys, hovertext=hover, hoverinfo="skip", xgap=2, ygap=2,
        # A horizontal colour bar under the grid: on a phone the grid keeps the width.
        colorbar={"title": {"text": "accuracy", "side": "top"}, "orientation": "h", "y": -0.02,
                  "yanchor": "top", "thickness": 10, "len": 0.9}, **scale))
    # Heatmap cells emit no selection events; a near-invisible marker on each cell does, and
    # carries the value and the cell's keys (dataset, "<method>/<model>"; "" for a baseline row)
    # for the click.
    column = {row_label(r["method"], r["model"]): f"{r['method']}/{r['model']}" for r in rows}
    xs, yv = [x for _ in ys for x in datasets], [y for y in ys for _ in datasets]
    fig.add_trace(go.Scatter(x=xs, y=yv, mode="markers+text", hovertext=sum(hover, []),
                             text=sum(text, []), textfont={"size": 10, "color": ink},
                             customdata=[[x, column.get(y, "")] for y in ys for x in datasets],
                             hoverinfo="text", showlegend=False, marker={
                                 "symbol": "square", "size": 28, "opacity": 0.01, "color": "grey"}))
    fig.update_layout(height=170 + 42 * len(ys), margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      xaxis={"title": {"text": "dataset"}, "side": "top", "tickvals": datasets,
                             "ticktext": [_e(d) for d in datasets]},
                      yaxis={"title": {"text": "method · model"}, "autorange": "reversed",
                             "tickvals": ys, "ticktext": [_wrapped(y) for y in ys]})
    return readable(fig)


def _errors(rates: list[dict]) -> dict:
    return {"type": "data", "symmetric": False,
            "array": [None if x["rate"] is None else x["high"] - x["rate"] for x in rates],
            "arrayminus": [None if x["rate"] is None else x["rate"] - x["low"] for x in rates]}


def first_choice_chart(rows: list[dict]) -> go.Figure:
    """Share of picks for Translation 1 per method · model, beside the humans' share on those rows."""
    fig = go.Figure()
    labels = [row_label(r["method"], r["model"]) for r in rows]
    for key, name, symbol, colour, shift in (
            ("first_choice", "model picks Translation 1", "circle", "#0072B2", -0.17),
            ("human_first", "humans prefer Translation 1 (same rows)", "diamond", "#E69F00", 0.17)):
        rates = [r[key] for r in rows]
        fig.add_trace(go.Scatter(
            x=[x["rate"] for x in rates], y=[i + shift for i in range(len(rows))], mode="markers",
            name=name, marker={"symbol": symbol, "size": 10, "color": colour},
            error_x=_errors(rates) | {"color": colour}, customdata=[_e(x) for x in labels],
            hovertemplate="%{customdata}<br>" + name + ": %{x:.3f}<extra></extra>"))
    fig.add_vline(x=0.5, line_dash="dot", line_color="grey")
    fig.update_layout(height=140 + 40 * len(rows), margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      xaxis={"title": {"text": f"share choosing Translation 1 ({CI_METHOD} CI)"},
                             "range": [0, 1]},
                      yaxis={"title": {"text": "method · model"}, "autorange": "reversed",
                             "tickvals": list(range(len(rows))), "ticktext": [_e(x) for x in labels]},
                      legend={"orientation": "h", "y": 1.08})
    return readable(fig)
