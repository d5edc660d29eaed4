"""Pure plotly builders for the Drift page: the Bland–Altman plot of the anchors and the judge's
shift per language with its CI (DataFrame or result dict in, Figure out)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from judgescope.audit.score_charts import OKABE_ITO, _layout, plot_text
from judgescope.chart_style import INK
from judgescope.schema import language_name


MAX_POINTS = 5_000  # distinct points drawn as they are; above it, counted per cell of a grid
GRID = 100  # cells per axis of that grid


def ba_points(anchors: pd.DataFrame) -> pd.DataFrame:
    """The Bland–Altman points of anchor rows (old_score, new_score, diff): (mean, diff, size) per
    distinct point. Above MAX_POINTS distinct points (float scores on many anchors), the anchors
    are counted per cell of a GRID × GRID grid over the points' range instead, each cell drawn at
    its centre; attrs["cells"] then holds the distinct points and the grid."""
    points = (pd.DataFrame({"mean": (anchors["old_score"] + anchors["new_score"]) / 2, "diff": anchors["diff"]})
              .groupby(["mean", "diff"], as_index=False).size())
    if len(points) <= MAX_POINTS:
        return points
    centres = {}
    for axis in ("mean", "diff"):
        low, high = float(points[axis].min()), float(points[axis].max())
        width = (high - low) / GRID
        if width == 0:  # one value on this axis: its own cell
            centres[axis] = points[axis]
            continue
        cell = ((points[axis] - low) // width).clip(upper=GRID - 1)
        centres[axis] = low + (cell + 0.5) * width
    cells = (pd.DataFrame({**centres, "size": points["size"]}).groupby(["mean", "diff"], as_index=False)["size"].sum())
    cells.attrs["cells"] = {"distinct_points": len(points), "grid": GRID}
    return cells


def bland_altman_chart(points: pd.DataFrame, ba: dict) -> go.Figure:
    """The anchors at (mean of both scores, new − old), counted per point (ba_points) or per cell;
    the bias and the 95% limits of agreement as lines, their CIs as bands."""
    cells = points.attrs.get("cells")
    where = "cell centred at mean" if cells else "mean"
    fig = go.Figure(go.Scatter(
        x=points["mean"], y=points["diff"], mode="markers", name="anchors",
        marker=dict(color=OKABE_ITO[0], size=(6 + 2 * points["size"].clip(upper=40) ** 0.5), opacity=0.7),
        customdata=points["size"],
        hovertemplate=where + " %{x:.1f}, new − old %{y:+.1f}: %{customdata} anchors<extra></extra>"))
    if ba["bias"] is not None:
        lines = [("bias", ba["bias"], ba["bias_ci"], OKABE_ITO[2]),
                 ("lower limit", ba["loa"][0], ba["loa_ci"][0], OKABE_ITO[5]),
                 ("upper limit", ba["loa"][1], ba["loa_ci"][1], OKABE_ITO[5])]
        for name, value, ci, colour in lines:
            fig.add_hrect(y0=ci[0], y1=ci[1], fillcolor=colour, opacity=0.15, line_width=0)
            fig.add_hline(y=value, line_color=colour, line_dash="dash",
                          annotation_text=f"{name} {value:+.2f}", annotation_position="top left")
    fig.add_hline(y=0, line_dash="dot", line_color=INK)
    title = "Bland–Altman: new − old on anchors, bias and 95% limits of agreement (bands: CIs)"
    if cells:
        title += (f"; {cells['distinct_points']:,} distinct points counted in a {cells['grid']} × "
                  f"{cells['grid']} grid")
    return _layout(fig, title, "Mean of the two scores (points)", "New − old (points)")


def shift_chart(rows: list[dict], key: str = "target_language") -> go.Figure:
    """The judge's mean shift on anchors per `key` with its bootstrap CI; hollow when too few."""
    t = pd.DataFrame([r for r in rows if r["mean_diff"] is not None])
    if t.empty:
        return _layout(go.Figure(), "No anchors", "New − old (points)", "")
    names = [plot_text(language_name(v) if key == "target_language" else v) for v in t[key]]
    low, high = t["ci"].str[0], t["ci"].str[1]
    fig = go.Figure(go.Scatter(
        x=t["mean_diff"], y=names, mode="markers",
        marker=dict(color=OKABE_ITO[0], size=10, symbol=["circle-open" if f else "circle"
                                                         for f in t["too_few_to_decide"]]),
        error_x=dict(type="data", symmetric=False, array=high - t["mean_diff"],
                     arrayminus=t["mean_diff"] - low, color=OKABE_ITO[0]),
        customdata=t["anchors"], hovertemplate="%{y}: %{x:+.2f} (%{customdata} anchors)<extra></extra>"))
    fig.add_vline(x=0, line_dash="dot", line_color=INK)
    fig.update_yaxes(autorange="reversed")
    return _layout(fig, "The judge's shift on anchors, with 95% CI (hollow: too few anchors)",
                   "New − old, mean over anchors (points)", "Target language" if key == "target_language"
                   else key.replace("_", " ").capitalize(), height=max(300, 24 * len(t) + 140))
