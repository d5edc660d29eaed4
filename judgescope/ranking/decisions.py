"""Pairwise ranking: decision parsing, accuracy against humans and position bias (seed 003).

Pure pandas/regex; no streamlit. Decisions are 1 (Translation 1), 2 (Translation 2),
0 (tie) or None (unparsed). Human preference uses the same codes.
"""

from __future__ import annotations

import json
import re
from typing import Callable

import pandas as pd

from judgescope.schema import RANKING_METHODS
from judgescope.stats import wilson_ci

SCORING_METHOD = "two_step_scoring"
LABELS = {1: "Translation 1", 2: "Translation 2", 0: "tie", None: "unparsed"}
CI_METHOD = "Wilson score, 95%"
ALL_DATASETS = "All datasets"

DECISION_RULE = (
    "Ranking texts are read case-insensitively with markdown emphasis removed. Every explicit "
    "statement is found: “Translation N is (slightly/clearly/…) better / best / superior / "
    "preferable”, “Translation N is worse / inferior” (= the other one), “I choose / prefer / "
    "pick Translation N”, “rank Translation N first”, “Translation N > Translation M”, "
    "“Best translation: N”, and equal-quality statements (“equal quality”, “equally good”, "
    "“it's a tie”, “neither is better”). The last statement in the text wins; no statement "
    "means unparsed. Two-step scoring texts must give two scores, labelled “Translation 1: x” "
    "and “Translation 2: y” (last label wins) or “Scores: x, y”; the higher score wins and equal "
    "scores are a tie. Negations such as “I don't think Translation 2 is better” are not "
    "understood. Only the last 20,000 characters of a text are read.")

_T = r"translation\s*#?\s*([12])\b"
# Each word once and no word a prefix of a sequence of others ("a bit" is "a" then "bit"), so a
# run of adverbs can be split one way only and a failed match backtracks in linear time.
_ADV = r"(?:(?:the|a|slightly|marginally|clearly|much|significantly|somewhat|overall|" \
       r"definitely|far|considerably|noticeably|bit|still|generally|arguably)\s+)*"
# Only the last MAX_DECISION_CHARS characters are read: the last statement wins, and a bound on
# the text bounds the regexes' work on every rerun (they hold the GIL).
MAX_DECISION_CHARS = 20_000
_PICK = [  # (pattern, picks the named translation? else the other one)
    (rf"{_T}\s+(?:is|seems|appears|would be|remains)\s+(?:to be\s+)?{_ADV}"
     r"(?:better|best|superior|preferable|preferred|the winner|stronger overall)", True),
    (rf"{_T}\s+is\s+{_ADV}(?:worse|inferior|weaker)", False),
    (rf"\b(?:choose|prefer|pick|select|recommend|favou?r)\s+{_T}", True),
    (rf"\brank\s+{_T}\s+(?:first|higher|above|as (?:the )?best)", True),
    (rf"{_T}\s+(?:ranks|is ranked|comes|should be ranked)\s+(?:first|higher|above)", True),
    (rf"{_T}\s*>\s*translation\s*#?\s*[12]\b", True),
    (r"\b(?:best|better|preferred|winning) translation\s*(?:is)?\s*[:=]?\s*(?:translation\s*)?#?\s*([12])\b", True),
    (r"\bfinal (?:answer|choice|decision|ranking)\s*[:=]\s*(?:translation\s*)?#?\s*([12])\b", True),
]
_PICK = [(re.compile(p), named) for p, named in _PICK]
_TIE = re.compile(r"equal(?:ly)?\s+(?:in\s+)?(?:quality|good|well|strong|matched|accurate|valid)"
                  r"|\bof equal\b|\b(?:it'?s|is|a) (?:a )?tie\b|\bneither (?:translation |one )?"
                  r"is (?:clearly |significantly )?better\b|\bno clear (?:winner|preference)\b")
_LABELLED = re.compile(r"translation\s*#?\s*([12])\b\s*(?:score)?\s*[:=\-–]\s*(-?\d+(?:\.\d+)?)"
                       r"|score (?:for|of) translation\s*#?\s*([12])\b\s*[:=\-–]?\s*(-?\d+(?:\.\d+)?)")
_PAIR = re.compile(r"\bscores?\s*[:=]\s*(-?\d+(?:\.\d+)?)(?:\s*/\s*\d+)?\s*(?:,|;|and|vs\.?)\s*"
                   r"(-?\d+(?:\.\d+)?)")


def _clean(text) -> str | None:
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return None
    return re.sub(r"\s+", " ", re.sub(r"[*_`]", "", str(text)[-MAX_DECISION_CHARS:])).lower()


