"""README: "every list exports with its provenance". Every export the code offers (each call of
judgescope.web.export's helpers in pages/ and judgescope/, found by reading the code, so a new
one is a new case here) is reached by one of the page runs below, and the provenance file its
button hands out says what the helper promises: the app and its version, when, the collection,
the rows the export holds, the filters, its row limit, the CSV formula guard, and every dataset's
kind, origin (path or Hub repository, revision, config, split) and files, whose sha256 and size
are those of the files on disk. A page that shows a table offers an export of its rows."""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import sys
from datetime import datetime
from pathlib import Path

import pytest

from judgescope import __version__
from judgescope.reviews import verdict_log as reviews
from judgescope.console import sql_console as console
from judgescope.wiring import get_catalog
from judgescope.web import export

from apptest import open_page
from conftest import REALDATA, ROOT
from pages_index import page_cases

HELPERS = ("rows", "query_rows", "buttons", "query_buttons")  # every export goes through one
EXPORT_MODULE = Path(export.__file__).resolve()
SQL = console.EXAMPLE
GEMBA = "judge_audit_gemba_wmt22.jsonl"


def export_sites() -> list[str]:
    """`file:line` of every call of an export helper, as `export.<helper>(…)`."""
    sites = []
    for path in sorted([*ROOT.glob("pages/*.py"), *ROOT.glob("judgescope/**/*.py"), ROOT / "app.py"]):
        if path.resolve() == EXPORT_MODULE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "judgescope.web.export":
                raise AssertionError(f"{path}: call the export helpers as export.<helper> (this test finds them so)")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in HELPERS
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "export"):
                sites.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return sites


def _caller() -> str:
    """`file:line` of the call that reached the export module."""
    frame = sys._getframe(2)
    while Path(frame.f_code.co_filename).resolve() == EXPORT_MODULE:
        frame = frame.f_back
    return f"{Path(frame.f_code.co_filename).resolve().relative_to(ROOT)}:{frame.f_lineno}"


class Recorder:
    """Every export a page run offers: where it was called, the rows it holds, its provenance file."""

    def __init__(self, monkeypatch):
        self.runs: list[dict] = []
        self._json: list[bytes] = []
        original_json, original_buttons, original_query = (export.provenance_json, export.buttons,
                                                           export.query_buttons)

        def provenance_json(prov, note):
            self._json.append(original_json(prov, note))
            return self._json[-1]

        def buttons(frame, stem, prov, limit=None, available=None):
            site = _caller()
            original_buttons(frame, stem, prov, limit, available)
            self._offered(site, stem, len(export.capped(frame, limit, available)[0]))

        def query_buttons(store, query, params, stem, prov, available=None):
            site = _caller()
            original_query(store, query, params, stem, prov, available)
            self._offered(site, stem, None)

        monkeypatch.setattr(export, "provenance_json", provenance_json)
        monkeypatch.setattr(export, "buttons", buttons)
        monkeypatch.setattr(export, "query_buttons", query_buttons)

    def _offered(self, site, stem, rows) -> None:
        """Kept with what the run's own catalog says: the collection's datasets, their files hashed."""
        prov = json.loads(self._json.pop())
        catalog = get_catalog()
        self.runs[-1]["exports"].append({
            "site": site, "stem": stem, "rows": rows, "provenance": prov,
            "members": {d.spec.name for d in catalog.collection_datasets(self.runs[-1]["collection"])},
            "on_disk": {d["name"]: _files_on_disk(catalog, d) for d in prov["datasets"] if d["path"]}})

    def run(self, name: str, collection: str, action) -> None:
        """One page run (`action` opens the page and does what it needs), recorded under `name`."""
        self.runs.append({"name": name, "collection": collection, "exports": [], "at": None, "error": None})
        try:
            self.runs[-1]["at"] = action()
        except Exception as err:  # noqa: BLE001  reported by the case that needs this run
            self.runs[-1]["error"] = f"{type(err).__name__}: {err}"


