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
import re
import zlib
from pathlib import Path

import numpy as np
import pyarrow as pa
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
# Bands: <60, 60-79, 80-89, >=90 (the card's thresholds).
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


def _support(unit: str) -> np.ndarray:
    """Scores the judge plausibly gives: its habitual values plus every integer from 84 up."""
    allowed = SCORES >= 84
    for band in BAND_PMF[unit]:
        allowed[list(band)] = True
    return allowed


def _solve_close(prior: np.ndarray, rows: list, lower: list, upper: list,
                 allowed: np.ndarray) -> np.ndarray:
    """min sum |x - prior| subject to lower <= rows @ x <= upper, x integer >= 0.

    `prior` is (groups, 101); `rows` are sparse rows over the flattened counts x;
    scores outside `allowed` are pinned to zero (this also keeps the program small)."""
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
    upper_x = np.concatenate([np.tile(np.where(allowed, np.inf, 0), prior.shape[0]),
                              np.full(k, np.inf)])
    integrality = np.concatenate([np.ones(k), np.zeros(k)])
    res = milp(cost, constraints=constraints, integrality=integrality,
               bounds=Bounds(0, upper_x), options={"mip_rel_gap": 0.2, "disp": False})
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
    return _solve_close(prior, rows + extra, lower + lo, upper + hi, _support(unit))


# V1 was weaker on paragraphs; shares of rows per band (<60, 60-79, 80-89, >=90).
V1_BAND_SHARE = {"paragraph": [0.02, 0.085, 0.15, 0.745], "question": [0.02, 0.03, 0.10, 0.85],
                 "answer": [0.035, 0.01, 0.03, 0.925]}


def v1_unit_sums() -> dict[str, int]:
    """Pick unit totals printing the V1 3-dp means whose sum prints the V1 weighted overall."""
    options = {u: printed_sums(s["n"], s["mean"], 3) for u, s in V1_UNITS.items()}
    total_n = sum(s["n"] for s in V1_UNITS.values())
    for p in options["paragraph"]:
        for q in options["question"]:
            for a in options["answer"]:
                if f"{(p + q + a) / total_n:.3f}" == V1_OVERALL:
                    return {"paragraph": p, "question": q, "answer": a}
    raise AssertionError("no V1 unit sums reproduce the weighted overall")


def solve_v1_counts(rng, unit: str, total: int) -> np.ndarray:
    """Counts[score] for one V1 unit (no per-language table was published for V1)."""
    spec = V1_UNITS[unit]
    bands = rng.multinomial(spec["n"], V1_BAND_SHARE[unit])
    prior = sum(rng.multinomial(bands[b], _band_pmf(unit, b)) for b in range(4))[None, :]
    rows = [_row(1, {0: np.ones(101)}), _row(1, {0: SCORES.astype(float)})]
    extra, lo, hi = _unit_rows(1, spec, total)
    return _solve_close(prior, rows + extra, [spec["n"], total] + lo, [spec["n"], total] + hi,
                        _support(unit))[0]


# --------------------------------------------------------------------------------------
# Invented texts: English HotpotQA-like sources and right-script candidates.
# --------------------------------------------------------------------------------------
PEOPLE = ["Marie Curie", "Ernest Hemingway", "Akira Kurosawa", "Frida Kahlo", "Nelson Mandela",
          "Ada Lovelace", "Ingrid Bergman", "Satyajit Ray", "Chinua Achebe", "Greta Garbo",
          "Orhan Pamuk", "Miles Davis", "Astrid Lindgren", "Alan Turing", "Toni Morrison",
          "Federico Fellini", "Haruki Murakami", "Naguib Mahfouz", "Pablo Neruda", "Maria Callas",
          "Bob Marley", "Agatha Christie", "Jorge Luis Borges", "Yuri Gagarin", "Amelia Earhart",
          "Leonard Cohen", "Wangari Maathai", "Edith Piaf", "Ravi Shankar", "Umm Kulthum"]
PLACES = ["Lisbon", "Kyoto", "Nairobi", "Krakow", "Alexandria", "Manchester", "Seville", "Bergen",
          "Chennai", "Oaxaca", "Tbilisi", "Adelaide", "Porto", "Izmir", "Dhaka", "Busan", "Lagos",
          "Bologna", "Utrecht", "Hanoi", "Tabriz", "Lahore", "Chiang Mai", "Thessaloniki",
          "Surabaya", "Mombasa", "Gothenburg", "Cordoba", "Montreal", "Valencia"]
WORKS = ["The Old Man and the Sea", "Rashomon", "Things Fall Apart", "Pippi Longstocking",
         "Norwegian Wood", "Palace Walk", "Pather Panchali", "Kind of Blue", "Beloved",
         "La Strada", "Snow", "Murder on the Orient Express", "Ficciones", "Exodus", "Suzanne",
         "Canto General", "Seven Samurai", "The Red Notebook", "Harbor Lights", "Blue Meridian"]
ORGS = ["Royal Society of Arts", "Nordic Film Institute", "Pan-African Writers Union",
        "Eastern Railway Company", "Harbor City Symphony", "Meridian Press"]
RIVERS = ["Tagus", "Kamo", "Nile", "Vistula", "Mersey", "Mekong", "Danube", "Ganges", "Douro"]
AWARDS = ["Nobel Prize in Literature", "Golden Lion", "Palme d'Or", "Booker Prize", "Pulitzer Prize"]
PROFESSIONS = ["novelist", "film director", "composer", "architect", "painter", "physicist",
               "poet", "singer", "journalist", "aviator"]
NATIONALITIES = ["American", "British", "French", "Japanese", "Brazilian", "Indian", "Egyptian",
                 "Swedish", "Kenyan", "Turkish"]

LATIN_LANGS = {"de", "es", "fr", "id", "it", "nl", "pl", "pt", "sv", "sw", "tr", "vi"}