def parse_ranking(text) -> int | None:
    """1, 2, 0 (tie) or None: the last explicit statement in the text wins (DECISION_RULE)."""
    t = _clean(text)
    if not t:
        return None
    found: list[tuple[int, int]] = []
    for pattern, named in _PICK:
        for m in pattern.finditer(t):
            n = int(m.group(1))
            found.append((m.start(), n if named else 3 - n))
    found += [(m.start(), 0) for m in _TIE.finditer(t)]
    return max(found)[1] if found else None


def parse_scores(text) -> tuple[float, float] | None:
    """Two scores from a scoring text: labelled per translation (last label wins) or 'Scores: x, y'."""
    t = _clean(text)
    if not t:
        return None
    got: dict[int, float] = {}
    for m in _LABELLED.finditer(t):
        label, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        got[int(label)] = float(value)
    if len(got) == 2:
        return got[1], got[2]
    m = _PAIR.search(t)
    return (float(m.group(1)), float(m.group(2))) if m else None


def preference(a, b) -> int | None:
    """1 when a > b, 2 when b > a, 0 when equal, None when either is missing."""
    if a is None or b is None or pd.isna(a) or pd.isna(b):
        return None
    return 0 if a == b else 1 if a > b else 2


def parse_decision(text, method: str) -> int | None:
    if method == SCORING_METHOD:
        scores = parse_scores(text)
        return preference(*scores) if scores else None
    return parse_ranking(text)


def decision_columns(names) -> list[tuple[str, str, str]]:
    """(column, method, model) for every column named '<method>/<model>' with a known method."""
    out = []
    for name in names:
        method, sep, model = str(name).partition("/")
        if sep and model and method in RANKING_METHODS:
            out.append((str(name), method, model))
    return out


