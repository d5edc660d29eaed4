"""Order and self-preference probes of pairwise ranking judges.

Swap consistency: where a model judged a pair in both orders (a column "<method>_swapped/<model>"
beside "<method>/<model>", whose "Translation 1" is the pair's second translation), the swapped
decision is mapped back to the pair's positions (1 ↔ 2, a tie stays a tie) and the pair is
consistent when it equals the original decision. Pairs where either decision is unparsed are left
out and counted; ties are decisions (a tie in one order only is inconsistent). Share of consistent
pairs with a 95% Wilson score interval (pairs independent, each counted once).

Self-preference: where each translation's system family is known (column tgt_families) and a
judge's family is its model name (the part after "/" in its decision column, compared
case-insensitively). On the pairs where exactly one translation is of the judge's family and both
the judge and another judge of another family picked a translation, the judge's rate of picking
its family's translation against the other judge's rate on the same pairs: the paired difference
with Newcombe's hybrid score interval and the exact McNemar test on the discordant pairs.
"""

from __future__ import annotations

import json

import pandas as pd

from judgescope.calibration.bias import NEWCOMBE, newcombe_paired_ci
from judgescope.ranking.decisions import parse_decision
from judgescope.schema import RANKING_METHODS
from judgescope.significance.paired import mcnemar_exact
from judgescope.stats import wilson_ci

SWAP_SUFFIX = "_swapped"
FAMILY_COLUMN = "tgt_families"
SWAP_METHOD = ("pairs judged in both orders; the swapped decision mapped back (1 ↔ 2, tie stays "
               "tie) must equal the original; pairs with an unparsed decision in either order left "
               "out; 95% Wilson score CI over pairs")
SELF_METHOD = ("pairs where exactly one translation's family (tgt_families) is the judge's (its "
               "model name) and both judges picked a translation (ties and unparsed left out): "
               "each judge's rate of picking that translation, paired difference with "
               + NEWCOMBE + ", exact McNemar on the discordant pairs (two-sided)")


def swapped_columns(names) -> list[tuple[str, str, str]]:
    """(column, method, model) for every column named '<method>_swapped/<model>'."""
    out = []
    for name in names:
        method, sep, model = str(name).partition("/")
        base = method.removesuffix(SWAP_SUFFIX)
        if sep and model and method.endswith(SWAP_SUFFIX) and base in RANKING_METHODS:
            out.append((str(name), base, model))
    return out


def load(run) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(swapped decisions: file, row, method, model, swapped; families: file, row, family_1,
    family_2), each empty when the data has no such columns."""
    names = list(run("rank_columns")["column_name"])
    cols = swapped_columns(names)
    swapped = pd.DataFrame(columns=["file", "row", "method", "model", "swapped"])
    if cols:
        raw = run("rank_swapped_decisions")
        meta = {c: (m, x) for c, m, x in cols}
        raw = raw[raw["decision_column"].isin(meta)]
        swapped = pd.DataFrame({
            "file": raw["file"], "row": raw["row"],
            "method": raw["decision_column"].map(lambda c: meta[c][0]),
            "model": raw["decision_column"].map(lambda c: meta[c][1]),
            "text": raw["decision_text"],
            "swapped": pd.Series([None if t is None or pd.isna(t) else parse_decision(t, meta[c][0])
                                  for t, c in zip(raw["decision_text"], raw["decision_column"])],
                                 index=raw.index, dtype=object)})
        swapped = swapped[raw["decision_text"].notna()]
    families = pd.DataFrame(columns=["file", "row", "family_1", "family_2"])
    if FAMILY_COLUMN in names:
        raw = run("rank_families")
        pairs = [_two(v) for v in raw["families"]]
        families = pd.DataFrame({"file": raw["file"], "row": raw["row"],
                                 "family_1": [p[0] for p in pairs],
                                 "family_2": [p[1] for p in pairs]})
    return swapped, families


def _two(value) -> tuple:
    """Two family names from a list or its JSON text; (None, None) otherwise (self_preference
    leaves the pair out and reports how many it left out)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None, None
    try:
        items = list(value)
    except TypeError:
        return None, None
    if len(items) != 2 or any(x is None for x in items):
        return None, None
    return str(items[0]), str(items[1])


def _code(x):
    return None if x is None or pd.isna(x) else int(x)


