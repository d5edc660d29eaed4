"""Synthetic demo of the XHotpotQA V2 RC1 translation-judge audit (GLM-5.2 judge).

The published card (Iman998/XhotpotQA-GLM52-Judge-V2) is the answer key: its tables
are reproduced exactly, while every text and explanation is invented.  Scores are
found by small integer programs (one per unit) so that per-language means, unit
means, medians, SDs and threshold counts all print the published figures.

The published numbers live only in this module; the app computes everything from rows.
"""

from __future__ import annotations

import hashlib
import math
import zlib
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix, vstack

from judgescope.demo.common import write_hub_dataset

# --------------------------------------------------------------------------------------
# The answer key: figures printed on the V2 card (and the V1 comparison table).
# --------------------------------------------------------------------------------------
SEED = 20260810
UNITS = ("paragraph", "question", "answer")
PER_LANGUAGE = {"paragraph": 80, "question": 20, "answer": 20}

# code, card name, paragraph / question / answer / overall means as printed (f"{x:.2f}").
V2_BY_LANGUAGE = [
    ("ar", "Arabic", "95.03", "97.45", "96.75", "95.72"),
    ("bn", "Bengali", "95.15", "95.15", "95.40", "95.19"),
    ("de", "German", "95.61", "98.30", "99.75", "96.75"),
    ("el", "Greek", "84.72", "89.60", "86.60", "85.85"),
    ("es", "Spanish", "95.42", "95.30", "94.10", "95.18"),
    ("fa", "Persian", "94.29", "94.95", "91.75", "93.97"),
    ("fr", "French", "96.51", "96.90", "100.00", "97.16"),
    ("hi", "Hindi", "93.95", "97.00", "99.25", "95.34"),
    ("id", "Indonesian", "96.51", "97.40", "98.50", "96.99"),
    ("it", "Italian", "95.89", "95.70", "96.75", "96.00"),
    ("ja", "Japanese", "95.36", "94.80", "99.75", "96.00"),
    ("ko", "Korean", "96.33", "97.15", "99.25", "96.95"),
    ("nl", "Dutch", "94.14", "96.45", "92.50", "94.25"),
    ("pl", "Polish", "94.58", "99.20", "98.50", "96.00"),
    ("pt", "Portuguese", "96.25", "97.45", "90.50", "95.49"),
    ("ru", "Russian", "93.85", "96.35", "100.00", "95.29"),
    ("sv", "Swedish", "92.65", "96.50", "98.40", "94.25"),
    ("sw", "Swahili", "93.34", "92.60", "94.65", "93.43"),
    ("th", "Thai", "94.47", "96.35", "65.30", "89.92"),
    ("tr", "Turkish", "94.15", "98.25", "98.15", "95.50"),
    ("ur", "Urdu", "93.33", "95.80", "90.10", "93.20"),
    ("vi", "Vietnamese", "96.54", "95.75", "95.10", "96.17"),
    ("zh", "Mandarin Chinese", "94.70", "93.80", "85.15", "92.96"),
]
LANGS = [row[0] for row in V2_BY_LANGUAGE]
LANG_NAME = {row[0]: row[1] for row in V2_BY_LANGUAGE}

# Results table: n, mean (3 dp), median, SD (2 dp, ddof=1), <60, <80, >=90.
V2_UNITS = {
    "paragraph": dict(n=1840, mean="94.468", median=96, sd="7.53", below60=14, below80=64, atleast90=1679),
    "question": dict(n=460, mean="96.009", median=98, sd="8.12", below60=6, below80=19, atleast90=421),
    "answer": dict(n=460, mean="94.183", median=100, sd="19.46", below60=29, below80=31, atleast90=419),
}
V2_OVERALL = "94.677"
V2_SPLITS = {"train": 1883, "validation": 877}
ORIGIN_EXPLICIT = "visible explicit SCORE: line"
ORIGIN_FALLBACK = "last-integer reasoning fallback"
V2_ORIGINS = {ORIGIN_EXPLICIT: 2756, ORIGIN_FALLBACK: 4}
V2_EXACT_COPIES = 179
V2_REVISION = "b05ba394ad7312e85625624c90d10258cbab31af"  # pinned V2 RC1 source revision