# Everyday words per language (a crude lexicon: candidates need the right script, not grammar).
LEXICON = {
    "ar": "كان مدينة ولد في عام فيلم كاتب معروف نهر جامعة الذي أصبح أول رواية مشهور بعد حيث تأسست",
    "bn": "ছিলেন শহর জন্মগ্রহণ সালে চলচ্চিত্র লেখক পরিচিত নদী বিশ্ববিদ্যালয় যিনি প্রথম উপন্যাস বিখ্যাত পরে এবং প্রতিষ্ঠিত",
    "de": "war ein Stadt geboren im Jahr Film Schriftsteller bekannt Fluss Universität der die wurde erste Roman berühmt nach und gegründet",
    "el": "ήταν πόλη γεννήθηκε στο έτος ταινία συγγραφέας γνωστός ποταμός πανεπιστήμιο ο η έγινε πρώτο μυθιστόρημα διάσημος μετά και ιδρύθηκε",
    "es": "fue una ciudad nació en año película escritor conocido río universidad que el la primera novela famoso después y fundada",
    "fa": "بود شهر متولد در سال فیلم نویسنده شناخته رودخانه دانشگاه که شد اولین رمان مشهور پس و تأسیس",
    "fr": "était une ville né en année film écrivain connu fleuve université qui le la première roman célèbre après et fondée",
    "hi": "था शहर जन्म में वर्ष फ़िल्म लेखक प्रसिद्ध नदी विश्वविद्यालय जो बना पहला उपन्यास बाद और स्थापित की",
    "id": "adalah sebuah kota lahir di tahun film penulis dikenal sungai universitas yang menjadi pertama novel terkenal setelah dan didirikan",
    "it": "era una città nato nel anno film scrittore noto fiume università che il la primo romanzo famoso dopo e fondata",
    "ja": "は 市 で 生まれ 年 映画 作家 知られる 川 大学 最初 小説 有名 後 と 設立 された の",
    "ko": "은 도시 에서 태어났다 년 영화 작가 알려진 강 대학교 최초의 소설 유명한 이후 그리고 설립된 는 의",
    "nl": "was een stad geboren in jaar film schrijver bekend rivier universiteit die de het eerste roman beroemd na en opgericht",
    "pl": "był miasto urodził się w roku film pisarz znany rzeka uniwersytet który został pierwszy powieść sławny po i założony",
    "pt": "foi uma cidade nasceu em ano filme escritor conhecido rio universidade que o a primeiro romance famoso depois e fundada",
    "ru": "был город родился в году фильм писатель известен река университет который стал первый роман знаменитый после и основан",
    "sv": "var en stad född i året film författare känd flod universitet som blev första roman berömd efter och grundad",
    "sw": "alikuwa mji alizaliwa katika mwaka filamu mwandishi anajulikana mto chuo kikuu ambaye wa kwanza riwaya maarufu baada ya na ilianzishwa",
    "th": "เป็น เมือง เกิด ที่ ปี ภาพยนตร์ นักเขียน มีชื่อเสียง แม่น้ำ มหาวิทยาลัย ซึ่ง กลายเป็น แรก นวนิยาย หลังจาก และ ก่อตั้ง ของ",
    "tr": "idi bir şehir doğdu yılında film yazar tanınan nehir üniversite olan oldu ilk roman ünlü sonra ve kurulan",
    "ur": "تھا شہر پیدا میں سال فلم مصنف مشہور دریا یونیورسٹی جو بنا پہلا ناول بعد اور قائم کی",
    "vi": "là một thành_phố sinh_ra tại năm bộ_phim nhà_văn nổi_tiếng sông đại_học người trở_thành đầu_tiên tiểu_thuyết sau_khi và thành_lập",
    "zh": "是 城市 出生 于 年 电影 作家 著名 河流 大学 的 成为 第一 小说 之后 和 创立 在",
}
YES_NO = {"ar": ("نعم", "لا"), "bn": ("হ্যাঁ", "না"), "de": ("Ja", "Nein"), "el": ("Ναι", "Όχι"),
          "es": ("Sí", "No"), "fa": ("بله", "خیر"), "fr": ("Oui", "Non"), "hi": ("हाँ", "नहीं"),
          "id": ("Ya", "Tidak"), "it": ("Sì", "No"), "ja": ("はい", "いいえ"), "ko": ("예", "아니요"),
          "nl": ("Ja", "Nee"), "pl": ("Tak", "Nie"), "pt": ("Sim", "Não"), "ru": ("Да", "Нет"),
          "sv": ("Ja", "Nej"), "sw": ("Ndiyo", "Hapana"), "th": ("ใช่", "ไม่ใช่"), "tr": ("Evet", "Hayır"),
          "ur": ("ہاں", "نہیں"), "vi": ("Có", "Không"), "zh": ("是", "否")}
FULL_STOP = {"ja": "。", "zh": "。", "hi": "।", "bn": "।", "ur": "۔"}
QUESTION_MARK = {"ar": "؟", "fa": "؟", "ur": "؟", "el": ";", "ja": "？", "zh": "？"}

# Letter maps for alphabetic scripts, syllable inventories for the others.
_LETTERS = {
    "el": dict(zip("abcdefghijklmnopqrstuvwxyz",
                   ["α", "μπ", "κ", "δ", "ε", "φ", "γ", "", "ι", "τζ", "κ", "λ", "μ", "ν", "ο", "π",
                    "κ", "ρ", "σ", "τ", "ου", "β", "ου", "ξ", "ι", "ζ"])),
    "ru": dict(zip("abcdefghijklmnopqrstuvwxyz",
                   ["а", "б", "к", "д", "е", "ф", "г", "х", "и", "дж", "к", "л", "м", "н", "о", "п",
                    "к", "р", "с", "т", "у", "в", "у", "кс", "и", "з"])),
    "ar": dict(zip("abcdefghijklmnopqrstuvwxyz",
                   ["ا", "ب", "ك", "د", "ي", "ف", "غ", "ه", "ي", "ج", "ك", "ل", "م", "ن", "و", "ب",
                    "ق", "ر", "س", "ت", "و", "ف", "و", "كس", "ي", "ز"])),
    "fa": dict(zip("abcdefghijklmnopqrstuvwxyz",
                   ["ا", "ب", "ک", "د", "ی", "ف", "گ", "ه", "ی", "ج", "ک", "ل", "م", "ن", "و", "پ",
                    "ق", "ر", "س", "ت", "و", "و", "و", "کس", "ی", "ز"])),
    "ur": dict(zip("abcdefghijklmnopqrstuvwxyz",
                   ["ا", "ب", "ک", "ڈ", "ے", "ف", "گ", "ہ", "ی", "ج", "ک", "ل", "م", "ن", "و", "پ",
                    "ق", "ر", "س", "ٹ", "و", "و", "و", "کس", "ی", "ز"])),
}
_SYLLABLES = {
    "hi": "का की रा मा ना ली सं दे रो टा बा वि शि ला गो प ज न र म",
    "bn": "কা কি রা মা না লি সন দে রো টা বা ভি শি লা গো প জ ন র ম",
    "th": "กา รี มา นา ลี สัน เด โร ตา บา วิ ชิ ลา โก ปา จา นิ รา มี ตัน",
    "ja": "カ リ マ ナ ル サ デ ロ タ バ ビ シ ラ ゴ パ ジャ ニ ー ミ ン",
    "ko": "카 리 마 나 루 산 데 로 타 바 비 시 라 고 파 자 니 미 은 스",
    "zh": "卡 里 马 纳 鲁 桑 德 罗 塔 巴 维 斯 拉 戈 帕 贾 尼 米 恩 克",
}
_NAME_JOIN = {"ja": "・", "zh": "·"}


