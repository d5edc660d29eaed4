"""Synthetic LocalGate judge-panel calibration (100 answers, 3 humans, 3 machine judges).

The published card's figures are the answer key and live only here (PUBLISHED):
per-judge Scott's pi vs the human 2-of-3 majority, the panel's confusion counts and
exact pi 1999/2499, one three-way human tie, the 8/2 split of the panel's ten
disagreements (one of them the "$605.92 vs $606" case) and the 75/7/18 question split.
Questions, responses and judge reasons are invented.
"""

from __future__ import annotations

import hashlib
import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from judgescope.demo.common import write_hub_dataset

FOLDER = "localgate_calibration"
SEED = 20260815  # the card's seeded draw; reused so the demo is reproducible

PUBLISHED = {
    "items": 100,
    "questions": 90,
    "judgements": 300,
    "judge_pi_4dp": {"ministral": 0.7999, "gptoss": 0.8599, "qwen": 0.7999},
    "panel_confusion": {"TP": 44, "TN": 46, "FP": 2, "FN": 8},
    "panel_pi": Fraction(1999, 2499),
    "panel_threshold": Fraction(4, 5),
    "three_way_ties": 1,
    "disagreements_with_human_support": 8,
    "unanimous_human_disagreements": 2,
    "splits": {"train": 75, "validation": 7, "test": 18},
    "prompts": "e2c597632659",
}

JUDGES = {
    "ministral": "bedrock:mistral.ministral-3-14b-instruct",
    "gptoss": "bedrock:openai.gpt-oss-120b-1:0",
    "qwen": "bedrock:qwen.qwen3-next-80b-a3b",
}
VERDICTS = ("match", "no_match", "no_answer")
HUMAN_COLS = ("human_1_verdict", "human_2_verdict", "human_3_verdict")
CATEGORIES = ("algebra", "calculus", "statistics", "probability", "geometry", "physics",
              "chemistry", "biology", "economics", "finance", "computer science",
              "astronomy", "history", "geography")


# ---------------------------------------------------------------- statistics

def scotts_pi(a, b) -> Fraction:
    """Scott's pi of two equally long label sequences, exact (pooled marginals)."""
    a, b = list(a), list(b)
    n = len(a)
    p_o = Fraction(sum(x == y for x, y in zip(a, b)), n)
    cats = set(a) | set(b)
    p_e = sum(Fraction(a.count(c) + b.count(c), 2 * n) ** 2 for c in cats)
    return (p_o - p_e) / (1 - p_e)


def confusion(pred, truth) -> dict[str, int]:
    pairs = list(zip(pred, truth))
    return {"TP": pairs.count((1, 1)), "TN": pairs.count((0, 0)),
            "FP": pairs.count((1, 0)), "FN": pairs.count((0, 1))}


# ------------------------------------------------------- vote-table search

def candidate_tables(target: float, pos: int, neg: int) -> list[tuple[int, int]]:
    """(judge-1 on human-1, judge-1 on human-0) counts whose pi rounds to target."""
    out = []
    for j11, j10 in itertools.product(range(pos + 1), range(neg + 1)):
        truth = [1] * pos + [0] * neg
        pred = [1] * j11 + [0] * (pos - j11) + [1] * j10 + [0] * (neg - j10)
        if round(float(scotts_pi(pred, truth)), 4) == target:
            out.append((j11, j10))
    return out


def _dissent(targets, agree_n, dissent_n):
    """Split each judge's deviation from the panel over the two panel groups of one
    human class. agree_n items where the panel is right, dissent_n where it is wrong;
    a judge at odds with the panel on an item is the only such judge there (2-of-3)."""
    sols = []
    for extra in itertools.product(range(dissent_n + 1), repeat=3):
        if sum(extra) > dissent_n:
            continue
        lost = tuple(e + agree_n - t for e, t in zip(extra, targets))
        if min(lost) >= 0 and sum(lost) <= agree_n:
            sols.append((lost, extra))
    return sols


