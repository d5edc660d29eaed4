"""Agreement intervals that resample whole documents: against a direct document bootstrap with
statsmodels' Fleiss κ, and on the Human ratings page / agreement JSON."""

import json

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import fleiss_kappa

from judgescope.calibration import clustered

CATS = ["no_error", "minor", "major"]


def _synthetic(seed=3, docs=12, per_doc=5):
    """3 raters per item; each document has its own tendency, so its items agree alike."""
    rng = np.random.default_rng(seed)
    rows, clusters = [], {}
    for d in range(docs):
        lean = rng.dirichlet([1, 1, 1])
        for i in range(per_doc):
            item = f"d{d}:s{i}"
            clusters[item] = f"doc{d}"
            true = rng.choice(3, p=lean)
            for r in range(3):
                v = true if rng.random() < 0.7 else rng.integers(0, 3)
                rows.append({"item": item, "rater": f"r{r}", "verdict": CATS[v]})
    return pd.DataFrame(rows), pd.Series(clusters)


def test_document_bootstrap_matches_a_direct_resample():
    frame, clusters = _synthetic()
    wide = frame.pivot(index="item", columns="rater", values="verdict")
    out = clustered.verdict_cis(wide, clusters, CATS)
    # Direct: draw documents with replacement, stack their items' category counts, statsmodels.
    counts = np.stack([(wide == c).sum(axis=1).to_numpy() for c in CATS], axis=1)
    docs = clusters.reindex(wide.index).to_numpy()
    names = np.unique(docs)
    members = [np.flatnonzero(docs == d) for d in names]
    rng = np.random.default_rng(1)
    draws = []
    for _ in range(4_000):
        pick = rng.integers(0, len(names), len(names))
        draws.append(fleiss_kappa(counts[np.concatenate([members[p] for p in pick])]))
    low, high = np.percentile(draws, [2.5, 97.5])
    assert out["fleiss_kappa"]["ci"] == pytest.approx([low, high], abs=0.015)
    assert out["clusters"] == 12 and "clusters of doc (12 clusters, 60 items)" in \
        out["fleiss_kappa"]["method"]


def test_no_shared_clusters_no_clustered_interval():
    frame, clusters = _synthetic()
    wide = frame.pivot(index="item", columns="rater", values="verdict")
    unique = pd.Series({k: k for k in clusters.index})
    assert clustered.verdict_cis(wide, unique, CATS) is None


def test_agreement_json_resamples_documents(tmp_path):
    from judgescope import cli
    frame, clusters = _synthetic()
    rows = [{"doc": clusters[r.item], "segment_id": r.item, "rater": r.rater, "verdict": r.verdict}
            for r in frame.itertuples()]
    path = tmp_path / "ratings.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    out = tmp_path / "agreement.json"
    cli.main(["agreement", str(path), "--json", str(out)])
    got = json.loads(out.read_text())["verdicts_by_doc"]
    assert got["clusters"] == 12 and got["fleiss_kappa"]["ci"][0] < got["fleiss_kappa"]["ci"][1]


def test_few_clusters_are_flagged_not_headlined():
    frame, clusters = _synthetic(docs=4, per_doc=10)
    wide = frame.pivot(index="item", columns="rater", values="verdict")
    out = clustered.verdict_cis(wide, clusters, CATS)
    assert out["few_clusters"] and out["clusters"] == 4
    # The one rule (clustered.agreement): with 4 documents the headline is the item-level interval.
    few, few_clusters = _synthetic(docs=4, per_doc=10)
    item_clusters = pd.DataFrame({"item": few_clusters.index, "cluster": few_clusters.to_numpy()})
    stat = clustered.agreement(few, item_clusters, None, "verdict")["verdicts"]["fleiss_kappa"]
    assert stat["ci_name"] == clustered.ITEMS and stat["ci"] == stat["ci_item"]
    assert clustered.headline_caption(stat).startswith("95% CI [")
    assert "unreliable" in clustered.methods_caption({"ci_method": "m"}, out)
    many = clustered.verdict_cis(*(lambda f, c: (f.pivot(index="item", columns="rater",
                                                         values="verdict"), c))(*_synthetic()), CATS)
    assert not many["few_clusters"]
