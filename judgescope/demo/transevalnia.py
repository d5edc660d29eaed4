"""Synthetic, scaled-down TransEvalnia (translation ranking with reasoning-based evaluations).

Mirrors the published card's layout: the seven `with_human_ranking` data sources with
their score scales (0-10 for hard en-ja, DA z-scores, negated MQM) and the four
`human_verification` subsets with vendor-specific annotation structures. Sentences,
haiku, evaluations and annotations are invented. A position bias is built in: the
models choose Translation 1 more often than the humans prefer it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from judgescope.demo.common import write_hub_dataset

FOLDER = "transevalnia"
SEED = 2507_12724  # the paper's arXiv id

# (name, src, tgt, card rows, demo rows, score scale) - card sizes from the published card.
DATASETS = [
    ("hard en-ja", "en", "ja", 47, 20, "likert"),
    ("wmt 2021 en-ja", "en", "ja", 500, 40, "da"),
    ("wmt 2021 ja-en", "ja", "en", 500, 40, "da"),
    ("wmt 2022 en-ru", "en", "ru", 497, 40, "mqm"),
    ("wmt 2023 en-de", "en", "de", 500, 40, "mqm"),
    ("wmt 2023 zh-en", "zh", "en", 500, 40, "mqm"),
    ("wmt 2024 en-es", "en", "es", 499, 40, "mqm"),
]
MODELS = ("qwen", "claude")
METHODS = ("one_step_ranking", "two_step_ranking", "three_step_ranking")
SUBSETS = {"generic_claude-vendor1": 15, "generic_claude-vendor2": 15,
           "generic_qwen-vendor2": 15, "haiku_qwen-vendor2": 15}
LANG_LONG = {"en": "English", "ja": "Japanese", "ru": "Russian", "de": "German",
             "zh": "Chinese", "es": "Spanish"}
SCRIPT = {"ja": r"[\u3040-\u30ff\u4e00-\u9fff]", "zh": r"[\u4e00-\u9fff]",
          "ru": r"[\u0400-\u04ff]", "en": r"^[\x00-\x7f]+$", "de": r"[A-Za-zäöüß]",
          "es": r"[A-Za-záéíóñ]"}

# Invented parallel sentences (en, ja, ru, de, zh, es).
BANK = [
    ("The city council approved a new budget for public libraries on Tuesday.",
     "市議会は火曜日、公立図書館の新しい予算を承認した。",
     "Во вторник городской совет утвердил новый бюджет для публичных библиотек.",
     "Der Stadtrat hat am Dienstag einen neuen Haushalt für öffentliche Bibliotheken beschlossen.",
     "市议会周二批准了公共图书馆的新预算。",
     "El ayuntamiento aprobó el martes un nuevo presupuesto para las bibliotecas públicas."),
    ("Heavy rain is expected in the northern mountains this weekend.",
     "今週末、北部の山間部では大雨が予想されている。",
     "В эти выходные в северных горах ожидаются сильные дожди.",
     "Für dieses Wochenende wird in den nördlichen Bergen starker Regen erwartet.",
     "本周末北部山区预计将有大雨。",
     "Se esperan fuertes lluvias en las montañas del norte este fin de semana."),
    ("Please keep your receipt until the repair has been completed.",
     "修理が完了するまで、領収書を保管しておいてください。",
     "Пожалуйста, сохраните чек до завершения ремонта.",
     "Bitte bewahren Sie Ihre Quittung auf, bis die Reparatur abgeschlossen ist.",
     "请在维修完成之前保留好您的收据。",
     "Conserve su recibo hasta que se haya completado la reparación."),
    ("The museum will extend its opening hours during the summer festival.",
     "夏祭りの期間中、博物館は開館時間を延長する。",
     "Во время летнего фестиваля музей продлит часы работы.",
     "Während des Sommerfestes verlängert das Museum seine Öffnungszeiten.",
     "夏季节日期间，博物馆将延长开放时间。",
     "El museo ampliará su horario de apertura durante el festival de verano."),
    ("Researchers found that the new battery lasts twice as long in cold weather.",
     "研究者らは、新しい電池が寒冷時に2倍長持ちすることを発見した。",
     "Исследователи обнаружили, что новый аккумулятор в холодную погоду работает вдвое дольше.",
     "Forscher stellten fest, dass der neue Akku bei Kälte doppelt so lange hält.",
     "研究人员发现，新电池在寒冷天气下的续航时间是原来的两倍。",
     "Los investigadores descubrieron que la nueva batería dura el doble con tiempo frío."),
    ("The train to the airport leaves every fifteen minutes.",
     "空港行きの電車は15分ごとに出発する。",
     "Поезд в аэропорт отправляется каждые пятнадцать минут.",
     "Der Zug zum Flughafen fährt alle fünfzehn Minuten.",
     "开往机场的列车每十五分钟发一班。",
     "El tren al aeropuerto sale cada quince minutos."),
    ("She thanked the volunteers who had cleaned the beach after the storm.",
     "彼女は、嵐の後に海岸を清掃したボランティアに感謝した。",
     "Она поблагодарила волонтёров, которые убрали пляж после шторма.",
     "Sie dankte den Freiwilligen, die nach dem Sturm den Strand gereinigt hatten.",
     "她感谢了在暴风雨后清理海滩的志愿者。",
     "Agradeció a los voluntarios que habían limpiado la playa después de la tormenta."),
    ("The software update fixes a problem that caused the screen to freeze.",
     "このソフトウェア更新で、画面がフリーズする不具合が修正される。",
     "Обновление программы устраняет ошибку, из-за которой зависал экран.",
     "Das Software-Update behebt einen Fehler, durch den der Bildschirm einfror.",
     "此次软件更新修复了导致屏幕卡死的问题。",
     "La actualización de software corrige un problema que hacía que la pantalla se congelara."),
    ("Tickets for the final match sold out within an hour.",
     "決勝戦のチケットは1時間以内に完売した。",
     "Билеты на финальный матч были распроданы в течение часа.",
     "Die Karten für das Endspiel waren innerhalb einer Stunde ausverkauft.",
     "决赛门票在一小时内售罄。",
     "Las entradas para la final se agotaron en menos de una hora."),
    ("Farmers are worried that the dry spring will reduce the harvest.",
     "農家は、雨の少ない春で収穫量が減るのではないかと心配している。",
     "Фермеры опасаются, что засушливая весна снизит урожай.",
     "Die Landwirte befürchten, dass der trockene Frühling die Ernte schmälern wird.",
     "农民担心干燥的春季会导致收成减少。",
     "Los agricultores temen que la primavera seca reduzca la cosecha."),
    ("The hotel offers free breakfast to guests who book directly.",
     "ホテルは、直接予約した宿泊客に無料の朝食を提供している。",
     "Отель предлагает бесплатный завтрак гостям, забронировавшим номер напрямую.",
     "Das Hotel bietet Gästen, die direkt buchen, ein kostenloses Frühstück.",
     "酒店为直接预订的客人提供免费早餐。",
     "El hotel ofrece desayuno gratuito a los huéspedes que reservan directamente."),
    ("Our team will reply to your message within two working days.",
     "担当チームが2営業日以内にご連絡いたします。",
     "Наша команда ответит на ваше сообщение в течение двух рабочих дней.",
     "Unser Team beantwortet Ihre Nachricht innerhalb von zwei Werktagen.",
     "我们的团队将在两个工作日内回复您的消息。",
     "Nuestro equipo responderá a su mensaje en un plazo de dos días hábiles."),
]
COL = {lang: i for i, lang in enumerate(("en", "ja", "ru", "de", "zh", "es"))}

# Invented haiku (Japanese) with English renderings, for the haiku verification subset.
HAIKU = [
    ("朝霧に白き鷺立つ田の水面", "In the morning mist / a white heron stands alone / on the paddy's face"),
    ("夕立の去りて蛙の声高し", "The sudden shower gone— / the voices of the frogs / rise louder now"),
    ("雪解けや小川の音の軽くなる", "Snow melting away— / the sound of the little stream / grows lighter"),
    ("秋風に揺れる芒の影長し", "In the autumn wind / the swaying pampas grasses / cast long shadows"),
    ("遠花火窓辺の猫の耳動く", "Distant fireworks— / at the window the cat's ears / twitch at each burst"),
    ("冬の月誰もいない駅の椅子", "Winter moon— / the bench / of an empty station"),
]

# ------------------------------------------------------------ translations

# Error profile -> MQM penalty (minor 1, major 5) and what an evaluator would notice.
PENALTY = {"none": 0, "punct": 1, "run_on": 1, "omission": 5, "untranslated": 5,
           "hallucination": 5}
NOTE = {
    "none": "conveys the full meaning and reads naturally",
    "punct": "is accurate but drops the final punctuation",
    "run_on": "is accurate but runs the two sentences together",
    "omission": "omits the second sentence of the source",
    "untranslated": "leaves the second sentence untranslated",
    "hallucination": "renders the second sentence with content that is not in the source",
}
PROFILE_P = {"none": .34, "punct": .18, "run_on": .12, "omission": .12, "untranslated": .12,
             "hallucination": .12}


def _join(lang: str, parts: list[str]) -> str:
    return ("" if lang in ("ja", "zh") else " ").join(parts)


def _strip_stop(text: str) -> str:
    return text.rstrip("。.")


def translate(pair, src: str, tgt: str, profile: str, other: int) -> str:
    """Target text for a sentence pair with the given error profile."""
    first, second = BANK[pair[0]][COL[tgt]], BANK[pair[1]][COL[tgt]]
    if profile == "punct":
        second = _strip_stop(second)
    elif profile == "run_on":
        first = _strip_stop(first) + ("、" if tgt == "ja" else "，" if tgt == "zh" else ",")
    elif profile == "omission":
        return first
    elif profile == "untranslated":
        second = BANK[pair[1]][COL[src]]
    elif profile == "hallucination":
        second = BANK[other][COL[tgt]]
    return _join(tgt, [first, second])


def human_scores(scale: str, profiles, r: np.random.Generator) -> list[float]:
    """Scores on the card's scale for one dataset; higher is better on every scale."""
    pen = np.array([PENALTY[p] for p in profiles], dtype=float)
    if scale == "mqm":  # negated MQM: visible errors plus unseen minor ones
        return [float(-(p + r.poisson(0.25))) for p in pen]
    if scale == "da":  # z-scores of direct assessment
        return [round(float(0.45 - 0.22 * p + r.normal(0, 0.35)), 3) for p in pen]
    raw = 9.0 - 1.0 * pen + r.normal(0, 0.8, size=2)  # 0-10 expert rating
    return [float(np.clip(np.round(x * 2) / 2, 0, 10)) for x in raw]


