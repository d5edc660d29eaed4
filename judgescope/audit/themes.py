"""Explanation themes: words and 2–3-word phrases over-represented in low-score explanations
against the rest, by the log-odds ratio with an informative Dirichlet prior (Monroe, Colaresi &
Quinn 2008, "Fightin' Words", Political Analysis 16(4), eq. 16 and its variance). Pure and
deterministic (no sampling, ties broken by the term); no streamlit.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from collections import Counter
from functools import lru_cache

import pandas as pd

from judgescope import defaults

MAX_CHARS = 4_000  # an explanation is read up to here: bounded work per row
MAX_TOKEN = 40  # longer letter runs (unsegmented scripts, junk) are dropped
MIN_LOW_COUNT = defaults.THEME_MIN_COUNT
PER_GROUP = 20_000  # explanations read per (language, low/rest): audit_theme_texts' sample cap
MAX_GROUP_CHARS = 1_000_000  # characters read per (language, low/rest): bounds the vocabulary
TOP_K = 15
NGRAMS = (1, 2, 3)
DEFAULT_THRESHOLD = defaults.THEME_THRESHOLD
# A small English function-word list: the judge writes in English. A unigram in it is dropped and
# a phrase may not start or end with one ("of the source" no, "meaning of source" yes).
STOPWORDS = frozenset("""
a an and are as at be been but by can could did do does for from had has have he her his i if in
into is it its it's may might more most no nor not of on or our should so some such than that
the their them then there these they this those to too very was we were what when which while
who will with would you your also both each other only same just any all which its
""".split())
RULE = ("Tokens: NFKC-normalised, case-folded runs of letters and combining marks (any script; "
        "digits and punctuation split; an apostrophe between letters is kept); phrases do not "
        "cross punctuation. Terms: words not in a short English stop list and 2–3-word phrases "
        "neither starting nor ending with one, counted by occurrence. Score: log-odds ratio with "
        "an informative Dirichlet prior (Monroe, Colaresi & Quinn 2008), prior α_w = α0 · the "
        "term's share of the language's pooled counts, α0 = the pooled total; z = δ / σ. Shown: "
        f"terms with z > 0 and at least {MIN_LOW_COUNT} low-score occurrences, highest z first; a "
        "term inside a longer one with the same counts (so the same z) is folded into the "
        "longest, e.g. 'appears' and 'appears mid' into 'appears mid sentence'. "
        f"Read: up to {MAX_CHARS:,} characters of an explanation and {MAX_GROUP_CHARS:,} "
        "characters per language and side (low / rest), in the sample's order.")


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern, re.Pattern]:
    """A word is a run of letters or combining marks (Python's \\w misses the marks, which would
    split Devanagari or Thai words); built once per process, on first use."""
    marks, start = [], None
    for cp in range(sys.maxunicode + 1):
        is_mark = unicodedata.category(chr(cp)).startswith("M")
        if is_mark and start is None:
            start = cp
        elif not is_mark and start is not None:
            marks.append(f"\\U{start:08x}-\\U{cp - 1:08x}")
            start = None
    letter = rf"(?:[^\W\d_]|[{''.join(marks)}])"
    # The apostrophe group must start with an apostrophe, so every text splits one way (linear).
    word = re.compile(rf"{letter}+(?:['’]{letter}+)*")
    segment = re.compile(r"[.!?;:,()\[\]{}\"“”«»|/\n\r\t]+")
    return word, segment


def tokens(text: str) -> list[list[str]]:
    """The word runs of a text, one list per punctuation-delimited segment."""
    word, segment = _patterns()
    clean = unicodedata.normalize("NFKC", str(text)[:MAX_CHARS]).casefold()
    out = []
    for part in segment.split(clean):
        words = [w for w in word.findall(part) if len(w) <= MAX_TOKEN]
        if words:
            out.append(words)
    return out


def terms(text: str, ngrams=NGRAMS) -> list[str]:
    """Every counted term of a text (words and phrases), in order of occurrence."""
    out = []
    for words in tokens(text):
        for n in ngrams:
            for i in range(len(words) - n + 1):
                gram = words[i:i + n]
                if gram[0] in STOPWORDS or gram[-1] in STOPWORDS:
                    continue
                out.append(" ".join(gram))
    return out


def count_terms(texts, max_chars: int = MAX_GROUP_CHARS) -> Counter:
    """Term counts of texts, read in order until max_chars characters (each text counted up to
    MAX_CHARS): a bound on time and on the vocabulary's size, however many texts come."""
    counts: Counter = Counter()
    budget = max_chars
    for text in texts:
        if budget <= 0:
            break
        if text is not None and not (isinstance(text, float) and math.isnan(text)):
            part = str(text)[:min(MAX_CHARS, budget)]
            budget -= len(part)
            counts.update(terms(part))
    return counts


