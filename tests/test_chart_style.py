"""Chart text that reads in both themes: contrast arithmetic against published WCAG values, cell
values in black or white by their cell, and every text of every chart builder in the theme ink."""

import pandas as pd
import pytest
from plotly.colors import unlabel_rgb

from judgescope import chart_style
from judgescope.audit import score_charts
from judgescope.chart_style import INK


def test_contrast_matches_published_wcag_values():
    # WCAG 2.2, "contrast ratio" (1.4.3): black on white is 21:1; #767676 on white is the
    # lightest grey to pass 4.5:1 (4.54:1, WebAIM contrast checker); #777777 fails (4.48:1).
    assert chart_style.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert chart_style.contrast((0x76,) * 3, (255, 255, 255)) == pytest.approx(4.54, abs=0.005)
    assert chart_style.contrast((0x77,) * 3, (255, 255, 255)) == pytest.approx(4.48, abs=0.005)
    assert chart_style.contrast((255, 255, 255), (0x76,) * 3) == chart_style.contrast((0x76,) * 3, (255, 255, 255))


@pytest.mark.parametrize("fill,expected", [("#ffffff", "#000000"), ("#000000", "#ffffff"),
                                           ("rgb(179, 88, 6)", "#ffffff"), ("#2d004b", "#ffffff"),
                                           ("rgb(120, 120, 120)", "#000000")])
def test_cell_text_is_black_or_white_by_the_cell(fill, expected):
    assert chart_style.text_on(fill) == expected


def test_cell_fill_follows_the_colour_scale_ends_and_clips():
    scale = [[0, "rgb(0, 0, 0)"], [1, "rgb(255, 255, 255)"]]
    assert chart_style.cell_fill(0, scale, 0, 10) == "rgb(0, 0, 0)"
    assert chart_style.cell_fill(10, scale, 0, 10) == "rgb(255, 255, 255)"
    assert chart_style.cell_fill(99, scale, 0, 10) == "rgb(255, 255, 255)"
    assert chart_style.cell_fill(5, scale, 0, 10) == "rgb(128, 128, 128)"


@pytest.mark.parametrize("colorscale", ["RdBu", "Viridis", "Oranges_r",
                                        [[0, "#2d004b"], [0.5, "rgb(247, 247, 247)"], [1, "#7f3b08"]]])
def test_cell_fill_is_plotlys_own_sampling(colorscale):
    """cell_fill parses a scale once; each colour equals plotly's sample_colorscale (the colour
    plotly.js draws), stops and clipping included."""
    from plotly.colors import get_colorscale, sample_colorscale

    scale = get_colorscale(colorscale) if isinstance(colorscale, str) else colorscale
    for value in [-5, 0, 0.1, 12.5, 33.3, 50, 50.0001, 77, 99.99, 100, 140]:
        t = min(1.0, max(0.0, value / 100))
        assert chart_style.cell_fill(value, colorscale, 0, 100) == sample_colorscale(scale, [t])[0], value


def _counts() -> pd.DataFrame:
    rows = [("th", "answer", s, 1) for s in (20, 40, 60, 65)] + \
           [(lang, unit, s, 3) for lang in ("de", "fr", "th") for unit in ("question", "answer")
            for s in (90, 95, 100)]
    return pd.DataFrame(rows, columns=["target_language", "unit", "score", "n"])


def _matrix() -> pd.DataFrame:
    return pd.DataFrame({"question": [95.0, 99.0, 70.0], "answer": [96.0, None, 40.0]},
                        index=["de", "fr", "th"])


@pytest.mark.parametrize("absolute", [False, True])
def test_heatmap_values_contrast_with_their_cells(absolute):
    fig = score_charts.mean_heatmap(_matrix(), 90, absolute=absolute)
    heat, marks = fig.data
    scale = dict(colorscale=heat.colorscale, zmin=heat.zmin, zmax=heat.zmax)
    colours = list(marks.textfont.color)
    values = [v for row in heat.z for v in row]
    assert len(colours) == len(values) == 6 and marks.text[3] == "n/a"
    for value, colour in zip(values, colours):
        if pd.isna(value):
            assert colour == INK  # an empty cell shows the page: the theme's ink
            continue
        rgb = unlabel_rgb(chart_style.cell_fill(value, **scale))
        ratio = chart_style.contrast(rgb, (0, 0, 0) if colour == "#000000" else (255, 255, 255))
        other = chart_style.contrast(rgb, (255, 255, 255) if colour == "#000000" else (0, 0, 0))
        assert ratio >= 4.5 and ratio >= other, (value, rgb, colour, ratio)


def _texts_in_ink(fig) -> list[str]:
    """Paths of the figure's text colours that are not INK."""
    lay = fig.layout
    found = {"font": lay.font.color, "title": lay.title.font.color, "legend": lay.legend.font.color,
             "hover": lay.hoverlabel.font.color}
    for axis in ("xaxis", "yaxis"):
        found[f"{axis}.tick"] = lay[axis].tickfont.color
        found[f"{axis}.title"] = lay[axis].title.font.color
    found |= {f"annotation {i}": a.font.color for i, a in enumerate(lay.annotations)}
    found |= {f"trace {i} colorbar": (t.colorbar.tickfont.color, t.colorbar.title.font.color)
              for i, t in enumerate(fig.data) if "colorbar" in t}
    return [k for k, v in found.items() if v != INK and v != (INK, INK)]


def test_every_audit_chart_draws_its_text_in_ink():
    counts = _counts()
    figures = [score_charts.histogram(counts, thresholds=(50, 60)), score_charts.ecdf(counts),
               score_charts.mean_heatmap(_matrix(), 90),
               score_charts.diff_chart(pd.DataFrame({"unit": ["answer"], "diff": [1.0], "low": [0.5], "high": [1.5]}))]
    for fig in figures:
        assert not _texts_in_ink(fig), (fig.layout.title.text, _texts_in_ink(fig))


def test_histogram_bins_are_the_bars_of_the_histogram():
    counts = _counts()
    bins = score_charts.histogram_bins(counts)
    fig = score_charts.histogram(counts)
    assert sorted(bins["series"].unique()) == sorted(t.name for t in fig.data)
    for trace in fig.data:
        part = bins[bins["series"] == trace.name]
        assert list(part["share"]) == pytest.approx(list(trace.y))
        assert [c[0] for c in trace.customdata] == list(part["rows"])
    # Rows are conserved; each series' shares add up to one; the top bin ends at 100.
    assert bins["rows"].sum() == counts["n"].sum()
    assert bins.groupby("series")["share"].sum().tolist() == pytest.approx([1.0, 1.0])
    assert bins["bin_end"].max() == 100 and (bins["bin_end"] - bins["bin_start"] == 5).all()
    answer = bins[bins["series"] == "answer"].set_index("bin_start")["rows"]
    assert answer[20.0] == 1 and answer[95.0] == 18 and answer[90.0] == 9 and answer[60.0] == 1 and answer[65.0] == 1
