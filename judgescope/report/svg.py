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
    return [round(lo + i * step, 12) for i in range(count)]


def tick_labels(values: list[float], percent: bool = False) -> list[str]:
    """Each tick's label with the fewest decimals that still say its value exactly (0.25 stays
    "0.25", never "0.2"), up to 6; on a percent axis the value × 100 and " %"."""
    out = []
    for v in values:
        shown = 100 * v if percent else v
        for dp in range(7):
            if abs(round(shown, dp) - shown) < 1e-9:
                break
        text = f"{shown:.{dp}f}"
        out.append(f"{text} %" if percent else text)
    return out


def wrap(label: str, chars: int, lines: int = 2) -> list[str]:
    """A label in at most `lines` lines of about `chars` characters, cut at spaces; only a word
    longer than that is cut (with "…")."""
    words, out = str(label).split(" "), [""]
    for w in words:
        if out[-1] and len(out[-1]) + 1 + len(w) > chars:
            if len(out) == lines:
                out[-1] = out[-1] + " " + w
                break
            out.append("")
        out[-1] = f"{out[-1]} {w}".strip()
    return [x if len(x) <= chars else x[:chars - 1] + "…" for x in out]


def forest(rows: list[dict], lo: float, hi: float, refs: list[dict] = (), percent: bool = False) -> dict:
    """Point and interval per row (label, value, low, high, tag), reference lines (value, label);
    a label too long for its column is drawn on two lines, never cut mid-word."""
    left = _label_width([r["label"] for r in rows])
    chars = int((left - PAD) / CHAR)
    right = WIDTH - PAD - (150 if any(r.get("tag") for r in rows) else 40)
    x = _scale(lo, hi, left, right)
    top = 37 if len(refs) > 1 else 24
    out = []
    for i, r in enumerate(rows):
        y = top + i * ROW + ROW / 2
        low = r.get("low") if r.get("low") is not None else r.get("value")
        high = r.get("high") if r.get("high") is not None else r.get("value")
        out.append({**r, "y": y, "lines": wrap(r["label"], chars),
                    "x": None if r.get("value") is None else x(_clip(r["value"], lo, hi)),
                    "x1": None if low is None else x(_clip(low, lo, hi)),
                    "x2": None if high is None else x(_clip(high, lo, hi))})
    height = top + len(rows) * ROW + 30
    return {"width": WIDTH, "height": height, "left": left, "right": right, "top": top, "lo": lo, "hi": hi,
            "bottom": top + len(rows) * ROW, "rows": out,
            "refs": _staggered([{**ref, "x": x(ref["value"])} for ref in refs], top),
            "ticks": [{"x": x(t), "value": t, "label": text}
                      for t, text in zip(ticks(lo, hi), tick_labels(ticks(lo, hi), percent))]}


def _staggered(refs: list[dict], top: float, apart: float = 80) -> list[dict]:
    """Reference labels (gates) drawn above the plot; one closer than `apart` to the one before it
    is drawn a line higher, so two gates' labels never overlap."""
    level, last = 0, None
    for ref in sorted(refs, key=lambda r: r["x"]):
        level = 1 - level if last is not None and ref["x"] - last < apart else 0
        ref["y"], last = top - 12 - 13 * level, ref["x"]
    return refs


def _clip(v, lo, hi):
    return min(max(float(v), lo), hi)


HIST_WIDTH = 360  # a narrower drawing than the others: its labels stay >= 10 px in a 300 px column


def histogram(bins: list[dict]) -> dict:
    """Vertical bars: bins [{lo, hi, label, n}] in order (small multiples: one chart per unit).
    The x axis is labelled at every other bin edge at its true position, the y axis at 0, about
    half the peak and the peak (whole rows, each drawn at its own height)."""
    height, top, bottom, left = 200, 12, 164, 52
    right = HIST_WIDTH - 18  # room for half the last edge label ("100")
    peak = max([b["n"] for b in bins] + [1])
    lo, hi = (bins[0]["lo"], bins[-1]["hi"]) if bins else (0.0, 1.0)
    x = _scale(lo, hi, left, right)
    y = _scale(0, peak, bottom, top)
    bars = []
    for b in bins:
        h = bottom - y(b["n"])
        bars.append({**b, "x": x(b["lo"]) + 1.5, "w": x(b["hi"]) - x(b["lo"]) - 3, "y": bottom - h, "h": h})
    edges = [b["lo"] for b in bins] + [hi]
    step = 2 if len(edges) > 6 else 1
    return {"width": HIST_WIDTH, "height": height, "bottom": bottom, "left": left, "top": top, "right": right,
            "lo": lo, "hi": hi, "peak": peak, "bars": bars,
            "axis_x": [{"x": x(e), "label": f"{e:g}"} for e in edges[::step]],
            "axis_y": [{"y": y(v), "label": f"{v:,}"} for v in sorted({0, peak // 2, peak})]}


def colour(t: float) -> tuple[str, str]:
    """(fill, text colour) at position t in [0, 1] of the sequential scale."""
    t = min(max(t, 0.0), 1.0) * (len(VIRIDIS) - 1)
    i = min(int(t), len(VIRIDIS) - 2)
    f = t - i
    rgb = [round(a + (b - a) * f) for a, b in zip(VIRIDIS[i], VIRIDIS[i + 1])]
    luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    return "#{:02x}{:02x}{:02x}".format(*rgb), "ink-dark" if luminance > 120 else "ink-light"


def heatmap(rows: list[str], columns: list[str], cells: dict, lo: float, hi: float, labels=None) -> dict:
    """Language × unit grid: cells {(row, col): {value, shown, weak}}; colour by value; `labels`:
    the rows' axis labels (default: the row keys)."""
    labels = list(labels or rows)
    left = _label_width(labels, cap=200)
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
            "rows": [{"label": r, "y": top + i * cell_h + cell_h / 2} for i, r in enumerate(labels)],
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
