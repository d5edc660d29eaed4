"""Issue #17 item 1: float scores. A group with more distinct scores than stats.MAX_CATEGORIES is
bootstrapped over score bins; its interval agrees with a plain row bootstrap, its stated bound
holds on coupled resamples, its work is bounded, and every interval names its method."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sp_stats

import reference_stats as R
from judgescope.audit import summary as audit
from judgescope import stats as S
from judgescope.cli import main

RNG = np.random.default_rng(17)
# Uniform-ish on 0–100 with 4 decimals, and a realistic mixture: most rows high, a heavy lower tail.
UNIFORM = np.round(RNG.uniform(0, 100, 3_000), 4)
MIXTURE = np.round(np.clip(np.where(RNG.random(3_000) < 0.85, RNG.normal(88, 6, 3_000),
                                    100 * RNG.beta(1.2, 3.0, 3_000)), 0, 100), 4)
FLOATS = [pytest.param(UNIFORM, id="uniform"), pytest.param(MIXTURE, id="heavy-lower-tail")]


def _moved(x: np.ndarray, width: float) -> np.ndarray:
    """Each row at its bin's mean, computed here with pandas (not with stats._score_bins)."""
    return pd.Series(x).groupby(np.floor(x / width)).transform("mean").to_numpy()


@pytest.mark.parametrize("scores", FLOATS)
def test_binned_interval_matches_a_plain_row_bootstrap(scores):
    # Same B (10,000), seeded: the endpoints are Monte-Carlo estimates of the same quantiles,
    # each wandering ~0.03 SE; 0.2 SE is some five sigma of their difference (as test_stats).
    values, counts = np.unique(scores, return_counts=True)
    assert values.size > S.MAX_CATEGORIES  # the binned path, not the exact one
    ci = S.bootstrap_mean_ci_from_counts(values, counts, resamples=10_000, seed=6)
    rows = R.row_bootstrap_means(scores, 10_000, seed=5)
    se = scores.std(ddof=1) / np.sqrt(scores.size)
    assert ci["mean"] == pytest.approx(scores.mean(), abs=1e-9)
    assert ci["low"] == pytest.approx(np.percentile(rows, 2.5), abs=0.2 * se)
    assert ci["high"] == pytest.approx(np.percentile(rows, 97.5), abs=0.2 * se)
    assert "score bins of width 2 " in ci["method"] and ci["bin_width"] == 2.0  # <= 64 bins


@pytest.mark.parametrize("scores", FLOATS)
def test_bound_holds_on_the_same_row_resamples(scores):
    """The coupling behind the bound: one row resample, its mean with the rows as they are and
    with each row at its bin's mean, differ by at most max_shift, and (here, always) by at most
    the 99% Bernstein bound the method states."""
    values, counts = np.unique(scores, return_counts=True)
    plan = S.bootstrap_plan(values, counts, resamples=2_000)
    moved = _moved(scores, plan["width"])
    assert np.sort(plan["values"]) == pytest.approx(np.unique(moved))
    assert plan["counts"].sum() == scores.size and plan["values"].size <= S.DRAW_BINS
    assert plan["max_shift"] == pytest.approx(np.abs(moved - scores).max())
    idx = np.random.default_rng(3).integers(0, scores.size, (2_000, scores.size))
    gap = moved[idx].mean(1) - scores[idx].mean(1)
    assert np.abs(gap).max() <= plan["bound"] <= plan["max_shift"] < plan["width"]
    assert gap.std() == pytest.approx(plan["shift_sd"], rel=0.1)
    se = scores.std(ddof=1) / np.sqrt(scores.size)
    assert plan["bound"] < 0.2 * se  # bins of width 2: under 6% of the 95% width (3.92 SE)


REAL_RNG = np.random.default_rng


class CountingRng:
    """A numpy Generator that counts the binomial draws, bounded integers and raw 64-bit words
    drawn through it."""

    def __init__(self, seed):
        self.rng, self.draws, self.words = REAL_RNG(seed), 0, 0
        self.bit_generator = self  # random_raw below

    def random_raw(self, size):
        self.words += size
        return self.rng.bit_generator.random_raw(size)

    def binomial(self, n, p):
        self.draws += np.size(n)
        return self.rng.binomial(n, p)

    def integers(self, low, high, size, dtype=np.int64):
        self.rows = getattr(self, "rows", 0) + int(np.prod(size))
        self.index_types = getattr(self, "index_types", set()) | {np.dtype(dtype)}
        return self.rng.integers(low, high, size=size, dtype=dtype)