def _pick(seq, key: str):
    """Deterministic choice keyed by a string (so a source renders the same in every run)."""
    return seq[zlib.crc32(key.encode("utf-8")) % len(seq)]


def render_name(lang: str, name: str) -> str:
    """A transliteration-looking rendering of a Latin name in the language's script."""
    if lang in LATIN_LANGS:
        return name
    words = []
    for word in name.split():
        low = "".join(ch for ch in word.lower() if ch.isalpha())
        if lang in _LETTERS:
            out = "".join(_LETTERS[lang].get(ch, "") for ch in low)
            out = out.capitalize()
            words.append(out[:-1] + "ς" if lang == "el" and out.endswith("σ") else out)
        else:
            chunks = [c for c in re.findall(r"[^aeiou]*[aeiou]+|[^aeiou]+$", low) if c]
            words.append("".join(_pick(_SYLLABLES[lang].split(), c) for c in chunks))
    return _NAME_JOIN.get(lang, " ").join(words)


def _keyed_rng(*parts) -> np.random.Generator:
    """A Generator seeded from hashlib, so a source's English text never depends on call order."""
    digest = hashlib.sha256("|".join(map(str, (SEED,) + parts)).encode("utf-8")).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def source_id_for(split: str, index: int) -> str:
    """HotpotQA-looking 24-hex identifiers."""
    return "5a" + hashlib.sha256(f"hotpotqa|{split}|{index}".encode()).hexdigest()[:22]


def answer_kind(source_id: str) -> str:
    """Whether the source's gold answer is a name, a number, a yes/no or a common noun."""
    h = zlib.crc32(source_id.encode()) % 100
    return "name" if h < 45 else "number" if h < 65 else "yesno" if h < 85 else "noun"


def _facts(*key) -> dict:
    rng = _keyed_rng(*key)
    pick = lambda seq: seq[int(rng.integers(len(seq)))]  # noqa: E731
    born = int(rng.integers(1850, 1935))  # so that every death year is in the past
    return dict(person=pick(PEOPLE), person2=pick(PEOPLE), place=pick(PLACES), place2=pick(PLACES),
                work=pick(WORKS), org=pick(ORGS), river=pick(RIVERS), award=pick(AWARDS),
                prof=pick(PROFESSIONS), nat=pick(NATIONALITIES), born=born,
                died=born + int(rng.integers(40, 90)), year=born + int(rng.integers(20, 45)),
                pop=f"{int(rng.integers(80, 2400)) * 1000:,}", order=rng.permutation(6))


_SENTENCES = [
    ("{person} ({born}-{died}) was {a_nat} {prof} from {place}.", ("person", "place", "born", "died")),
    ("{person} is best known for {work}, first presented in {year}.", ("person", "work", "year")),
    ("{place} lies on the {river} and has a population of about {pop}.", ("place", "river", "pop")),
    ("The {org} was founded in {place2} in {year} and later moved to {place}.", ("org", "place2", "year", "place")),
    ("In {year}, {person} received the {award} for {work}.", ("year", "person", "award", "work")),
    ("{person2} later described {work} as a turning point for {place2}.", ("person2", "work", "place2")),
]


def english_paragraph(source_id: str, k: int) -> tuple[str, list[list[str]]]:
    """Three or four English sentences plus, per sentence, the names/numbers it mentions."""
    f = _facts(source_id, "paragraph", k)
    f["a_nat"] = ("an " if f["nat"][0] in "AEIOU" else "a ") + f["nat"]
    chosen = [_SENTENCES[i] for i in f["order"][: 3 + k % 2]]
    text = " ".join(t.format(**f) for t, _ in chosen)
    return text, [[str(f[n]) for n in names] for _, names in chosen]


def english_question(source_id: str) -> tuple[str, list[str]]:
    f, kind = _facts(source_id, "question"), answer_kind(source_id)
    if kind == "number":
        return f"In what year was {f['work']} first presented in {f['place']}?", [f["work"], f["place"]]
    if kind == "yesno":
        return f"Were {f['person']} and {f['person2']} both {f['prof']}s?", [f["person"], f["person2"]]
    if kind == "noun":
        return f"What profession did the creator of {f['work']} share with {f['person2']}?", [f["work"], f["person2"]]
    return f"Which {f['nat']} {f['prof']} is associated with both {f['work']} and {f['place']}?", [f["work"], f["place"]]


def english_answer(source_id: str) -> str:
    f, kind = _facts(source_id, "question"), answer_kind(source_id)
    if kind == "number":
        return str(f["year"])
    if kind == "yesno":
        return "yes" if f["born"] % 2 else "no"
    if kind == "noun":
        return f["prof"]
    return [f["person"], f["place"], f["work"]][f["born"] % 3]


def _words(lang: str, rng, count: int) -> list[str]:
    lex = LEXICON[lang].split()
    return [lex[i].replace("_", " ") for i in rng.integers(0, len(lex), count)]