def log_odds(low: Counter, rest: Counter, alpha0: float | None = None,
             min_low: int = 0) -> pd.DataFrame:
    """δ_w = log((y_w^low + α_w) / (n^low + α0 − y_w^low − α_w))
           − log((y_w^rest + α_w) / (n^rest + α0 − y_w^rest − α_w)),
    σ²_w ≈ 1/(y_w^low + α_w) + 1/(y_w^rest + α_w), z = δ/σ; α_w = α0 · pooled_w / N.
    Only terms with at least min_low low-score occurrences are scored; the totals still count
    every term, so each scored term's z is the same as without the filter."""
    pooled = low + rest
    total = sum(pooled.values())
    cols = ["term", "z", "delta", "low_count", "rest_count"]
    if total == 0:
        return pd.DataFrame(columns=cols)
    a0 = float(total if alpha0 is None else alpha0)
    n_low, n_rest = sum(low.values()), sum(rest.values())
    rows = []
    for term in sorted(t for t in pooled if low.get(t, 0) >= min_low):
        a = a0 * pooled[term] / total
        yl, yr = low.get(term, 0), rest.get(term, 0)
        if n_low + a0 - yl - a <= 0 or n_rest + a0 - yr - a <= 0:
            continue  # only when one term is the whole vocabulary: its odds are undefined
        delta = (math.log((yl + a) / (n_low + a0 - yl - a))
                 - math.log((yr + a) / (n_rest + a0 - yr - a)))
        rows.append((term, delta / math.sqrt(1 / (yl + a) + 1 / (yr + a)), delta, yl, yr))
    return pd.DataFrame(rows, columns=cols)


def top_terms(scored: pd.DataFrame, k=TOP_K, min_low=MIN_LOW_COUNT) -> pd.DataFrame:
    keep = scored[(scored["z"] > 0) & (scored["low_count"] >= min_low)]
    keep = keep.sort_values(["z", "term"], ascending=[False, True])
    return fold_nested(keep).head(k).reset_index(drop=True)


def _inside(short: list[str], long: list[str]) -> bool:
    n = len(short)
    return n < len(long) and any(long[i:i + n] == short for i in range(len(long) - n + 1))


def fold_nested(frame: pd.DataFrame) -> pd.DataFrame:
    """One theme per phrase family: a term whose words run inside a longer term with the same
    low and rest counts (so the same z: every occurrence of it is one of the longer's, e.g.
    "appears", "appears mid", "appears mid sentence") is folded into the longest such term and
    listed in its `folded` column; the order of the rest is kept."""
    terms_ = list(frame["term"])
    counts = dict(zip(terms_, zip(frame["low_count"], frame["rest_count"])))
    words = {t: t.split() for t in terms_}
    into: dict[str, str] = {}
    for t in terms_:
        hosts = [u for u in terms_ if counts[u] == counts[t] and _inside(words[t], words[u])]
        if hosts:
            into[t] = min(hosts, key=lambda u: (-len(words[u]), u))
    folded = {u: [t for t in terms_ if into.get(t) == u] for u in terms_ if u not in into}
    out = frame[~frame["term"].isin(into)].copy()
    out["folded"] = [", ".join(folded[t]) for t in out["term"]]
    return out


def themes_by_language(rows: pd.DataFrame, k=TOP_K, min_low=MIN_LOW_COUNT) -> dict[str, pd.DataFrame]:
    """{language: top terms} from rows with target_language, low (bool), judge_explanation."""
    out = {}
    for lang, g in rows.groupby("target_language", sort=True):
        low = count_terms(g.loc[g["low"].astype(bool), "judge_explanation"])
        rest = count_terms(g.loc[~g["low"].astype(bool), "judge_explanation"])
        out[str(lang)] = top_terms(log_odds(low, rest, min_low=min_low), k, min_low)
    return out


def to_json(threshold: float, by_language: dict[str, pd.DataFrame]) -> dict:
    """The `themes --json` shape of issue #19."""
    return {"threshold": threshold, "method": RULE, "by_language": {
        lang: [{"term": r.term, "z": float(r.z), "low_count": int(r.low_count),
                "rest_count": int(r.rest_count),
                "folded": [t for t in str(getattr(r, "folded", "") or "").split(", ") if t]}
               for r in frame.itertuples(index=False)]
        for lang, frame in by_language.items()}}


def group_sizes(rows: pd.DataFrame) -> dict[str, tuple[int, int]]:
    """{language: (low explanations, other explanations)} read for the themes."""
    low = rows["low"].astype(bool)
    return {str(lang): (int(low[g.index].sum()), int((~low[g.index]).sum()))
            for lang, g in rows.groupby("target_language", sort=True)}