@pytest.mark.parametrize("scores, categories", [
    (np.round(np.random.default_rng(1).uniform(0, 100, 20_000), 4), 50),  # ~20,000 distinct
    (np.random.default_rng(1).integers(0, 101, 20_000).astype(float), 101),  # integer 0–100
    (np.round(np.random.default_rng(1).uniform(1, 5, 20_000), 3), 40),  # 1–5 averages
])
def test_work_is_bounded_by_the_categories_not_the_distinct_floats(monkeypatch, scores, categories):
    made = []

    def counting(seed):
        made.append(CountingRng(seed))
        return made[-1]

    monkeypatch.setattr(S.np.random, "default_rng", counting)
    values, counts = np.unique(scores, return_counts=True)
    ci = S.bootstrap_mean_ci_from_counts(values, counts, resamples=1_000, seed=1)
    # One binomial per category but the last, per resample: what the draw costs.
    assert made[0].draws == (categories - 1) * 1_000 == (ci["categories"] - 1) * 1_000
    assert ci["categories"] <= S.DRAW_BINS < S.MAX_CATEGORIES <= values.size or ci["categories"] == values.size


def test_integer_scores_keep_the_exact_draw():
    scores = np.random.default_rng(7).integers(0, 101, 400)
    values, counts = np.unique(scores, return_counts=True)
    ci = S.bootstrap_mean_ci_from_counts(values, counts, resamples=2_000, seed=1)
    means = S._count_means(np.random.default_rng(1), values.astype(float), counts, 2_000)
    # (the CI's tail is 100 · (1 − 0.95) / 2, 2.5 up to rounding: equal to 1e-12)
    assert (ci["low"], ci["high"]) == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])), abs=1e-12)
    assert ci["method"] == f"percentile bootstrap, multinomial over {values.size} distinct values"
    assert ci["bin_width"] is None and ci["endpoint_bound"] == 0.0


@pytest.mark.parametrize("low, high, width", [
    (0, 100, 1), (1, 5, 0.05), (0, 1, 0.01), (-100, 100, 2), (0, 1000, 10), (12.5, 12.75, 0.002),
])
def test_bin_width_is_the_narrowest_round_width(low, high, width):
    h = S._bin_width(np.array([low, high], dtype=float))
    assert h == pytest.approx(width)
    assert np.floor(high / h) - np.floor(low / h) + 1 <= S.MAX_CATEGORIES


def test_difference_of_float_samples_names_its_bins():
    a, b = np.unique(UNIFORM, return_counts=True), np.unique(UNIFORM + 2.5, return_counts=True)
    d = S.bootstrap_diff_ci(*a, *b, resamples=2_000, seed=3)
    assert d["diff"] == pytest.approx(2.5) and d["low"] < 2.5 < d["high"]
    assert "score bins of width 2 " in d["method"]


def test_table_and_label_name_the_method():
    counts = pd.DataFrame({"unit": ["a"] * 3 + ["b"] * UNIFORM.size, "target_language": "de",
                           "score": [1.0, 2.0, 2.0, *UNIFORM], "n": 1})
    table = audit.bootstrap_table(counts, ["unit"], resamples=200, seed=1, method=True)
    a, b = table.set_index("unit")["method"]
    assert a.endswith("over 2 distinct values") and "score bins" in b
    assert "method" not in audit.bootstrap_table(counts, ["unit"], resamples=200, seed=1)
    assert str(S.MAX_CATEGORIES) in audit.ci_label()  # no table: the stated rule
    named = audit.method_summary(table)
    bound = table.set_index("unit").loc["b", "endpoint_bound"]
    assert named.startswith("percentile bootstrap, multinomial over per-score counts (exactly a "
                            "row resample) for 1 groups; multinomial over score bins of width 2 ")
    assert f"endpoints within {bound:.2g} of a row resample's (99%)" in named
    assert audit.ci_label(method=named) == f"95% CI: {named}, 10,000 resamples, seed 20260810"
    assert audit.method_summary(table[table.unit == "a"]).endswith("(exactly a row resample)")
    shown = audit.distribution_table(counts, resamples=200, seed=1)
    # a, b and overall (a + b pooled, binned too): one exact group, two over bins
    assert "exactly a row resample) for 1 groups; " in shown.attrs["ci_method"]
    assert "(each at its rows' mean; 2 groups with more than" in shown.attrs["ci_method"]
    assert "method" not in shown and "endpoint_bound" not in shown


