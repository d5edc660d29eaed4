"""Judge-vs-human calibration (seed 001): majorities, confusion tables, gates, disagreements.

Pure pandas/numpy on the rows SQL returns (items, and judgements in long form); the pages
and `python -m judgescope calibrate` share it. Exact statistics come from stats.py; the
bootstrap intervals are vectorised multinomial resamples (calibration/agreement.py).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from judgescope import defaults
from judgescope.calibration import agreement as cs
from judgescope.calibration import bias as bias_stats
from judgescope.calibration import exact
from judgescope.calibration.clustered import MIN_CLUSTERS
from judgescope.calibration import power
from judgescope.calibration import length_probes
from judgescope import stats
# The rules live in calibration/rules.py; pages and the CLI reach them through this module too.
from judgescope.calibration.rules import (  # noqa: F401
    JUDGE_PREFIX, NO_SPLIT, PANEL, column, definitions, definitions_sentence, judge_id,
    has_panel, panel_label, rater_name, split_options, split_params)
from judgescope.schema import NOT_RECORDED, VERDICTS

HUMAN_COLS = ("human_1_verdict", "human_2_verdict", "human_3_verdict")
MATCH = "match"
CELLS = ("TP", "FP", "FN", "TN")
DISAGREE = "disagree"  # FP and FN together
JUDGE_GATE, PANEL_GATE = defaults.JUDGE_GATE, defaults.PANEL_GATE
CLUSTER_COLUMN = "question_id"  # answers to one question share it: resampled together
ITEM_TEXT = ("key", "question_id", "split", "category", "question", "reference_answer",
             "model_response")


def binary(verdicts) -> np.ndarray:
    """match → 1; no_match, no_answer (anything else) → 0."""
    return (pd.Series(verdicts).astype(object) == MATCH).to_numpy(dtype=int)


def _labels(labels: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The labels as text (an object array, one column per rater) and where they are missing."""
    values = labels.to_numpy(dtype=object)
    missing = pd.isna(values)
    return np.where(missing, None, values.astype(str)), missing


def _agreeing(text: np.ndarray, missing: np.ndarray) -> np.ndarray:
    """Per row and column: how many columns (itself included) hold the same recorded label."""
    same = np.zeros(text.shape, dtype=int)
    for a in range(text.shape[1]):
        for b in range(text.shape[1]):
            same[:, a] += (text[:, a] == text[:, b]) & ~missing[:, a] & ~missing[:, b]
    return same


def _modal(labels: pd.DataFrame) -> pd.Series:
    """The label a strict majority of the columns hold on each row (more than half of all the
    columns, a missing label counting against every label), else None. Column by column, not
    row by row: at 100,000 answers the row-wise apply took 51 s of `calibrate`'s 72."""
    text, missing = _labels(labels)
    if not text.shape[1]:
        return pd.Series([None] * len(labels), index=labels.index, dtype=object)
    same = _agreeing(text, missing)
    first = same.argmax(axis=1)  # a strict majority is one label: any column holding it names it
    rows = np.arange(len(text))
    held = same[rows, first] * 2 > text.shape[1]
    return pd.Series(np.where(held, text[rows, first], None), index=labels.index, dtype=object)


def _all_differ(labels: pd.DataFrame) -> np.ndarray:
    """Per row: every column holds a recorded label and no two are the same (as many distinct
    labels as columns)."""
    text, missing = _labels(labels)
    return (_agreeing(text, missing) == 1).all(axis=1) & ~missing.any(axis=1)


def human_majority(items: pd.DataFrame) -> pd.DataFrame:
    """Per item: match votes, binary 2-of-3 majority, three-way tie, modal three-way verdict."""
    h = items[list(HUMAN_COLS)]
    votes = np.stack([binary(h[c]) for c in HUMAN_COLS])
    return pd.DataFrame({
        "key": items["key"].to_numpy(),
        "human_votes": votes.sum(0),
        "human_correct": stats.majority_binary(*votes).astype(int),
        "three_way_tie": _all_differ(h),
        "human_modal": _modal(h).to_numpy(),
    })


def judge_names(judgements: pd.DataFrame) -> list[str]:
    return sorted(judgements["judge_model"].dropna().unique().tolist())


