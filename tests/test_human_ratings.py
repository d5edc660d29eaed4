"""Issue #16.4: long-format human ratings. Krippendorff's α against published values and, on the
real WMT23 en-de multi-rater MQM file (loaded with no kind given), against the `krippendorff`
package computed independently from the raw file; the Human ratings page renders it."""

import ast
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from judgescope.calibration import human_ratings as hr

N = None
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 coders ×
# 12 units with missing values; published α nominal 0.743, ordinal 0.815, interval 0.849.
K2011 = [[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N], [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
         [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N], [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]]


@pytest.mark.parametrize("level,published", [("nominal", 0.743), ("ordinal", 0.815),
                                             ("interval", 0.849)])
def test_alpha_equals_krippendorff_2011(level, published):
    items = [u for coder in K2011 for u, _ in enumerate(coder)]
    values = [v for coder in K2011 for v in coder]
    assert hr.alpha(items, values, level) == pytest.approx(published, abs=5e-4)


def test_alpha_undefined_and_unpairable_are_said():
    assert hr.alpha(["a", "a"], [3, 3], "interval") is None  # one value: D_e = 0
    cats, _, unpairable = hr.coincidences(["a", "a", "b"], [1, 2, 5])
    assert unpairable == 1 and list(cats) == [1.0, 2.0]


def test_pure_module_imports_no_streamlit():
    tree = ast.parse(Path(hr.__file__).read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not any(n.split(".")[0] == "streamlit" for n in names)


MQM = "multirater_sxs_mqm_wmt23_ende.jsonl"


@pytest.fixture
def mqm_manifest(realdata, monkeypatch):
    (realdata / "sources.toml").write_text(
        '[[collection]]\nname = "mqm"\ndatasets = ["mqm"]\n'
        f'[[dataset]]\nname = "mqm"\npath = "{MQM}"\n', encoding="utf-8")  # no kind
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(realdata / "sources.toml"))
    return realdata


def test_real_mqm_alpha_interval_equals_krippendorff_package(mqm_manifest):
    krippendorff = pytest.importorskip("krippendorff")
    from judgescope.wiring import get_catalog

    store = get_catalog().store("mqm")
    frame = store.run("ratings_long")
    assert len(frame) == 3120 and frame["item"].nunique() == 1040
    ours = hr.agreement(frame, "mqm", "verdict", resamples=50)
    # Independently: the raw file, items = (global_seg_id, system), raters × items matrix.
    raw = pd.DataFrame([json.loads(line) for line in (mqm_manifest / MQM).open(encoding="utf-8")])
    wide = raw.pivot_table(index="rater", columns=["global_seg_id", "system"], values="mqm")
    expected = krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float),
                                  level_of_measurement="interval")
    assert ours["alpha"]["mqm (interval)"] == pytest.approx(expected, rel=1e-9)
    assert 0.4 < expected < 0.7  # a real, moderate agreement — not a degenerate 0 or 1
    ordinal = krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float),
                                 level_of_measurement="ordinal")
    assert ours["alpha"]["mqm (ordinal)"] == pytest.approx(ordinal, rel=1e-9)
    assert ours["verdicts"]["fleiss_kappa"]["value"] is not None  # 3 ratings on every item
    coverage = hr.coverage(frame).set_index("rater")
    assert int(np.trace(coverage.to_numpy())) == 3120
    assert hr.per_rater(frame, "mqm", "verdict")["ratings"].sum() == 3120