def test_report_names_the_method_of_every_interval(tmp_path):
    scores = {"answer": UNIFORM[:400], "paragraph": np.arange(400) % 7 * 10.0}
    rows = [{"judge_record_id": f"{unit}{i}", "target_language": "de", "unit": unit,
             "score": float(s), "score_origin": "explicit"}
            for unit, part in scores.items() for i, s in enumerate(part)]
    src = tmp_path / "audit.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["report", str(src), "--out", str(tmp_path / "o"), "--resamples", "200"]) == 0
    boot = json.loads((tmp_path / "o" / "BOOTSTRAP.json").read_text())
    assert "score bins of width 2 " in boot["by_unit"]["answer"]["method"]
    assert boot["by_unit"]["paragraph"]["method"].endswith("over 7 distinct values")
    intervals = [boot["overall"], *boot["by_unit"].values(),
                 *(i for lang in boot["by_language"].values() for i in lang.values())]
    assert all(i["method"].startswith("percentile bootstrap, multinomial over ") for i in intervals)


@pytest.mark.parametrize("rows, draw", [(180, "rows"), (3_000, "rows"), (5_000, "binomials")])
def test_a_group_is_drawn_the_cheaper_way_and_both_ways_are_the_row_bootstrap(monkeypatch, rows, draw):
    """Row by row when its rows are few (<= ROW_DRAWS_PER_VALUE × distinct values), else as
    binomials; either way the resample means have the row bootstrap's distribution: centred on
    the sample mean with SD σ/√n (σ with ddof = 0, Efron & Tibshirani 1993, eq. 5.12), and the
    same percentiles as a plain row bootstrap within Monte-Carlo error."""
    scores = np.random.default_rng(rows).integers(0, 101, rows).astype(float)
    values, counts = np.unique(scores, return_counts=True)
    made = []

    def counting(seed):
        made.append(CountingRng(seed))
        return made[-1]

    monkeypatch.setattr(S.np.random, "default_rng", counting)
    means = S._count_means(S.np.random.default_rng(2), values, counts, 20_000)
    monkeypatch.undo()
    assert (rows <= S.ROW_DRAWS_PER_VALUE * values.size) == (draw == "rows")
    if draw == "rows":  # 16 raw bits a row (four a word), and a few more for the rejected ones
        assert made[0].draws == 0 and not hasattr(made[0], "rows")
        assert 20_000 * rows / 4 <= made[0].words <= 20_000 * rows / 4 * (1 + 2 * rows / 2**16) + 400
    else:
        assert made[0].draws == (values.size - 1) * 20_000 and made[0].words == 0
    se = scores.std(ddof=0) / np.sqrt(rows)
    assert means.mean() == pytest.approx(scores.mean(), abs=0.05 * se)
    assert means.std() == pytest.approx(se, rel=0.03)
    plain = R.row_bootstrap_means(scores, 20_000, seed=3)
    assert np.percentile(means, [2.5, 97.5]) == pytest.approx(np.percentile(plain, [2.5, 97.5]), abs=0.15 * se)


def _stored_bins(x: np.ndarray, width: float) -> pd.DataFrame:
    """The bins validation stores (audit_build_score_bins.sql), computed here with pandas."""
    return (pd.DataFrame({"bin": np.floor(x / width).astype(np.int64), "x": x}).groupby("bin").x
            .agg(n="size", total="sum", total_sq=lambda s: float((s * s).sum()), low="min",
                 high="max").reset_index())