def build_frame(items: pd.DataFrame, judgements: pd.DataFrame) -> pd.DataFrame:
    """One row per item: texts, human verdicts and majority, each judge's verdict/binary/reason,
    and the panel (strict binary majority of the judges; modal three-way verdict)."""
    recorded = {"human_correct": "recorded_human_correct", "panel_correct": "recorded_panel_correct"}
    frame = items.reset_index(drop=True).rename(columns=recorded).merge(human_majority(items),
                                                                        on="key")
    judges = judge_names(judgements)
    j = judgements[judgements["key"].isin(frame["key"])]
    for col, prefix in (("verdict", "verdict__"), ("reason", "reason__")):
        wide = j.pivot(index="key", columns="judge_model", values=col).add_prefix(prefix)
        frame = frame.merge(wide, left_on="key", right_index=True, how="left")
    for name in judges:
        v = frame[f"verdict__{name}"]
        frame[f"binary__{name}"] = np.where(v.isna(), np.nan, binary(v))
    frame["panel_complete"] = frame[[f"verdict__{n}" for n in judges]].notna().all(axis=1)
    if has_panel(len(judges)):
        # The panel rule: a strict majority of an odd number (≥ 3) of judges, on items every judge
        # rated (elsewhere the panel is NaN and the item is not in the panel's n).
        votes = frame[[f"binary__{n}" for n in judges]].fillna(0).to_numpy().T
        panel = stats.majority_binary(*votes).astype(float)
        frame[column(PANEL, "binary")] = np.where(frame["panel_complete"], panel, np.nan)
        modal = _modal(frame[[f"verdict__{n}" for n in judges]])
        frame[column(PANEL, "verdict")] = modal.where(frame["panel_complete"], None)
    return frame


def _judges_of(frame: pd.DataFrame) -> list[str]:
    return sorted(c.removeprefix("binary__") for c in frame.columns if c.startswith("binary__"))


def raters(frame: pd.DataFrame) -> list[str]:
    """Rater ids: the judges, then the panel when it is defined (an odd number of judges)."""
    panel = [PANEL] if column(PANEL, "binary") in frame else []
    return [judge_id(n) for n in _judges_of(frame)] + panel


def _cell_masks(truth: np.ndarray, pred: np.ndarray) -> dict:
    return {"TP": (truth == 1) & (pred == 1), "FP": (truth == 0) & (pred == 1),
            "FN": (truth == 1) & (pred == 0), "TN": (truth == 0) & (pred == 0)}


def ci_name(clusters: pd.Series | None) -> str:
    """The name of a rater's headline π interval, one rule wherever it is shown: resampling whole
    questions when cluster_ids found clusters, else items."""
    if clusters is None:
        return "bootstrap over items"
    return f"bootstrap over whole {CLUSTER_COLUMN}s ({clusters.nunique():,} clusters)"


def cluster_ids(rated: pd.DataFrame) -> pd.Series | None:
    """The cluster of each item (its question_id; an item without one is its own cluster), or
    None when no two items share a cluster (the item bootstrap is then the cluster bootstrap)
    or there are fewer than MIN_CLUSTERS (a cluster bootstrap would itself be unreliable)."""
    if CLUSTER_COLUMN not in rated or rated[CLUSTER_COLUMN].isna().all():
        return None
    qid = rated[CLUSTER_COLUMN]
    ids = ("q:" + qid.astype(str)).where(qid.notna(), "item:" + rated["key"].astype(str))
    return None if ids.nunique() == len(ids) or ids.nunique() < MIN_CLUSTERS else ids