def draw_profiles(r: np.random.Generator) -> tuple[str, str]:
    """Two different error profiles (identical ones would give identical texts)."""
    names, p = list(PROFILE_P), list(PROFILE_P.values())
    while True:
        a, b = (str(x) for x in r.choice(names, size=2, p=p))
        if a != b:
            return a, b


def preference(scores) -> int:
    """Human preference: 1 or 2, 0 for a tie."""
    return 0 if scores[0] == scores[1] else 1 if scores[0] > scores[1] else 2


# ------------------------------------------------------------ model decisions

DECISION_RE = re.compile(
    r"Translation ([12]) (?:is (?:the best|(?:slightly |marginally |clearly )?better)|first)")
TIE_RE = re.compile(r"equal(?:ly good| quality)")


def parse_decision(text: str):
    """Simple regex reading of a free-text ranking: 1, 2, 0 (tie) or None.
    Contradictory texts resolve to their last stated choice."""
    picks = DECISION_RE.findall(text)
    if picks:
        return int(picks[-1])
    return 0 if TIE_RE.search(text) else None


def decide_all(prefs: list[int], acc: float, r: np.random.Generator) -> list:
    """Decisions of one model/method over one dataset: exactly round(acc * n) of the n
    human-decided triplets are right, and right answers fall more often on triplets
    whose better translation is shown first - the built-in position bias."""
    prefs = np.asarray(prefs)
    decided = np.flatnonzero(prefs != 0)
    weight = np.where(prefs[decided] == 1, 1.8, 1.0)
    right = set(r.choice(decided, size=round(acc * len(decided)), replace=False,
                         p=weight / weight.sum()).tolist())
    out = []
    for i, pref in enumerate(prefs.tolist()):
        if pref == 0:
            out.append(int(r.choice([1, 1, 0, 2])))
        elif i in right:
            out.append(pref)
        elif r.random() < 0.12:
            out.append(None)  # the model never commits (counts as wrong)
        else:  # a wrong pick leans towards Translation 1
            out.append(int(r.choice([1, 0], p=[.85, .15]) if pref == 2
                           else r.choice([2, 0], p=[.6, .4])))
    return out


