"""Readable chart text in the light and the dark theme, for every figure builder (pure plotly).

Streamlit's chart theme draws axis, colour-bar and legend text in a mid grey (3.7:1 on white, under
WCAG's 4.5:1), and its theme values beat a figure's global font colour. So every text of a figure
is given INK explicitly. INK is Streamlit's placeholder for its chart text colour: the app's
frontend replaces it with the theme's near-black (light) or near-white (dark), so charts follow the
theme switch; outside Streamlit (an HTML report) it stays a dark navy, readable on white.
tests/test_accessibility.py measures the drawn colours against the background.
"""

from __future__ import annotations

import bisect
import functools

import plotly.graph_objects as go

INK = "#000037"  # streamlit.elements.lib.streamlit_plotly_theme.GRAY_90
BLACK, WHITE = "#000000", "#ffffff"


def readable(fig: go.Figure) -> go.Figure:
    """Every text of `fig` (title, axes, legend, colour bars, annotations, hover) in INK."""
    ink = dict(color=INK)
    fig.update_layout(font=ink, title_font=ink, legend_font=ink, legend_title_font=ink,
                      hoverlabel_font=ink)
    fig.update_xaxes(tickfont=ink, title_font=ink)
    fig.update_yaxes(tickfont=ink, title_font=ink)
    fig.update_annotations(font=ink)
    for trace in fig.data:
        if "colorbar" in trace:
            trace.update(colorbar=dict(tickfont=ink, title_font=ink))
    return fig


def _luminance(rgb) -> float:
    """WCAG 2.2 relative luminance of an (r, g, b) colour, channels 0–255."""
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(float(c)) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG contrast ratio of two (r, g, b) colours, 1–21."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_on(fill: str) -> str:
    """Black or white, whichever contrasts more with the cell colour `fill` ('rgb(…)' or '#rrggbb')."""
    from plotly.colors import hex_to_rgb, unlabel_rgb

    rgb = hex_to_rgb(fill) if fill.startswith("#") else unlabel_rgb(fill)
    return BLACK if contrast(rgb, (0, 0, 0)) >= contrast(rgb, (255, 255, 255)) else WHITE


def cell_fill(value: float, colorscale, zmin: float, zmax: float) -> str:
    """The colour a heatmap draws for `value` on `colorscale` between zmin and zmax: plotly's
    sample_colorscale (linear in RGB between the scale's stops), with the scale parsed once."""
    from plotly.colors import convert_to_RGB_255, find_intermediate_color, label_rgb

    key = colorscale if isinstance(colorscale, str) else \
        tuple((float(at), str(colour)) for at, colour in colorscale)
    stops, colours = _parsed_scale(key)
    t = 0.0 if zmax == zmin else min(1.0, max(0.0, (value - zmin) / (zmax - zmin)))
    high = bisect.bisect_left(stops, t)  # as sample_colorscale: t at a stop takes that stop
    low = high - 1
    mixed = find_intermediate_color(colours[low], colours[high],
                                    (t - stops[low]) / (stops[high] - stops[low]))
    return label_rgb(convert_to_RGB_255(mixed))


@functools.lru_cache(maxsize=32)
def _parsed_scale(key) -> tuple[tuple[float, ...], tuple]:
    """A colour scale's stops and colours (0–1 tuples), as sample_colorscale reads them."""
    from plotly.colors import colorscale_to_colors, colorscale_to_scale, get_colorscale, validate_colors

    scale = get_colorscale(key) if isinstance(key, str) else [list(stop) for stop in key]
    return tuple(colorscale_to_scale(scale)), tuple(validate_colors(colorscale_to_colors(scale), colortype="tuple"))
