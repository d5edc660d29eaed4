"""Pure statistics the app calls: seeded count bootstraps, Wilson, percentiles from counts,
binary confusion, Cohen's κ and exact Scott's π, majorities, gates. (The vectorised agreement
statistics of the calibration pages are in calibration/agreement.py.)

numpy and the standard library only; no streamlit. Undefined values (n = 0, chance agreement
= 1) are None.
Every randomised function takes an integer ``seed`` and uses ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

import threading
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from judgescope import defaults

DEFAULT_SEED = defaults.SEED
# The standard normal (stdlib: AS241, accurate to double precision; scipy.stats would add half a
# second to the app's start for this one quantile).
_Z = NormalDist()


def _floats(values) -> np.ndarray:
    return np.asarray(values, dtype=float).ravel()


def _bounds(draws: np.ndarray, level: float) -> tuple[float, float]:
    tail = 100 * (1 - level) / 2
    low, high = np.percentile(draws, [tail, 100 - tail])
    return float(low), float(high)


def _label(t) -> str:
    return f"{t:g}" if isinstance(t, (int, float, np.number)) else str(t)


# One row drawn into a resample costs ~2.5 ns (a 16-bit index from raw generator bits, a gather by
# intp, a sum: _row_indices); one conditional binomial ~85–150 ns with two threads drawing (numpy
# 2 on this project's 2-core machine; more where its expected count is under 30, which numpy
# draws by inversion). A resample is drawn row by row when its n rows are at most this many times
# its distinct values, else as a chain of binomials: the same multinomial either way, at the lower
# cost. Timed both ways on the 209 groups of the demo-shaped integer and float audits of issue
# #45, the two costs cross at 26–60 rows a value; at 35 the draws take 1.05 s and 1.43 s of CPU
# (1.12 s and 1.52 s at 20, the best choice per group 1.04 s and 1.43 s). Rows have since become
# 15–25 % cheaper (their bits read from shared words, their values through a table: _Raw16,
# TABLE_DRAWS), which moves the crossover up by about as much; 35 is still inside it (not
# measured again).
ROW_DRAWS_PER_VALUE = 35
ROW_BLOCK = 1 << 18  # row indices drawn at once: their values (2 MB) stay in cache, ~10% faster than 1 << 21
# Up to this many rows, an index is 16 raw bits (_lemire16); above, numpy's bounded draw.
_BITS16 = 1 << 16


def _count_means(rng, values: np.ndarray, counts: np.ndarray, resamples: int) -> np.ndarray:
    """Means of `resamples` multinomial draws of n over the distinct values: each is exactly a
    resample of the n rows. Small groups draw their rows (_row_means); larger ones a chain of
    conditional binomials (value i takes Binomial(draws left, c_i / count left)), vectorised over
    the resamples: one numpy call per distinct value, O(resamples) memory. numpy releases the
    GIL in both, so groups run in parallel."""
    n = int(counts.sum())
    if n <= ROW_DRAWS_PER_VALUE * values.size:
        return _row_means(rng, np.repeat(values, counts), resamples)
    order = np.argsort(-counts, kind="stable")
    left = np.full(resamples, n, dtype=np.int64)
    total = np.zeros(resamples)
    rest = n
    for i in order[:-1]:
        c = int(counts[i])
        drawn = rng.binomial(left, c / rest)
        total += drawn * values[i]
        left -= drawn
        rest -= c
    total += left * values[order[-1]]
    return total / n


def bootstrap_means(rng, plan: dict, resamples: int) -> np.ndarray:
    """`resamples` bootstrap means drawn over a bootstrap_plan (its values and counts), as the
    audit's intervals draw them (_count_means); none when the plan counts no row."""
    if int(plan["counts"].sum()) == 0:
        return np.array([])
    return _count_means(rng, plan["values"], plan["counts"], resamples)