def decision_text(d, r: np.random.Generator) -> str:
    """Varied phrasing of a decision: plain, summary, hedged, contradictory, none."""
    if d is None:
        return str(r.choice([
            "Both translations have strengths and weaknesses in accuracy and style.",
            "Each translation handles different parts of the source well, so the choice "
            "depends on the intended audience."]))
    if d == 0:
        return str(r.choice(["Both translations are of equal quality.",
                             "The two translations are equally good; neither stands out."]))
    o = 3 - d
    return str(r.choice([
        f"Translation {d} is better.",
        f"Overall, Translation {d} is the best translation.",
        f"Both are close, but Translation {d} is marginally better.",
        f"I would rank Translation {d} first, though the difference is small.",
        f"Translation {o} is better in fluency. However, considering accuracy, "
        f"Translation {d} is the best translation.",
        f"Translation {d} is slightly better, although Translation {o} reads more smoothly."],
        p=[.3, .25, .15, .12, .08, .10]))


def rationale(profiles, model: str) -> str:
    opener = "Let me compare the two translations." if model == "claude" else "Analysis:"
    return (f"{opener} Translation 1 {NOTE[profiles[0]]}. "
            f"Translation 2 {NOTE[profiles[1]]}.")


def scoring_text(d, r: np.random.Generator) -> str:
    """Two scores consistent with the two-step decision (equal when no preference)."""
    top = 5 if r.random() < 0.5 else 10
    hi = int(r.integers(top - 2, top + 1))
    lo = hi if d in (0, None) else max(1, hi - int(r.integers(1, 3)))
    s1, s2 = (hi, lo) if d in (1, 0, None) else (lo, hi)
    if top == 5:
        return (f"Translation 1: {s1}/5 - {'minor issues only' if s1 >= 4 else 'notable errors'}."
                f"\nTranslation 2: {s2}/5 - {'minor issues only' if s2 >= 4 else 'notable errors'}.")
    return f"Scores: {s1}, {s2}"


