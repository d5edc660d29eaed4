"""Issue 41 item 2: every page declares its URL parameters (judgescope/navigation.py PARAMS);
links are built only to declared names, the URL is read against the declaration, and no page or
web/ module reads or writes a URL parameter its page does not declare."""

import ast
import importlib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import url_scan
from judgescope import navigation, url_params
from judgescope.text import md_literal

ROOT = url_scan.ROOT


def test_a_link_to_an_undeclared_parameter_raises():
    review, disagreements = navigation.page("review"), navigation.page("disagreements")
    assert navigation.href(disagreements, collection="c", judge="judge:a", cell="TP") == \
        "disagreements?collection=c&judge=judge%3Aa&cell=TP"
    with pytest.raises(navigation.UndeclaredParameter, match="pages/review.py declares no URL parameter 'judge'"):
        navigation.href(review, collection="c", judge="judge:a")  # Review has no judge
    with pytest.raises(navigation.UndeclaredParameter, match="'langs'"):
        navigation.link_params(review, langs=["th"])  # a typo is refused, not dropped on arrival
    assert navigation.link_params(review, collection="c", lang="th") == {"collection": "c", "lang": "th"}


def test_every_page_declares_its_parameters_once():
    for spec in navigation.PAGES:
        names = spec.names()
        assert len(names) == len(set(names)), spec.path
        assert names[0] == "collection"  # GLOBAL: every page takes its collection
        for p in spec.params:
            assert p.kind in url_params.KINDS
            if p.kind in ("int", "float"):
                assert p.low <= p.high and (p.default is None or p.low <= p.default <= p.high), (spec.path, p)
            if p.kind == "choice":
                assert p.options, (spec.path, p.name, "a choice says its options or where they come from")
    assert set(navigation.PARAMS) <= {Path(spec.path).stem for spec in navigation.PAGES}


def _resolve(dotted: str):
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def test_declared_sources_and_defaults_are_the_domains():
    """A declaration names a constant it takes its options from (resolved here), and its number
    defaults are the domains' own defaults (a change there fails here, not silently)."""
    from judgescope.audit import drift, summary, themes
    from judgescope.calibration import panel as cal
    from judgescope.significance import paired as sig

    for spec in navigation.PAGES:
        for p in spec.params:
            if isinstance(p.options, str) and p.options.startswith("judgescope."):
                assert _resolve(p.options), (spec.path, p.name)
    d = {(stem, p.name): p.default for stem, params in navigation.PARAMS.items() for p in params}
    assert (d["distributions", "t1"], d["distributions", "t2"], d["distributions", "t3"]) == summary.DEFAULT_THRESHOLDS
    assert d["languages", "below"] == summary.DEFAULT_THRESHOLDS[0]
    for stem in ("distributions", "compare"):
        assert (d[stem, "resamples"], d[stem, "seed"]) == (summary.DEFAULT_RESAMPLES, summary.DEFAULT_SEED)
    assert (d["drift", "resamples"], d["drift", "seed"]) == (drift.DEFAULT_RESAMPLES, drift.DEFAULT_SEED)
    for stem in ("calibration", "ranking"):
        assert (d[stem, "sig_resamples"], d[stem, "sig_seed"]) == (sig.DEFAULT_RESAMPLES, sig.DEFAULT_SEED)
    gates = (float(cal.JUDGE_GATE), float(cal.PANEL_GATE))
    assert (d["calibration", "judge_gate"], d["calibration", "panel_gate"]) == gates
    assert (d["themes", "threshold"], d["themes", "min_count"]) == (themes.DEFAULT_THRESHOLD, themes.MIN_LOW_COUNT)


@pytest.mark.parametrize("spec", navigation.PAGES, ids=lambda s: s.path)
def test_a_page_reads_and_writes_only_what_it_declares(spec):
    """Every URL parameter named in the page or in code it reaches (web/ helpers, transitively)
    is declared by the page; every declared one is named there (no dead declaration)."""
    found = url_scan.read_by(ROOT / spec.path)
    undeclared = {k: v for k, v in found.items() if k not in spec.names()}
    assert undeclared == {}
    unused = set(spec.names()) - url_scan.strings(ROOT / spec.path) - {"collection"}
    assert unused == set()


def test_no_web_module_names_a_parameter_no_page_declares():
    """Also code no page reaches yet: a URL parameter literal anywhere in pages/ or web/ is declared."""
    declared = {n for spec in navigation.PAGES for n in spec.names()}
    found = {f"{path.relative_to(ROOT)}: {key}"
             for path in [*(ROOT / "pages").glob("*.py"), *(ROOT / "judgescope" / "web").glob("*.py")]
             for key in url_scan.url_keys(ast.parse(path.read_text(encoding="utf-8")), path.name == "urls.py")
             if key not in declared}
    assert found == set()