def mapped_back(s):
    """A swapped-order decision in the pair's own positions."""
    return None if s is None else 0 if s == 0 else 3 - s


def _kind(d: int, s: int) -> str:
    if d == 1 and s == 1:
        return "picked the translation shown first both times"
    if d == 2 and s == 2:
        return "picked the translation shown second both times"
    return "a tie in one order only"


def swap_consistency(decisions: pd.DataFrame, swapped: pd.DataFrame) -> dict:
    """Rows per method × model and the inconsistent pairs (see the module docstring)."""
    if swapped.empty or decisions.empty:
        return {"rows": [], "inconsistent": [], "method": SWAP_METHOD}
    m = swapped.merge(decisions[["file", "row", "method", "model", "dataset", "decision"]],
                      on=["file", "row", "method", "model"])
    rows, bad = [], []
    for (method, model), g in m.groupby(["method", "model"], sort=True):
        d, s = g["decision"].map(_code), g["swapped"].map(_code)
        parsed = d.notna() & s.notna()
        ok = parsed & (d == s.map(lambda x: mapped_back(x) if x is not None else None))
        ci = wilson_ci(int(ok.sum()), int(parsed.sum()))
        rows.append({"method": method, "model": model, "judged_both": int(len(g)),
                     "unparsed": int((~parsed).sum()), "n": int(parsed.sum()),
                     "consistent": int(ok.sum()), "share": ci["share"], "ci": [ci["low"], ci["high"]]})
        for (_, r), dd, ss in zip(g[parsed & ~ok].iterrows(), d[parsed & ~ok], s[parsed & ~ok]):
            bad.append({"method": method, "model": model, "dataset": r["dataset"],
                        "file": r["file"], "row": int(r["row"]), "original": int(dd),
                        "swapped": int(ss), "swapped_mapped_back": mapped_back(int(ss)),
                        "kind": _kind(int(dd), int(ss))})
    return {"rows": rows, "inconsistent": bad, "method": SWAP_METHOD}


def _paired(j: pd.Series, k: pd.Series) -> dict:
    both, only_j = int((j & k).sum()), int((j & ~k).sum())
    only_k, neither = int((~j & k).sum()), int((~j & ~k).sum())
    n = both + only_j + only_k + neither
    return {"n": n, "both": both, "only_judge": only_j, "only_other": only_k, "neither": neither,
            "judge_rate": (both + only_j) / n if n else None,
            "other_rate": (both + only_k) / n if n else None,
            "difference": (only_j - only_k) / n if n else None,
            "ci": newcombe_paired_ci(both, only_j, only_k, neither),
            "p": mcnemar_exact(only_j, only_k)}


def self_preference(decisions: pd.DataFrame, families: pd.DataFrame) -> dict:
    """Rows per method × judge × other judge (see the module docstring)."""
    if families.empty or decisions.empty:
        return {"rows": [], "method": SELF_METHOD, "pairs_without_families": 0}
    unknown = families["family_1"].isna() | families["family_2"].isna()
    families = families[~unknown]
    f = families.assign(family_1=families["family_1"].astype(str).str.lower(),
                        family_2=families["family_2"].astype(str).str.lower())
    d = decisions.merge(f, on=["file", "row"])
    d = d[d["decision"].map(_code).isin([1, 2])]
    rows = []
    for method, g in d.groupby("method", sort=True):
        wide = g.pivot_table(index=["file", "row", "family_1", "family_2"], columns="model",
                             values="decision", aggfunc="first").reset_index()
        models = [c for c in wide.columns if c not in ("file", "row", "family_1", "family_2")]
        for judge in models:
            fam = str(judge).lower()
            one = (wide["family_1"] == fam) ^ (wide["family_2"] == fam)
            own_slot = wide["family_1"].eq(fam).map({True: 1, False: 2})
            for other in models:
                if other == judge or str(other).lower() == fam:
                    continue
                use = one & wide[judge].notna() & wide[other].notna()
                if not use.any():
                    continue
                j = wide.loc[use, judge].astype(int) == own_slot[use]
                k = wide.loc[use, other].astype(int) == own_slot[use]
                rows.append({"method": method, "judge": judge, "family": fam, "other_judge": other,
                             **_paired(j, k)})
    return {"rows": rows, "method": SELF_METHOD, "pairs_without_families": int(unknown.sum())}
