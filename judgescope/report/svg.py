"""Chart geometry for the report's inline SVG: pure arithmetic on aggregates (the templates draw
it; no markup is built here). Widths are in SVG user units; a chart scales to its container
through its viewBox, so it never clips when printed or read on a phone."""

from __future__ import annotations

CHAR = 7.2  # average glyph width at the charts' 12px font, for sizing label columns
ROW = 26
PAD = 10
WIDTH = 640
# A sequential, colour-blind-safe scale (viridis stops): low means dark purple, high yellow.
VIRIDIS = [(68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)]


def _label_width(labels, cap: int = 260) -> float:
    return min(cap, max([len(str(x)) for x in labels] + [4]) * CHAR + PAD)


def _scale(lo: float, hi: float, x0: float, x1: float):
    span = (hi - lo) or 1.0
    return lambda v: x0 + (float(v) - lo) / span * (x1 - x0)


def ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    step = (hi - lo) / (count - 1)
    return [lo + i * step for i in range(count)]


def forest(rows: list[dict], lo: float, hi: float, refs: list[dict] = (), fmt=str) -> dict:
    """Point and interval per row (label, value, low, high, tag), reference lines (value, label)."""
    left = _label_width([r["label"] for r in rows])
    right = WIDTH - PAD - (150 if any(r.get("tag") for r in rows) else 40)
    x = _scale(lo, hi, left, right)
    top = 24
    out = []
    for i, r in enumerate(rows):
        y = top + i * ROW + ROW / 2
        low = r.get("low") if r.get("low") is not None else r.get("value")
        high = r.get("high") if r.get("high") is not None else r.get("value")
        out.append({**r, "y": y, "x": None if r.get("value") is None else x(_clip(r["value"], lo, hi)),
                    "x1": None if low is None else x(_clip(low, lo, hi)),
                    "x2": None if high is None else x(_clip(high, lo, hi))})
    height = top + len(rows) * ROW + 30
    return {"width": WIDTH, "height": height, "left": left, "right": right, "top": top,
            "bottom": top + len(rows) * ROW, "rows": out,
            "refs": [{**ref, "x": x(ref["value"])} for ref in refs],
            "ticks": [{"x": x(t), "label": fmt(t)} for t in ticks(lo, hi)]}


def _clip(v, lo, hi):
    return min(max(float(v), lo), hi)


def histogram(bins: list[dict]) -> dict:
    """Vertical bars: bins [{label, n}] in order (small multiples: one chart per unit)."""
    height, top, bottom, left = 180, 14, 150, 46
    peak = max([b["n"] for b in bins] + [1])
    slot = (WIDTH - left - PAD) / max(len(bins), 1)
    bars = []
    for i, b in enumerate(bins):
        h = (bottom - top) * b["n"] / peak
        bars.append({**b, "x": left + i * slot + 2, "w": slot - 4, "y": bottom - h, "h": h,
                     "cx": left + i * slot + slot / 2})
    return {"width": WIDTH, "height": height + 16, "bottom": bottom, "left": left, "top": top,
            "bars": bars, "peak": peak, "axis_y": [{"y": bottom - (bottom - top) * f, "label": f"{peak * f:,.0f}"}
                                                 for f in (0, 0.5, 1)]}


def colour(t: float) -> tuple[str, str]:
    """(fill, text colour) at position t in [0, 1] of the sequential scale."""
    t = min(max(t, 0.0), 1.0) * (len(VIRIDIS) - 1)
    i = min(int(t), len(VIRIDIS) - 2)
    f = t - i
    rgb = [round(a + (b - a) * f) for a, b in zip(VIRIDIS[i], VIRIDIS[i + 1])]
    luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    return "#{:02x}{:02x}{:02x}".format(*rgb), "ink-dark" if luminance > 120 else "ink-light"


def heatmap(rows: list[str], columns: list[str], cells: dict, lo: float, hi: float) -> dict:
    """Language × unit grid: cells {(row, col): {value, shown, weak}}; colour by value."""
    left = _label_width(rows, cap=200)
    cell_w = min(110.0, (WIDTH - left - PAD) / max(len(columns), 1))
    cell_h, top = 22, 26
    out = []
    for i, r in enumerate(rows):
        for j, c in enumerate(columns):
            cell = cells.get((r, c))
            if cell is None or cell.get("value") is None:
                continue
            fill, ink = colour((cell["value"] - lo) / ((hi - lo) or 1.0))
            out.append({**cell, "x": left + j * cell_w, "y": top + i * cell_h, "w": cell_w - 2,
                        "h": cell_h - 2, "fill": fill, "ink": ink})
    return {"width": left + len(columns) * cell_w + PAD, "height": top + len(rows) * cell_h + 8,
            "left": left, "top": top, "cell_w": cell_w, "cell_h": cell_h, "cells": out,
            "rows": [{"label": r, "y": top + i * cell_h + cell_h / 2} for i, r in enumerate(rows)],
            "columns": [{"label": c, "x": left + j * cell_w + cell_w / 2} for j, c in enumerate(columns)]}


def confusion(tp: int, fp: int, fn: int, tn: int) -> dict:
    """2 × 2 as on Judges vs humans: rows the human majority, columns the judge's verdict."""
    size, left, top = 92, 96, 40
    peak = max(tp, fp, fn, tn, 1)
    cells = []
    for (r, c, n, name, agree) in ((0, 0, tp, "TP", True), (0, 1, fn, "FN", False),
                                   (1, 0, fp, "FP", False), (1, 1, tn, "TN", True)):
        cells.append({"x": left + c * size, "y": top + r * size, "n": n, "name": name,
                      "agree": agree, "opacity": round(0.15 + 0.85 * n / peak, 3),
                      "ink": "ink-light" if n / peak > 0.5 else "ink-fg"})
    return {"width": left + 2 * size + PAD, "height": top + 2 * size + PAD, "size": size,
            "left": left, "top": top, "cells": cells}