def _sentence(lang: str, rng, mentions: list[str], end: str, intrusion: str = "") -> str:
    """Lexicon words with the sentence's rendered names and numbers woven in."""
    tokens = _words(lang, rng, int(rng.integers(5, 10)))
    for m in mentions + ([intrusion] if intrusion else []):
        rendered = m if (m == intrusion or m.replace(",", "").isdigit()) else render_name(lang, m)
        tokens.insert(int(rng.integers(0, len(tokens) + 1)), rendered)
    sep = "" if lang in ("ja", "zh") else " "
    text = sep.join(tokens)
    return text[0].upper() + text[1:] + end


def candidate_paragraph(lang: str, english: str, mentions: list[list[str]], rng, defect: str) -> str:
    """Target-script paragraph; defects leave traces the explanation can point at."""
    sentences = english.split(". ")
    parts = []
    for i, names in enumerate(mentions):
        if defect == "omission" and i == len(mentions) - 1:
            break  # the last sentence is dropped
        intrusion = ""
        if defect in ("mixed_script", "untranslated") and i == 1:
            intrusion = " ".join(sentences[i].split()[:4]).rstrip(".")
        parts.append(_sentence(lang, rng, names, FULL_STOP.get(lang, "."), intrusion))
    return ("" if lang in ("ja", "zh") else " ").join(parts)


def candidate_question(lang: str, mentions: list[str], rng, defect: str) -> str:
    intrusion = " ".join(mentions[:1]) if defect == "untranslated" else ""
    return _sentence(lang, rng, mentions, QUESTION_MARK.get(lang, "?"), intrusion)


def candidate_answer(lang: str, english: str, kind: str, copy: bool, defect: str, rng) -> str:
    """Short answers: exact copies, translated yes/no, transliterated names or wrong facts."""
    if copy:
        return english
    if kind == "yesno":
        yes = (english == "yes") != (defect == "polarity")
        return YES_NO[lang][0 if yes else 1]
    if defect == "wrong_fact":
        others = [p for p in PEOPLE + PLACES if p != english]
        return render_name(lang, others[int(rng.integers(len(others)))])
    if kind == "noun":
        return _words(lang, rng, 1)[0]
    return render_name(lang, english)  # the planner never sends Latin-script names here


# --------------------------------------------------------------------------------------
# Visible judge explanations (1-3 sentences, consistent with the score and the defect).
# --------------------------------------------------------------------------------------
_EXPLAIN = {
    ("text", "top"): ["The translation conveys every fact of the source in natural {lang}; names and dates are preserved.",
                      "Faithful and fluent. Entities and numbers match the source exactly.",
                      "Accurate and complete rendering with appropriate register; only negligible stylistic differences."],
    ("text", "good"): ["Faithful overall, with slightly awkward word order in one sentence.",
                       "All key facts are preserved. A few word choices are more literal than natural {lang} would use.",
                       "Meaning and entities are correct; minor punctuation and agreement quirks."],
    ("text", "fair"): ["Mostly accurate, but one clause is simplified and a minor detail is lost.",
                       "The main facts survive, though fluency suffers from literal phrasing in several places."],
    ("text", "mixed_script"): ["The candidate mixes Latin-script English fragments into the {lang} text, and one clause is left untranslated.",
                               "Mixed-script intrusion: an English phrase appears mid-sentence. The rest conveys the source only partially."],
    ("text", "untranslated"): ["An untranslated English fragment remains in the candidate, and the surrounding sentence is garbled.",
                               "Part of the source is copied in English rather than translated; fluency is poor."],
    ("text", "reversal"): ["A key sentence reverses the meaning of the source (the relation between the person and the work is inverted).",
                           "Meaning reversal in the second sentence contradicts the source; other facts are roughly preserved."],
    ("text", "omission"): ["The final sentence of the source is omitted, so the date and place it states are lost.",
                           "Several details are missing and one date is rendered inconsistently."],
    ("answer", "copy_name"): ["The name is conventionally kept in Latin script in {lang}, so the unchanged form is correct.",
                              "Identical to the English answer, which is appropriate for this proper name."],
    ("answer", "copy_number"): ["The year is preserved exactly; no translation is needed.",
                                "Correct number, identical to the English answer."],
    ("answer", "yesno"): ["Polarity matches the English answer and the form is natural in {lang}.",
                          "Correct yes/no answer rendered idiomatically."],
    ("answer", "name"): ["Standard {lang} transliteration of the name; the fact matches the English answer.",
                         "The entity is rendered in {lang} script with its usual spelling."],
    ("answer", "noun"): ["The term conveys the same fact as the English answer.",
                         "Accurate and natural short answer."],
    ("answer", "variant"): ["Correct fact, but the transliteration differs from the conventional {lang} spelling.",
                            "Right entity, although the chosen term is less precise than the English answer."],
    ("answer", "latin_kept"): ["The candidate leaves the name unchanged in Latin script; a Thai transliteration was expected for this answer.",
                               "Untranslated English copy of the name. Thai usually transliterates this entity, so the answer reads as not translated."],
    ("answer", "title_rendering"): ["The work title is copied in English instead of its established Chinese title.",
                                    "The title is left in Latin script; the conventional Chinese title should have been used."],
    ("answer", "entity_rendering"): ["The entity is copied in English instead of its conventional Chinese rendering.",
                                     "The name is left in Latin script; Chinese normally uses an established transliteration."],
    ("answer", "polarity"): ["The translated answer has the opposite yes/no polarity to the English answer."],
    ("answer", "wrong_fact"): ["The candidate names a different entity than the English answer.",
                               "Completely different fact: the translated answer does not match the English answer."],
}
PARTIAL_EXPLANATIONS = [
    "The candidate is a short answer while the source text is the English question, so it does not translate the source.",
    "The target text does not correspond to the source question at all; only a single name or word is given.",
    "Source and candidate express different content: the source asks a question and the candidate answers it.",
]


def explanation(lang: str, unit: str, score: int, defect: str, rng) -> str:
    if unit == "answer":
        key = ("answer", defect)
    else:
        band = "top" if score >= 95 else "good" if score >= 88 else "fair"
        key = ("text", defect or band)
    options = _EXPLAIN[key]
    return options[int(rng.integers(len(options)))].format(lang=LANG_NAME[lang])