@pytest.mark.parametrize("scores", FLOATS)
def test_merged_stored_bins_are_the_merged_bins_drawn_from_the_rows(scores):
    """Issue #28: a group on the stored grid of width 1 (~100 bins) is drawn over bins of width
    2 (at most stats.DRAW_BINS), merged from the stored ones exactly: the same bins, counts and
    shift as binning the rows at width 2, so the same multinomial; its resample means have the
    row bootstrap's SE of the rows moved to those bins (σ/√n, ddof = 0) and, within the bound,
    of the rows themselves."""
    stored = _stored_bins(scores, 1.0)
    assert len(stored) > S.DRAW_BINS  # merging is needed
    plan = S._bins_plan(stored.n, stored.total, stored.total_sq, stored.low, stored.high, 1.0,
                        10_000, index=stored["bin"])
    assert plan["width"] == 2.0 and plan["values"].size <= S.DRAW_BINS
    assert f"{plan['values'].size} score bins of width 2 (one grid for every group: 2 adjacent" \
           in plan["method"]
    moved = _moved(scores, 2.0)
    values, counts = np.unique(moved, return_counts=True)
    order = np.argsort(plan["values"])
    assert plan["values"][order] == pytest.approx(values, abs=1e-9)
    assert (plan["counts"][order] == counts).all()
    assert plan["max_shift"] == pytest.approx(np.abs(moved - scores).max())
    assert plan["shift_sd"] == pytest.approx(np.sqrt(((moved - scores) ** 2).sum()) / scores.size)
    # Without the index (from each bin's lowest score), and binned from the rows: the same plan.
    assert S._bins_plan(stored.n, stored.total, stored.total_sq, stored.low, stored.high, 1.0,
                        10_000)["values"] == pytest.approx(plan["values"])
    assert S.bootstrap_plan(*np.unique(scores, return_counts=True), 10_000)["bound"] == \
        pytest.approx(plan["bound"])
    means = S._count_means(np.random.default_rng(8), plan["values"], plan["counts"], 10_000)
    assert means.std() == pytest.approx(moved.std() / np.sqrt(scores.size), rel=0.05)
    rows = R.row_bootstrap_means(scores, 10_000, seed=5)
    assert means.std() == pytest.approx(rows.std(), rel=0.05)
    se = scores.std(ddof=1) / np.sqrt(scores.size)
    ci = S.bootstrap_mean_ci_from_bins(stored.n, stored.total, stored.total_sq, stored.low,
                                       stored.high, 1.0, 10_000, seed=6, index=stored["bin"])
    assert ci["bin_width"] == 2.0 and ci["endpoint_bound"] == plan["bound"]
    assert ci["low"] == pytest.approx(np.percentile(rows, 2.5), abs=0.2 * se + plan["bound"])
    assert ci["high"] == pytest.approx(np.percentile(rows, 97.5), abs=0.2 * se + plan["bound"])


@pytest.mark.parametrize("scores", FLOATS)
def test_merged_bins_bound_holds_on_the_same_row_resamples(scores):
    """The stated bound of the merged draw: on 2,000 seeded row resamples, each resample's mean
    with every row at its merged bin's mean is within the bound of its mean unbinned."""
    stored = _stored_bins(scores, 1.0)
    plan = S._bins_plan(stored.n, stored.total, stored.total_sq, stored.low, stored.high, 1.0,
                        2_000, index=stored["bin"])
    moved = _moved(scores, plan["width"])
    idx = np.random.default_rng(3).integers(0, scores.size, (2_000, scores.size))
    gap = moved[idx].mean(1) - scores[idx].mean(1)
    assert np.abs(gap).max() <= plan["bound"] <= plan["max_shift"] < plan["width"]
    assert gap.std() == pytest.approx(plan["shift_sd"], rel=0.1)


def test_a_grid_of_at_most_draw_bins_is_not_merged():
    """Scores spanning 64 bins of the stored grid are drawn over them as they are (width 1)."""
    scores = np.round(np.random.default_rng(2).uniform(36, 100, 3_000), 4)
    stored = _stored_bins(scores, 1.0)
    assert len(stored) == S.DRAW_BINS
    plan = S._bins_plan(stored.n, stored.total, stored.total_sq, stored.low, stored.high, 1.0,
                        2_000, index=stored["bin"])
    assert plan["width"] == 1.0 and plan["values"].size == S.DRAW_BINS
    assert "score bins of width 1 (one grid for every group, each bin" in plan["method"]
    assert (np.sort(plan["values"]) == pytest.approx(np.unique(_moved(scores, 1.0))))


