"""Long-format human ratings (one row per rater per item): Krippendorff's α at every level of
measurement, Fleiss' and pairwise Cohen's κ on verdicts, per-rater distributions and rater ×
item coverage. Pure: no streamlit (a test enforces it).

α follows Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", via the
coincidence matrix: α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck over pairable values
(items with at least two ratings; the others count as unpairable, not dropped: their number is
reported)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from judgescope.calibration import agreement as cs

LEVELS = ("nominal", "ordinal", "interval")
# Verdict scales whose order is known: ordinal α applies to them.
VERDICT_ORDERS = (("no_error", "minor", "major"),)


def _delta2(values: np.ndarray, n_c: np.ndarray, level: str) -> np.ndarray:
    """δ² between every pair of sorted distinct values (Krippendorff 2011, metric differences)."""
    if level == "nominal":
        return 1.0 - np.eye(len(values))
    if level == "interval":
        return np.subtract.outer(values, values) ** 2
    if level == "ordinal":  # ranks: values are codes of an ordered scale, n_c their frequencies
        cum = np.cumsum(n_c)
        between = cum[:, None] - cum[None, :]  # Σ n_g for g in (k, c] when c > k
        g = np.abs(between) + np.where(between >= 0, n_c[None, :], n_c[:, None])
        return (g - (n_c[:, None] + n_c[None, :]) / 2.0) ** 2
    raise ValueError(f"level {level!r} is not one of {LEVELS}")


def coincidences(items, values) -> tuple[np.ndarray, np.ndarray, int]:
    """(sorted distinct values, coincidence matrix, unpairable items) of (item, value) pairs;
    missing values (None/NaN) are left out before pairing."""
    frame = pd.DataFrame({"item": list(items), "value": list(values)}).dropna()
    frame["value"] = frame["value"].astype(float)
    m_u = frame.groupby("item")["value"].transform("size")
    unpairable = int(frame.loc[m_u < 2, "item"].nunique())
    frame = frame[m_u >= 2]
    cats, code = np.unique(frame["value"].to_numpy(), return_inverse=True)
    item_code = pd.factorize(frame["item"])[0]
    counts = np.zeros((item_code.max() + 1 if len(item_code) else 0, len(cats)))
    np.add.at(counts, (item_code, code), 1.0)
    w = 1.0 / (counts.sum(1) - 1.0)
    o = (counts * w[:, None]).T @ counts - np.diag((counts * w[:, None]).sum(0))
    return cats, o, unpairable


def alpha(items, values, level: str = "interval") -> float | None:
    """Krippendorff's α of (item, value) pairs (numbers; for ordinal, codes of the order)."""
    cats, o, _ = coincidences(items, values)
    n_c = o.sum(1)
    n = n_c.sum()
    if n < 2:
        return None
    d2 = _delta2(cats, n_c, level)
    expected = (np.outer(n_c, n_c) * d2).sum()
    if expected == 0:
        return None  # one value only: α is undefined
    return float(1.0 - (n - 1.0) * (o * d2).sum() / expected)


def alpha_patterns(items, values) -> tuple[np.ndarray, np.ndarray, np.ndarray, pd.Series]:
    """(sorted distinct values, distinct rows of the pairable items' value counts, how many items
    show each row, each pairable item's row index (indexed by item)): the resampling units of α's
    intervals. An item's counts are how many of its ratings took each value; items with fewer
    than two ratings are unpairable and are not resampled (they enter no α)."""
    frame = pd.DataFrame({"item": list(items), "value": list(values)}).dropna()
    frame["value"] = frame["value"].astype(float)
    frame = frame[frame.groupby("item")["value"].transform("size") >= 2]
    cats, code = np.unique(frame["value"].to_numpy(), return_inverse=True)
    item_code, labels = pd.factorize(frame["item"])
    counts = np.zeros((len(labels), len(cats)), dtype=np.int64)
    np.add.at(counts, (item_code, code), 1)
    if not len(counts):
        return cats, counts, np.zeros(0, dtype=np.int64), pd.Series([], dtype=np.int64)
    pats, index, weights = np.unique(counts, axis=0, return_inverse=True, return_counts=True)
    return cats, pats, weights, pd.Series(index.ravel(), index=labels)


# Resamples handled at once by alpha_of_patterns: bounds its (patterns × resamples) temporaries.
ALPHA_CHUNK_CELLS = 5_000_000