def solve_votes(pc=PUBLISHED["panel_confusion"]):
    """Small exhaustive search: judge confusion tables with the published pi values
    that are also consistent with the panel's majority confusion counts."""
    pos, neg = pc["TP"] + pc["FN"], pc["TN"] + pc["FP"]
    tables = [candidate_tables(PUBLISHED["judge_pi_4dp"][j], pos, neg) for j in JUDGES]
    best = None
    for combo in itertools.product(*tables):
        s1 = _dissent([t[0] for t in combo], pc["TP"], pc["FN"])
        s0 = _dissent([neg - t[1] for t in combo], pc["TN"], pc["FP"])
        for (z_tp, y_fn), (z_tn, y_fp) in itertools.product(s1, s0):
            per_judge = [sum(v) for v in zip(z_tp, y_fn, z_tn, y_fp)]
            # Prefer realistic panels: every judge dissents sometimes, many split items.
            score = (min(per_judge), sum(per_judge))
            if best is None or score > best[0]:
                best = (score, {"TP": z_tp, "FN": y_fn, "TN": z_tn, "FP": y_fp})
    if best is None:
        raise RuntimeError("no vote table reproduces the published figures")
    return best[1]


def group_votes(panel: int, n: int, odd: tuple[int, int, int]) -> list[tuple[int, ...]]:
    """n vote triples whose majority is `panel`; odd[k] items have judge k dissenting."""
    rows = []
    for k, count in enumerate(odd):
        for _ in range(count):
            rows.append(tuple(1 - panel if j == k else panel for j in range(3)))
    rows += [(panel,) * 3] * (n - len(rows))
    return rows


# ------------------------------------------------------------ question bank

FACTS = {
    "biology": [
        ("How many chromosomes does a typical human somatic cell contain?", "46", "23"),
        ("Which organelle is the main site of aerobic respiration?", "the mitochondrion", "the ribosome"),
        ("What fraction of offspring of two Aa parents is expected to be aa?", "1/4", "1/2"),
        ("Which molecule carries amino acids to the ribosome?", "tRNA", "mRNA"),
        ("What is the name of the pigment that absorbs light in photosynthesis?", "chlorophyll", "carotene"),
        ("Which blood cells are primarily responsible for oxygen transport?", "red blood cells", "platelets"),
        ("How many ATP are consumed in the investment phase of glycolysis?", "2", "4"),
        ("Which base pairs with adenine in DNA?", "thymine", "uracil"),
    ],
    "history": [
        ("In what year did the Berlin Wall fall?", "1989", "1991"),
        ("In which year was the Magna Carta sealed?", "1215", "1265"),
        ("Who was the first Roman emperor?", "Augustus", "Julius Caesar"),
        ("In what year did the storming of the Bastille take place?", "1789", "1793"),
        ("Which treaty ended the Thirty Years' War?", "the Peace of Westphalia", "the Treaty of Utrecht"),
        ("In what year did Constantinople fall to the Ottomans?", "1453", "1492"),
        ("Which empire built the road network known as the Qhapaq Nan?", "the Inca Empire", "the Aztec Empire"),
        ("In what year did the First World War end?", "1918", "1919"),
    ],
    "geography": [
        ("What is the capital of Australia?", "Canberra", "Sydney"),
        ("What is the capital of Canada?", "Ottawa", "Toronto"),
        ("Which river flows through Baghdad?", "the Tigris", "the Euphrates"),
        ("What is the longest river in Europe?", "the Volga", "the Danube"),
        ("What is the capital of Kazakhstan?", "Astana", "Almaty"),
        ("Which ocean lies to the east of Madagascar?", "the Indian Ocean", "the Atlantic Ocean"),
        ("What is the highest mountain in Africa?", "Kilimanjaro", "Mount Kenya"),
        ("What is the capital of New Zealand?", "Wellington", "Auckland"),
    ],
    "chemistry": [
        ("What is the molar mass of water in g/mol, to one decimal place?", "18.0", "16.0"),
        ("What is the molar mass of carbon dioxide in g/mol, to one decimal place?", "44.0", "28.0"),
        ("What is the molar mass of sodium chloride in g/mol, to one decimal place?", "58.4", "35.5"),
        ("What is the molar mass of methane in g/mol, to one decimal place?", "16.0", "14.0"),
        ("What is the molar mass of glucose in g/mol, to one decimal place?", "180.2", "168.1"),
        ("What is the pH of a 0.01 M HCl solution?", "2", "1"),
        ("What is the oxidation state of manganese in KMnO4?", "+7", "+6"),
        ("How many valence electrons does a nitrogen atom have?", "5", "3"),
    ],
}