# ------------------------------------------------------------ dimensional evaluations

DIMS = ("Accuracy", "Fluency", "Terminology", "Style")
DIM_NOTE = {
    "none": ("All content of the source is preserved.", "Natural and grammatical.",
             "Terms are rendered with their usual equivalents.", "Register matches the source."),
    "punct": ("Meaning is fully preserved.", "Reads well, but the final punctuation is missing.",
              "Appropriate term choices.", "Slightly careless presentation."),
    "run_on": ("Meaning is fully preserved.", "The two sentences are fused into a run-on.",
               "Appropriate term choices.", "Less polished than it could be."),
    "omission": ("The second sentence of the source is missing entirely.",
                 "What is there reads naturally.", "No terminology problems in the rendered part.",
                 "Acceptable, but incomplete."),
    "untranslated": ("The second sentence is left in the source language.",
                     "Mixing two languages disrupts the reading.", "Untranslated terms remain.",
                     "Inconsistent."),
    "hallucination": ("The second sentence introduces content absent from the source.",
                      "Fluent, which makes the error harder to notice.",
                      "Terms belong to an unrelated topic.", "Register is fine."),
}


def dim_eval(profile: str) -> str:
    return "\n".join(f"{dim}: {note}" for dim, note in zip(DIMS, DIM_NOTE[profile]))


def interleaved(profiles) -> str:
    blocks = []
    for k, dim in enumerate(DIMS):
        blocks.append(f"{dim}:\nTranslation 1: {DIM_NOTE[profiles[0]][k]}\n"
                      f"Translation 2: {DIM_NOTE[profiles[1]][k]}")
    return "\n\n".join(blocks)


def model_fields(model: str, profiles, d: dict, r: np.random.Generator) -> dict:
    """All columns of one model for one triplet, given its decision per method."""
    steps = {"one_step_ranking": rationale(profiles, model) + " ",
             "two_step_ranking": "Based on the dimensional evaluations, ",
             "three_step_ranking": "Comparing the interleaved evaluations dimension by dimension, "}
    out = {}
    for method in METHODS:
        text = decision_text(d[method], r)
        lead = steps[method]
        if lead.endswith(", ") and not text.startswith(("Translation", "I ")):
            text = text[0].lower() + text[1:]  # continue the lead-in sentence
        out[f"{method}/{model}"] = lead + text
    out[f"two_step_scoring/{model}"] = scoring_text(d["two_step_ranking"], r)
    out[f"dim_evals/{model}"] = [dim_eval(p) for p in profiles]
    out[f"interleaved_dim_evals/{model}"] = interleaved(profiles)
    return out