def rater_stats(frame: pd.DataFrame, rater: str, gate, resamples=cs.RESAMPLES,
                seed=stats.DEFAULT_SEED, budget: bool = False) -> dict:
    """Binary confusion vs the human majority, agreement, exact Scott's π, κ, CI and gate."""
    col = column(rater, "binary")
    rated = frame[frame[col].notna()]
    truth, pred = rated["human_correct"].to_numpy(int), rated[col].to_numpy(int)
    conf = stats.confusion_binary(truth, pred)
    pi = stats.scotts_pi_fraction(pred, truth) if len(rated) else None
    table = [conf["tn"], conf["fp"], conf["fn"], conf["tp"]]
    # Exact bootstrap where the resampled tables are few enough, else Monte Carlo with B raised
    # until each endpoint's MC error is < 0.002 (calibration/exact.py); `resamples` is unused.
    item_ci = exact.table_ci(table, exact.pi_of, seed=seed)
    clusters = cluster_ids(rated)
    ci = item_ci if clusters is None else exact.clustered_table_ci(
        clusters, truth * 2 + pred, 4, exact.pi_of, seed=seed, column=CLUSTER_COLUMN)
    low, high = ci["low"], ci["high"]
    gate_result = stats.gate_verdict(pi, gate, low, high)
    return {"n": len(rated), **conf, "agreement": stats.observed_agreement(truth, pred),
            "scotts_pi": None if pi is None else float(pi),
            "scotts_pi_fraction": None if pi is None else f"{pi.numerator}/{pi.denominator}",
            "scotts_pi_shown": "n/a" if pi is None else
            stats.format_fraction_decimal(pi, 5, gate=gate),
            "cohen_kappa": stats.cohen_kappa(truth, pred) if len(rated) else None,
            "ci": [low, high], "ci_undefined": ci["undefined"], "ci_method": ci["method"],
            "ci_name": ci_name(clusters),
            "ci_item": [item_ci["low"], item_ci["high"]], "ci_item_undefined": item_ci["undefined"],
            "ci_item_method": item_ci["method"],
            "clusters": None if clusters is None else {"column": CLUSTER_COLUMN,
                                                       "n": int(clusters.nunique())},
            "gate": float(gate), **gate_result,
            "bias": bias_stats.bias_direction(truth, pred),
            "label_budget": power.label_budget(table, gate, seed=seed)
            if budget and gate_result["inconclusive"] else None}


def three_way_matrix(frame: pd.DataFrame, rater: str) -> tuple[pd.DataFrame, int]:
    """Counts of (human modal verdict, rater verdict) over VERDICTS, and how many items have
    no modal verdict on either side (a three-way tie) and so are not in the matrix."""
    col = column(rater, "verdict")
    pair = frame[["human_modal", col]].dropna()
    table = pd.DataFrame(0, index=pd.Index(VERDICTS, name="human"), columns=pd.Index(VERDICTS, name=rater))
    for (human, verdict), n in Counter(zip(pair["human_modal"], pair[col])).items():
        if human in VERDICTS and verdict in VERDICTS:  # as a crosstab reindexed on VERDICTS
            table.loc[human, verdict] = n
    return table, int(len(frame) - len(pair))


def cell_mask(frame: pd.DataFrame, rater: str, cell: str) -> np.ndarray:
    """Items in one matrix cell: TP/FP/FN/TN, 'disagree', or a three-way 'human/judge' cell."""
    pred = frame[column(rater, "binary")].to_numpy(float)
    truth = frame["human_correct"].to_numpy(float)
    if cell in CELLS:
        return _cell_masks(truth, pred)[cell]
    if cell == DISAGREE:
        return ~np.isnan(pred) & (pred != truth)
    human, _, judge = cell.partition("/")
    return ((frame["human_modal"] == human) & (frame[column(rater, "verdict")] == judge)).to_numpy()


def cell_options(frame: pd.DataFrame) -> list[str]:
    return [*CELLS, DISAGREE, *(f"{h}/{j}" for h in VERDICTS for j in VERDICTS)]


def cell_items(frame: pd.DataFrame, rater: str, cell: str) -> pd.DataFrame:
    """The items of one cell: texts, the three human verdicts, each judge's verdict and reason."""
    cols = [c for c in ITEM_TEXT if c in frame] + list(HUMAN_COLS) + ["human_correct"]
    cols += [f"{p}__{n}" for n in _judges_of(frame) for p in ("verdict", "reason")]
    cols += [c for c in (column(PANEL, "binary"),) if c in frame]
    return frame.loc[cell_mask(frame, rater, cell), cols].reset_index(drop=True)


def disagreement_summary(frame: pd.DataFrame, rater: str = PANEL) -> dict:
    """A rater's (by default the panel's) disagreements with the human majority: how many have at
    least one human on its side, and the unanimous-human ones on their own."""
    if column(rater, "binary") not in frame:
        return {"n": 0, "with_human_support": 0, "unanimous_human": [], "keys": []}
    off = frame[cell_mask(frame, rater, DISAGREE)]
    panel = off[column(rater, "binary")].to_numpy(int)
    humans = np.stack([binary(off[c]) for c in HUMAN_COLS], axis=1)
    supported = (humans == panel[:, None]).any(axis=1)
    return {"n": int(len(off)), "with_human_support": int(supported.sum()),
            "unanimous_human": off.loc[~supported, "key"].tolist(), "keys": off["key"].tolist()}