def load(run: Callable[..., pd.DataFrame], fallback_dataset: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(pairs, decisions) through the rank_* queries; decisions parsed, one row per pair x column."""
    pairs = run("rank_pairs")
    pairs["dataset"] = pairs["dataset"].fillna(fallback_dataset)
    pairs["human"] = [preference(a, b) for a, b in zip(pairs["human_1"], pairs["human_2"])]
    columns = decision_columns(run("rank_columns")["column_name"])
    if not columns:
        return pairs, pd.DataFrame(columns=["file", "row", "decision_column", "decision_text",
                                            "method", "model", "decision", "dataset", "human"])
    dec = run("rank_decisions")
    meta = {c: (m, x) for c, m, x in columns}
    dec["method"] = dec["decision_column"].map(lambda c: meta[c][0])
    dec["model"] = dec["decision_column"].map(lambda c: meta[c][1])
    dec["decision"] = pd.Series([parse_decision(t, m) for t, m in zip(dec["decision_text"], dec["method"])],
                                index=dec.index, dtype=object)
    dec = dec.merge(pairs[["file", "row", "dataset", "human"]], on=["file", "row"], how="left")
    return pairs, dec


def outcome(decision, human) -> str:
    """What a decision means against the human preference of its pair."""
    if human is None or pd.isna(human):
        return "no human score"
    if human == 0:
        return "human tie"
    if decision is None or pd.isna(decision):
        return "unparsed"
    return "model tie" if decision == 0 else "correct" if decision == human else "wrong pick"


def _rate(k: int, n: int) -> dict:
    ci = wilson_ci(k, n)
    share = None if ci["share"] is None else float(ci["share"])
    return {"k": int(k), "n": int(n), "rate": share, "low": ci["low"], "high": ci["high"]}


def summarize(group: pd.DataFrame) -> dict:
    """Accuracy, baselines and position bias of one dataset x method x model."""
    human = group["human"].map(lambda h: None if h is None or pd.isna(h) else int(h))
    dec = group["decision"].map(lambda d: None if d is None or pd.isna(d) else int(d))
    pair = human.isin([1, 2])
    h, d = human[pair], dec[pair]
    correct = int((d == h).sum())
    decisive = d.isin([1, 2])
    acc = _rate(correct, len(h))
    return {
        "n": int(len(h)), "human_ties": int((human == 0).sum()), "correct": correct,
        "accuracy": acc["rate"], "ci": [acc["low"], acc["high"]],
        "model_ties": int((d == 0).sum()), "unparsed": int(d.isna().sum()),
        "first_choice": _rate((d[decisive] == 1).sum(), decisive.sum()),
        "human_first": _rate((h[decisive] == 1).sum(), decisive.sum()),
        "always_first": _rate((h == 1).sum(), len(h)),
        "acc_human_first": _rate(((d == h) & (h == 1)).sum(), (h == 1).sum()),
        "acc_human_second": _rate(((d == h) & (h == 2)).sum(), (h == 2).sum()),
    }


def results(decisions: pd.DataFrame, with_total: bool = False) -> list[dict]:
    """One summary per dataset x method x model (plus 'All datasets' when asked)."""
    frames = [decisions]
    if with_total and decisions["dataset"].nunique() > 1:
        frames.append(decisions.assign(dataset=ALL_DATASETS))
    out = []
    for frame in frames:
        for (ds, method, model), group in frame.groupby(["dataset", "method", "model"], sort=False):
            out.append({"dataset": ds, "method": method, "model": model, **summarize(group)})
    order = {m: i for i, m in enumerate(RANKING_METHODS)}
    return sorted(out, key=lambda r: (r["dataset"] == ALL_DATASETS, r["dataset"],
                                      order.get(r["method"], 99), r["model"]))


def identical_methods(decisions: pd.DataFrame) -> list[dict]:
    """Two methods of one model that pick the same translation on every pair (a tie and an unparsed
    decision both pick none, and both count as wrong): their accuracy cells are equal because
    their picks are, not two confirmations of each other."""
    out = []
    for model, group in decisions.groupby("model", sort=True):
        codes = {m: g.set_index(["file", "row"])["decision"].map(lambda d: int(d) if d in (1, 2) else 0)
                 .sort_index() for m, g in group.groupby("method", sort=False)}
        names = [m for m in RANKING_METHODS if m in codes]
        for i, a in enumerate(names):
            out += [{"model": model, "methods": (a, b), "pairs": len(codes[a])} for b in names[i + 1:]
                    if len(codes[a]) and codes[a].index.equals(codes[b].index) and codes[a].equals(codes[b])]
    return out


def identical_sentence(same: list[dict], synthetic: bool) -> str:
    """Why two rows of the grid are equal in every cell, as one sentence ('' when none are)."""
    if not same:
        return ""
    said = "; ".join(f"{a} and {b} for {s['model']} ({s['pairs']:,} pairs)" for s in same for a, b in [s["methods"]])
    why = (" This synthetic demo writes each two-step score to agree with the two-step ranking's decision "
           "(both read the same dimension evaluations), so they cannot differ." if synthetic else "")
    return (f"Equal rows: {said} pick the same translation on every pair (a tie and an unparsed decision "
            f"both pick none), so their cells are equal because their picks are, not two independent "
            f"confirmations.{why}")


def cli_results(decisions: pd.DataFrame) -> list[dict]:
    """The `rank` command's result rows (issue item 6)."""
    return [{k: r[k] for k in ("dataset", "method", "model", "n", "human_ties", "correct",
                               "accuracy", "ci", "model_ties", "unparsed")}
            | {"first_choice_rate": r["first_choice"]["rate"], "human_first_rate": r["human_first"]["rate"]}
            for r in results(decisions)]


def human_summary(pairs: pd.DataFrame) -> pd.DataFrame:
    """Pairs, human ties and human preference for Translation 1 per dataset (no model needed)."""
    rows = []
    for ds, g in pairs.groupby("dataset", sort=True):
        h = g["human"]
        decided = int(h.isin([1, 2]).sum())
        rows.append({"dataset": ds, "pairs": len(g), "human_ties": int((h == 0).sum()),
                     "no_human_score": int(h.isna().sum()), "human_prefers_1": int((h == 1).sum()),
                     "human_first_rate": (h == 1).sum() / decided if decided else None})
    return pd.DataFrame(rows)


MAX_ANNOTATION_DEPTH = 32


def flatten_annotations(value, prefix: str = "") -> list[tuple[str, str]]:
    """Vendor annotations (JSON text or objects of any nesting) as (dotted key, value) pairs.
    Iterative, and deeper than MAX_ANNOTATION_DEPTH levels the rest is shown as JSON text."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return [(prefix or "annotation", value)]
    out, stack = [], [(prefix, value, 0)]
    while stack:
        key, v, depth = stack.pop()
        if isinstance(v, (dict, list)) and depth >= MAX_ANNOTATION_DEPTH:
            out.append((key or "annotation", f"(nested deeper than {MAX_ANNOTATION_DEPTH} levels)"))
        elif isinstance(v, dict):
            stack += [(f"{key}.{k}" if key else str(k), x, depth + 1) for k, x in v.items()][::-1]
        elif isinstance(v, list):
            stack += [(f"{key}[{i + 1}]", x, depth + 1) for i, x in enumerate(v)][::-1]
        else:
            out.append((key or "annotation", "n/a" if v is None else str(v)))
    return out


def row_label(method: str, model: str) -> str:
    return f"{method} · {model}"


def decision_label(code) -> str:
    return LABELS[None if code is None or pd.isna(code) else int(code)]