def _row_means(rng, rows: np.ndarray, resamples: int) -> np.ndarray:
    """Means of `resamples` resamples of the rows, each n rows drawn with replacement (ROW_BLOCK
    draws at a time, into this thread's scratch, so memory stays bounded): an index from 16 random
    bits, then its row's value (_row_indices), or at once the value those bits draw from a table
    (_draw_table, for a group of at least TABLE_DRAWS draws): the same values either way. The bits
    are read from the words shared by every group drawn from the same state (_Raw16)."""
    n, out = rows.size, np.empty(resamples)
    raw = _Raw16(rng) if n <= _BITS16 else None
    table = (_draw_table(rows) if raw is not None and n * resamples >= TABLE_DRAWS
             and np.isfinite(rows).all() else None)
    try:
        step = max(1, ROW_BLOCK // n)
        for start in range(0, resamples, step):
            stop = min(resamples, start + step)
            if table is not None:
                drawn = _table_draws(raw, table, (stop - start) * n)
            else:
                index, drawn = _row_indices(rng, n, (stop - start) * n, raw)
                np.take(rows, index, out=drawn, mode="clip")  # every index is below n: no check needed
            np.mean(drawn.reshape(stop - start, n), axis=1, out=out[start:stop])
    finally:
        if raw is not None:
            raw.close()
    return out


# A group drawn row by row with at least this many draws (a 10,000-resample group of 105 rows)
# reads each draw's value from a table of what its 16 bits draw: one gather per draw instead of
# the index's product, shift and check and then the gather, 13–17 % less a row on groups of
# 580–870 rows with two threads drawing; the table (2^16 values, 512 kB) costs ~0.3 ms to build.
TABLE_DRAWS = 1 << 20


def _draw_table(rows: np.ndarray) -> np.ndarray:
    """The row value each of the 2^16 values of 16 random bits draws (the row of _lemire16's
    index), NaN where _lemire16 rejects it: the rows must be finite."""
    index, rejected = _lemire16(np.arange(_BITS16, dtype=np.uint16), rows.size)
    table = rows[index]
    table[rejected] = np.nan
    return table


def _table_draws(raw, table: np.ndarray, size: int) -> np.ndarray:
    """`size` row values drawn through `table` (_draw_table) from raw's 16-bit draws: the values,
    in the order, that _row_indices' indices gather from the same bits, each rejected draw drawn
    again from the next bits as it does. This thread's scratch, valid until its next call."""
    _, rejected, index, drawn = _scratch(size)
    np.copyto(index, raw(size), casting="unsafe")
    np.take(table, index, out=drawn, mode="clip")  # every index is below 2^16, the table's size
    again = np.flatnonzero(np.isnan(drawn, out=rejected))
    while again.size:
        values = table[raw(again.size)]
        drawn[again] = values
        again = again[np.isnan(values)]
    return drawn


def _lemire16(x: np.ndarray, n: int, index=None, rejected=None, product=None) -> tuple:
    """(index, rejected) of 16-bit draws x for an index in [0, n), n <= 2^16, into the buffers
    given (new ones when None): the index is x·n >> 16, rejected when x·n mod 2^16 < 2^16 mod n.
    Of the 2^16 values of x, exactly ⌊2^16 / n⌋ are kept for each index (Lemire 2019, "Fast random
    integer generation in an interval", ACM TOMACS 29(1), §4), so a kept index is exactly uniform."""
    product = np.multiply(x, np.uint32(n), out=product, dtype=np.uint32)
    index = np.right_shift(product, 16, out=index, dtype=np.intp)
    return index, np.less(np.bitwise_and(product, 0xFFFF, out=product), _BITS16 % n, out=rejected)


def _raw16(rng, size: int) -> np.ndarray:
    """`size` uniform 16-bit draws: the generator's raw 64-bit words, four draws each."""
    return rng.bit_generator.random_raw(-(-size // 4)).view(np.uint16)[:size]


# Every group's interval is drawn from a generator made from the same seed (_interval), so the
# row resamples of a report all read the same first words of one stream. They are generated once
# per state, up to _WORDS_CAP words (32 MB, touched only as far as a group reads), shared by the
# threads drawing, and read as slices: a row drawn costs ~0.4 ns less (14–20 % of a row draw with
# two threads drawing, numpy 2 on this project's 2-core machine), and the draws are bit for bit
# the generator's own, which is advanced past the words read (tests/test_float_bootstrap.py).
_WORDS_CAP = 1 << 22
_WORDS_STEP = 1 << 20  # words generated at a time: a few locks per group


class _Words:
    """The raw 64-bit words of one PCG64 state, generated as far as they are read."""

    def __init__(self, key: tuple, state: dict):
        self.key, self.filled, self.lock = key, 0, threading.Lock()
        self.words = np.empty(_WORDS_CAP, np.uint64)
        self.cap = self.words.size
        self.generator = np.random.PCG64()
        self.generator.state = state

    def upto(self, stop: int) -> np.ndarray:
        """The words, the first `stop` (<= cap) of them generated; those never change."""
        if stop > self.filled:
            with self.lock:
                if stop > self.filled:
                    end = min(self.cap, max(stop, self.filled + _WORDS_STEP))
                    self.words[self.filled:end] = self.generator.random_raw(end - self.filled)
                    self.filled = end
        return self.words


_SHARED: dict = {"words": None}  # the _Words of the state met last (a new seed replaces them)
_SHARED_LOCK = threading.Lock()


class _Raw16:
    """`rng`'s 16-bit draws in _raw16's order (each call whole 64-bit words, four draws each),
    read from the shared words of its state while they last, then from `rng` itself; close()
    leaves `rng` where drawing them directly would have. A generator other than a fresh PCG64
    state (numpy's default), or one holding half a word for its next 32-bit draw, is read
    directly."""

    def __init__(self, rng):
        self.rng, self.used, self.words = rng, 0, None
        bits = rng.bit_generator
        if type(bits) is np.random.PCG64:
            state = bits.state
            if not state["has_uint32"]:
                key = (state["state"]["state"], state["state"]["inc"])
                with _SHARED_LOCK:
                    if _SHARED["words"] is None or _SHARED["words"].key != key:
                        _SHARED["words"] = _Words(key, state)
                    self.words = _SHARED["words"]

    def __call__(self, size: int) -> np.ndarray:
        words = -(-size // 4)
        if self.words is not None and self.used + words > self.words.cap:
            self.close()  # past the shared words: the rest from the generator, advanced to here
        if self.words is None:
            return _raw16(self.rng, size)
        raw = self.words.upto(self.used + words)[self.used:self.used + words]
        self.used += words
        raw = raw.view(np.uint16)[:size]
        raw.flags.writeable = False  # the shared words are only read
        return raw

    def close(self) -> None:
        if self.words is not None:
            self.rng.bit_generator.advance(self.used)
            self.words = None


_SCRATCH = threading.local()


def _scratch(size: int) -> tuple[np.ndarray, ...]:
    """This thread's buffers for `size` row draws (x·n, rejected, index, drawn value), kept
    between calls up to a block of ROW_BLOCK (5.5 MB): touched afresh for every group, they cost
    ~2 ns a row in page faults on a group of 142 rows (numpy 2, this project's machine). A group
    of more rows than a block (one resample a block) gets buffers of its own, not kept."""
    held = getattr(_SCRATCH, "held", None)
    if held is None or held[0].size < size:
        held = (np.empty(size, np.uint32), np.empty(size, bool), np.empty(size, np.intp),
                np.empty(size))
        if size <= ROW_BLOCK:
            _SCRATCH.held = held
    return tuple(a[:size] for a in held)


def _row_indices(rng, n: int, size: int, raw: _Raw16 | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(`size` indices drawn uniformly from [0, n) as intp, a float buffer of `size` for the
    values they gather), both this thread's scratch, valid until its next call. Up to 2^16 rows
    each index is 16 raw bits, a rejected draw drawn again (_lemire16): ~1.5 ns an index with
    its check, against ~1.6 ns for numpy's bounded uint16 draw (rng.integers) and ~0.4 ns more
    to gather by uint16 than by intp; the same uniform distribution from a different stream.
    Above 2^16 rows, rng.integers (uint32, then copied as intp). `raw`: where the 16 bits come
    from (_row_means' _Raw16 of rng); None: rng itself."""
    product, rejected, index, drawn = _scratch(size)
    if n > _BITS16:  # the narrowest index numpy draws: uint32 below 2^32 rows
        index[:] = rng.integers(0, n, size=size, dtype=np.uint32 if n <= 1 << 32 else np.int64)
        return index, drawn
    raw = raw if raw is not None else (lambda k: _raw16(rng, k))
    _lemire16(raw(size), n, index, rejected, product)
    again = np.flatnonzero(rejected)
    while again.size:  # 2^16 mod n of the 2^16 draws (< n / 2^16 of them) are drawn again
        redrawn, no = _lemire16(raw(again.size), n)
        index[again[~no]] = redrawn[~no]
        again = again[no]
    return index, drawn


def _clean_counts(values, counts) -> tuple[np.ndarray, np.ndarray]:
    v, c = _floats(values), np.asarray(counts, dtype=np.int64).ravel()
    if v.shape != c.shape or (c < 0).any():
        raise ValueError("values and counts must align and counts must be >= 0")
    return v[c > 0], c[c > 0]


# A group with at most this many distinct scores is drawn exactly (integer 0–100 has 101); more
# (float scores) are stored on a grid of at most this many score bins (audit/binned.py) and drawn
# over at most DRAW_BINS of them, adjacent bins merged.
MAX_CATEGORIES = 128
# A binned group's chain of binomials is at most this long, no longer than an integer audit's
# (0–100 scores: ~70 distinct per group in bench's data): the chain's cost follows its length
# (issue #28, a float report within 1.2× an integer one). Merging k bins of width h into one of
# width k·h about doubles the stated endpoint bound, which stays small beside the SE.
DRAW_BINS = 64
_STEPS = (1, 2, 5)


def _bin_width(values: np.ndarray, max_bins: int = MAX_CATEGORIES) -> float:
    """The narrowest round width (1, 2 or 5 × 10^k) whose aligned bins [m·h, (m+1)·h) cover
    the values in at most max_bins bins."""
    low, high = float(values.min()), float(values.max())
    k = int(np.floor(np.log10(max((high - low) / max_bins, 1e-12))))
    while True:
        for step in _STEPS:
            h = step * 10.0**k
            if np.floor(high / h) - np.floor(low / h) + 1 <= max_bins:
                return h
        k += 1


def _score_bins(values, counts, max_bins: int = DRAW_BINS) -> dict:
    """Distinct values pooled into equal-width bins, each bin at its rows' mean.

    Each row moves by d (its bin's mean minus its value): |d| <= max_shift < width, and the
    d sum to zero. A row resample with the rows moved is a multinomial over the bins (what is
    drawn), and its mean moves by the resample's mean of d: always by at most max_shift, and
    with mean 0 and SD shift_sd = sqrt(Σ c·d²) / n over resamples."""
    v, c = _clean_counts(values, counts)
    h = _bin_width(v, max_bins)
    index = np.floor(v / h).astype(np.int64)
    index -= index.min()
    n_bin = np.bincount(index, weights=c)
    mean = np.bincount(index, weights=v * c) / np.maximum(n_bin, 1)
    move = v - mean[index]
    keep, n = n_bin > 0, c.sum()
    return {"values": mean[keep], "counts": n_bin[keep].astype(np.int64), "width": h,
            "max_shift": float(np.abs(move).max()), "shift_sd": float(np.sqrt(c @ move**2) / n)}


def _endpoint_bound(n: int, shift_sd: float, max_shift: float, resamples: int,
                   miss: float = 0.01) -> float:
    """ε such that, with probability >= 1 - miss, no resample mean moves by more than ε, so
    neither percentile endpoint does (sorted draws that each move <= ε keep every quantile
    within ε). A resample's move is the mean of n iid draws of d (|d| <= max_shift, variance
    n·shift_sd²); Bernstein: P(|move| >= ε) <= 2 exp(-n ε² / (2 var + 2 max_shift ε / 3)),
    set to miss / resamples (a union over the resamples) and solved for ε."""
    return float(endpoint_bounds(np.array([n]), np.array([shift_sd]), np.array([max_shift]),
                                 resamples, miss)[0])


def endpoint_bounds(n: np.ndarray, shift_sd: np.ndarray, max_shift: np.ndarray, resamples: int,
                    miss: float = 0.01) -> np.ndarray:
    """_endpoint_bound of many groups at once (0 where n or max_shift is 0)."""
    n, shift_sd, max_shift = (np.asarray(x, dtype=float) for x in (n, shift_sd, max_shift))
    log_term = np.log(2 * resamples / miss)
    a = log_term * 2 * max_shift / 3
    safe = np.maximum(n, 1)
    eps = (a + np.sqrt(a * a + 8 * safe * log_term * safe * shift_sd**2)) / (2 * safe)
    return np.where((n == 0) | (max_shift == 0), 0.0, np.minimum(eps, max_shift))


def _named_bins(plan: dict, rows: int, resamples: int, what: str) -> dict:
    """A binned plan with its endpoint bound (_endpoint_bound) and its name; `what` says which
    bins were drawn over."""
    plan["bound"] = _endpoint_bound(rows, plan["shift_sd"], plan["max_shift"], resamples)
    plan["method"] = (f"percentile bootstrap, multinomial over {plan['values'].size} score bins "
                      f"of width {plan['width']:g} ({what}each bin at its rows' mean): endpoints "
                      f"within {plan['bound']:.2g} of a row resample's (99%; always within "
                      f"{plan['max_shift']:.2g})")
    return plan


def bootstrap_plan(values, counts, resamples: int = 10_000,
                   max_categories: int = MAX_CATEGORIES) -> dict:
    """What the count bootstrap draws over, and its name: the distinct values themselves when
    there are at most max_categories (exactly a row resample), else _score_bins into at most
    DRAW_BINS bins (fewer when max_categories is smaller)."""
    v, c = _clean_counts(values, counts)
    if v.size <= max_categories:
        return {"values": v, "counts": c, "width": None, "max_shift": 0.0, "shift_sd": 0.0,
                "bound": 0.0,
                "method": f"percentile bootstrap, multinomial over {v.size} distinct values"}
    return _named_bins(_score_bins(v, c, min(max_categories, DRAW_BINS)), int(c.sum()), resamples,
                       f"{v.size:,} distinct values, ")


def _bins(n, total, total_sq, low, high) -> tuple:
    """The non-empty bins of a grid (n, Σx, Σx², min, max), each bin's value (its one score
    when min = max, else its rows' mean Σx/n) and Σ c·d² of its rows about it
    (Σx² − (Σx)²/n; 0 for one score)."""
    keep = np.asarray(n).ravel() > 0
    n, total, total_sq, low, high = (np.asarray(a, dtype=t).ravel()[keep] for a, t in
                                     ((n, np.int64), (total, float), (total_sq, float),
                                      (low, float), (high, float)))
    single = low == high
    value = np.where(single, low, total / np.maximum(n, 1))
    within = np.where(single, 0.0, np.maximum(total_sq - total * value, 0.0))
    return n, total, low, high, value, within


def mean_sd_from_bins(n, total, total_sq, low, high) -> tuple:
    """(n, mean, sample SD with ddof = 1) of the rows counted in bins, exact: the squares about
    the mean are summed within bins and between them, which loses less to rounding than
    Σx² − (Σx)²/n over every row. Undefined values are None."""
    n, total, _, _, value, within = _bins(n, total, total_sq, low, high)
    rows = int(n.sum())
    if rows == 0:
        return 0, None, None
    mean = float(total.sum() / rows)
    squares = within.sum() + n @ (value - mean) ** 2
    return rows, mean, float(np.sqrt(squares / (rows - 1))) if rows >= 2 else None


def _merged_bins(index, n, total, total_sq, low, high, max_bins: int = DRAW_BINS) -> tuple:
    """A grid's non-empty bins (bin m holds [m·h, (m+1)·h)) merged k adjacent at a time, bin m
    into m // k, with k the least that leaves at most max_bins: exactly the counts on the grid of
    width k·h with the same edges (n, Σx, Σx² added; min and max taken). Returns k and the
    merged (n, total, total_sq, low, high); k = 1 returns the bins as they are."""
    keep = np.asarray(n).ravel() > 0
    index = np.asarray(index).ravel()[keep].astype(np.int64)
    n, total, total_sq, low, high = (np.asarray(a, dtype=t).ravel()[keep] for a, t in
                                     ((n, np.int64), (total, float), (total_sq, float),
                                      (low, float), (high, float)))
    k = 1
    while index.size and index.max() // k - index.min() // k + 1 > max_bins:
        k += 1
    if k == 1:
        return 1, (n, total, total_sq, low, high)
    merged, at = np.unique(index // k, return_inverse=True)
    lows, highs = np.full(merged.size, np.inf), np.full(merged.size, -np.inf)
    np.minimum.at(lows, at, low)
    np.maximum.at(highs, at, high)
    return k, (np.bincount(at, weights=n, minlength=merged.size).astype(np.int64),
               np.bincount(at, weights=total, minlength=merged.size),
               np.bincount(at, weights=total_sq, minlength=merged.size), lows, highs)


def _bins_plan(n, total, total_sq, low, high, width: float, resamples: int = 10_000,
               index=None) -> dict:
    """bootstrap_plan for scores already counted on one grid of bins of `width`: each bin's n,
    Σx, Σx², min and max (a group's bins pooled by index across groups: n, Σx, Σx² added, min
    and max taken) and its grid index m (`index`; None: floor(min / width), the bin its lowest
    score falls in). When every bin holds one distinct score, it is bootstrap_plan's exact draw.
    Else the bins are merged into at most DRAW_BINS on the grid of width k·width (_merged_bins),
    each standing at its value (_bins), its rows moving by d with Σ c·d² its `within` and
    |d| <= max(max − value, value − min): the plan and bound _score_bins gives on the rows."""
    n, total, total_sq, low, high = (np.asarray(a).ravel() for a in (n, total, total_sq, low, high))
    if index is None:
        index = np.floor(np.asarray(low, dtype=float) / width)
    plain = _bins(n, total, total_sq, low, high)
    if (plain[2] == plain[3]).all():
        return bootstrap_plan(plain[2], plain[0], resamples, max_categories=plain[2].size)
    k, merged = _merged_bins(index, n, total, total_sq, low, high)
    n, _, low, high, value, within = _bins(*merged)
    plan = {"values": value, "counts": n, "width": float(k * width),
            "max_shift": float(np.maximum(high - value, value - low).max()),
            "shift_sd": float(np.sqrt(within.sum()) / n.sum())}
    grid = ("one grid for every group, " if k == 1 else
            f"one grid for every group: {k} adjacent bins of the audit-wide width {width:g} "
            f"merged, at most {DRAW_BINS}; ")
    return _named_bins(plan, int(n.sum()), resamples, grid)


def _interval(plan: dict, mean, resamples: int, seed: int, level: float) -> dict:
    """The percentile CI of the mean drawn over a plan (bootstrap_plan, _bins_plan), named by it."""
    out = {"mean": None, "low": None, "high": None, "method": plan["method"],
           "categories": int(plan["values"].size), "bin_width": plan["width"],
           "endpoint_bound": plan["bound"], "max_shift": plan["max_shift"],
           "resamples": resamples, "seed": seed, "level": level}
    if plan["counts"].sum() == 0:
        return out
    means = _count_means(np.random.default_rng(seed), plan["values"], plan["counts"], resamples)
    out["mean"] = mean
    out["low"], out["high"] = _bounds(means, level)
    return out


def bootstrap_mean_ci_from_counts(values, counts, resamples=10_000, seed=DEFAULT_SEED,
                                  level=0.95, max_categories: int = MAX_CATEGORIES) -> dict:
    """Percentile bootstrap CI of the mean from distinct values and their counts (SQL GROUP BY);
    over score bins when the values are more than max_categories (bootstrap_plan, named in
    `method`)."""
    v, c = _clean_counts(values, counts)
    mean = float(v @ c / c.sum()) if c.sum() else None
    return _interval(bootstrap_plan(v, c, resamples, max(max_categories, 1)), mean, resamples,
                     seed, level)


def bootstrap_mean_ci_from_bins(n, total, total_sq, low, high, width: float, resamples=10_000,
                                seed=DEFAULT_SEED, level=0.95, index=None) -> dict:
    """bootstrap_mean_ci_from_counts for scores counted on a grid of bins (_bins_plan; `index`:
    each bin's grid index); the mean is exact: Σx / n."""
    rows = int(np.sum(n))
    mean = float(np.sum(total) / rows) if rows else None
    return _interval(_bins_plan(n, total, total_sq, low, high, width, resamples, index), mean,
                     resamples, seed, level)


def wilson_ci(k, n, level=0.95) -> dict:
    """Wilson score interval for a binomial share k/n."""
    if n == 0:
        return {"share": None, "low": None, "high": None, "method": "Wilson score", "level": level}
    z = float(_Z.inv_cdf(1 - (1 - level) / 2))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return {"share": p, "low": float(max(0.0, centre - half)),
            "high": float(min(1.0, centre + half)), "method": "Wilson score", "level": level}


def bootstrap_diff_ci(a_values, a_counts, b_values, b_counts, resamples=10_000,
                      seed=DEFAULT_SEED, level=0.95) -> dict:
    """Unpaired percentile bootstrap CI of mean(b) - mean(a), each sample resampled on its own."""
    (av, ac), (bv, bc) = _clean_counts(a_values, a_counts), _clean_counts(b_values, b_counts)
    out = {"diff": None, "low": None, "high": None,
           "method": "percentile bootstrap, independent multinomial resampling of each sample",
           "resamples": resamples, "seed": seed, "level": level}
    if ac.sum() == 0 or bc.sum() == 0:
        return out
    rng = np.random.default_rng(seed)
    a_plan, b_plan = bootstrap_plan(av, ac, resamples), bootstrap_plan(bv, bc, resamples)
    if a_plan["width"] or b_plan["width"]:
        out["method"] += (f" (over score bins when a sample has more than {MAX_CATEGORIES} "
                          "distinct values: " + "; ".join(p["method"] for p in (a_plan, b_plan)) + ")")
    a_means = _count_means(rng, a_plan["values"], a_plan["counts"], resamples)
    b_means = _count_means(rng, b_plan["values"], b_plan["counts"], resamples)
    out["diff"] = float(bv @ bc / bc.sum() - av @ ac / ac.sum())
    out["low"], out["high"] = _bounds(b_means - a_means, level)
    return out


def percentiles_from_counts(values, counts, qs) -> list:
    """Linear-method percentiles (as numpy's default) of the data expanded from value counts."""
    v, c = _clean_counts(values, counts)
    order = np.argsort(v)
    v, cum = v[order], np.cumsum(c[order])
    if v.size == 0:
        return [None for _ in qs]
    h = (cum[-1] - 1) * np.asarray(qs, dtype=float) / 100  # 0-based rank, as numpy
    lo, hi = np.floor(h).astype(np.int64), np.ceil(h).astype(np.int64)
    x_lo = v[np.searchsorted(cum, lo, side="right")]
    x_hi = v[np.searchsorted(cum, hi, side="right")]
    return [float(x) for x in x_lo + (h - lo) * (x_hi - x_lo)]


def confusion_binary(truth, pred) -> dict:
    """tp, fp, fn, tn counts of binary (0/1 or bool) predictions against binary truth."""
    t, p = np.asarray(truth).astype(bool), np.asarray(pred).astype(bool)
    return {"tp": int((t & p).sum()), "fp": int((~t & p).sum()),
            "fn": int((t & ~p).sum()), "tn": int((~t & ~p).sum())}


def observed_agreement(a, b):
    """Share of items on which the two label sequences agree; None when empty."""
    a, b = np.asarray(a), np.asarray(b)
    return float((a == b).mean()) if a.size else None


def _pair_table(a, b, categories=None) -> np.ndarray:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        raise ValueError("label sequences must have the same length")
    cats = np.unique(np.concatenate([a, b])) if categories is None else np.asarray(categories)
    cell = np.searchsorted(cats, a) * cats.size + np.searchsorted(cats, b)
    return np.bincount(cell, minlength=cats.size**2).reshape(cats.size, cats.size)


def scotts_pi_fraction(a, b):
    """Scott's pi as an exact Fraction from integer counts with pooled marginals."""
    table = _pair_table(a, b)
    n = int(table.sum())
    pooled = [int(m) for m in table.sum(0) + table.sum(1)]
    p_e = Fraction(sum(m * m for m in pooled), (2 * n) ** 2) if n else Fraction(1)
    if p_e == 1:
        return None
    p_o = Fraction(int(np.trace(table)), n)
    return (p_o - p_e) / (1 - p_e)


def _cohen_kappa_of_table(table):
    """Unweighted Cohen's kappa from a square contingency table (rows coder A, columns coder B);
    None when the table is empty or chance agreement is 1."""
    t = np.asarray(table, dtype=float)
    n = t.sum()
    if n == 0:
        return None
    # kappa = 1 - D_o / D_e with 0/1 disagreement weights; D_e == 0 exactly when chance
    # agreement is 1 (a sum of non-negatives).
    w = 1.0 - np.eye(t.shape[0])
    d_e = (w * np.outer(t.sum(1), t.sum(0))).sum() / n
    return None if d_e == 0 else float(1 - (w * t).sum() / d_e)


def cohen_kappa(a, b):
    """Unweighted Cohen's kappa of two aligned label sequences."""
    return _cohen_kappa_of_table(_pair_table(a, b))


def majority_binary(*verdict_columns) -> np.ndarray:
    """Strict majority of an odd number of aligned binary label columns (2-of-3 for three)."""
    if len(verdict_columns) % 2 == 0:
        raise ValueError("majority needs an odd number of columns (ties are undefined)")
    votes = np.stack([np.asarray(c).astype(bool) for c in verdict_columns])
    return votes.sum(0) * 2 > len(verdict_columns)


def _exact(x) -> Fraction:
    # Floats go through their shortest decimal repr, so a point of 0.7 meets a 0.7 gate.
    return x if isinstance(x, Fraction) else Fraction(str(x))


def gate_verdict(point, gate, low=None, high=None) -> dict:
    """PASS iff point >= gate, exactly; inconclusive iff low < gate <= high (CI on both sides).

    The interval [low, high] holds values that pass and values that fail exactly when
    low < gate <= high. An undefined point (None) FAILs: nothing showed the gate was met.
    """
    g = _exact(gate)
    if point is None:
        return {"verdict": "FAIL", "inconclusive": False}
    straddles = low is not None and high is not None and _exact(low) < g <= _exact(high)
    return {"verdict": "PASS" if _exact(point) >= g else "FAIL", "inconclusive": straddles}


def _round_decimal(frac: Fraction, digits: int) -> str:
    scaled = round(abs(frac) * 10**digits)  # exact, half-to-even
    whole, part = divmod(scaled, 10**digits)
    sign = "-" if frac < 0 and scaled else ""
    return f"{sign}{whole}.{part:0{digits}d}" if digits else f"{sign}{whole}"


def format_fraction_decimal(frac: Fraction, digits: int = 5, gate=None, max_digits=30) -> str:
    """'1999/2499 = 0.79992': at least `digits` decimals, more if rounding could cross a gate.

    With a gate, digits grow until the shown decimal sits on the same side of the gate as
    the exact value. Without one, they grow while the rounded value ends in 0 but is not
    exact, since gates are round numbers (1999/2499 never shows as 0.800).
    """
    frac = Fraction(frac)
    for d in range(digits, max_digits + 1):
        text = _round_decimal(frac, d)
        shown = Fraction(text)
        if gate is not None:
            ok = (shown >= _exact(gate)) == (frac >= _exact(gate))
        else:
            ok = shown == frac or not text.endswith("0")
        if ok:
            break
    return f"{frac.numerator}/{frac.denominator} = {text}"
