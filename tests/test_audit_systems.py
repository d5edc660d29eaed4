"""The judge's score per system: on counts built here (worked by hand), on the real GEMBA audit
against pandas and scipy's bootstrap, in `report`'s JSON and on the Languages page."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import bootstrap

from apptest import open_page
from judgescope.audit import systems
from judgescope.cli import main


def _counts(rows):
    """rows: (target_language, system, score, n) → audit_score_counts rows (facet = system)."""
    return pd.DataFrame([{"unit": "segment", "target_language": lang, "facet": sys_,
                          "score": float(score), "n": n} for lang, sys_, score, n in rows])


def test_by_system_worked_by_hand():
    # A: de 90 × 2, 70 × 2 → n 4, mean 80; ru 60 × 1; pooled A = (90·2 + 70·2 + 60) / 5 = 76.
    # B: de 100 × 3 → mean 100, every resample 100, CI [100, 100].
    # No system (None): 50 × 1 → "not recorded".
    out = systems.by_system(_counts([("de", "A", 90, 2), ("de", "A", 70, 2), ("ru", "A", 60, 1),
                                     ("de", "B", 100, 3), ("de", None, 50, 1)]), 2_000, 7)
    by = {r["system"]: r for r in out["systems"]}
    assert (by["A"]["n"], by["A"]["mean"]) == (5, pytest.approx(76.0))
    assert (by["B"]["n"], by["B"]["mean"], by["B"]["ci"]) == (3, 100.0, [100.0, 100.0])
    assert by["not recorded"]["n"] == 1
    assert by["A"]["ci"][0] < 76 < by["A"]["ci"][1]
    lang = {(r["target_language"], r["system"]): r for r in out["by_language"]}
    assert lang[("de", "A")]["mean"] == pytest.approx(80.0) and lang[("ru", "A")]["n"] == 1
    assert out["overall_mean"] == pytest.approx((380 + 300 + 50) / 9)
    assert "bootstrap" in out["method"] and out["seed"] == 7


def test_report_json_by_system_on_the_real_gemba_audit(realdata, capsys):
    path = realdata / "judge_audit_gemba_wmt22.jsonl"
    assert main(["report", str(path), "--resamples", "10000", "--seed", "3"]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    rows = pd.read_json(path, lines=True)
    got = {r["system"]: r for r in report["by_system"]["systems"]}
    expect = rows.groupby("system")["score"].agg(["size", "mean"])
    assert set(got) == set(expect.index)
    for name, e in expect.iterrows():
        assert got[name]["n"] == e["size"] and got[name]["mean"] == pytest.approx(e["mean"])
    # The interval against scipy's percentile bootstrap of the same rows (another random stream:
    # endpoints within a point on the 0–100 scale).
    for name in ("Online-B", "Online-Y", "refA"):
        scores = rows.loc[rows["system"] == name, "score"].to_numpy(dtype=float)
        ref = bootstrap((scores,), np.mean, n_resamples=10_000, method="percentile",
                        random_state=np.random.default_rng(0)).confidence_interval
        assert got[name]["ci"] == pytest.approx([ref.low, ref.high], abs=1.0)
    lang = {(r["target_language"], r["system"]) for r in report["by_system"]["by_language"]}
    assert lang == set(rows.groupby(["target_language", "system"]).groups)
    assert "no human scores" in report["by_system"]["human_agreement"]


def test_languages_page_shows_the_systems_of_an_audit_that_has_them(realdata, write_manifest,
                                                                    monkeypatch):
    # realdata is copied into the manifest's folder (manifest paths may not leave it).
    text = ('[[collection]]\nname = "g"\ntitle = "G"\ndatasets = ["gemba"]\n'
            '[[dataset]]\nname = "gemba"\npath = "realdata/judge_audit_gemba_wmt22.jsonl"\n')
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(write_manifest(text)))
    at = open_page("pages/languages.py", "g")
    assert not at.exception
    assert "By system" in [h.value for h in at.header]
    table = next(d.value for d in at.dataframe if "System" in d.value.columns)
    assert len(table) == 37 and (table["95% CI low"] <= table["Mean"]).all()
    # Each row opens Review filtered to its language and system.
    first = table.iloc[0]
    assert first["Review"].startswith("review?") and "lang=de" in first["Review"]
    assert f"system={first['System']}" in first["Review"]
    review = open_page("pages/review.py", "g", lang="de", system=first["System"])
    assert not review.exception
    assert review.multiselect(key="_w_system").value == [first["System"]]


def test_languages_page_has_no_system_section_without_a_system_column():
    at = open_page("pages/languages.py", "xhotpotqa")
    assert not at.exception and "By system" not in [h.value for h in at.header]