# --------------------------------------------------------------------------------------
# Audit rows.
# --------------------------------------------------------------------------------------
POOL_SIZE = {"train": 2400, "validation": 1000}  # V2 samples even indices, V1 odd ones


def expand_scores(rng, counts: np.ndarray, unit: str) -> list[dict]:
    """One row per scored unit, scores shuffled within each language."""
    rows = []
    for g, lang in enumerate(LANGS):
        scores = rng.permutation(np.repeat(SCORES, counts[g]))
        rows += [dict(lang=lang, unit=unit, score=int(s)) for s in scores]
    return rows


def assign_splits(rng, rows: list[dict], validation: int) -> None:
    order = rng.permutation(len(rows))
    for rank, i in enumerate(order):
        rows[i]["split"] = "validation" if rank < validation else "train"


def _text_defect(lang: str, unit: str, score: int, rng) -> str:
    """Low paragraphs/questions get a concrete flaw; Greek ones lean on mixed script."""
    if score >= 80:
        return ""
    if lang == "el" and unit == "paragraph":
        options = ["mixed_script", "mixed_script", "untranslated", "reversal"]
    elif unit == "question":
        options = ["untranslated", "reversal"]
    else:
        options = ["omission", "untranslated", "reversal"]
    return options[int(rng.integers(len(options)))]


def _plan_high_answer(rng, row: dict, copy: bool) -> None:
    latin = row["lang"] in LATIN_LANGS
    if copy:  # Latin-script languages keep names; every script keeps digits
        kind = "name" if latin and rng.random() < 0.7 else "number"
        row.update(kind=kind, copy=True, defect="copy_" + kind)
    else:
        options = ["yesno", "noun"] + ([] if latin else ["name", "name"])
        kind = options[int(rng.integers(len(options)))]
        row.update(kind=kind, copy=False, defect=kind)


def _plan_low_answer(rng, row: dict) -> None:
    if row["lang"] in ("th", "zh") and row["score"] < 60:  # unchanged Latin-script entities
        row.update(kind="name", copy=True,
                   defect="latin_kept" if row["lang"] == "th" else "title_rendering")
    elif row["score"] < 60:
        kind, defect = [("yesno", "polarity"), ("name", "wrong_fact")][int(rng.integers(2))]
        row.update(kind=kind, copy=False, defect=defect)
    else:
        kind = "noun" if row["lang"] in LATIN_LANGS or rng.random() < 0.5 else "name"
        row.update(kind=kind, copy=False, defect="variant")


def plan_answers(rng, rows: list[dict], copies: int) -> None:
    """Kind, copy flag and flaw per answer so that exactly `copies` are exact source copies."""
    answers = [r for r in rows if r["unit"] == "answer"]
    for r in answers:
        if r["score"] < 90:
            _plan_low_answer(rng, r)
    need = copies - sum(r.get("copy", False) for r in answers)
    high = [r for r in answers if r["score"] >= 90]
    keys = rng.random(len(high)) + np.array([0.0 if r["lang"] in LATIN_LANGS else 0.55 for r in high])
    chosen = set(np.argsort(keys, kind="stable")[:need].tolist())
    for i, r in enumerate(high):
        _plan_high_answer(rng, r, i in chosen)


def _source_pools(parity: int) -> dict:
    pools = {}
    for split, size in POOL_SIZE.items():
        for i in range(parity, size, 2):
            sid = source_id_for(split, i)
            pools.setdefault((split, None), []).append(sid)
            pools.setdefault((split, answer_kind(sid)), []).append(sid)
    return pools


def assign_sources(rng, rows: list[dict], parity: int, by_kind: bool) -> None:
    """Distinct sources within each (language, unit); answers match the planned answer kind."""
    pools, groups = _source_pools(parity), {}
    for r in rows:
        kind = r.get("kind") if (by_kind and r["unit"] == "answer") else None
        groups.setdefault((r["lang"], r["unit"], r["split"], kind), []).append(r)
    for (_lang, unit, split, kind), members in sorted(groups.items(), key=lambda kv: str(kv[0])):
        pool = pools[(split, kind)]
        for r, j in zip(members, rng.choice(len(pool), len(members), replace=False)):
            r["source_id"] = pool[int(j)]
            r["k"] = int(rng.integers(0, 10)) if unit == "paragraph" else None
            if not by_kind and unit == "answer":
                r["kind"] = answer_kind(r["source_id"])


def identity(row: dict) -> tuple[str, str | None]:
    instance = f"{row['source_id']}_{row['lang']}"
    return instance, (f"p{row['k']}" if row["unit"] == "paragraph" else None)


def record_id(version: str, row: dict, run_group: str = "") -> str:
    instance, pid = identity(row)
    key = f"{version}|{instance}|{row['unit']}|{pid or ''}" + (f"|{run_group}" if run_group else "")
    return _sha(key)[:32]


def attach_v2_texts(rng, row: dict) -> None:
    """English source and target candidate (the snapshot strings) plus their hashes."""
    unit, lang = row["unit"], row["lang"]
    if unit == "paragraph":
        src, mentions = english_paragraph(row["source_id"], row["k"])
        cand = candidate_paragraph(lang, src, mentions, rng, row["defect"])
    elif unit == "question":
        src, mentions = english_question(row["source_id"])
        cand = candidate_question(lang, mentions, rng, row["defect"])
    else:
        src = english_answer(row["source_id"])
        cand = candidate_answer(lang, src, row["kind"], row["copy"], row["defect"], rng)
    row.update(source_text=src, candidate_text=cand, src_sha=_sha(src), cand_sha=_sha(cand))


def mark_fallbacks(rng, rows: list[dict], count: int) -> None:
    """Rows whose score came from the last integer of hidden reasoning: no visible explanation."""
    for r in rows:
        r["origin"] = ORIGIN_EXPLICIT
    eligible = [i for i, r in enumerate(rows) if r["unit"] != "answer" and 85 <= r["score"] <= 97]
    for i in rng.choice(eligible, count, replace=False):
        rows[int(i)].update(origin=ORIGIN_FALLBACK, explanation=None)


