"""A binned float audit draws each group's interval so that its stated bound is small beside its
width (issue 39 item 8): a group spanning a few points of a 0–100 audit falls in two or three bins
of the audit-wide grid, and is drawn from its own scores. Held to scipy.stats.bootstrap
(method='percentile') on the raw scores of narrow, wide and skewed groups."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from judgescope.audit import binned
from judgescope.audit import interval_tables
from judgescope.audit import summary as audit
from judgescope.sources.catalog import Catalog
from judgescope.wiring import TABLES
from judgescope.ingest.manifest import load_manifest

N = 400


def _audit() -> pd.DataFrame:
    rng = np.random.default_rng(39)
    groups = {"paragraph": 71 + rng.normal(0, 0.6, N),          # narrow: a few points
              "question": rng.normal(60, 20, N),                # wide
              "answer": 100 * rng.beta(0.6, 6, N)}              # skewed, long right tail
    rows = [(u, float(np.round(np.clip(s, 0, 100), 4))) for u, x in groups.items() for s in x]
    frame = pd.DataFrame(rows, columns=["unit", "score"])
    return frame.assign(judge_record_id=[f"r{i}" for i in range(len(frame))], target_language="de")


@pytest.fixture(scope="module")
def audit_store(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("narrow")
    rows = _audit()
    rows.to_parquet(tmp / "audit.parquet")
    (tmp / "sources.toml").write_text('[[collection]]\nname = "c"\ndatasets = ["d"]\n[[dataset]]\n'
                                      'name = "d"\nkind = "judge_audit"\npath = "audit.parquet"\n')
    return Catalog(load_manifest(tmp / "sources.toml"), providers=TABLES).store("c"), rows


def test_each_group_matches_scipys_percentile_bootstrap(audit_store):
    store, rows = audit_store
    counts = audit.score_counts(store.run)
    assert isinstance(counts, binned.Binned) and counts.width == 1  # the 0–100 grid of width 1
    table = audit.bootstrap_table(counts, ["unit"], 10_000, 3, method=True).set_index("unit")
    for unit, x in rows.groupby("unit")["score"]:
        ref = sps.bootstrap((x.to_numpy(),), np.mean, method="percentile", n_resamples=10_000,
                            random_state=np.random.default_rng(4)).confidence_interval
        got = table.loc[unit]
        width = ref.high - ref.low
        assert got["endpoint_bound"] <= binned.BOUND_SHARE * (got["high"] - got["low"]), unit
        # Two seeded 10,000-resample bootstraps: each endpoint's MC SE is about 0.7 % of the width.
        slack = 0.05 * width + got["endpoint_bound"]
        assert got["low"] == pytest.approx(ref.low, abs=slack), unit
        assert got["high"] == pytest.approx(ref.high, abs=slack), unit
        assert (got["high"] - got["low"]) == pytest.approx(width, rel=0.08), unit


def test_the_narrow_group_is_read_from_its_own_scores(audit_store):
    store, _ = audit_store
    counts = audit.score_counts(store.run)
    narrow = {k: g for k, g in binned.groups(counts, ["unit"])}
    assert narrow[("paragraph",)].scores is not None and narrow[("paragraph",)].bin.size <= 6
    assert narrow[("question",)].scores is None  # wide: the grid serves it
    ci = audit.mean_intervals(counts)
    assert "1 groups too narrow for that grid drawn from their own scores" in ci.attrs["ci_method"] \
        or "groups too narrow" in ci.attrs["ci_method"]


def test_the_stored_default_intervals_are_the_drawn_ones(audit_store):
    store, _ = audit_store
    stored = interval_tables.table(store.run, ["none"])
    drawn = audit.mean_intervals(audit.score_counts(store.run))
    assert stored["low"].tolist() == pytest.approx(drawn["low"].tolist())
    assert stored["high"].tolist() == pytest.approx(drawn["high"].tolist())
    assert stored["ci_method"].iloc[0] == drawn.attrs["ci_method"]


@pytest.mark.parametrize("by", binned.GROUPINGS)
def test_the_narrow_rule_computes_each_groups_own_plan(audit_store, by):
    """_group_plans computes every group's bound at once; each equals stats._bins_plan's for that
    group alone (and its SD mean_sd_from_bins')."""
    from judgescope import stats

    store, _ = audit_store
    counts = audit.score_counts(store.run, "none")
    codes, n, sd, bound = binned._group_plans(counts, by)
    rows = counts.bins[by].itertuples(index=False, name=None) if by else [()] * len(codes)
    code_of = {binned._key(r): int(c) for r, c in zip(rows, codes)}
    for key, g in binned.groups(counts, by):
        code = code_of[binned._key(key)]
        plan = stats._bins_plan(g.n, g.total, g.total_sq, g.low, g.high, g.width, 10_000, g.bin)
        assert bound[code] == pytest.approx(plan["bound"], rel=1e-9, abs=1e-12), key
        assert sd[code] == pytest.approx(stats.mean_sd_from_bins(g.n, g.total, g.total_sq, g.low,
                                                                 g.high)[2], rel=1e-9), key