def _numeric(category: str, r: np.random.Generator) -> tuple[str, str, str]:
    """A parameterised computational question: (question, reference, wrong answer)."""
    a, b, c = (int(x) for x in r.integers(2, 13, size=3))
    if category == "algebra":
        return f"Solve for x: {a}x + {b} = {a * c + b}.", f"x = {c}", f"x = {c + 1}"
    if category == "calculus":
        return (f"What is the derivative of {a}x^3 evaluated at x = {c}?",
                str(3 * a * c * c), str(a * c * c))
    if category == "statistics":
        vals = [a, b, c, a + b, b + c]
        vals[-1] += (-sum(vals)) % 5  # keep the mean an integer
        return (f"What is the mean of {', '.join(map(str, vals))}?",
                str(sum(vals) // 5), str(sorted(vals)[2]))
    if category == "probability":
        s = int(r.integers(3, 12))
        ways = 6 - abs(7 - s)
        return (f"Two fair dice are rolled. What is the probability that the sum is {s}?",
                f"{ways}/36", f"{ways + 1}/36")
    if category == "geometry":
        return (f"What is the area of a triangle with base {2 * a} cm and height {b} cm?",
                f"{a * b} cm^2", f"{2 * a * b} cm^2")
    if category == "physics":
        return (f"A cart starts from rest and accelerates at {a} m/s^2 for {2 * b} s. "
                "How far does it travel?", f"{2 * a * b * b} m", f"{4 * a * b * b} m")
    if category == "economics":
        e = a / 10
        return (f"Demand has price elasticity -{e:.1f}. If the price rises by {b}%, by how "
                "many percent does quantity demanded fall?", f"{e * b:.1f}%", f"{b / e:.1f}%")
    if category == "finance":
        p, rate = 100 * a, b / 2
        value = p * (1 + rate / 100) ** 3
        return (f"A deposit of ${p} earns {rate:g}% interest compounded annually. What is "
                "the balance after 3 years, to the nearest dollar?",
                f"${value:.0f}", f"${p * (1 + 3 * rate / 100) + 7:.0f}")
    if category == "computer science":
        n = int(r.integers(20, 1000))
        bits = int(np.ceil(np.log2(n)))
        return (f"How many bits are needed to give {n} items distinct binary codes?",
                str(bits), str(bits + 1))
    # astronomy: Kepler's third law in solar units
    au = round(float(r.uniform(1.5, 12.0)), 1)
    return (f"A planet orbits a Sun-like star at {au} AU. What is its orbital period in "
            "years, to one decimal place?", f"{au ** 1.5:.1f}", f"{au ** 2:.1f}")


# The $606 case of the card: a 1%-tolerance answer the panel nevertheless rejected.
CASE_606 = ("A deposit of $560 earns 2% interest compounded annually. What is the balance "
            "after 4 years, to the nearest dollar?", "$606", "$605.92")


def make_questions(r: np.random.Generator, n: int) -> list[dict]:
    """n distinct questions, round-robin over categories; the first is the $606 case."""
    out = [{"category": "finance", "question": CASE_606[0], "reference": CASE_606[1],
            "wrong": "$612", "near": CASE_606[2]}]
    seen = {CASE_606[0]}
    fact_pos = {k: 0 for k in FACTS}
    i = 1
    while len(out) < n:
        cat = CATEGORIES[i % len(CATEGORIES)]
        if cat in FACTS:
            q, ref, wrong = FACTS[cat][fact_pos[cat] % len(FACTS[cat])]
            fact_pos[cat] += 1
        else:
            q, ref, wrong = _numeric(cat, r)
        i += 1
        if q not in seen:
            seen.add(q)
            out.append({"category": cat, "question": q, "reference": ref,
                        "wrong": wrong, "near": None})
    return out


# ------------------------------------------------------------ label slots

M, NM, NA = VERDICTS
# (panel group, human verdicts, response kind, count). Disagreement groups FN/FP hold
# the card's structure: one unanimous FN ($606), one unanimous FP, the rest split, and
# the only three-way human tie sits in FP (one human on the panel's side).
HUMAN_PLAN = [
    ("FN", (M, M, M), "near606", 1),
    ("FN", (M, M, NM), "near", 4),
    ("FN", (M, M, NA), "hedged", 3),
    ("FP", (M, NM, NA), "tie", 1),
    ("FP", (NM, NM, NM), "wrong", 1),
    ("TP", (M, M, NM), "near", 3),
    ("TP", (M, M, NA), "hedged", 3),
    ("TP", (M, M, M), "correct", 38),
    ("TN", (M, NM, NM), "near", 3),
    ("TN", (M, NA, NA), "hedged", 3),
    ("TN", (NM, NM, NA), "hedged_wrong", 4),
    ("TN", (NA, NA, NA), "evasive", 6),
    ("TN", (NM, NM, NM), "wrong", 30),
]
PANEL_OF = {"TP": 1, "FP": 1, "TN": 0, "FN": 0}


def label_slots(r: np.random.Generator) -> list[dict]:
    """100 label slots; judge dissent goes to human-split items first (they are the
    genuinely ambiguous ones), and the human verdict order is shuffled per item."""
    odd = solve_votes()
    pc = PUBLISHED["panel_confusion"]
    slots = []
    for group in ("FN", "FP", "TP", "TN"):
        plan = [(h, k) for g, h, k, n in HUMAN_PLAN if g == group for _ in range(n)]
        assert len(plan) == pc[group], group
        votes = group_votes(PANEL_OF[group], pc[group], odd[group])
        for (humans, kind), vote in zip(plan, votes):
            order = r.permutation(3) if kind != "near606" else np.arange(3)
            slots.append({"humans": tuple(humans[i] for i in order), "kind": kind,
                          "votes": vote})
    return slots


def item_layout(r: np.random.Generator, n_questions: int) -> list[tuple[int, int, str]]:
    """(question index, rep, split) for 100 answers: 10 questions have two attempts;
    whole questions go to one split so the answers come to 75 / 7 / 18."""
    order = [int(i) for i in r.permutation(np.arange(1, n_questions))]
    doubles, singles = order[:10], [0] + order[10:]  # question 0 ($606) has one answer
    split_of = {q: "validation" for q in singles[1:8]}
    split_of.update({q: "test" for q in singles[8:22] + doubles[:2]})
    items = []
    for q in range(n_questions):
        reps = sorted(int(x) for x in r.choice(5, size=2 if q in doubles else 1,
                                               replace=False))
        items += [(q, rep, split_of.get(q, "train")) for rep in reps]
    return items


# ------------------------------------------------------------ texts

def core_answer(kind: str, q: dict) -> str:
    """The answer-bearing sentence; its kind is what the human verdicts reflect."""
    ref, wrong = q["reference"], q["wrong"]
    return {
        "correct": f"The answer is {ref}.",
        "wrong": f"The answer is {wrong}.",
        "near606": f"The balance is about {q['near']}.",
        "near": f"The answer is {ref}, although a second pass gives {wrong}.",
        "hedged": f"It is either {ref} or {wrong}; I lean towards {ref}.",
        "hedged_wrong": f"Possibly {wrong}, but I am not certain.",
        "tie": f"It could be {ref}, or perhaps {wrong}; the question does not settle it.",
        "evasive": "I cannot determine this without more information.",
    }[kind]


def model_response(kind: str, style: str, q: dict) -> str:
    """Short, long, list-style or ordinary response around the core answer."""
    core = core_answer(kind, q)
    if style == "short":
        return core.removeprefix("The answer is ").removeprefix("The balance is about ")
    if style == "list":
        return (f"1. Identify what the question asks.\n2. Apply the relevant "
                f"{q['category']} principle.\n3. {core}")
    if style == "long":
        return (f"Let us restate the problem: {q['question']} The key is to recall the "
                f"standard approach in {q['category']} and apply it carefully, checking "
                "units and rounding at each step. Working through the intermediate "
                f"quantities and comparing them with typical textbook values, {core[0].lower()}"
                f"{core[1:]} This is consistent with the usual conventions of the field.")
    return f"Working through the problem step by step. {core}"


REASONS = {
    "match": ("The response's final answer agrees with the reference ({ref}).",
              "Final answer is equivalent to the reference answer {ref}.",
              "The committed answer matches {ref} within the rubric's tolerance."),
    "no_match": ("The response's final answer differs from the reference ({ref}).",
                 "The committed answer does not match the reference {ref}.",
                 "The response contradicts the reference answer {ref}."),
    "no_answer": ("The response does not commit to a single final answer.",
                  "No final answer is given.",
                  "The response hedges between options without committing."),
}


def judge_verdict(binary: int, kind: str, r: np.random.Generator) -> tuple[str, str]:
    """Three-way verdict consistent with the binary vote, plus a reason template."""
    if binary:
        verdict = M
    elif kind in ("evasive", "tie") or (kind.startswith("hedged") and r.random() < 0.5):
        verdict = NA
    else:
        verdict = NM
    if kind == "near606" and verdict == NM:
        return verdict, "The response states $605.92, which is not the reference value {ref}."
    return verdict, REASONS[verdict][int(r.integers(3))]


# ------------------------------------------------------------ tables

def majority(bits) -> int:
    return int(sum(bits) >= 2)


def build_rows(seed: int = SEED) -> tuple[list[dict], list[dict]]:
    """Item rows and judgement rows (three per item, judges in a fixed order)."""
    r = np.random.default_rng(seed)
    questions = make_questions(r, PUBLISHED["questions"])
    slots = label_slots(r)
    items = item_layout(r, len(questions))
    slot_of = [0] + [int(i) + 1 for i in r.permutation(len(items) - 1)]
    styles = r.permutation(["short"] * 15 + ["long"] * 10 + ["list"] * 5 + ["plain"] * 70)
    qids = [hashlib.sha256(f"localgate:{q['question']}".encode()).hexdigest()[:12]
            for q in questions]
    item_rows, judge_rows = [], []
    for (qi, rep, split), si, style in zip(items, slot_of, styles):
        q, slot = questions[qi], slots[si]
        key = f"{qids[qi]}:{rep}"
        base = {"key": key, "question_id": qids[qi], "rep": rep}
        # The card quotes the $606 case as a full sentence, so keep it plain.
        style = "plain" if slot["kind"] == "near606" else str(style)
        response = model_response(slot["kind"], style, q)
        item_rows.append(base | {
            "question": q["question"], "reference_answer": q["reference"],
            "model_response": response,
            **dict(zip(HUMAN_COLS, slot["humans"])),
            "human_correct": majority([h == M for h in slot["humans"]]),
            "panel_correct": majority(slot["votes"]),
            "split": split, "category": q["category"]})
        n_in = 410 + len(q["question"] + q["reference"] + response) // 4
        for (alias, spec), vote in zip(JUDGES.items(), slot["votes"]):
            judge_rows.append(base | judgement(alias, spec, vote, slot["kind"], q, n_in, r))
    return item_rows, judge_rows


def judgement(alias, spec, vote, kind, q, n_in, r) -> dict:
    verdict, reason = judge_verdict(vote, kind, r)
    # GPT-OSS spends output tokens on (low-effort) reasoning; all capped at 400.
    lo, hi = (140, 400) if alias == "gptoss" else (35, 110)
    return {"judge": spec, "judge_model": alias, "verdict": verdict,
            "verdict_binary": int(verdict == M),
            "reason": reason.format(ref=q["reference"]),
            "tokens_in": n_in + int(r.integers(0, 25)), "tokens_out": int(r.integers(lo, hi)),
            "finish_reason": None, "prompts": PUBLISHED["prompts"], "template": None,
            "output_mode": "prompted JSON",
            "reasoning_effort": "low" if alias == "gptoss" else None}


S, INT64 = pa.string(), pa.int64()
ITEM_SCHEMA = pa.schema([("key", S), ("question_id", S), ("rep", INT64), ("question", S),
                         ("reference_answer", S), ("model_response", S),
                         *[(c, S) for c in HUMAN_COLS], ("human_correct", INT64),
                         ("panel_correct", INT64), ("split", S), ("category", S)])
JUDGE_SCHEMA = pa.schema([("key", S), ("question_id", S), ("rep", INT64), ("judge", S),
                          ("judge_model", S), ("verdict", S), ("verdict_binary", INT64),
                          ("reason", S), ("tokens_in", INT64), ("tokens_out", INT64),
                          ("finish_reason", S), ("prompts", S), ("template", S),
                          ("output_mode", S), ("reasoning_effort", S)])

DESCRIPTION = """
Human calibration stage of the LocalGate audit: 100 answer keys from 90 questions,
three human verdicts per answer (`calibration_items`) and 300 machine verdicts from the
three-judge Bedrock panel (`calibration`). `key` is `question_id:rep`; join on it.

Scott's pi against the human 2-of-3 majority: Ministral 0.7999, GPT-OSS 0.8599,
Qwen 0.7999; the three-judge majority reaches exactly 1999/2499 = 0.79992, below the
0.80 panel gate (TP 44, TN 46, FP 2, FN 8). Splits: 75 train / 7 validation / 18 test.
"""


def generate(out_root: Path) -> dict:
    """Write out_root/localgate_calibration/ and verify it against the card."""
    item_rows, judge_rows = build_rows()
    items = pa.Table.from_pylist(sorted(item_rows, key=lambda d: d["key"]), ITEM_SCHEMA)
    judge_rows.sort(key=lambda d: (d["key"], d["judge_model"]))
    judgements = pa.Table.from_pylist(judge_rows, JUDGE_SCHEMA)
    folder = Path(out_root) / FOLDER
    files = write_hub_dataset(folder, "LocalGate judge-panel calibration", DESCRIPTION, {
        "calibration_items": {"train": items}, "calibration": {"train": judgements}})
    check(out_root)
    return {"folder": str(folder), "files": [str(p) for p in files],
            "rows": {"calibration_items": items.num_rows, "calibration": judgements.num_rows}}


# ------------------------------------------------------------ check

def _expect(ok, message: str) -> None:
    # Explicit raise rather than `assert`, so checks survive python -O.
    if not ok:
        raise AssertionError(f"localgate demo drifted from the card: {message}")


def load(out_root: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    data = Path(out_root) / FOLDER / "data"
    return (pd.read_parquet(data / "calibration_items-train.parquet"),
            pd.read_parquet(data / "calibration-train.parquet"))


def _check_items(items: pd.DataFrame) -> None:
    _expect(len(items) == PUBLISHED["items"], f"{len(items)} items, expected 100")
    _expect(items["key"].is_unique, "item keys are not unique")
    _expect((items["key"] == items["question_id"] + ":" + items["rep"].astype(str)).all(),
            "key is not question_id:rep")
    _expect(items["rep"].between(0, 4).all(), "rep outside 0-4")
    _expect(items["question_id"].nunique() == PUBLISHED["questions"], "not 90 questions")
    humans = items[list(HUMAN_COLS)]
    _expect(humans.isin(VERDICTS).all().all(), "unknown human verdict")
    votes = (humans == M).sum(axis=1)
    _expect((items["human_correct"] == (votes >= 2).astype(int)).all(),
            "human_correct is not the 2-of-3 match majority")
    ties = (humans.nunique(axis=1) == 3).sum()
    _expect(ties == PUBLISHED["three_way_ties"], f"{ties} three-way human ties, expected 1")
    counts = items["split"].value_counts().to_dict()
    _expect(counts == PUBLISHED["splits"], f"split counts {counts}")
    _expect((items.groupby("question_id")["split"].nunique() == 1).all(),
            "a question spans several splits")


def _check_judgements(items: pd.DataFrame, judg: pd.DataFrame) -> pd.DataFrame:
    _expect(len(judg) == PUBLISHED["judgements"], f"{len(judg)} judgements, expected 300")
    _expect(not judg.duplicated(["key", "judge"]).any(), "(key, judge) not unique")
    _expect((judg["judge"] == judg["judge_model"].map(JUDGES)).all(), "judge/alias mismatch")
    _expect(judg["verdict"].isin(VERDICTS).all(), "unknown machine verdict")
    _expect((judg["verdict_binary"] == (judg["verdict"] == M).astype(int)).all(),
            "verdict_binary disagrees with verdict")
    _expect((judg["prompts"] == PUBLISHED["prompts"]).all(), "prompts fingerprint changed")
    _expect(judg["finish_reason"].isna().all() and judg["template"].isna().all(),
            "finish_reason/template should be null")
    _expect((judg["output_mode"] == "prompted JSON").all(), "output_mode changed")
    effort = judg["reasoning_effort"].fillna("null")
    _expect((effort == np.where(judg["judge_model"] == "gptoss", "low", "null")).all(),
            "reasoning_effort should be low for GPT-OSS only")
    wide = judg.pivot(index="key", columns="judge_model", values="verdict_binary")
    _expect(set(wide.index) == set(items["key"]) and not wide.isna().any().any(),
            "every item needs exactly one verdict per judge")
    return wide.loc[items["key"]].reset_index(drop=True)


def _check_agreement(items: pd.DataFrame, wide: pd.DataFrame) -> None:
    human = items["human_correct"].tolist()
    for alias, target in PUBLISHED["judge_pi_4dp"].items():
        pi = round(float(scotts_pi(wide[alias].tolist(), human)), 4)
        _expect(pi == target, f"{alias} pi {pi} != published {target}")
    panel = (wide.sum(axis=1) >= 2).astype(int)
    _expect((items["panel_correct"] == panel).all(), "panel_correct is not the judge majority")
    conf = confusion(panel.tolist(), human)
    _expect(conf == PUBLISHED["panel_confusion"], f"panel confusion {conf}")
    pi = scotts_pi(panel.tolist(), human)
    _expect(pi == PUBLISHED["panel_pi"], f"panel pi {pi} != 1999/2499")
    _expect(pi < PUBLISHED["panel_threshold"], "panel should fail the 0.80 gate")


def _check_disagreements(items: pd.DataFrame) -> None:
    off = items[items["panel_correct"] != items["human_correct"]]
    panel_side = np.where(off["panel_correct"] == 1, M, "other")
    humans = off[list(HUMAN_COLS)].to_numpy()
    on_side = [(h == M).any() if p == M else (h != M).any()
               for h, p in zip(humans, panel_side)]
    supported = int(sum(on_side))
    _expect(supported == PUBLISHED["disagreements_with_human_support"],
            f"{supported} disagreements with a human on the panel's side, expected 8")
    unanimous = len(off) - supported
    _expect(unanimous == PUBLISHED["unanimous_human_disagreements"],
            f"{unanimous} unanimous-human disagreements, expected 2")
    case = off[(off["reference_answer"] == "$606")
               & off["model_response"].str.contains("$605.92", regex=False)]
    _expect(len(case) == 1 and (case[list(HUMAN_COLS)] == M).all(axis=None)
            and case["panel_correct"].iloc[0] == 0,
            "the $605.92 vs $606 case (humans match, panel no_match) is missing")


def check(out_root: Path) -> None:
    """Re-read the Parquet and raise AssertionError if a published figure drifted."""
    items, judg = load(out_root)
    _check_items(items)
    wide = _check_judgements(items, judg)
    _check_agreement(items, wide)
    _check_disagreements(items)


if __name__ == "__main__":  # pragma: no cover - convenience entry point
    import sys
    print(generate(Path(sys.argv[1] if len(sys.argv) > 1 else "data/demo")))
