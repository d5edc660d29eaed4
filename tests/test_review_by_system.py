"""Issue #25 item 6: Review filtered by system wherever an audit has a `system` column (the real
GEMBA-DA WMT22 audit in ../shared/realdata has one): the System filter round-trips in the URL
(?system=, repeated for several), the list holds only those systems' rows in the one total order
(score, judge_record_id), the export carries the filter in its provenance, and each system's row
on Distributions (and on Human ratings, when the collection's audit scored that system) links to
Review filtered to that system."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlparse

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from apptest import APP, open_page

AUDIT = "judge_audit_gemba_wmt22.jsonl"


@pytest.fixture
def gemba(realdata, monkeypatch) -> pd.DataFrame:
    """The GEMBA audit alone as a collection; its rows as read independently of the app."""
    manifest = realdata.parent / "gemba.toml"
    manifest.write_text('[[collection]]\nname = "gemba"\ndatasets = ["gemba"]\n\n'
                        f'[[dataset]]\nname = "gemba"\nkind = "judge_audit"\npath = "realdata/{AUDIT}"\n',
                        encoding="utf-8")
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(manifest))
    return pd.read_json(realdata / AUDIT, lines=True, dtype={"judge_record_id": str})


def expected_ids(rows: pd.DataFrame, systems: list[str]) -> list[str]:
    """The ids of these systems' rows in the Review order: score, then judge_record_id."""
    mine = rows[rows["system"].isin(systems)]
    return [i for _, i in sorted(zip(mine["score"].astype(float), mine["judge_record_id"]))]


def shown_ids(at) -> tuple[list[str], pd.DataFrame]:
    """The ids Review lists (its first page) and the list itself."""
    frame = next(d.value for d in at.main.dataframe if "Judge record id" in d.value.columns)
    return frame["Judge record id"].astype(str).tolist(), frame


def _url(at) -> dict:
    return {k: (v if isinstance(v, list) else [v]) for k, v in at.query_params.items()}


def test_review_offers_each_system_and_filters_by_one(gemba):
    systems = sorted(gemba["system"].unique())
    one = systems[0]
    at = open_page("pages/review.py", "gemba", system=one)
    box = at.multiselect(key="_w_system")
    assert box.options == systems and box.value == [one]
    ids, frame = shown_ids(at)
    want = expected_ids(gemba, [one])
    assert ids == want[:len(ids)] and len(ids) == min(len(want), 50)
    assert set(frame["System"]) == {one}
    assert any(f"**{len(want):,}** rows match" in str(m.value) for m in at.markdown)
    assert _url(at)["system"] == [one]  # the view stays shareable


def test_several_systems_round_trip_in_the_url(gemba):
    two = sorted(gemba["system"].unique())[:2]
    at = open_page("pages/review.py", "gemba", system=two)
    assert sorted(at.multiselect(key="_w_system").value) == two
    want = expected_ids(gemba, two)
    assert shown_ids(at)[0] == want[:50]
    assert sorted(_url(at)["system"]) == two
    at.multiselect(key="_w_system").unselect(two[1]).run()  # the widget writes the URL back
    assert _url(at)["system"] == [two[0]]
    assert shown_ids(at)[0] == expected_ids(gemba, [two[0]])[:50]


def test_the_export_of_a_system_carries_it_in_its_provenance(gemba, monkeypatch):
    from judgescope.web import export

    seen = {}
    monkeypatch.setattr(export, "buttons", lambda frame, stem, prov, *a, **k: seen.setdefault(stem, (frame, prov)))
    one = sorted(gemba["system"].unique())[1]
    at = open_page("pages/review.py", "gemba", system=one)
    at.toggle(key="prepare_export").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    frame, prov = seen["review_rows"]
    assert frame["judge_record_id"].astype(str).tolist() == expected_ids(gemba, [one])
    assert set(frame["system"]) == {one}
    assert prov["filters"]["systems"] == [one], prov


def test_each_system_row_on_distributions_opens_review_on_that_system(gemba):
    at = open_page("pages/distributions.py", "gemba", facet="system")
    table = next(d.value for d in at.main.dataframe if "System" in d.value.columns)
    linked = table.dropna(subset=["Review"])
    per_system = linked[linked["Unit"] != "overall"]
    assert set(per_system["System"]) == set(gemba["system"]), table
    for _, row in per_system.head(3).iterrows():
        url = urlparse(row["Review"])
        params = parse_qsl(url.query)
        assert url.path.strip("/") == "review" and ("system", row["System"]) in params, row["Review"]
        landed = AppTest.from_file(APP, default_timeout=120)
        for k, v in params:
            landed.query_params[k] = v
        landed.run()
        landed.switch_page("pages/review.py").run()
        assert not landed.exception, [e.value for e in landed.exception]
        mine = gemba[gemba["unit"] == row["Unit"]]
        want = expected_ids(mine, [row["System"]])
        ids, frame = shown_ids(landed)
        assert ids == want[:50] and set(frame["System"]) == {row["System"]}
        assert len(want) == row["n"]


@pytest.fixture
def audit_and_ratings(tmp_path, use_manifest) -> pd.DataFrame:
    """A collection with a judge audit and human ratings of partly the same systems."""
    import json

    audit = pd.DataFrame([{"judge_record_id": f"r{i:02d}", "target_language": "de", "unit": "segment",
                           "score": float(50 + (i * 7) % 40), "system": ("sys-a", "sys-b")[i % 2]}
                          for i in range(20)])
    audit.to_json(tmp_path / "audit.jsonl", orient="records", lines=True)
    ratings = [{"rater": f"rater{r}", "item_id": f"seg{i}", "system": system, "score": float(i + r)}
               for system in ("sys-a", "sys-x") for i in range(3) for r in range(2)]
    (tmp_path / "ratings.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ratings), encoding="utf-8")
    use_manifest(
        '[[collection]]\nname = "both"\ndatasets = ["audit", "ratings"]\n'
        '[[dataset]]\nname = "audit"\nkind = "judge_audit"\npath = "audit.jsonl"\n'
        '[[dataset]]\nname = "ratings"\nkind = "human_ratings"\npath = "ratings.jsonl"\n')
    return audit


def test_human_ratings_systems_open_the_audits_rows_of_that_system(audit_and_ratings):
    at = open_page("pages/human_ratings.py", "both")
    table = next(d.value for d in at.main.dataframe if "System" in d.value.columns)
    links = dict(zip(table["System"], table["Review"]))
    assert pd.isna(links["sys-x"])  # rated by humans, not scored by the judge: nothing to open
    url = urlparse(links["sys-a"])
    assert url.path.strip("/") == "review" and dict(parse_qsl(url.query)) == {"collection": "both",
                                                                                "system": "sys-a"}
    landed = AppTest.from_file(APP, default_timeout=120)
    for k, v in parse_qsl(url.query):
        landed.query_params[k] = v
    landed.run()
    landed.switch_page("pages/review.py").run()
    assert not landed.exception, [e.value for e in landed.exception]
    ids, frame = shown_ids(landed)
    assert ids == expected_ids(audit_and_ratings, ["sys-a"]) and set(frame["System"]) == {"sys-a"}