# ------------------------------------------------------------ with_human_ranking

def triplets(spec, r: np.random.Generator) -> list[dict]:
    """Demo rows of one data source without model columns: (src, tgt1, tgt2) + scores."""
    name, src, tgt, _, n, scale = spec
    pairs = [(a, b) for a in range(len(BANK)) for b in range(len(BANK)) if a != b]
    rows = []
    for i in r.choice(len(pairs), size=n, replace=False):
        pair = pairs[int(i)]
        other = int(r.choice([k for k in range(len(BANK)) if k not in pair]))
        profiles = draw_profiles(r)
        scores = human_scores(scale, profiles, r)
        if scale == "da" and not rows:
            scores[1] = scores[0]  # DA ties are rare but real (identical ratings)
        rows.append({"dataset": name, "_profiles": profiles,
                     "src_text": _join(src, [BANK[k][COL[src]] for k in pair]),
                     "tgt_texts": [translate(pair, src, tgt, p, other) for p in profiles],
                     "src_lang": src, "tgt_lang": tgt, "src_lang_long": LANG_LONG[src],
                     "tgt_lang_long": LANG_LONG[tgt], "human_scores": scores})
    return rows


def dataset_rows(spec, r: np.random.Generator) -> list[dict]:
    """Triplets plus both models' decisions and evaluations."""
    rows = triplets(spec, r)
    prefs = [preference(row["human_scores"]) for row in rows]
    for model in MODELS:
        # Per dataset/method/model accuracy in the range the paper reports.
        decisions = {m: decide_all(prefs, float(r.uniform(0.62, 0.8)), r) for m in METHODS}
        for i, row in enumerate(rows):
            d = {m: decisions[m][i] for m in METHODS}
            row |= model_fields(model, row["_profiles"], d, r)
    for row in rows:
        del row["_profiles"]
    return rows


def ranking_table(r: np.random.Generator) -> pa.Table:
    rows = [row for spec in DATASETS for row in dataset_rows(spec, r)]
    # Extra columns from their own generator, so the published-figure columns stay as they were.
    extra = np.random.default_rng(SEED + 1)
    add_swapped(rows, extra)
    add_systems(rows, extra)
    fields = [("dataset", pa.string()), ("src_text", pa.string()),
              ("tgt_texts", pa.list_(pa.string())), ("src_lang", pa.string()),
              ("tgt_lang", pa.string()), ("src_lang_long", pa.string()),
              ("tgt_lang_long", pa.string()), ("human_scores", pa.list_(pa.float64()))]
    for model in MODELS:
        fields += [(f"{m}/{model}", pa.string()) for m in METHODS]
        fields += [(f"two_step_scoring/{model}", pa.string()),
                   (f"dim_evals/{model}", pa.list_(pa.string())),
                   (f"interleaved_dim_evals/{model}", pa.string())]
    fields += [(f"{SWAPPED_METHOD}/{model}", pa.string()) for model in MODELS]
    fields += [("tgt_systems", pa.list_(pa.string())), ("tgt_families", pa.list_(pa.string()))]
    return pa.Table.from_pylist(rows, pa.schema(fields))


# ------------------------------------------------------------ both orders, system families

# One-step rankings repeated with the two translations shown in the other order, for the first
# SWAPPED_PER_SOURCE pairs of each data source (70 of 260). Published-figure queries read only
# "<method>/<model>" columns, so "one_step_ranking_swapped/<model>" is never counted there.
SWAPPED_METHOD = "one_step_ranking_swapped"
SWAPPED_PER_SOURCE = 10
# Planted position preference in the swapped run: P(the model keeps picking the translation shown
# first) when its original pick was Translation 1, and when it was Translation 2.
STAY_FIRST = {1: 0.30, 2: 0.08}


def swapped_decision(d, r: np.random.Generator):
    """The decision on the swapped presentation (1 = the translation now shown first)."""
    if d == 1:  # now shown second: consistent is 2
        return 1 if r.random() < STAY_FIRST[1] else 2
    if d == 2:  # now shown first: consistent is 1
        return 2 if r.random() < STAY_FIRST[2] else 1
    if d == 0:
        return 0 if r.random() < 0.6 else 1
    return None if r.random() < 0.5 else int(r.choice([1, 2]))