def alpha_of_patterns(cats: np.ndarray, pats: np.ndarray, weights, level: str) -> np.ndarray:
    """Krippendorff's α of each row of `weights` (how many items show each pattern of
    alpha_patterns; one row or a resamples × patterns matrix), NaN where undefined: α() of the
    items the weights stand for, without building their coincidence matrices.

    An item with m ratings, c_k of them value k, adds c_k c_l / (m − 1) to o_kl (k ≠ l), so with
    δ²_kl = (x_k − x_l)² — x the values (interval), or their mid-ranks Σ_{g<k} n_g + n_k / 2 in
    the resample's own frequencies n (ordinal: Krippendorff's ordinal metric is the squared
    difference of mid-ranks) — Σ o δ² = Σ_items 2 (m Σ c x² − (Σ c x)²) / (m − 1) and
    Σ n_k n_l δ²_kl = 2 (n Σ n x² − (Σ n x)²); nominal δ² = 1 − [k = l] gives (m² − Σ c²) /
    (m − 1) and n² − Σ n²."""
    if level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of {LEVELS}")
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    p = pats.astype(float)
    m = p.sum(1)
    scale = 1.0 / (m - 1.0)
    # Differences are unchanged by a shift: the values are centred so that the sums of squares
    # below do not lose the spread to rounding (scores near 10⁶, say).
    values = cats.astype(float) - ((cats.min() + cats.max()) / 2.0 if len(cats) else 0.0)
    out = np.full(len(w), np.nan)
    chunk = max(1, ALPHA_CHUNK_CELLS // max(len(p), 1))
    for start in range(0, len(w), chunk):
        wb = w[start:start + chunk]
        n_k = wb @ p  # resamples × values: each value's frequency n_k
        n = n_k.sum(1)
        if level == "nominal":
            observed = wb @ ((m ** 2 - (p ** 2).sum(1)) * scale)
            scale_of, expected = n ** 2, n ** 2 - (n_k ** 2).sum(1)
        else:
            if level == "interval":
                x = np.broadcast_to(values, n_k.shape)
                s1, s2 = p @ values, p @ values ** 2  # per pattern
                observed = wb @ ((m * s2 - s1 ** 2) * scale)
            else:  # mid-ranks in the resample's own frequencies, centred on n / 2
                x = np.cumsum(n_k, axis=1) - n_k / 2.0 - n[:, None] / 2.0
                s1, s2 = p @ x.T, p @ (x ** 2).T  # patterns × resamples
                observed = ((m[:, None] * s2 - s1 ** 2) * scale[:, None] * wb.T).sum(0)
            scale_of = n * (n_k * x ** 2).sum(1)
            expected = scale_of - (n_k * x).sum(1) ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            value = 1.0 - (n - 1.0) * observed / expected
        # One value only (no expected disagreement): undefined, as alpha() says; "zero" is judged
        # against the size of the terms whose difference it is.
        out[start:start + chunk] = np.where((n >= 2) & (expected > 1e-10 * scale_of), value, np.nan)
    return out


def alpha_inputs(frame: pd.DataFrame, score: str | None, verdict: str | None) -> dict[str, tuple[pd.Series, str]]:
    """Each Krippendorff's α of a ratings frame, by its name: (its values, level): the score at the
    interval and ordinal levels, and the verdicts at the ordinal level when their order is known
    (codes of that order)."""
    out = {}
    if score:
        for level in ("interval", "ordinal"):
            out[f"{score} ({level})"] = (frame[score], level)
    order = verdict_order(frame[verdict]) if verdict else None
    if order:
        out[f"{verdict} (ordinal: {' < '.join(order)})"] = (frame[verdict].map({v: i for i, v in enumerate(order)}),
                                                            "ordinal")
    return out


def alpha_interval(items, values, level: str, resamples: int = 1_000, seed: int = cs.DEFAULT_SEED,
                   conf: float = cs.LEVEL) -> dict:
    """α's bootstrap CI over items, as the verdicts' κ and α get theirs (agreement.multinomial_ci:
    percentile, seeded, a multinomial over the items' count patterns)."""
    cats, pats, weights, _ = alpha_patterns(items, values)
    ci = list(cs.multinomial_ci(weights, lambda d: alpha_of_patterns(cats, pats, d, level), resamples, seed, conf))
    return {"ci": ci, "ci_undefined": cs.undefined_reason(weights, ci), "ci_name": "bootstrap over items",
            "ci_method": cs.ci_method(resamples, seed, conf)}


def verdict_order(verdicts) -> tuple[str, ...] | None:
    """The known ordered scale every verdict belongs to, if any."""
    seen = {v for v in verdicts if v is not None and v == v}
    return next((order for order in VERDICT_ORDERS if seen and seen <= set(order)), None)


def agreement(frame: pd.DataFrame, score: str | None, verdict: str | None,
              resamples: int = 1_000, seed: int = cs.DEFAULT_SEED) -> dict:
    """Every statistic that applies to one ratings frame (columns item, rater, and the named
    score and/or verdict columns)."""
    out: dict = {"items": int(frame["item"].nunique()), "raters": int(frame["rater"].nunique()),
                 "ratings": int(len(frame)), "alpha": {},
                 # Rows kept but without this value (another rating column has one): counted, said.
                 "missing_values": {c: int(frame[c].isna().sum()) for c in (score, verdict) if c}}
    if out["raters"] < 2:
        out["note"] = "one rater only: agreement between raters needs two or more"
    inputs = alpha_inputs(frame, score, verdict)
    out["alpha"] = {name: alpha(frame["item"], values, level) for name, (values, level) in inputs.items()}
    # Each α's interval, by name (clustered.agreement resamples whole documents instead when
    # the items share enough of them).
    out["alpha_ci"] = {name: alpha_interval(frame["item"], values, level, resamples, seed)
                       for name, (values, level) in inputs.items()}
    if score:
        out["unpairable_items"] = coincidences(frame["item"], frame[score])[2]
    if verdict:
        order = verdict_order(frame[verdict])
        wide = cs.ratings_from_long(frame, "item", "rater", verdict)
        out["verdicts"] = cs.human_agreement(wide, list(order) if order else None, resamples, seed)
    return out


def natural_key(name) -> tuple:
    """Rater names in the order a person counts: rater2 before rater10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p.casefold()) for p in re.split(r"(\d+)", str(name)) if p)


def rater_order(names) -> list:
    return sorted(names, key=natural_key)


def per_rater(frame: pd.DataFrame, score: str | None, verdict: str | None) -> pd.DataFrame:
    """One row per rater (in rater_order): items rated, and the score's n/mean/median/SD or verdict counts."""
    g = frame.groupby("rater")
    out = g.size().rename("ratings").to_frame()
    if score:
        out = out.join(g[score].agg(["mean", "median", "std"]).rename(columns={"std": "sd"}))
    if verdict:
        out = out.join(pd.crosstab(frame["rater"], frame[verdict].fillna("(none)")))
    return out.reindex(rater_order(out.index)).reset_index()


def coverage(frame: pd.DataFrame) -> pd.DataFrame:
    """Rater × rater (in rater_order): items both rated (the diagonal: items each rated)."""
    one = pd.crosstab(frame["item"], frame["rater"]).clip(upper=1)
    both = one.T @ one
    order = rater_order(both.index)
    return both.loc[order, order].rename_axis(index="rater", columns=None).reset_index()


def ratings_per_item(frame: pd.DataFrame) -> pd.DataFrame:
    """How many items have 1, 2, 3, … ratings."""
    sizes = frame.groupby("item").size().value_counts().sort_index()
    return sizes.rename_axis("ratings_per_item").rename("items").reset_index()


def pairwise_frame(pairs: list[dict]) -> pd.DataFrame:
    """Pairwise κ rows for display (CI as two columns)."""
    frame = pd.DataFrame(pairs, columns=["rater_a", "rater_b", "n", "agreement", "cohen_kappa", "ci"])
    frame[["ci_low", "ci_high"]] = pd.DataFrame(frame.pop("ci").tolist(), index=frame.index,
                                                columns=["ci_low", "ci_high"]) if len(frame) else None
    reasons = [p.get("ci_undefined") for p in pairs]
    if any(reasons):  # an interval without endpoints says why, beside its empty cells
        frame["no CI because"] = [(r or "").removeprefix("undefined because ") for r in reasons]
    return frame


MAX_ITEMS = 5_000  # items offered in the item view's picker
COUNT_PREFIX = "n_"  # a file's error counts per rating: n_major, n_minor, n_minor_punct, …


def error_count_columns(rows: pd.DataFrame) -> list[str]:
    """The columns of an item's ratings that count errors (n_<category>, numeric, not all empty)."""
    return [c for c in rows.columns if str(c).startswith(COUNT_PREFIX) and pd.api.types.is_numeric_dtype(rows[c])
            and rows[c].notna().any()]


def rating_line(row: pd.Series, counts: list[str]) -> str:
    """One rating, as text: 'rater3 — minor · MQM 0.1 · errors: minor punct 1' (counts above 0)."""
    mqm = row.get("mqm")
    mqm = f"MQM {mqm:g}" if mqm is not None and mqm == mqm else None
    score = row.get("score")
    score = f"score {score:g}" if score is not None and score == score else None
    found = [f"{c.removeprefix(COUNT_PREFIX).replace('_', ' ')} {int(row[c])}" for c in counts
             if row[c] == row[c] and row[c]]
    errors = ("errors: " + ", ".join(found)) if found else ("no errors counted" if counts else None)
    value = " · ".join(str(x) for x in (row.get("verdict"), mqm, score, errors) if x)
    return f"{row['rater']}" + (f" — {value}" if value else "")


def item_label(key: str) -> str:
    """An item key (item columns joined by U+001F) as 'doc · 3 · system'."""
    return " · ".join(key.split(chr(31)))
MAX_SPANS = 200  # spans read per rating: a hostile list cannot make the page draw thousands


def span_pieces(text: str | None, spans_json: str | None) -> tuple[list[tuple[str, str | None, str | None]], list[str]]:
    """The text cut at a rating's error spans: [(piece, label or None, severity or None)], and
    one sentence per span that could not be drawn (not a list of {start, end}, outside the
    text, overlapping an earlier one). The label is "category · severity"; nothing from the data
    is interpreted (the caller shows every piece as text)."""
    import json

    text = "" if text is None else str(text)
    problems: list[str] = []
    if spans_json is None or (isinstance(spans_json, float) and np.isnan(spans_json)):
        return [(text, None, None)], problems
    try:
        spans = json.loads(str(spans_json)) if isinstance(spans_json, str) else spans_json
    except ValueError:
        return [(text, None, None)], ["error_spans is not valid JSON"]
    if isinstance(spans, str):  # a JSON string holding the list (double-encoded)
        try:
            spans = json.loads(spans)
        except ValueError:
            return [(text, None, None)], ["error_spans is not a list of spans"]
    if not isinstance(spans, list):
        return [(text, None, None)], ["error_spans is not a list of spans"]
    if len(spans) > MAX_SPANS:
        problems.append(f"{len(spans):,} spans; the first {MAX_SPANS} are drawn")
    good = []
    for i, s in enumerate(spans[:MAX_SPANS]):
        start = s.get("start") if isinstance(s, dict) else None
        end = s.get("end") if isinstance(s, dict) else None
        if not (isinstance(start, int) and isinstance(end, int) and not isinstance(start, bool)
                and not isinstance(end, bool) and 0 <= start < end <= len(text)):
            problems.append(f"span {i + 1} has no start < end inside the text")
            continue
        good.append((start, end, str(s.get("category") or "error"), str(s.get("severity") or "")))
    pieces, at = [], 0
    for start, end, category, severity in sorted(good):
        if start < at:
            problems.append(f"span {category} at {start}–{end} overlaps an earlier one; not drawn")
            continue
        if start > at:
            pieces.append((text[at:start], None, None))
        label = f"{category} · {severity}" if severity else category
        pieces.append((text[start:end], label, severity.lower() or None))
        at = end
    if at < len(text) or not pieces:
        pieces.append((text[at:], None, None))
    return pieces, problems


BY_SYSTEM_METHOD = ("mean over items of each item's mean rating; percentile bootstrap over "
                    "items (resampling whole items, so a rater's several ratings of one item "
                    "move together)")


def by_system(items: pd.DataFrame, resamples: int = 10_000, seed: int = 20260810,
              level: float = 0.95) -> pd.DataFrame:
    """Per system: items, ratings, the mean of item means and its bootstrap CI (stats.py's
    seeded percentile bootstrap over the distinct item means and their counts)."""
    from judgescope import stats

    rows = []
    for system, g in items.groupby("system", sort=True):
        counts = g["item_mean"].round(9).value_counts()
        ci = stats.bootstrap_mean_ci_from_counts(counts.index.to_numpy(dtype=float),
                                                 counts.to_numpy(), resamples, seed, level)
        rows.append({"system": system, "items": len(g), "ratings": int(g["ratings"].sum()),
                     "mean": ci["mean"], "ci_low": ci["low"], "ci_high": ci["high"],
                     "method": ci["method"]})
    return pd.DataFrame(rows, columns=["system", "items", "ratings", "mean", "ci_low", "ci_high",
                                       "method"])