V1_UNITS = {
    "paragraph": dict(n=1840, mean="90.913", median=94, sd="9.47"),
    "question": dict(n=460, mean="93.459", median=96, sd="10.71"),
    "answer": dict(n=460, mean="95.474", median=100, sd="14.47"),
}
V1_OVERALL = "92.097"
V1_NULL_EXPLANATIONS = 14
V1_OVERLAP = {"paragraph": 9, "question": 0, "answer": 1}

RAW_PARTIAL_ROWS, RAW_PARTIAL_SCORED, RAW_PARTIAL_MEAN = 240, 239, "4.736"

JUDGE_MODEL = "glm-5.2"
PROMPT_SHA = {  # printed under the two system prompts on the card
    "paragraph": "e939a00a58e2347b60e9dc04ad7278b88430d41e4a2aea8749023c08631db5af",
    "answer": "7e560af3c545c22fee93f78f3b621326e04c92ddcd61844c79ee45994320a525",
}
PROMPT_VERSION = {"paragraph": "xhqa-judge-pq-v3", "answer": "xhqa-judge-short-answer-v2"}
RUN_GROUP = {"paragraph": "paragraph_question_recovery", "question": "paragraph_question_recovery",
             "answer": "dedicated_answer_run"}
PARTIAL_RUN = "partial_answer_run"
RAW_ARTIFACT = {  # lineage: which private JSONL each record came from
    "recovery": hashlib.sha256(b"xhotpotqa-v2-rc1/judge_all.records.jsonl").hexdigest(),
    "answers": hashlib.sha256(b"xhotpotqa-v2-rc1/judge_answers.dedicated.records.jsonl").hexdigest(),
}

COLUMNS = [
    "judge_record_id", "dataset_version", "dataset_revision", "instance_id", "source_id",
    "source_split", "target_language", "unit", "paragraph_id", "score", "score_origin",
    "judge_explanation", "source_text_sha256", "candidate_text_sha256", "requested_judge_model",
    "resolved_judge_revision", "judge_prompt_version", "judge_prompt_sha256", "run_group",
    "raw_artifact_sha256", "raw_line_number",
]
AUDIT_SCHEMA = pa.schema([(c, pa.int64() if c in ("score", "raw_line_number") else pa.string())
                          for c in COLUMNS])
SNAPSHOT_COLUMNS = ["instance_id", "source_id", "target_language", "unit", "paragraph_id",
                    "source_text", "candidate_text"]

FOLDERS = {
    "v2": ("xhotpotqa_judge_v2", "xhotpotqa_glm52_judge_v2", "audit"),
    "snapshot": ("xhotpotqa_v2_snapshot", "xhotpotqa_v2_rc1", "train"),
    "v1": ("xhotpotqa_judge_v1", "xhotpotqa_glm52_judge_v1", "audit"),
    "raw": ("xhotpotqa_judge_v2_raw", "raw_judge_records", "train"),
}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _expect(ok: bool, message: str) -> None:
    """Like assert, but survives python -O."""
    if not ok:
        raise AssertionError(message)