def add_swapped(rows: list[dict], r: np.random.Generator) -> None:
    seen: dict[str, int] = {}
    for row in rows:
        k = seen[row["dataset"]] = seen.get(row["dataset"], 0) + 1
        for model in MODELS:
            text = None
            if k <= SWAPPED_PER_SOURCE:
                d = parse_decision(row[f"one_step_ranking/{model}"])
                text = ("Translations shown in swapped order. "
                        + decision_text(swapped_decision(d, r), r))
            row[f"{SWAPPED_METHOD}/{model}"] = text


# Candidate systems and their families. A judge's family is its model name (qwen, claude).
SYSTEM_FAMILIES = {"qwen2.5-72b-instruct": "qwen", "claude-3-5-sonnet-20240620": "claude",
                   "deepl": "deepl", "google-translate": "google", "nllb-200-3.3b": "nllb"}
THIRD_PARTY = ("deepl", "google-translate", "nllb-200-3.3b")
# Planted self-preference: where the two judges' one-step picks differ, the translation of a
# judge's family is the one that judge picked with this probability (else the other judge's
# pick); elsewhere it takes either position with probability 1/2.
SELF_PICK = 0.85


def add_systems(rows: list[dict], r: np.random.Generator) -> None:
    """Systems assigned after the decisions: 30% of pairs pit a Qwen-family translation and 30% a
    Claude-family one against a third-party system, the rest two third-party systems."""
    own = {"qwen": "qwen2.5-72b-instruct", "claude": "claude-3-5-sonnet-20240620"}
    for row in rows:
        u = r.random()
        a, b = (str(x) for x in r.choice(THIRD_PARTY, size=2, replace=False))
        if u < 0.6:
            judge = "qwen" if u < 0.3 else "claude"
            other = "claude" if judge == "qwen" else "qwen"
            mine = parse_decision(row[f"one_step_ranking/{judge}"])
            theirs = parse_decision(row[f"one_step_ranking/{other}"])
            if {mine, theirs} == {1, 2}:
                slot = mine - 1 if r.random() < SELF_PICK else 2 - mine
            else:
                slot = int(r.integers(0, 2))
            pair = [a, a]
            pair[slot], pair[1 - slot] = own[judge], a
        else:
            pair = [a, b]
        row["tgt_systems"] = pair
        row["tgt_families"] = [SYSTEM_FAMILIES[s] for s in pair]


# ------------------------------------------------------------ human_verification

SYSTEMS = ("gpt-4o-2024-08-06", "deepl", "google-translate", "qwen2.5-72b-instruct",
           "claude-3-5-sonnet-20240620", "nllb-200-3.3b")
HAIKU_EVAL = ("Accuracy: The imagery of the original is preserved.\nFluency: Reads as natural "
              "English verse.\nStyle: The three-line form echoes the 5-7-5 rhythm, though the "
              "syllable count is not kept.\nCultural nuance: The seasonal word is rendered "
              "{nuance}.")


def vendor_annotation(vendor: str, agree: bool, r: np.random.Generator) -> str:
    """Vendor 1 records yes/no agreement per dimension; vendor 2 rates 1-5 plus overall."""
    if vendor == "vendor1":
        ann = {f"{d.lower()}_agree": "yes" if agree or r.random() < 0.5 else "no"
               for d in DIMS}
        ann["comment"] = ("The evaluation is accurate." if agree else
                          "The evaluation misses an error in the second sentence.")
    else:
        ratings = {d.lower(): int(r.integers(4, 6) if agree else r.integers(1, 4)) for d in DIMS}
        overall = "agree" if agree else str(r.choice(["partially agree", "disagree"]))
        ann = {"ratings": ratings, "overall": overall}
    return json.dumps(ann, ensure_ascii=False, sort_keys=True)


