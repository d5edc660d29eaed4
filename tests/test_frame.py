"""Page tests enter through the frame (app.py): the sidebar picker runs and every page that shows
a number explains it under "How is this computed?", listing only the page's own queries."""

import pytest

from pathlib import Path

from judgescope import headlines as numbers
from judgescope.wiring import get_catalog
from judgescope import navigation
from judgescope.web import context

from apptest import open_page
from pages_index import page_cases

# Pages that show no number from a named query: the Hub opener; and Reviews before anyone has
# reviewed (it says so, and its numbers come from the reviews log, not from a view).
EXPLAIN_NOTHING = {"pages/hub_open.py": None, "pages/reviews.py": "No reviewer has recorded"}


def _disclosure(at):
    return [e for e in at.expander if e.label.startswith("How is this computed?")]


@pytest.mark.parametrize("page,collection", page_cases())
def test_every_page_runs_in_the_frame_and_explains_its_numbers(page, collection):
    at = open_page(page, collection)
    assert at.selectbox(key=context.PICKER_KEY).value == collection  # the frame's sidebar ran
    shown = _disclosure(at)
    spec = navigation.page(Path(page).stem)
    if not spec.fits(get_catalog().roles(collection)):
        assert not shown  # the page says it cannot be filled and shows no number
        return
    if page in EXPLAIN_NOTHING:
        assert not shown
        said = EXPLAIN_NOTHING[page]
        assert said is None or any(said in i.value for i in at.info)
        return
    assert len(shown) == 1, f"{page} × {collection}: no 'How is this computed?'"
    chains = "\n".join(c.value for c in shown[0].code)
    assert ".sql" in chains, chains[:500]
    if page != "pages/sql_console.py":  # its schema list reads DuckDB's catalog, no pinned file
        assert "sha256" in chains, chains[:500]  # the chain reaches a pinned source


def test_sidebar_queries_do_not_mix_into_a_page_that_runs_none():
    """Languages reads the audit only; the sidebar's hash badge (verify_summary) is not its query."""
    at = open_page("pages/languages.py", "xhotpotqa")
    (shown,) = _disclosure(at)
    codes = "\n".join(c.value for c in shown.code)
    assert "verify_summary" not in codes and "audit_score_counts" in codes


def _popovers(node):
    if getattr(node, "type", None) == "popover":
        yield node
    for child in getattr(node, "children", {}).values():
        yield from _popovers(child)


def _texts(node):
    value = getattr(node, "value", None)
    if isinstance(value, str):
        yield value
    for child in getattr(node, "children", {}).values():
        yield from _texts(child)


NUMBER_COLLECTION = {"calibration": "localgate", "calibration_humans": "localgate", "ranking": "transevalnia"}


@pytest.mark.parametrize("name", numbers.names())
def test_a_headline_number_has_a_how_naming_its_function_query_and_source(name):
    n = numbers.number(name)
    at = open_page(navigation.page(n.page).path, NUMBER_COLLECTION.get(n.page, "xhotpotqa"))
    [how] = [p for p in _popovers(at._tree) if n.title in "\n".join(_texts(p))]
    text = "\n".join(_texts(how))
    assert all(f"`{f}`" in text for f in n.functions)
    assert all(f"queries/{q}.sql" in text for q in n.queries)
    assert "sha256" in text and "cached file" in text


def test_pages_end_early_through_ui_stop():
    """st.stop() swallows everything after it, so a page that used it would lose its disclosure."""
    root = Path(__file__).resolve().parent.parent
    files = list((root / "pages").glob("*.py")) + list((root / "judgescope" / "web").glob("*.py"))
    offenders = [f"{f.relative_to(root)}:{i}" for f in files if f.name != "context.py"
                 for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
                 if "st.stop()" in line]
    assert not offenders, offenders


def test_a_verification_that_failed_is_tried_again_and_a_good_one_is_kept(monkeypatch):
    """The sidebar's badge caches the collection's verification, but never a failure: a store
    that could not be read is read again on the next run."""
    from judgescope.web import context, results

    calls = []
    answers = iter([(None, "snap", ["database is locked"]), ("summary", "snap", []), ("later", "snap", [])])

    def verification(catalog, collection):
        calls.append(collection)
        return next(answers)
    fake = type("C", (), {"manifest": type("M", (), {"path": "m-once"})})()
    monkeypatch.setattr(results.verify, "verification", verification)
    monkeypatch.setattr(results, "catalog", lambda: fake)
    monkeypatch.setattr(context, "catalog", lambda: fake)  # the cache's key (context.per_collection)
    monkeypatch.setattr(context, "collection_name", lambda: "c-once")
    results._verified.clear()
    assert results.verification() == (None, "snap", ["database is locked"])
    assert results.verification() == ("summary", "snap", [])
    assert results.verification() == ("summary", "snap", [])  # kept: no third read
    assert calls == ["c-once", "c-once"]


def test_apptest_scans_for_components_once_and_finds_what_a_fresh_scan_finds():
    """conftest memoises Streamlit's scan for installed components (AppTest runs it per
    instance); the memo must hold what a scan of the installed packages finds now."""
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    assert hasattr(scan, "cache_info"), "the component scan is not memoised"
    open_page("pages/overview.py", "xhotpotqa")
    open_page("pages/overview.py", "xhotpotqa")
    assert scan.cache_info().currsize == 1 and scan.cache_info().hits >= 1
    assert scan() == scan.__wrapped__()