@pytest.mark.parametrize("n", [1, 2, 3, 142, 869, 1_000, 40_000, 65_535, 65_536])
def test_a_row_index_from_16_bits_is_exactly_uniform(n):
    """Every one of the 2^16 values of 16 random bits, mapped by stats._lemire16: each index in
    [0, n) is kept for exactly ⌊2^16 / n⌋ of them (Lemire 2019, ACM TOMACS 29(1), §4), and the
    2^16 mod n others are rejected (drawn again), so a kept index is exactly uniform."""
    index, rejected = S._lemire16(np.arange(2**16, dtype=np.uint16), n)
    assert index.dtype == np.intp and int(rejected.sum()) == 2**16 % n
    assert (np.bincount(index[~rejected], minlength=n) == 2**16 // n).all()


@pytest.mark.parametrize("n", [3, 869, 65_536, 65_537])
def test_row_draws_reach_every_row_uniformly(n):
    """stats._row_indices from a seeded generator: indices in [0, n) whose counts pass a
    chi-square test of uniformity (p > 0.001), the rejected 16-bit draws drawn again (at n = 3:
    1 in 2^16), numpy's bounded draw above 2^16 rows. The means _row_means makes of them lie
    within the rows'."""
    size = 50 * n
    index, _ = S._row_indices(np.random.default_rng(4), n, size)
    assert index.dtype == np.intp and index.size == size and 0 <= index.min() and index.max() < n
    counts = np.bincount(index, minlength=n)
    assert sp_stats.chisquare(counts).pvalue > 0.001
    means = S._row_means(np.random.default_rng(5), np.arange(n, dtype=float), 3)
    assert means.shape == (3,) and ((0 <= means) & (means <= n - 1)).all()


def test_row_draws_are_seeded_and_their_scratch_is_per_thread():
    """The same seed draws the same means, in any thread and whatever ran there before (each
    thread's buffers are its own; stats._scratch)."""
    from concurrent.futures import ThreadPoolExecutor

    rows = np.random.default_rng(1).uniform(0, 100, 700)
    first = S._row_means(np.random.default_rng(9), rows, 5_000)
    with ThreadPoolExecutor(4) as pool:
        again = list(pool.map(lambda seed: S._row_means(np.random.default_rng(seed), rows, 5_000),
                              [9, 10, 9, 11, 9, 12]))
    assert all(np.array_equal(first, again[i]) for i in (0, 2, 4))
    assert not np.array_equal(first, again[1])


def _direct_row_means(monkeypatch, seed: int, rows: np.ndarray, resamples: int) -> tuple:
    """(_row_means, the generator after it) with every bit drawn from the generator itself and
    each index gathered from the rows: no shared words (_WORDS_CAP 0), no table."""
    with monkeypatch.context() as m:
        m.setattr(S, "_WORDS_CAP", 0)
        m.setattr(S, "TABLE_DRAWS", 1 << 62)
        m.setitem(S._SHARED, "words", None)
        rng = np.random.default_rng(seed)
        return S._row_means(rng, rows, resamples), rng


@pytest.mark.parametrize("n, resamples", [(1, 7), (3, 10_000), (145, 10_000), (869, 3_001),
                                          (40_000, 40), (65_536, 5)])
@pytest.mark.parametrize("cap", [1 << 22, 1_000])
def test_shared_words_and_the_table_draw_what_the_generator_draws(monkeypatch, n, resamples, cap):
    """Row draws read from the words shared by every group of one seed (stats._Raw16), through
    the table of what 16 bits draw (stats._draw_table) where a group is large enough, give bit
    for bit the means drawing each index from the generator itself gives, and leave the generator
    where it would be; also when a group reads past the shared words (a cap of 1,000 words) and
    where 2^16 mod n rejects many draws (n = 40,000: 39 % drawn again)."""
    rows = np.random.default_rng(n).uniform(0, 100, n)
    expected, direct = _direct_row_means(monkeypatch, 20260415, rows, resamples)
    monkeypatch.setattr(S, "_WORDS_CAP", cap)
    monkeypatch.setitem(S._SHARED, "words", None)
    for table in (1 << 62, 0):  # never the table, always
        monkeypatch.setattr(S, "TABLE_DRAWS", table)
        rng = np.random.default_rng(20260415)
        assert np.array_equal(S._row_means(rng, rows, resamples), expected)
        assert rng.bit_generator.state == direct.bit_generator.state


def test_a_generator_part_drawn_is_read_directly(monkeypatch):
    """A generator that has drawn before (its state is not a seed's) or holds half a word for its
    next 32-bit draw still draws what it draws itself; the shared words are a seed's."""
    rows = np.random.default_rng(2).uniform(0, 100, 300)
    for warm in (lambda g: g.random(3), lambda g: g.integers(0, 10, dtype=np.int32)):
        a, b = np.random.default_rng(5), np.random.default_rng(5)
        warm(a), warm(b)
        with monkeypatch.context() as m:
            m.setattr(S, "_WORDS_CAP", 0)
            m.setattr(S, "TABLE_DRAWS", 1 << 62)
            expected = S._row_means(b, rows, 4_000)
        assert np.array_equal(S._row_means(a, rows, 4_000), expected)
        assert a.bit_generator.state == b.bit_generator.state


@pytest.mark.parametrize("n", [1, 3, 869, 40_000, 65_536])
def test_the_draw_table_holds_each_row_for_its_share_of_the_16_bits(n):
    """stats._draw_table of rows 0 … n-1: each row is what exactly ⌊2^16 / n⌋ of the 2^16 values
    of 16 bits draw, and the 2^16 mod n others are NaN (drawn again)."""
    table = S._draw_table(np.arange(n, dtype=float))
    assert table.size == 2**16 and int(np.isnan(table).sum()) == 2**16 % n
    assert (np.bincount(table[~np.isnan(table)].astype(np.int64), minlength=n) == 2**16 // n).all()