def verification_rows(subset: str, n: int, r: np.random.Generator) -> list[dict]:
    rows = []
    vendor = subset.rsplit("-", 1)[1]
    for idx in range(n):
        if subset.startswith("haiku"):
            source, translation = HAIKU[idx % len(HAIKU)]
            # Repeated haiku come from other systems with other layouts.
            translation = (translation, translation.replace(" / ", "\n"),
                           translation.replace("— / ", "— ").replace(" / ", ", "))[idx // len(HAIKU) % 3]
            evaluation = HAIKU_EVAL.format(nuance=str(r.choice(
                ["faithfully", "loosely", "with an explanatory gloss"])))
        else:
            pair = tuple(int(k) for k in r.choice(len(BANK), size=2, replace=False))
            profile = draw_profiles(r)[0]
            other = next(k for k in range(len(BANK)) if k not in pair)
            source = _join("en", [BANK[k][0] for k in pair])
            translation = translate(pair, "en", "ja", profile, other)
            evaluation = dim_eval(profile)
        rows.append({"idx": idx, "subset": subset, "source": source,
                     "translation": translation, "evaluation": evaluation,
                     "annotations": vendor_annotation(vendor, r.random() < 0.8, r),
                     "system": str(r.choice(SYSTEMS))})
    return rows


def verification_table(r: np.random.Generator) -> pa.Table:
    rows = [row for subset, n in SUBSETS.items() for row in verification_rows(subset, n, r)]
    schema = pa.schema([("idx", pa.int64()), ("subset", pa.string()), ("source", pa.string()),
                        ("translation", pa.string()), ("evaluation", pa.string()),
                        ("annotations", pa.string()), ("system", pa.string())])
    return pa.Table.from_pylist(rows, schema)


DESCRIPTION = """
Scaled-down TransEvalnia: `with_human_ranking` holds translation triplets (source and two
translations) from the seven data sources of the card (hard en-ja, WMT 2021 en-ja and ja-en
DA, WMT 2022 en-ru, 2023 en-de and zh-en, 2024 en-es MQM) with human scores and
Qwen/Claude one-, two- and three-step ranking decisions; `human_verification` holds model
evaluations checked by two vendors. Human scores: 0-10 for hard en-ja, DA z-scores,
negated MQM. Higher is better everywhere. Not part of the published figures:
`one_step_ranking_swapped/<model>` repeats the one-step ranking with the two translations
shown in the other order for the first 10 pairs of each data source (70 of 260; "Translation 1"
there is the row's second translation), and `tgt_systems` / `tgt_families` name the system
behind each translation and its family (a judge's family is its model name), assigned after
the decisions with a planted self-preference.
"""


def generate(out_root: Path) -> dict:
    """Write out_root/transevalnia/ and verify it."""
    r = np.random.default_rng(SEED)
    ranking, verification = ranking_table(r), verification_table(r)
    folder = Path(out_root) / FOLDER
    files = write_hub_dataset(folder, "TransEvalnia", DESCRIPTION, {
        "with_human_ranking": {"train": ranking}, "human_verification": {"train": verification}})
    check(out_root)
    return {"folder": str(folder), "files": [str(p) for p in files],
            "rows": {"with_human_ranking": ranking.num_rows,
                     "human_verification": verification.num_rows}}


# ------------------------------------------------------------ check

def _expect(ok, message: str) -> None:
    # Explicit raise rather than `assert`, so checks survive python -O.
    if not ok:
        raise AssertionError(f"transevalnia demo drifted: {message}")


def load(out_root: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    data = Path(out_root) / FOLDER / "data"
    return (pd.read_parquet(data / "with_human_ranking-train.parquet"),
            pd.read_parquet(data / "human_verification-train.parquet"))


def _check_layout(df: pd.DataFrame) -> None:
    sizes = df["dataset"].value_counts().to_dict()
    expected = {name: n for name, _, _, _, n, _ in DATASETS}
    _expect(sizes == expected, f"rows per dataset {sizes}, expected {expected}")
    list_cols = ["tgt_texts", "human_scores"] + [f"dim_evals/{m}" for m in MODELS]
    for col in list_cols:
        _expect(df[col].map(len).eq(2).all(), f"{col} must hold exactly 2 entries")
    for name, src, tgt, _, _, _ in DATASETS:
        part = df[df["dataset"] == name]
        _expect((part["src_lang"] == src).all() and (part["tgt_lang"] == tgt).all()
                and (part["tgt_lang_long"] == LANG_LONG[tgt]).all()
                and (part["src_lang_long"] == LANG_LONG[src]).all(), f"{name}: languages")
        script = {"en": "[A-Za-z]"}.get(tgt, SCRIPT[tgt])
        _expect(part["tgt_texts"].map(lambda ts, script=script: all(re.search(script, t) for t in ts)).all(),
                f"{name}: translations not in {LANG_LONG[tgt]} script")
        _expect(part["src_text"].str.contains({"en": "[A-Za-z]"}.get(src, SCRIPT[src])).all(),
                f"{name}: sources not in {LANG_LONG[src]} script")


def _tie_share(part: pd.DataFrame) -> float:
    return float(part["human_scores"].map(lambda s: s[0] == s[1]).mean())


def _check_scores(df: pd.DataFrame) -> None:
    scale_of = {name: scale for name, *_, scale in DATASETS}
    for name, part in df.groupby("dataset"):
        flat = np.concatenate(part["human_scores"].to_numpy())
        scale = scale_of[name]
        if scale == "likert":
            _expect(((flat >= 0) & (flat <= 10)).all(), f"{name}: scores outside 0-10")
        if scale == "mqm":
            _expect((flat <= 0).all() and (flat == np.round(flat)).all(),
                    f"{name}: negated MQM must be non-positive integers")
        if scale == "da":
            _expect((flat != np.round(flat)).any(), f"{name}: DA z-scores look discrete")
        _expect(_tie_share(part) > 0, f"{name}: no human ties")
    by_scale = {s: _tie_share(df[df["dataset"].map(scale_of) == s]) for s in ("mqm", "da")}
    _expect(by_scale["mqm"] > by_scale["da"], f"MQM sets should tie more often: {by_scale}")


def _check_decisions(df: pd.DataFrame) -> None:
    pref = df["human_scores"].map(preference)
    human_first = float((pref == 1).mean())
    for model in MODELS:
        for method in METHODS:
            dec = df[f"{method}/{model}"].map(parse_decision)
            first = float((dec == 1).mean())
            _expect(first > human_first, f"{method}/{model}: no position bias "
                    f"({first:.2f} picks of Translation 1 vs human {human_first:.2f})")
            decided = pref != 0
            acc = float((dec[decided] == pref[decided]).mean())
            _expect(0.55 <= acc <= 0.85, f"{method}/{model}: accuracy {acc:.2f} out of range")
    every = pd.concat([df[f"{m}/{x}"] for m in METHODS for x in MODELS]).map(parse_decision)
    _expect(every.isna().any() and (every == 0).any(), "need undecided and tie decisions")


def _check_verification(hv: pd.DataFrame) -> None:
    counts = hv["subset"].value_counts().to_dict()
    _expect(counts == SUBSETS, f"human_verification subsets {counts}")
    _expect(not hv.duplicated(["subset", "idx"]).any(), "idx repeats within a subset")
    for subset, ann in zip(hv["subset"], hv["annotations"].map(json.loads)):
        if subset.endswith("vendor1"):
            _expect("comment" in ann and ann.get("accuracy_agree") in ("yes", "no"),
                    f"{subset}: vendor1 annotation shape {sorted(ann)}")
        else:
            ok = set(ann.get("ratings", {})) == {d.lower() for d in DIMS} and "overall" in ann
            _expect(ok, f"{subset}: vendor2 annotation shape {sorted(ann)}")


def _check_extras(df: pd.DataFrame) -> None:
    for model in MODELS:
        judged = df[f"{SWAPPED_METHOD}/{model}"].notna()
        _expect(int(judged.sum()) == SWAPPED_PER_SOURCE * len(DATASETS),
                f"{SWAPPED_METHOD}/{model}: {int(judged.sum())} pairs judged in both orders")
    fams = df["tgt_families"].map(list)
    _expect(fams.map(len).eq(2).all() and fams.map(lambda f: f[0] != f[1]).all(),
            "tgt_families: two different families per pair")


def check(out_root: Path) -> None:
    """Re-read the Parquet and raise AssertionError if the demo drifted from the card."""
    df, hv = load(out_root)
    _expect(set(df["dataset"]) == {d[0] for d in DATASETS}, "the seven data sources")
    _check_layout(df)
    _check_scores(df)
    _check_decisions(df)
    _check_extras(df)
    _check_verification(hv)


if __name__ == "__main__":  # pragma: no cover - convenience entry point
    import sys
    print(generate(Path(sys.argv[1] if len(sys.argv) > 1 else "data/demo")))