def recorded_mismatches(items: pd.DataFrame, frame: pd.DataFrame) -> list[str]:
    """Keys whose recorded human_correct differs from the recomputed 2-of-3 majority."""
    if "human_correct" not in items or items["human_correct"].isna().all():
        return []
    rec = items.set_index("key")["human_correct"]
    got = frame.set_index("key")["human_correct"]
    diff = rec.notna() & (rec.reindex(got.index) != got)
    return diff[diff].index.tolist()


def report(items: pd.DataFrame, judgements: pd.DataFrame, judge_gate=JUDGE_GATE,
           panel_gate=PANEL_GATE, resamples=cs.RESAMPLES, seed=stats.DEFAULT_SEED,
           exclude_ties: bool = False, qa: bool = False) -> dict:
    """Everything the page and `calibrate --json` show: judges keyed by judge_model, the panel
    under 'panel' (with its rule and n), and the definitions that shape them. exclude_ties
    drops three-way human ties from every judge and panel figure (human agreement keeps them).
    qa adds the slower judge-QA figures: the like-for-like human ceiling (each rater against each
    single human) and the label budget of every INCONCLUSIVE gate."""
    frame = build_frame(items, judgements)
    scored = frame[~frame["three_way_tie"]] if exclude_ties else frame
    rows = {r: rater_stats(scored, r, panel_gate if r == PANEL else judge_gate, resamples, seed,
                           budget=qa) for r in raters(frame)}
    defs = definitions(scored, len(_judges_of(frame)), frame["three_way_tie"].sum(),
                       exclude_ties)
    humans = cs.human_agreement(frame[list(HUMAN_COLS)], VERDICTS, resamples, seed)
    summary = disagreement_summary(scored)
    return {
        "n_items": int(len(frame)),
        "judges": {r.removeprefix(JUDGE_PREFIX): v for r, v in rows.items() if r != PANEL},
        "panel": {**rows[PANEL], **defs["panel"]} if PANEL in rows else None,
        "definitions": defs,
        "humans": {"fleiss_kappa": humans["fleiss_kappa"]["value"],
                   "fleiss_kappa_ci": humans["fleiss_kappa"]["ci"],
                   "fleiss_kappa_ci_undefined": humans["fleiss_kappa"]["ci_undefined"],
                   "krippendorff_alpha": humans["krippendorff_alpha"]["value"],
                   "krippendorff_alpha_ci": humans["krippendorff_alpha"]["ci"],
                   "krippendorff_alpha_ci_undefined": humans["krippendorff_alpha"]["ci_undefined"],
                   "ci_method": humans["ci_method"],
                   "pairwise_cohen_kappa": humans["pairwise"],
                   "three_way_ties": frame.loc[frame["three_way_tie"], "key"].tolist(),
                   "recorded_majority_mismatches": recorded_mismatches(items, frame)},
        "disagreements": summary["keys"],
        "disagreement_summary": summary,
        # The π intervals' method (the gates' statistic); the humans' κ and α intervals state
        # their own under "humans".
        "ci_method": pi_ci_method(rows),
        "pi_ci_method": pi_ci_method(rows),
        "ceiling": human_ceiling(scored, seed) if qa else None,
        "length_probe": {(rater_name(r) if r == PANEL else r.removeprefix(JUDGE_PREFIX)):
                         length_probes.length_probe(scored, column(r, "binary"))
                         for r in raters(frame)} if qa else None,
    }


def pi_ci_method(rows: dict) -> str:
    """The headline π interval's method (the panel's, else the first rater's), and the
    item-level one beside it when the headline is clustered."""
    if not rows:
        return "n/a"
    r = rows.get(PANEL) or next(iter(rows.values()))
    text = r["ci_method"]
    if r["clusters"]:
        text += (f" (headline; each rater's resamples and Monte Carlo error are in the JSON). "
                 f"Item-level, shown beside it: {r['ci_item_method']}")
    return text


def human_ceiling(frame: pd.DataFrame, seed=stats.DEFAULT_SEED) -> dict:
    """Each judge and the panel against each single human, and human against human, all binary
    (calibration/bias.py), keyed by display name (judge_model, 'panel', 'human 1'…)."""
    humans = {f"human {i}": binary(frame[c]).astype(float)
              for i, c in enumerate(HUMAN_COLS, start=1)}
    raters_ = {rater_name(r) if r == PANEL else r.removeprefix(JUDGE_PREFIX):
               frame[column(r, "binary")].to_numpy(float) for r in raters(frame)}
    clusters = cluster_ids(frame)
    out = bias_stats.human_ceiling(raters_, humans, seed=seed,
                                   clusters=None if clusters is None else clusters.to_numpy(),
                                   column=CLUSTER_COLUMN)
    out["sentence"] = bias_stats.ceiling_sentence(out)
    return out