def test_every_page_link_and_switch_takes_checked_parameters():
    """st.page_link and st.switch_page take their query_params from navigation.link_params (which
    refuses an undeclared name); a dict typed in place would bypass the declaration."""
    typed = []
    for path in [*(ROOT / "pages").glob("*.py"), *(ROOT / "judgescope" / "web").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for kw in getattr(node, "keywords", []) if isinstance(node, ast.Call) else []:
                if kw.arg == "query_params" and not (isinstance(kw.value, ast.Call) and getattr(
                        kw.value.func, "attr", None) == "link_params"):
                    typed.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert typed == []


@pytest.mark.parametrize("source, names", [
    ('st.query_params.get("judge")', {"judge"}),
    ('st.query_params["item"] = x', {"item"}),
    ('st.query_params.update({"repo": r, "revision": v})', {"repo", "revision"}),
    ('st.multiselect("S", xs, key="split", bind="query-params")', {"split"}),
    ('st.multiselect("S", xs, key="split")', set()),  # not bound to the URL
    ('urls.url_number(c, "T", key="t1")', {"t1"}),
    ('urls.bound("facet", xs)', {"facet"}),
    ('urls.read("record")', {"record"}),
    ('pager.read(params)', set()),
])
def test_the_scan_finds_url_parameters(source, names):
    """The scan above can fail: each way code names a URL parameter is found."""
    assert url_scan.url_keys(ast.parse(source)) == names


def test_the_scan_follows_helpers_into_web_modules(tmp_path):
    """A page that calls a web/ helper reading ?judge= reads ?judge= (Review declares none)."""
    page = tmp_path / "page.py"
    page.write_text("from judgescope.web import calibration_panels as view\nview.split_filter()\n"
                    "from judgescope.web import urls\nurls.open_page('review')\n")
    found = url_scan.read_by(page)
    assert "split" in found and any("calibration_panels.py:split_filter" in w for w in found["split"])


def _page_app():
    import streamlit as st

    from judgescope.web import context, urls
    st.session_state["_judgescope_page"] = "pages/review.py"  # what app.py's page_trace sets
    st.session_state["_judgescope_in_page"] = True
    low = urls.url_number(st, "Score from", key="min")
    st.text(f"min={low}")
    try:
        urls.check("judge")
    except context.navigation.UndeclaredParameter as err:
        st.text(f"refused: {err}")


@pytest.mark.parametrize("value, said", [("abc", True), ("-5", True), ("1e400", True),
                                         ("![x](http://127.0.0.1:9/x.png)", True), ("50", False)])
def test_a_bad_url_value_is_named_and_the_default_used(value, said):
    at = AppTest.from_function(_page_app)
    at.query_params["min"] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    warnings = [w.value for w in at.warning]
    assert len(warnings) == int(said)  # one sentence
    if said:
        assert warnings[0].startswith("URL parameter `min` had ") and "not a number from 0 to 100" in warnings[0]
        assert "](" not in warnings[0]  # the value is text: no link, no image
        assert at.text[0].value == "min=0.0" and "min" not in at.query_params  # the declared default
    else:
        assert at.text[0].value == "min=50.0"
    assert at.text[1].value.startswith("refused: ") and "'judge'" in at.text[1].value


@pytest.mark.parametrize("param, raw, options, expected", [
    (url_params.number("k", 1, 50, 3, integer=True), ["2"], None, None),
    (url_params.number("row", 0, 10**9, None, integer=True, opens=True), ["1.5"], None, "not a whole number"),
    (url_params.number("row", 0, 10**9, None, integer=True, opens=True), ["9" * 5000], None, "not a whole number"),
    (url_params.choice("cell", "data"), ["TP", "XX"], ["TP", "FP"],
     "`cell` had " + md_literal(repr("XX")) + ", which this data does not have"),
    (url_params.choice("order", ("a", "b")), ["c"], None, "`order` had " + md_literal(repr("c"))),
    (url_params.flag("log"), ["yes"], None, "`log` had " + md_literal(repr("yes"))),
    (url_params.text("item", 10), ["x" * 11], None, "`item` was longer than 10 characters; showing the default"),
    (url_params.text("q", 10, box=True), ["x" * 11], None, "only the first ones are used"),
    (url_params.text("q", 10, box=True), ["x" * 10], None, None),
])
def test_the_parser_names_what_it_cannot_use(param, raw, options, expected):
    said = url_params.problem(param, raw, options)
    assert (said is None) if expected is None else (expected in said), said


def test_a_choice_from_the_data_needs_its_options():
    with pytest.raises(ValueError, match="pass them"):
        url_params.problem(url_params.choice("judge", "the judges"), ["x"])


def test_every_finding_links_to_parameters_its_page_declares():
    """The domains word the findings and their links (judgescope.headlines); a finding's URL
    parameters go through the same declaration (Overview's cards build them with link_params)."""
    from judgescope import headlines
    from judgescope.wiring import get_catalog

    cat = get_catalog()
    linked = [(f.page, f.params) for name in cat.manifest.collections for f in headlines.collect(cat, name)[0]]
    assert any(params for _, params in linked)
    for page, params in linked:
        navigation.link_params(navigation.page(page), **params)


def test_a_list_a_record_was_opened_from_is_read_by_the_parser():
    """Review's ?list= and ?integrity_class= (web/review.py origin_list) go through the parser: a
    list or class Review does not know is named, and Review walks its own filtered list."""
    from apptest import open_page

    at = open_page("pages/review.py", "xhotpotqa", list="nope", record="x")
    assert not at.exception and any("URL parameter `list`" in w.value for w in at.warning)
    at = open_page("pages/review.py", "xhotpotqa", list="integrity", integrity_class="nope", record="x")
    assert not at.exception and any("URL parameter `integrity_class`" in w.value for w in at.warning)
