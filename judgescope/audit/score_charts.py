"""Pure plotly builders for the translation-audit pages: DataFrame in, Figure out.

Colour-blind-safe: Okabe–Ito for categories, the diverging PuOr scale for means around a
reference. Every axis has a title. Inputs are the small count tables of judgescope.audit.summary.
"""

from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go

from judgescope.audit import binned
from judgescope.chart_style import INK, cell_fill, readable, text_on
from judgescope.schema import label, language_name, sort_units

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
DIVERGING = "PuOr"  # orange below the reference, purple above; readable with deuteranopia
FONT = dict(size=13)


def plot_text(value) -> str:
    """Data text for a plotly label, legend or hover template: HTML escaped (plotly renders
    <a>, <img>-like tags and <br>), and % written as an entity so %{…} is no template field.
    Click payloads (customdata) stay raw."""
    return html.escape(str(value)).replace("%", "&#37;")


def _layout(fig: go.Figure, title: str, x: str, y: str, height: int = 420) -> go.Figure:
    fig.update_layout(title=title, height=height, font=FONT, legend_title_text="",
                      margin=dict(l=60, r=20, t=60, b=50), template="plotly_white")
    fig.update_xaxes(title_text=x)
    fig.update_yaxes(title_text=y)
    return readable(fig)


def _series(counts: pd.DataFrame, colour: str):
    keys = counts[colour].astype(str)
    order = sort_units(keys.unique()) if colour == "unit" else sorted(keys.unique())
    for i, key in enumerate(order):
        yield key, counts[keys == key], OKABE_ITO[i % len(OKABE_ITO)]


