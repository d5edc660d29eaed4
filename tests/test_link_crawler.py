"""Every link the app renders keeps its parameters (issue #22): on every page × collection of the
demo (and of ../shared/realdata when it is beside the checkout), the links in the main area —
st.page_link, markdown links and the link columns of tables — are collected and each is opened;
every parameter it carries must be one its target page declares (judgescope/navigation.py
PARAMS), the view it lands on must still carry each, with the same values (a parameter the page
cannot use is dropped from the URL and named, which fails here; one at its declared default may
be left out by its widget), must not raise, and must not say that a URL value was unusable.
Page links must stay in the same tab.

Links are grouped by their target page and parameter names; two of each group are opened per
source page, so a page with fifty record links costs two openings, not fifty."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import parse_qsl, urlparse

import pytest
from streamlit.testing.v1 import AppTest

from apptest import shown_table
from judgescope import navigation
from pages_index import page_cases

APP = "../app.py"
PER_PATTERN = 2
MARKDOWN_LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+)\)")
CRAWLED: list[str] = []


def _open(path: str, params: list[tuple[str, str]]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    grouped: dict[str, list[str]] = {}
    for k, v in params:
        grouped.setdefault(k, []).append(v)
    at.query_params["collection"] = grouped.get("collection", [""])[0]
    at.run()
    for k, vals in grouped.items():
        at.query_params[k] = vals if len(vals) > 1 else vals[0]
    at.switch_page(path).run()
    return at


def _view(at) -> tuple:
    """What a page shows as results: tables (as the Arrow tables sent to the browser), metrics,
    headings."""
    return (tuple(shown_table(d) for d in at.main.dataframe),
            tuple((m.label, m.value) for m in at.main.metric),
            tuple(str(h.value) for h in [*at.main.header, *at.main.subheader]))


def _url(at) -> dict[str, list[str]]:
    return {k: (v if isinstance(v, list) else [v]) for k, v in at.query_params.items()}


def links_of(at) -> list[tuple[str, str]]:
    """(how it was found, relative URL) of every link in the main area."""
    found = []
    for pl in at.main.get("page_link"):
        assert not pl.proto.external, f"{pl.proto.page} opens outside the app"
        found.append(("page_link", f"{pl.proto.page}?{pl.proto.query_string}"))
    for md in at.main.markdown:
        found += [("markdown", m) for m in MARKDOWN_LINK.findall(str(md.value))]
    for frame in at.main.dataframe:
        df = frame.value
        for col in df.columns:
            values = df[col].dropna().astype(str)
            links = [v for v in values if "?" in v and v.split("?")[0] in _PAGE_PATHS]
            found += [("link column", v) for v in links]
    return found


_PAGE_PATHS = {p.url_path or "." for p in navigation.PAGES} | {"./"}


def _target(url: str):
    parsed = urlparse(url)
    path = parsed.path.strip("/").removeprefix(".") or ""
    return navigation.page(path), parse_qsl(parsed.query, keep_blank_values=True)


def _sample(found):
    seen, out = {}, []
    for how, url in dict.fromkeys(found):
        spec, params = _target(url)
        pattern = (spec.path, tuple(sorted({k for k, _ in params})))
        if seen.get(pattern, 0) < PER_PATTERN:
            seen[pattern] = seen.get(pattern, 0) + 1
            out.append((how, url))
    return out


@pytest.mark.parametrize("page,collection", page_cases())
def test_every_link_lands_with_its_parameters(page, collection):
    crawl(page, collection)


REALDATA = Path(__file__).resolve().parent.parent.parent / "shared" / "realdata"
REAL_SECTIONS = {"real_audit": ("Collection", "Translation audit"), "real_pairs": ("Collection", "Ranking"),
                 "real_sample": ("Collection", "Ranking")}
REAL_CASES = [(p.path, c) for c, sections in REAL_SECTIONS.items() for p in navigation.PAGES
              if p.section in sections]


@pytest.fixture(scope="module")
def real_manifest(tmp_path_factory):
    """The realdata collections of the journeys (tests/test_journeys.py), when the data is there."""
    if not REALDATA.is_dir():
        pytest.skip("../shared/realdata is not beside this checkout")
    from test_journeys import REAL_MANIFEST

    folder = tmp_path_factory.mktemp("realcrawl")
    shutil.copytree(REALDATA, folder / "realdata")
    (folder / "sources.toml").write_text(REAL_MANIFEST, encoding="utf-8")
    return folder / "sources.toml"


@pytest.mark.parametrize("page,collection", REAL_CASES)
def test_every_link_on_real_data_lands_with_its_parameters(real_manifest, monkeypatch, page, collection):
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(real_manifest))
    crawl(page, collection)


def test_system_rows_on_real_data_land_on_review_with_their_system(real_manifest, monkeypatch):
    """Distributions split by system (the GEMBA audit has a system column): each system's row
    and bar links to Review with ?system=, and the parameter arrives."""
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(real_manifest))
    before = len(CRAWLED)
    crawl("pages/distributions.py", "real_audit", facet="system")
    carried = [dict(parse_qsl(urlparse(u).query)) for u in CRAWLED[before:]]
    with_system = [c for c in carried if c.get("system")]
    assert any(set(c) == {"collection", "system", "unit"} for c in with_system), carried  # table rows
    assert any({"min", "max"} <= set(c) for c in with_system), carried  # histogram bars


def _is_default(param, values: list[str]) -> bool:
    """Whether a link's value is the parameter's declared default (a literal one)."""
    if len(values) != 1 or param.default is None:
        return False
    if param.kind in ("int", "float"):
        try:
            return float(values[0]) == float(param.default)
        except ValueError:
            return False
    if param.kind == "bool":
        return values[0] == str(param.default).lower()
    return isinstance(param.options, tuple) and param.default in param.options and values[0] == param.default


def crawl(page: str, collection: str, **params) -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["collection"] = collection
    at.run()
    for k, v in params.items():
        at.query_params[k] = v
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    for how, url in _sample(links_of(at)):
        spec, params = _target(url)
        landed = _open(spec.path, params)
        CRAWLED.append(url)
        where = f"{page} ({collection}) → {how} {url}"
        assert not landed.exception, (where, [e.value for e in landed.exception])
        carried: dict[str, list[str]] = {}
        for k, v in params:
            carried.setdefault(k, []).append(v)
        undeclared = sorted(set(carried) - set(spec.names()))
        assert not undeclared, (where, "parameters the page does not declare", undeclared)
        got = _url(landed)
        dropped = {k: v for k, v in carried.items() if sorted(got.get(k, [])) != sorted(v)}
        # A bound widget leaves its declared default out of the URL: the view is the default one.
        dropped = {k: v for k, v in dropped.items() if k in got or not _is_default(spec.param(k), v)}
        if dropped and not any(k in got for k in dropped):
            # A bound widget leaves its default out of the URL: then the view without the
            # parameter is the same view (same tables, metrics and headings), nothing lost.
            plain = _open(spec.path, [(k, v) for k, v in params if k not in dropped])
            if _view(plain) == _view(landed):
                dropped = {}
        assert not dropped, (where, "parameters dropped or changed", dropped, got)
        unusable = [str(w.value) for w in landed.warning if "URL parameter" in str(w.value)]
        assert not unusable, (where, unusable)


def test_per_judge_confusion_cell_lists_that_judges_items():
    """Defect 3: /disagreements?collection=localgate&cell=TP&judge=judge:gptoss loaded directly
    listed the panel's items; it lists gptoss's own, as many as its matrix cell counts."""
    at = _open("pages/disagreements.py", [("collection", "localgate"), ("cell", "TP"),
                                          ("judge", "judge:gptoss")])
    heading = " ".join(str(h.value) for h in at.header).replace("\\", "")
    assert "gptoss" in heading and "panel" not in heading, heading
    cal = AppTest.from_file(APP, default_timeout=120)
    cal.query_params["collection"] = "localgate"
    cal.run()
    cal.switch_page("pages/calibration.py").run()
    tp = [pl for pl in cal.main.get("page_link")
          if "judge=judge%3Agptoss" in pl.proto.query_string and "cell=TP" in pl.proto.query_string]
    assert tp, "gptoss's TP cell links to its items"
    count = int(re.sub(r"\D", "", str(tp[0].proto.label).split("·")[-1]))
    assert f": {count} items" in heading, (heading, count)


def test_overview_collection_chips_change_the_url_and_the_picker():
    from judgescope.web import context
    at = _open("pages/overview.py", [("collection", "localgate")])
    at.button(key="other_collection_xhotpotqa").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert _url(at)["collection"] == ["xhotpotqa"]
    assert at.sidebar.selectbox(key=context.PICKER_KEY).value == "xhotpotqa"


def test_table_downloads_are_off_everywhere():
    """Streamlit's own "Download as CSV" bypasses the export's neutralisation and provenance."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).parent.parent / ".streamlit" / "config.toml").read_text())
    assert config["client"]["disableDataExport"] is True


def test_links_were_crawled():
    assert CRAWLED or not page_cases()