def rater_reports(rep: dict) -> list[tuple[str, str, dict]]:
    """(rater id, display label, figures) for each judge, then the panel when defined."""
    n = len(rep["judges"])
    rows = [(judge_id(name), name, r) for name, r in rep["judges"].items()]
    return rows + ([(PANEL, panel_label(n), rep["panel"])] if rep["panel"] else [])


def summary_table(rep: dict) -> pd.DataFrame:
    """One display row per judge and the panel (display labels); undefined values 'n/a'."""
    return pd.DataFrame([{
        "Rater": label, "n": r["n"], "TP": r["tp"], "FP": r["fp"], "FN": r["fn"], "TN": r["tn"],
        "Agreement": fmt(r["agreement"]), "Scott's π (exact = decimal)": r["scotts_pi_shown"],
        "Cohen's κ": fmt(r["cohen_kappa"]), "π 95% CI": fmt_ci(r["ci"], r["ci_undefined"]),
        "π CI, item-level": fmt_ci(r["ci_item"], r["ci_item_undefined"]),
        "Gate": f"π ≥ {r['gate']:g}", "Verdict": r["verdict"],
        "CI vs gate": "INCONCLUSIVE" if r["inconclusive"] else "clear"}
        for _, label, r in rater_reports(rep)])


def fmt(x, digits: int = 4) -> str:
    return "n/a" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.{digits}f}"


def fmt_ci(ci, reason: str | None = None) -> str:
    """[low, high] to 3 decimals, or 'n/a (undefined because …)' when it has no endpoints."""
    return exact.undefined_text(reason) if ci[0] is None else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def _judges_in(listed: pd.DataFrame) -> list[str]:
    return [c.removeprefix("verdict__") for c in listed.columns if c.startswith("verdict__")]


def verdict_overview(listed: pd.DataFrame) -> pd.DataFrame:
    """One compact row per listed item: humans, human majority, each judge, the panel."""
    out = listed[[c for c in ("key", "split", "category") if c in listed]].copy()
    for i, col in enumerate(HUMAN_COLS, start=1):
        out[f"human {i}"] = listed[col]
    out["human majority"] = listed["human_correct"]
    for name in _judges_in(listed):
        out[name] = listed[f"verdict__{name}"]
    if column(PANEL, "binary") in listed:
        out["panel (binary)"] = listed[column(PANEL, "binary")].astype("Int64")
    return out


def item_verdicts(item: pd.Series) -> pd.DataFrame:
    """Every verdict on one item: the three humans, then each judge with its reason."""
    rows = [{"grader": f"human {i}", "verdict": item[c], "reason": NOT_RECORDED}
            for i, c in enumerate(HUMAN_COLS, start=1)]
    rows += [{"grader": n, "verdict": item[f"verdict__{n}"], "reason": item[f"reason__{n}"]}
             for n in _judges_in(item.to_frame().T)]
    return pd.DataFrame(rows)


def tie_items(frame: pd.DataFrame) -> pd.DataFrame:
    """Items whose three humans gave three different verdicts, with the binary majority."""
    cols = ["key", *(c for c in ("split", "category") if c in frame), *HUMAN_COLS,
            "human_correct"]
    return frame.loc[frame["three_way_tie"], cols].reset_index(drop=True)


def vote_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """Items by number of humans who said match (0–3) and the binary majority that follows."""
    counts = frame["human_votes"].value_counts().reindex(range(len(HUMAN_COLS) + 1), fill_value=0)
    return pd.DataFrame({"humans_saying_match": counts.index, "items": counts.to_numpy(),
                         "binary_majority": (counts.index * 2 > len(HUMAN_COLS)).astype(int)})


def pairwise_table(rep: dict) -> pd.DataFrame:
    """Human–human pairwise Cohen's κ (three-way verdicts) for display."""
    name = {c: f"human {i}" for i, c in enumerate(HUMAN_COLS, start=1)}
    return pd.DataFrame([{"Rater A": name.get(p["rater_a"], p["rater_a"]),
                          "Rater B": name.get(p["rater_b"], p["rater_b"]), "n": p["n"],
                          "Agreement": fmt(p["agreement"]), "Cohen's κ": fmt(p["cohen_kappa"]),
                          "κ 95% CI": fmt_ci(p["ci"], p.get("ci_undefined"))}
                         for p in rep["humans"]["pairwise_cohen_kappa"]])