# --------------------------------------------------------------------------------------
# Score counts: integer programs that hit every printed figure.
# --------------------------------------------------------------------------------------
SCORES = np.arange(101)
BANDS = [(0, 59), (60, 79), (80, 89), (90, 100)]
# Plausible judge habits inside each band (weights per score); the MILP stays close to a draw.
BAND_PMF = {
    "paragraph": [{20: 1, 30: 2, 35: 1, 40: 3, 45: 2, 50: 3, 55: 2},
                  {60: 3, 62: 1, 65: 4, 68: 2, 70: 4, 72: 2, 75: 4, 78: 3},
                  {80: 2, 82: 2, 84: 2, 85: 5, 86: 2, 87: 2, 88: 5, 89: 1},
                  {90: 7, 91: 2, 92: 8, 93: 5, 94: 7, 95: 15, 96: 13, 97: 12, 98: 14, 99: 4, 100: 6}],
    "question": [{20: 1, 30: 2, 40: 3, 50: 3, 55: 1},
                 {60: 3, 65: 3, 70: 4, 75: 4, 78: 2},
                 {80: 2, 82: 1, 85: 5, 87: 2, 88: 4},
                 {90: 5, 92: 6, 94: 5, 95: 12, 96: 8, 97: 8, 98: 18, 99: 4, 100: 20}],
    "answer": [{5: 1, 10: 3, 15: 2, 20: 3, 25: 2, 30: 3, 35: 1, 40: 2, 45: 1, 50: 2},
               {60: 2, 65: 1, 70: 2, 75: 1},
               {80: 2, 85: 4, 88: 1},
               {90: 3, 95: 8, 98: 6, 100: 60}],
}


def printed_sums(n: int, text: str, digits: int) -> list[int]:
    """Integer totals S whose mean S/n prints as `text` with Python's float formatting."""
    return [s for s in range(100 * n + 1) if f"{s / n:.{digits}f}" == text]


def sumsq_window(n: int, total: int, sd_text: str) -> tuple[int, int]:
    """Range of sum-of-squares giving a sample SD (ddof=1) that prints `sd_text`.

    One integer is trimmed from each end so float noise in pandas' std cannot flip it."""
    centre = total * total / n + (n - 1) * float(sd_text) ** 2
    ok = [q for q in range(int(centre) - 3000, int(centre) + 3000)
          if q * n >= total * total
          and f"{math.sqrt((q - total * total / n) / (n - 1)):.2f}" == sd_text]
    return ok[0] + 1, ok[-1] - 1


def _band_of(score: int) -> int:
    return next(i for i, (lo, hi) in enumerate(BANDS) if lo <= score <= hi)


def _band_pmf(unit: str, band: int) -> np.ndarray:
    pmf = np.zeros(101)
    for s, w in BAND_PMF[unit][band].items():
        pmf[s] = w
    return pmf / pmf.sum()