def _review_export():
    at = open_page("pages/review.py", "xhotpotqa")
    at.toggle(key="prepare_export").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _reviews_with_verdicts():
    at = open_page("pages/review.py", "xhotpotqa")
    at.selectbox(key="open_record").select_index(1).run()
    record = at.query_params["record"]
    base = {"collection": "xhotpotqa", "dataset": "xhotpotqa_v2_audit", "language": "th", "unit": "answer",
            "score": 10.0, "judge_record_id": record[0] if isinstance(record, list) else record}
    for who, verdict in (("ann", "judge_right"), ("bob", "too_harsh")):
        reviews.record(None, reviewer=who, verdict=verdict, **base)
    at.switch_page("pages/reviews.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _gemba_languages(folder: Path, monkeypatch):
    """Languages on the GEMBA audit, which has systems (its By system section)."""
    shutil.copy(REALDATA / GEMBA, folder / GEMBA)  # a manifest's paths stay in its folder
    manifest = folder / "gemba.toml"
    manifest.write_text('[[collection]]\nname = "gemba"\ndatasets = ["gemba"]\n\n[[dataset]]\nname = "gemba"\n'
                        f'kind = "judge_audit"\npath = "{GEMBA}"\n', encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    return open_page("pages/languages.py", "gemba")


@pytest.fixture(scope="module")
def offered(tmp_path_factory) -> Recorder:
    """Every page on its collections (tests/pages_index.py), then the exports that need a step
    first: Review's prepared export, a console query, the demo's human ratings, the Reviews page
    with verdicts, and Languages on an audit with systems (the real GEMBA data, when present)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUDGESCOPE_STATE", str(tmp_path_factory.mktemp("reviews") / "reviews.sqlite"))
        mp.delenv("JUDGESCOPE_REVIEWS", raising=False)
        rec = Recorder(mp)
        for page, collection in page_cases():
            rec.run(page, collection, lambda page=page, collection=collection: open_page(page, collection))
        rec.run("review export", "xhotpotqa", _review_export)
        rec.run("console query", "xhotpotqa", lambda: open_page("pages/sql_console.py", "xhotpotqa", sql=SQL))
        rec.run("human ratings", "mqm_ratings", lambda: open_page("pages/human_ratings.py", "mqm_ratings"))
        rec.run("reviews with verdicts", "xhotpotqa", _reviews_with_verdicts)
        if REALDATA.is_dir():
            rec.run("languages with systems", "gemba",
                    lambda: _gemba_languages(tmp_path_factory.mktemp("gemba"), mp))
        yield rec


def _files_on_disk(catalog, dataset: dict) -> list[dict]:
    """The files the provenance names, hashed here from the dataset's folder."""
    root = catalog.manifest.path.parent / catalog.dataset(dataset["name"]).spec.path
    root = root if root.is_dir() else root.parent
    return [{"file": f["file"], "sha256": hashlib.sha256((root / f["file"]).read_bytes()).hexdigest(),
             "size": (root / f["file"]).stat().st_size} for f in dataset["files"]]


def check_provenance(export_: dict, collection: str) -> None:
    prov, where = export_["provenance"], f"{export_['site']} ({export_['stem']})"
    assert prov["app"] == "JudgeScope" and prov["app_version"] == __version__, where
    assert datetime.fromisoformat(prov["exported_at"]).tzinfo is not None, where
    assert prov["collection"] == collection, where
    if export_["rows"] is not None:  # a streamed query's rows are counted by the page
        assert prov["rows"] == export_["rows"] == prov["export_limit"]["rows"], where
    assert isinstance(prov["filters"], dict), where
    if export_["stem"] == "sql_console":  # the console's rows carry the query that made them
        assert prov["filters"]["sql"] == SQL and "truncated" in prov["filters"], where
    assert {"limit", "truncated", "rows_available"} <= set(prov["export_limit"]), where
    assert prov["csv_formula_guard"] == export.FORMULA_GUARD, where
    assert prov["datasets"], f"{where}: no dataset named"
    for dataset in prov["datasets"]:
        assert dataset["name"] in export_["members"], where
        assert {"kind", "hub", "revision", "path", "config", "split", "synthetic"} <= set(dataset), where
        assert dataset["files"] and (dataset["path"] or dataset["hub"]), f"{where}: {dataset['name']} has no origin"
        if dataset["path"]:
            assert dataset["files"] == export_["on_disk"][dataset["name"]], where


@pytest.mark.parametrize("site", export_sites())
def test_every_export_carries_its_provenance(site, offered):
    reached = [(run, e) for run in offered.runs for e in run["exports"] if e["site"] == site]
    if not reached and not REALDATA.is_dir() and site.startswith("judgescope/web/by_system.py"):
        pytest.skip("reached on the real GEMBA audit only: ../shared/realdata is not beside this checkout")
    errors = [f"{run['name']} × {run['collection']}: {run['error']}" for run in offered.runs if run["error"]]
    assert reached, f"no page run offers the export at {site}: add a run to `offered` ({errors})"
    for run, exported in reached:
        check_provenance(exported, run["collection"])


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


@pytest.mark.parametrize("page,collection", page_cases())
def test_a_page_that_shows_a_table_offers_its_export(page, collection, offered):
    """Review prepares its capped export behind a toggle (checked above as `review export`);
    Overview's tables are the provenance itself, in the report it offers."""
    run = next(r for r in offered.runs if (r["name"], r["collection"]) == (page, collection))
    assert run["error"] is None, run["error"]
    nodes = list(_walk(run["at"].main))
    if not any(type(n).__name__ == "Dataframe" for n in nodes):
        return
    if page == "pages/review.py":
        assert any(t.key == "prepare_export" for t in run["at"].toggle)
    elif page == "pages/overview.py":
        labels = [str(getattr(n, "proto", "")) for n in nodes if getattr(n, "type", None) == "download_button"]
        assert any("report" in label.lower() for label in labels)
    else:
        assert run["exports"], f"{page} × {collection}: a table without an export and its provenance"