def histogram_bins(counts: pd.DataFrame, colour: str = "unit", bin_width: float = 5) -> pd.DataFrame:
    """The histogram's bars as rows: series (the value of `colour`), bin start and end, rows in
    the bin and their share of the series. The chart and the table beside it both read this.
    A float audit's score bins go by their lowest score: the bar width is a multiple of their
    width h (h <= 1 on 0–100 scores), so each lies within one bar and the bars are exact."""
    parts = []
    for key, part, _ in _series(counts, colour):
        bins = (binned.score_of(part, "low") // bin_width * bin_width).clip(upper=100 - bin_width)
        per_bin = part.groupby(bins)["n"].sum()
        parts.append(pd.DataFrame({"series": key, "bin_start": per_bin.index.astype(float),
                                   "bin_end": [min(100.0, b + bin_width) for b in per_bin.index],
                                   "rows": per_bin.values, "share": (per_bin / per_bin.sum()).values}))
    columns = ["series", "bin_start", "bin_end", "rows", "share"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def histogram(counts: pd.DataFrame, colour: str = "unit", bin_width: float = 5,
              thresholds=(), log: bool = False) -> go.Figure:
    """Share of rows per score bin, one bar series per value of `colour` (counts: score, n).
    Thresholds are marked; `log` makes the lower tail's small bars visible. Each bar carries
    (rows, bin start, bin end) as customdata, for the drill-down to Review."""
    fig = go.Figure()
    bars = histogram_bins(counts, colour, bin_width)
    for key, _, col in _series(counts, colour):
        b = bars[bars["series"] == key]
        fig.add_bar(x=b["bin_start"] + bin_width / 2, y=b["share"], name=plot_text(key), marker_color=col,
                    customdata=list(zip(b["rows"], b["bin_start"], b["bin_end"])),
                    hovertemplate=f"{plot_text(key)}<br>scores %{{customdata[1]}}–%{{customdata[2]}}<br>"
                                  "share %{y:.1%} (%{customdata[0]} rows)<br>click: review them"
                                  "<extra></extra>")
    for t in thresholds:
        fig.add_vline(x=t, line_dash="dot", line_color=INK, annotation_text=f"{t:g}",
                      annotation_position="top")
    fig.update_layout(barmode="group", bargap=0.1)
    if log:
        fig.update_yaxes(type="log", tickformat=".1%")
    else:
        fig.update_yaxes(tickformat=".0%")
    return _layout(fig, "Share of rows per score bin" + (" (log scale)" if log else ""),
                   "Judge score (0–100), bins of 5", "Share of rows")


def ecdf_frame(counts: pd.DataFrame, colour: str = "unit") -> pd.DataFrame:
    """Cumulative share of rows at or below each distinct score, per value of `colour`; for a
    float audit's score bins, pooled by index, at each bin's highest score (exact there: every
    row of a later bin is higher), at most stats.MAX_CATEGORIES points per series, not one a row."""
    if "bin" in counts:
        counts = counts.groupby([colour, "bin"], dropna=False).agg(
            score=("high", "max"), n=("n", "sum")).reset_index()
    g = counts.groupby([colour, "score"], dropna=False)["n"].sum().reset_index()
    g = g.sort_values([colour, "score"])
    g["cum_share"] = g.groupby(colour)["n"].cumsum() / g.groupby(colour)["n"].transform("sum")
    return g


def ecdf(counts: pd.DataFrame, colour: str = "unit") -> go.Figure:
    """Empirical CDF of scores per value of `colour`, as steps."""
    frame = ecdf_frame(counts, colour)
    fig = go.Figure()
    for key, part, col in _series(frame, colour):
        fig.add_scatter(x=part["score"], y=part["cum_share"], mode="lines", line_shape="hv",
                        name=plot_text(key), line=dict(color=col, width=2),
                        hovertemplate=f"{plot_text(key)}<br>score ≤ %{{x}}: %{{y:.1%}}<extra></extra>")
    fig.update_yaxes(tickformat=".0%", range=[0, 1.02])
    return _layout(fig, "Cumulative share of rows at or below a score (ECDF)",
                   "Judge score (0–100)", "Share of rows ≤ score")


def mean_heatmap(matrix: pd.DataFrame, reference: float, span: float | None = None,
                 detail: pd.DataFrame | None = None, absolute: bool = False) -> go.Figure:
    """Language × unit means. Orange is worse everywhere: below `reference` on the centred
    scale, low on the absolute 0–100 scale. `detail` (target_language, unit, n, low, high)
    puts n and the CI in the hover. Customdata carries (language code, unit) for drill-downs."""
    languages, units = list(matrix.index), list(matrix.columns)
    z = matrix.to_numpy(dtype=float)
    if span is None:
        finite = abs(z[~pd.isna(z)] - reference)
        span = max(1.0, float(finite.max())) if finite.size else 1.0
    info = {} if detail is None else {(r.target_language, r.unit): r for r in detail.itertuples()}

    def hover(c, u):
        r = info.get((c, u))
        return "" if r is None else f"n = {r.n:,}<br>95% CI [{r.low:.2f}, {r.high:.2f}]"

    text = [["n/a" if pd.isna(v) else f"{v:.2f}" for v in row] for row in z]
    scale = dict(colorscale=DIVERGING, zmin=0, zmax=100) if absolute else dict(
        colorscale=_clipped_diverging(reference, span, z), zmin=reference - span,
        zmax=_top(reference, span, z))
    # Each value in black or white, whichever reads better on its cell (an empty cell shows
    # the page background: INK).
    ink = [[INK if pd.isna(v) else text_on(cell_fill(v, **scale)) for v in row] for row in z]
    fig = go.Figure(go.Heatmap(
        z=z, x=[plot_text(label(u)) for u in units], y=[plot_text(language_name(c)) for c in languages],
        xgap=2, ygap=2, hoverinfo="skip", colorbar=_bar("Mean" if absolute else f"Mean (centre {reference:g})"),
        **scale))
    # Heatmap cells emit no selection events; a near-invisible marker on each cell does, and
    # carries the value, the hover (mean, n, CI) and the (language, unit) the drill-down needs.
    xs = [plot_text(label(u)) for _ in languages for u in units]
    ys = [plot_text(language_name(c)) for c in languages for _ in units]
    fig.add_trace(go.Scatter(
        x=xs, y=ys, mode="markers+text", showlegend=False,
        customdata=[[c, u, hover(c, u)] for c in languages for u in units],
        text=[t for row in text for t in row], textfont=dict(size=12, color=sum(ink, [])),
        hovertemplate="%{y} · %{x}<br>mean %{text}<br>%{customdata[2]}<extra></extra>",
        marker=dict(symbol="square", size=26, opacity=0.01, color="grey")))
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_xaxes(side="top", automargin=True)
    # Two short lines and a colour bar below the cells: a phone's width goes to the values.
    title = "Mean score per language and unit" + ("" if absolute else f"<br>(centred on {reference:g})")
    fig = _layout(fig, title, "", "", height=max(380, 30 * len(languages) + 190))
    fig.update_layout(margin=dict(l=10, r=10, t=110, b=70))
    return fig


def _bar(title: str) -> dict:
    """A horizontal colour bar under the plot."""
    return dict(title=dict(text=title, side="top"), orientation="h", thickness=12, len=0.9,
                x=0.5, xanchor="center", y=-0.02, yanchor="top")


def _top(reference: float, span: float, z) -> float:
    """Upper end of the colour bar: no higher than the scale's top (100) or the data."""
    finite = z[~pd.isna(z)]
    top = max(100.0, float(finite.max())) if finite.size else reference + span
    return min(reference + span, top) if top > reference else reference + span


def _clipped_diverging(reference: float, span: float, z) -> list:
    """PuOr with its midpoint at `reference` and equal intensity per point either side, cut
    where the bar ends, so the bar never shows impossible scores above 100."""
    from plotly.colors import sample_colorscale

    lo, hi = reference - span, _top(reference, span, z)
    stops = [i / 20 for i in range(21)]
    values = [lo + t * (hi - lo) for t in stops]
    colours = sample_colorscale(DIVERGING, [(v - lo) / (2 * span) for v in values])
    return [[t, c] for t, c in zip(stops, colours)]


def diff_chart(table: pd.DataFrame, key: str = "unit") -> go.Figure:
    """Current minus previous mean with its CI, one point per row of a compare table."""
    t = table.dropna(subset=["diff"])
    fig = go.Figure(go.Scatter(
        x=t["diff"], y=[plot_text(v) for v in t[key]], mode="markers", marker=dict(color=OKABE_ITO[0], size=10),
        error_x=dict(type="data", symmetric=False, array=t["high"] - t["diff"],
                     arrayminus=t["diff"] - t["low"], color=OKABE_ITO[0]),
        hovertemplate="%{y}: %{x:+.3f}<extra></extra>"))
    fig.add_vline(x=0, line_dash="dot", line_color=INK)
    fig.update_yaxes(autorange="reversed")
    return _layout(fig, "Current minus previous mean, with 95% CI (unpaired bootstrap)",
                   "Difference in mean score (points)", plot_text(label(key)),
                   height=max(300, 28 * len(t) + 140))