def _allocate_tails(unit: str, band_counts: list[int], targets: list[int]) -> np.ndarray:
    """Hand each low-band row to the language whose target sum is furthest below 'all good'."""
    n = PER_LANGUAGE[unit]
    means = [float(SCORES @ _band_pmf(unit, b)) for b in range(4)]
    gap = np.array([n * means[3] - t for t in targets], dtype=float)
    alloc = np.zeros((len(targets), 4), dtype=int)
    for band in range(3):
        for _ in range(band_counts[band]):
            room = np.where(alloc[:, :3].sum(axis=1) < n // 2, gap, -np.inf)
            lang = int(np.argmax(room))
            alloc[lang, band] += 1
            gap[lang] -= means[3] - means[band]
    alloc[:, 3] = n - alloc[:, :3].sum(axis=1)
    return alloc


def _prior_counts(rng, unit: str, band_counts: list[int], targets: list[int]) -> np.ndarray:
    """A realistic draw of per-language score counts; the MILP then moves as few rows as possible."""
    alloc = _allocate_tails(unit, band_counts, targets)
    prior = np.zeros((len(targets), 101), dtype=int)
    for lang in range(len(targets)):
        for band in range(4):
            prior[lang] += rng.multinomial(alloc[lang, band], _band_pmf(unit, band))
    return prior


def _solve_close(prior: np.ndarray, rows: list, lower: list, upper: list) -> np.ndarray:
    """min sum |x - prior| subject to lower <= rows @ x <= upper, x integer >= 0.

    `prior` is (groups, 101); `rows` are sparse rows over the flattened counts x."""
    k = prior.size
    eye = coo_matrix((np.ones(k), (np.arange(k), np.arange(k))), shape=(k, k))
    a_x = vstack(rows).tocsr()
    zeros = coo_matrix((a_x.shape[0], k))
    constraints = [
        LinearConstraint(vstack([a_x.T, zeros.T]).T.tocsr(), lower, upper),
        # t >= x - prior and t >= prior - x (t is the L1 slack).
        LinearConstraint(vstack([(-eye).T, eye.T]).T.tocsr(), -prior.ravel(), np.inf),
        LinearConstraint(vstack([eye.T, eye.T]).T.tocsr(), prior.ravel(), np.inf),
    ]
    cost = np.concatenate([np.zeros(k), np.ones(k)])
    integrality = np.concatenate([np.ones(k), np.zeros(k)])
    res = milp(cost, constraints=constraints, integrality=integrality,
               bounds=Bounds(0, np.inf), options={"mip_rel_gap": 0.02, "disp": False})
    _expect(res.status == 0 and res.x is not None, f"score MILP failed: {res.message}")
    return np.rint(res.x[:k]).astype(int).reshape(prior.shape)


def _row(groups: int, weights_by_group: dict[int, np.ndarray]):
    """One sparse constraint row over (groups x 101) flattened counts."""
    cols, vals = [], []
    for g, w in weights_by_group.items():
        nz = np.nonzero(w)[0]
        cols.extend(g * 101 + nz)
        vals.extend(w[nz])
    return coo_matrix((vals, (np.zeros(len(cols), dtype=int), cols)), shape=(1, groups * 101))


def _unit_rows(groups: int, spec: dict, total: int):
    """Median and SD constraints over all groups of one unit (shared by V1 and V2)."""
    n, half = spec["n"], spec["n"] // 2
    every = range(groups)
    lo_q, hi_q = sumsq_window(n, total, spec["sd"])
    below_med = (SCORES < spec["median"]).astype(float)
    upto_med = (SCORES <= spec["median"]).astype(float)
    return ([_row(groups, {g: below_med for g in every}),       # both middle values are
             _row(groups, {g: upto_med for g in every}),         # exactly the median
             _row(groups, {g: SCORES.astype(float) ** 2 for g in every})],
            [0, half + 1, lo_q], [half - 1, n, hi_q])


def v2_language_sums(unit: str) -> list[int]:
    """The per-language totals: each published 2-dp mean admits exactly one integer sum."""
    col = 2 + UNITS.index(unit)
    sums = []
    for row in V2_BY_LANGUAGE:
        found = printed_sums(PER_LANGUAGE[unit], row[col], 2)
        _expect(len(found) == 1, f"{row[0]} {unit}: {len(found)} sums print {row[col]}")
        sums.extend(found)
    return sums


def solve_v2_counts(rng, unit: str) -> np.ndarray:
    """Counts[language, score] for one unit hitting per-language sums and the unit row."""
    spec, n, groups = V2_UNITS[unit], PER_LANGUAGE[unit], len(LANGS)
    targets = v2_language_sums(unit)
    c60, c80, c90 = spec["below60"], spec["below80"], spec["atleast90"]
    band_counts = [c60, c80 - c60, spec["n"] - c90 - c80, c90]
    prior = _prior_counts(rng, unit, band_counts, targets)
    ones, score_w = np.ones(101), SCORES.astype(float)
    rows = [_row(groups, {g: ones}) for g in range(groups)]
    rows += [_row(groups, {g: score_w}) for g in range(groups)]
    lower = [n] * groups + targets
    upper = [n] * groups + targets
    for mask, count in (((SCORES < 60), c60), ((SCORES < 80), c80), ((SCORES >= 90), c90)):
        rows.append(_row(groups, {g: mask.astype(float) for g in range(groups)}))
        lower.append(count)
        upper.append(count)
    extra, lo, hi = _unit_rows(groups, spec, sum(targets))
    return _solve_close(prior, rows + extra, lower + lo, upper + hi)