def build_v2(rng) -> list[dict]:
    rows = []
    for unit in UNITS:
        rows += expand_scores(rng, solve_v2_counts(rng, unit), unit)
    assign_splits(rng, rows, V2_SPLITS["validation"])
    for r in rows:
        if r["unit"] != "answer":
            r.update(kind=None, copy=False, defect=_text_defect(r["lang"], r["unit"], r["score"], rng))
    plan_answers(rng, rows, V2_EXACT_COPIES)
    assign_sources(rng, rows, parity=0, by_kind=True)
    for r in rows:
        attach_v2_texts(rng, r)
        if r["defect"] == "title_rendering" and r["source_text"] not in WORKS:
            r["defect"] = "entity_rendering"  # a person or place, not a title
        r["explanation"] = explanation(r["lang"], r["unit"], r["score"], r["defect"], rng)
        r["run_group"] = RUN_GROUP[r["unit"]]
        r["record_id"] = record_id("v2", r)
    mark_fallbacks(rng, rows, V2_ORIGINS[ORIGIN_FALLBACK])
    return rows


def partial_scores(rng) -> np.ndarray:
    """239 near-zero scores whose mean prints 4.736 (answers judged against the question)."""
    target = printed_sums(RAW_PARTIAL_SCORED, RAW_PARTIAL_MEAN, 3)[0]
    scores = rng.choice([0, 0, 0, 0, 0, 0, 2, 5, 5, 10, 10, 15, 20, 30], size=RAW_PARTIAL_SCORED)
    while (diff := target - int(scores.sum())) != 0:
        i = int(rng.integers(RAW_PARTIAL_SCORED))
        step = int(np.sign(diff)) * min(abs(diff), 5)
        if 0 <= scores[i] + step <= 40:
            scores[i] += step
    return scores


def build_partial(rng, v2_rows: list[dict]) -> list[dict]:
    """The malformed partial answer run: translated answers scored against the English question."""
    answers = [r for r in v2_rows if r["unit"] == "answer"]
    picked = sorted(rng.choice(len(answers), RAW_PARTIAL_ROWS, replace=False).tolist())
    scores = list(partial_scores(rng)) + [None]  # the last request failed
    rows = []
    for j, score in zip(picked, scores):
        r = dict(answers[j], score=None if score is None else int(score), run_group=PARTIAL_RUN)
        r.update(origin=ORIGIN_EXPLICIT if score is not None else None,
                 src_sha=_sha(english_question(r["source_id"])[0]),
                 record_id=record_id("v2", r, PARTIAL_RUN),
                 explanation=None if score is None else
                 PARTIAL_EXPLANATIONS[int(rng.integers(len(PARTIAL_EXPLANATIONS)))])
        rows.append(r)
    return rows


def assign_lineage(rng, recovery: list[dict], answers: list[dict]) -> None:
    """Line numbers in the two private JSONL artifacts (recovery run incl. the partial run)."""
    for group, artifact in ((recovery, RAW_ARTIFACT["recovery"]), (answers, RAW_ARTIFACT["answers"])):
        for r, line in zip(group, rng.permutation(len(group)) + 1):
            r.update(raw_sha=artifact, line=int(line))


V1_REVISION = _sha("xhotpotqa-v1.1|locked-inputs")[:40]
V1_RUN_GROUP = {"paragraph": "v1_paragraph_question_run", "question": "v1_paragraph_question_run",
                "answer": "v1_answer_run"}


def plant_overlap(rng, v1_rows: list[dict], v2_rows: list[dict]) -> None:
    """Give a few V1 rows the (source_id, language, unit) of a V2 row: 9 / 0 / 1 on the card."""
    for unit, count in V1_OVERLAP.items():
        v2_unit = [r for r in v2_rows if r["unit"] == unit]
        used = set()
        for i in rng.choice(len(v2_unit), count, replace=False):
            donor = v2_unit[int(i)]
            target = next(r for r in v1_rows if r["unit"] == unit and r["lang"] == donor["lang"]
                          and id(r) not in used)
            used.add(id(target))
            target.update(source_id=donor["source_id"], split=donor["split"],
                          kind=answer_kind(donor["source_id"]) if unit == "answer" else None)


def _v1_defect(rng, row: dict) -> str:
    if row["unit"] != "answer":
        return _text_defect(row["lang"], row["unit"], row["score"], rng)
    if row["score"] < 60:
        return "polarity" if row["kind"] == "yesno" else "wrong_fact"
    if row["score"] < 90:
        return "variant"
    latin_name = row["kind"] == "name" and row["lang"] in LATIN_LANGS
    return "copy_number" if row["kind"] == "number" else "copy_name" if latin_name else row["kind"]


