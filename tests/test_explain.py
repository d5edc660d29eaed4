"""`explain`: from a query to its views, cached files and pinned sources, on the demo."""

import json

from judgescope import cli
from judgescope.sources import explain
from judgescope.sources.catalog import get_catalog


def test_languages_cell_trace_reaches_the_pinned_audit_file():
    c = explain.chain(get_catalog(), "xhotpotqa", "audit_score_counts")
    assert c["query"] == "queries/audit_score_counts.sql" and "per-score counts" in c["purpose"]
    [view] = c["views"]
    assert view["view"] == "audit_counts" and view["origin"] == "part"
    assert view["cached_files"] and view["cached_files"][0].endswith("counts.parquet")
    assert not view["cached_files"][0].startswith("/")  # relative to the cache, never absolute
    [source] = view["source"]
    assert source["dataset"] == "xhotpotqa_v2_audit" and len(source["files"][0]["sha256"]) == 64


def test_integrity_trace_names_both_inputs():
    c = explain.chain(get_catalog(), "xhotpotqa", "verify_summary")
    [view] = c["views"]
    assert view["built_by"] == "verify_build_summary"
    assert [s["dataset"] for s in view["source"]] == ["xhotpotqa_v2_audit", "xhotpotqa_v2_snapshot"]


def test_cli_prints_the_chain_and_refuses_unknown_queries(capsys):
    assert cli.main(["explain", "calib_items", "--collection", "localgate", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["views"][0]["view"] == "items"
    assert out["views"][0]["source"][0]["dataset"] == "localgate_items"
    assert cli.main(["explain", "../etc/passwd"]) == 2
    assert "no query" in capsys.readouterr().out