def test_human_ratings_page_shows_the_real_agreement(mqm_manifest):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file("../app.py", default_timeout=180)
    at.query_params["collection"] = "mqm"
    at.run()
    at.switch_page("pages/human_ratings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    labels = {m.label: m.value for m in at.metric}
    assert labels["Items"] == "1,040" and labels["Raters"] == "10"
    assert labels["α · mqm (interval)"].startswith("0.53")


def test_cli_agreement_on_the_real_file_without_flags(realdata, tmp_path, capsys):
    from judgescope.cli import main

    out = tmp_path / "agreement.json"
    assert main(["agreement", str(realdata / MQM), "--json", str(out), "--resamples", "50"]) == 0
    printed = capsys.readouterr().out
    assert "1,040 items, 10 raters, 3,120 ratings" in printed
    assert "Krippendorff's alpha, mqm (interval): 0.5331" in printed
    result = json.loads(out.read_text(encoding="utf-8"))
    assert sum(r["ratings"] for r in result["per_rater"]) == 3120


def test_empty_and_repeated_ratings_go_to_the_ledger(tmp_path, capsys):
    from judgescope.cli import main

    rows = [{"item_id": "i1", "rater": "a", "score": 1}, {"item_id": "i1", "rater": "b", "score": 2},
            {"item_id": "i1", "rater": "a", "score": 5},  # a's second rating of i1
            {"item_id": "i2", "rater": "a", "score": None, "verdict": None},  # no rating at all
            {"item_id": "i2", "rater": "b", "verdict": "minor"},  # kept: a verdict, no score
            {"item_id": "i2", "rater": "c", "score": 3}]
    src = tmp_path / "ratings.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "a.json"
    assert main(["agreement", str(src), "--json", str(out), "--resamples", "20"]) == 1
    printed = capsys.readouterr().out
    assert "ratings: loaded 6 = used 4 + excluded 2" in printed
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["missing_values"] == {"score": 1, "verdict": 3}
    assert main(["validate", str(src)]) == 1
    printed = capsys.readouterr().out
    assert "duplicate rater + item" in printed and "no rating: score, verdict all empty" in printed


# --- Every α carries a named interval: a bootstrap over items, or over whole documents when the
# items share at least MIN_CLUSTERS of them (the verdicts' rule).

def _items_frame(draw_items: np.ndarray, values_by_item: dict) -> tuple[list, list]:
    items, values = [], []
    for copy, item in enumerate(draw_items):
        for v in values_by_item[item]:
            items.append(f"{item}#{copy}")
            values.append(v)
    return items, values


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_of_patterns_equals_alpha_on_the_items_each_resample_stands_for(level):
    """Each resample's α from the pattern weights equals hr.alpha (the coincidence matrix, checked
    against Krippendorff 2011 above) on the items that resample holds, rebuilt one by one: the
    ordinal mid-ranks follow the resample's own value frequencies."""
    items = [u for coder in K2011 for u, _ in enumerate(coder)]
    values = [v for coder in K2011 for v in coder]
    cats, pats, weights, index = hr.alpha_patterns(items, values)
    by_item = {}
    for item, v in zip(items, values):
        if v is not None:
            by_item.setdefault(item, []).append(v)
    by_item = {i: v for i, v in by_item.items() if len(v) >= 2}
    assert sorted(index.index) == sorted(by_item)  # the unpairable unit 11 (one rating) is not resampled
    assert hr.alpha_of_patterns(cats, pats, weights, level)[0] == pytest.approx(hr.alpha(items, values, level))
    rng = np.random.default_rng(7)
    draws = rng.multinomial(weights.sum(), weights / weights.sum(), size=20)
    got = hr.alpha_of_patterns(cats, pats, draws, level)
    pattern_items = {p: [i for i in by_item if index[i] == p] for p in range(len(pats))}
    for draw, value in zip(draws, got):
        chosen = np.concatenate([np.repeat(pattern_items[p][0], k) for p, k in enumerate(draw)])
        its, vals = _items_frame(chosen, by_item)
        expected = hr.alpha(its, vals, level)
        assert (value == pytest.approx(expected)) if expected is not None else np.isnan(value)


def test_alpha_interval_over_items_is_the_seeded_percentile_of_those_resamples():
    items = [u for coder in K2011 for u, _ in enumerate(coder)]
    values = [v for coder in K2011 for v in coder]
    got = hr.alpha_interval(items, values, "interval", resamples=400, seed=11)
    cats, pats, weights, _ = hr.alpha_patterns(items, values)
    draws = np.random.default_rng(11).multinomial(weights.sum(), weights / weights.sum(), size=400)
    vals = hr.alpha_of_patterns(cats, pats, draws, "interval")
    assert got["ci"] == pytest.approx(list(np.percentile(vals[~np.isnan(vals)], [2.5, 97.5])))
    assert got["ci_name"] == "bootstrap over items" and "400 resamples, seed 11" in got["ci_method"]
    assert got["ci"][0] < hr.alpha(items, values, "interval") < got["ci"][1]


def test_alpha_interval_of_one_value_is_undefined_and_says_why():
    got = hr.alpha_interval(["a", "a", "b", "b"], [3, 3, 3, 3], "interval", resamples=50)
    assert got["ci"] == [None, None] and got["ci_undefined"]


def test_real_mqm_alphas_carry_document_intervals(mqm_manifest):
    """The real WMT23 file: 30 documents, so each α's headline interval resamples whole documents
    (with the item-level one beside it); each contains its α, and the CLI prints it named."""
    import subprocess
    import sys
    from judgescope.calibration import clustered
    from judgescope.wiring import get_catalog

    store = get_catalog().store("mqm")
    result = clustered.agreement(store.run("ratings_long"), store.run("ratings_item_clusters"), "mqm", "verdict",
                                 resamples=200)
    assert set(result["alpha_ci"]) == set(result["alpha"]) == {
        "mqm (interval)", "mqm (ordinal)", "verdict (ordinal: no_error < minor < major)"}
    for name, stat in result["alpha_ci"].items():
        assert stat["ci_name"] == "bootstrap over whole docs (30 clusters)"
        assert stat["ci"][0] < result["alpha"][name] < stat["ci"][1]
        assert stat["ci_item"][0] < result["alpha"][name] < stat["ci_item"][1]
        # documents share context and raters: their interval is the wider one here
        assert stat["ci"][1] - stat["ci"][0] > stat["ci_item"][1] - stat["ci_item"][0]
    done = subprocess.run([sys.executable, "-m", "judgescope", "agreement", str(mqm_manifest / MQM)],
                          capture_output=True, text=True, cwd=mqm_manifest, timeout=300)
    line = next(x for x in done.stdout.splitlines() if "alpha, mqm (interval)" in x)
    assert line.endswith("by bootstrap over whole docs (30 clusters)") and "95% CI [" in line


def test_ratings_without_an_item_are_excluded_not_pooled_as_one(tmp_path):
    """Rows whose every item column is empty used to become one item under an empty key, their
    ratings of different texts counted as agreement or disagreement; they are now excluded with a
    reason naming the columns, file and row, and enter no statistic."""
    from judgescope import cli
    rows = [{"item_id": item, "system": "X", "rater": r, "score": s}
            for item, scores in (("s1", [10, 12, 11]), ("s2", [80, 82, 79])) for r, s in zip("ABC", scores)]
    rows += [{"item_id": None, "system": None, "rater": r, "score": s} for r, s in zip("ABC", [0, 100, 50])]
    rows += [{"item_id": "  ", "rater": "D", "score": 5}]
    path = tmp_path / "ratings.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    loaded = cli.load_source(str(path), "human_ratings")
    assert loaded.report["reasons"] == {"no item: item_id, system all empty": 4}
    assert (loaded.report["rows_used"], loaded.report["rows_excluded"]) == (6, 4)
    out = tmp_path / "a.json"
    assert cli.main(["agreement", str(path), "--resamples", "50", "--json", str(out)]) == 1  # rows excluded
    got = json.loads(out.read_text())
    assert (got["items"], got["ratings"], got["raters"]) == (2, 6, 3)
    six = rows[:6]
    expected = hr.alpha([r["item_id"] for r in six], [r["score"] for r in six], "interval")
    assert got["alpha"]["score (interval)"] == pytest.approx(expected)


def test_alpha_of_patterns_does_not_lose_the_spread_of_large_scores():
    """α is unchanged by a shift of every value; scores near 10⁶ keep their spread (the sums of
    squares are taken of centred values), and one value throughout is undefined, not 0 or 1."""
    items = [u for coder in K2011 for u, _ in enumerate(coder)]
    values = [v for coder in K2011 for v in coder]
    shifted = [None if v is None else v + 1e6 for v in values]
    for level in ("interval", "ordinal"):
        base = hr.alpha_of_patterns(*hr.alpha_patterns(items, values)[:3], level)[0]
        assert hr.alpha_of_patterns(*hr.alpha_patterns(items, shifted)[:3], level)[0] == pytest.approx(base, abs=1e-9)
        assert np.isnan(hr.alpha_of_patterns(*hr.alpha_patterns([0, 0, 1, 1], [7e5] * 4)[:3], level)[0])


def _clustered_ratings(docs: int, items_per_doc: int, seed: int = 5) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    rows, clusters = [], []
    for d in range(docs):
        level = rng.normal(0, 1)
        for i in range(items_per_doc):
            item = f"d{d}-{i}"
            truth = level + rng.normal(0, 1)
            for r in ("A", "B", "C"):
                rows.append({"item": item, "rater": r, "mqm": round(truth + rng.normal(0, 0.8), 1)})
            clusters.append({"item": item, "cluster": f"doc{d}"})
    return pd.DataFrame(rows), pd.DataFrame(clusters)


@pytest.mark.parametrize("level", ["interval", "ordinal"])
def test_alpha_document_interval_equals_the_dense_cluster_bootstrap(level):
    """Six documents: both intervals are exact (every resample of documents enumerated), so the
    sparse, batched path must give the very interval of exact.clustered_table_ci over the dense
    documents × patterns table."""
    from judgescope.calibration import clustered, exact
    frame, clusters = _clustered_ratings(6, 5)
    got = clustered.alpha_cis(frame, clusters, "mqm", None)[f"mqm ({level})"]
    cats, pats, _, index = hr.alpha_patterns(frame["item"], frame["mqm"])
    groups = clusters.set_index("item")["cluster"].reindex(index.index)
    dense = exact.clustered_table_ci(groups.to_numpy(), index.to_numpy(), len(pats),
                                     lambda w: hr.alpha_of_patterns(cats, pats, w, level), 0.95, 1, "doc")
    assert "exact" in got["method"] and got["clusters"] == 6
    assert got["ci"] == pytest.approx([dense["low"], dense["high"]], abs=1e-12)


def test_draws_in_batches_give_the_same_interval(monkeypatch):
    """The resamples come from one generator in order: batches of any size give the same draws,
    so bounding a batch's cells changes no interval (Monte Carlo here: 40 documents)."""
    from judgescope.calibration import agreement, clustered
    frame, clusters = _clustered_ratings(40, 3)
    whole = clustered.alpha_cis(frame, clusters, "mqm", None)
    items = hr.alpha_interval(frame["item"], frame["mqm"], "interval", resamples=300)
    kappa = agreement.multinomial_ci([5, 9, 3, 7], lambda d: d[:, 0] / d.sum(1), 300, 4)
    monkeypatch.setattr(agreement, "DRAW_CELLS", 7)  # a handful of resamples per batch
    monkeypatch.setattr(hr, "ALPHA_CHUNK_CELLS", 11)
    assert clustered.alpha_cis(frame, clusters, "mqm", None) == whole
    assert "Monte Carlo" in whole["mqm (interval)"]["method"]
    assert hr.alpha_interval(frame["item"], frame["mqm"], "interval", resamples=300) == items
    assert agreement.multinomial_ci([5, 9, 3, 7], lambda d: d[:, 0] / d.sum(1), 300, 4) == kappa