def build_v1(rng, v2_rows: list[dict]) -> list[dict]:
    """The independent V1 audit: only unit-level figures were published, so languages are shuffled."""
    sums, rows = v1_unit_sums(), []
    for unit in UNITS:
        scores = rng.permutation(np.repeat(SCORES, solve_v1_counts(rng, unit, sums[unit])))
        per = PER_LANGUAGE[unit]
        rows += [dict(lang=LANGS[i // per], unit=unit, score=int(s)) for i, s in enumerate(scores)]
    assign_splits(rng, rows, 880)
    assign_sources(rng, rows, parity=1, by_kind=False)
    plant_overlap(rng, rows, v2_rows)
    for r in rows:
        r["defect"] = _v1_defect(rng, r)
        r["explanation"] = explanation(r["lang"], r["unit"], r["score"], r["defect"], rng)
        instance, pid = identity(r)
        locator = f"v1|{instance}|{r['unit']}|{pid or ''}"
        r.update(src_sha=_sha(locator + "|source"), cand_sha=_sha(locator + "|candidate"),
                 run_group=V1_RUN_GROUP[r["unit"]], record_id=record_id("v1", r),
                 raw_sha=_sha("xhotpotqa-v1/judge.records.jsonl"))
    mark_fallbacks(rng, rows, V1_NULL_EXPLANATIONS)
    for r, line in zip(rows, rng.permutation(len(rows)) + 1):
        r["line"] = int(line)
    return rows


def extra_snapshot_rows(rng, v2_rows: list[dict], paragraphs: int = 240, others: int = 30) -> list[dict]:
    """Unaudited units of the same instances (other paragraphs, un-sampled questions/answers)."""
    audited = {(identity(r)[0], r["unit"]) for r in v2_rows}
    para = [v2_rows[int(i)] for i in rng.permutation(len(v2_rows)) if v2_rows[int(i)]["unit"] == "paragraph"]
    extras = [dict(r, k=(r["k"] + 1 + int(rng.integers(9))) % 10, defect="") for r in para[:paragraphs]]
    for unit in ("question", "answer"):
        fresh = [r for r in para if (identity(r)[0], unit) not in audited][:others]
        for r in fresh:
            kind = answer_kind(r["source_id"])
            copy = kind == "number" or (kind == "name" and r["lang"] in LATIN_LANGS)
            extras.append(dict(r, unit=unit, k=None, defect="", kind=kind, copy=copy))
    for r in extras:
        attach_v2_texts(rng, r)
    return extras


def audit_table(rows: list[dict], version: str, revision: str) -> pa.Table:
    cols = {c: [] for c in COLUMNS}
    for r in rows:
        instance, pid = identity(r)
        family = "answer" if r["unit"] == "answer" else "paragraph"
        values = [r["record_id"], version, revision, instance, r["source_id"], r["split"], r["lang"],
                  r["unit"], pid, r["score"], r["origin"], r["explanation"], r["src_sha"], r["cand_sha"],
                  JUDGE_MODEL, None, PROMPT_VERSION[family], PROMPT_SHA[family], r["run_group"],
                  r["raw_sha"], r["line"]]
        for c, v in zip(COLUMNS, values):
            cols[c].append(v)
    return pa.table(cols, schema=AUDIT_SCHEMA)


def snapshot_table(rows: list[dict]) -> pa.Table:
    keyed = sorted((((identity(r)[0], r["unit"], identity(r)[1] or ""), r) for r in rows),
                   key=lambda kr: kr[0])
    cols = {c: [] for c in SNAPSHOT_COLUMNS}
    for (instance, unit, pid), r in keyed:
        for c, v in zip(SNAPSHOT_COLUMNS, [instance, r["source_id"], r["lang"], unit, pid or None,
                                           r["source_text"], r["candidate_text"]]):
            cols[c].append(v)
    return pa.table(cols, schema=pa.schema([(c, pa.string()) for c in SNAPSHOT_COLUMNS]))


DESCRIPTIONS = {
    "v2": ("XHotpotQA GLM-5.2 Judge V2 (synthetic)",
           "Clean 2,760-unit audit of XHotpotQA V2 RC1: 23 languages x (80 paragraphs, 20 questions, "
           "20 answers), scored 0-100 by the requested `glm-5.2` judge. The malformed partial answer "
           "run is excluded. Join with the snapshot on instance_id, unit and paragraph_id."),
    "snapshot": ("XHotpotQA V2 RC1 snapshot (synthetic, flat)",
                 "Pinned source snapshot in flat form: one row per unit with the English source text "
                 "and the target-language candidate. Includes units that were not audited."),
    "v1": ("XHotpotQA GLM-5.2 Judge V1 (synthetic)",
           "Independent V1 comparison audit (2,760 rows). Not paired with V2: overlap on source id, "
           "language and unit is nine paragraphs, zero questions and one answer."),
    "raw": ("XHotpotQA V2 raw judge records (synthetic)",
            "Raw judge records: the valid paragraph and question rows plus the 240-row "
            "`partial_answer_run`, which scored translated answers against the English question."),
}


def _shuffled(rng, rows: list[dict]) -> list[dict]:
    return [rows[int(i)] for i in rng.permutation(len(rows))]


def generate(out_root: Path) -> dict:
    """Write the four Hub-layout folders under out_root, verify them, and say what was written."""
    out_root, rng = Path(out_root), np.random.default_rng(SEED)
    v2 = build_v2(rng)
    partial = build_partial(rng, v2)
    pq_rows = [r for r in v2 if r["unit"] != "answer"]
    assign_lineage(rng, pq_rows + partial, [r for r in v2 if r["unit"] == "answer"])
    v1 = build_v1(rng, v2)
    tables = {
        "v2": audit_table(_shuffled(rng, v2), "v2", V2_REVISION),
        "snapshot": snapshot_table(v2 + extra_snapshot_rows(rng, v2)),
        "v1": audit_table(_shuffled(rng, v1), "v1", V1_REVISION),
        "raw": audit_table(sorted(pq_rows + partial, key=lambda r: r["line"]), "v2", V2_REVISION),
    }
    written = {}
    for key, (folder, config, split) in FOLDERS.items():
        title, description = DESCRIPTIONS[key]
        files = write_hub_dataset(out_root / folder, title, description, {config: {split: tables[key]}})
        written[folder] = {"config": config, "split": split, "rows": tables[key].num_rows,
                           "files": [str(p.relative_to(out_root)) for p in files]}
    check(out_root)
    return written


# --------------------------------------------------------------------------------------
# check(): recompute every published figure from the written Parquet.
# --------------------------------------------------------------------------------------
def _read(out_root: Path, key: str):
    import pandas as pd

    folder, config, split = FOLDERS[key]
    return pd.read_parquet(Path(out_root) / folder / "data" / f"{config}-{split}.parquet")


def _check_unit_rows(df, spec_by_unit: dict, label: str, thresholds: bool) -> None:
    for unit, spec in spec_by_unit.items():
        s = df.loc[df["unit"] == unit, "score"]
        got = dict(n=len(s), mean=f"{s.mean():.3f}", median=s.median(), sd=f"{s.std(ddof=1):.2f}")
        if thresholds:
            got.update(below60=int((s < 60).sum()), below80=int((s < 80).sum()),
                       atleast90=int((s >= 90).sum()))
        for name, want in spec.items():
            _expect(got[name] == want, f"{label} {unit} {name}: got {got[name]!r}, card {want!r}")


def _check_v2_languages(df) -> None:
    means = df.groupby(["target_language", "unit"])["score"].mean()
    overall = df.groupby("target_language")["score"].mean()
    for code, name, *printed in V2_BY_LANGUAGE:
        got = [f"{means[(code, u)]:.2f}" for u in UNITS] + [f"{overall[code]:.2f}"]
        _expect(got == printed, f"V2 per-language means for {name}: got {got}, card {printed}")


def _check_v2_shape(df) -> None:
    _expect(list(df.columns) == COLUMNS, f"V2 columns differ from the public schema: {list(df.columns)}")
    _expect(len(df) == 2760, f"V2 rows: {len(df)}")
    _expect(df["judge_record_id"].is_unique, "V2 judge_record_id is not unique")
    sizes = df.groupby(["target_language", "unit"]).size()
    for code in LANGS:
        for unit, n in PER_LANGUAGE.items():
            _expect(sizes.get((code, unit), 0) == n, f"V2 {code}/{unit}: {sizes.get((code, unit), 0)} rows")
    _expect(df["source_split"].value_counts().to_dict() == V2_SPLITS, "V2 train/validation split counts")
    _expect((df["paragraph_id"].isna() == (df["unit"] != "paragraph")).all(),
            "paragraph_id must be set exactly for paragraphs")
    _expect(df["resolved_judge_revision"].isna().all(), "resolved_judge_revision must be null")
    _expect((df["requested_judge_model"] == JUDGE_MODEL).all(), "requested_judge_model")
    family = df["unit"].map(lambda u: "answer" if u == "answer" else "paragraph")
    _expect((df["judge_prompt_sha256"] == family.map(PROMPT_SHA)).all(), "judge_prompt_sha256")
    _expect((df["run_group"] == df["unit"].map(RUN_GROUP)).all(), "V2 run_group per unit")


def _check_v2_provenance(df) -> None:
    origins = df["score_origin"].value_counts().to_dict()
    _expect(origins == V2_ORIGINS, f"V2 score_origin counts: {origins}")
    _expect((df["judge_explanation"].isna() == (df["score_origin"] == ORIGIN_FALLBACK)).all(),
            "exactly the reasoning-fallback rows must lack a visible explanation")
    answers = df[df["unit"] == "answer"]
    copies = int((answers["candidate_text_sha256"] == answers["source_text_sha256"]).sum())
    _expect(copies == V2_EXACT_COPIES, f"V2 exact answer copies: {copies}, card {V2_EXACT_COPIES}")
    _expect(f"{df['score'].mean():.3f}" == V2_OVERALL, f"V2 weighted overall {df['score'].mean():.3f}")


def _overlap(a, b, unit: str) -> int:
    key = ["source_id", "target_language", "unit"]
    left = a.loc[a["unit"] == unit, key].drop_duplicates()
    return len(left.merge(b.loc[b["unit"] == unit, key].drop_duplicates(), on=key))


def _check_v1(v1, v2) -> None:
    _expect(list(v1.columns) == COLUMNS and len(v1) == 2760, "V1 schema or row count")
    _expect((v1["dataset_version"] == "v1").all(), "V1 dataset_version")
    _check_unit_rows(v1, V1_UNITS, "V1", thresholds=False)
    _expect(f"{v1['score'].mean():.3f}" == V1_OVERALL, f"V1 weighted overall {v1['score'].mean():.3f}")
    nulls = int(v1["judge_explanation"].isna().sum())
    _expect(nulls == V1_NULL_EXPLANATIONS, f"V1 null explanations: {nulls}")
    for unit, want in V1_OVERLAP.items():
        got = _overlap(v1, v2, unit)
        _expect(got == want, f"V1/V2 overlap on {unit}: {got}, card {want}")


def _check_raw(raw, v2) -> None:
    _expect(list(raw.columns) == COLUMNS, "raw schema")
    valid = raw[raw["run_group"] == RUN_GROUP["paragraph"]]
    released = v2[v2["unit"] != "answer"]
    _expect(len(valid) == 2300 and valid["unit"].value_counts().to_dict() == {"paragraph": 1840, "question": 460},
            "raw must hold the 1,840 paragraph and 460 question rows")
    joined = valid.merge(released, on="judge_record_id", suffixes=("", "_v2"))
    _expect(len(joined) == len(released) and (joined["score"] == joined["score_v2"]).all(),
            "raw paragraph/question rows must carry the released ids and scores")
    partial = raw[raw["run_group"] == PARTIAL_RUN]
    _expect(len(partial) == RAW_PARTIAL_ROWS and (partial["unit"] == "answer").all(),
            f"raw partial answer run: {len(partial)} rows")
    scored = partial["score"].dropna()
    _expect(len(scored) == RAW_PARTIAL_SCORED, f"raw partial scored rows: {len(scored)}")
    _expect(f"{scored.mean():.3f}" == RAW_PARTIAL_MEAN, f"raw partial mean {scored.mean():.3f}")
    failed = partial[partial["score"].isna()]
    _expect(failed["judge_explanation"].isna().all(), "the failed partial row must have no explanation")
    _expect(len(raw) == len(valid) + len(partial), "raw holds unexpected run groups")


def _check_snapshot(snap, v2) -> None:
    key = ["instance_id", "unit", "paragraph_id"]
    _expect(list(snap.columns) == SNAPSHOT_COLUMNS, "snapshot columns")
    _expect(not snap.duplicated(key).any(), "snapshot join key is not unique")
    joined = v2.merge(snap, on=key, how="left", suffixes=("", "_snap"))
    _expect(len(joined) == len(v2) and joined["source_text"].notna().all(),
            "every audited unit must be present in the snapshot")
    src = joined["source_text"].map(_sha)
    cand = joined["candidate_text"].map(_sha)
    _expect((src == joined["source_text_sha256"]).all(), "snapshot source_text does not hash to the audit")
    _expect((cand == joined["candidate_text_sha256"]).all(), "snapshot candidate_text does not hash to the audit")
    extra = len(snap) - len(v2)
    _expect(250 <= extra <= 350, f"snapshot should carry ~300 unaudited rows, has {extra}")


def check(out_root: Path) -> None:
    """Re-read the written Parquet and raise AssertionError if any published figure drifts."""
    v2, v1, raw, snap = (_read(out_root, k) for k in ("v2", "v1", "raw", "snapshot"))
    _check_v2_shape(v2)
    _check_unit_rows(v2, V2_UNITS, "V2", thresholds=True)
    _check_v2_languages(v2)
    _check_v2_provenance(v2)
    _check_v1(v1, v2)
    _check_raw(raw, v2)
    _check_snapshot(snap, v2)
