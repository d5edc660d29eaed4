"""Scaled judge-audit data with the real schema, written in streamed record batches.

Row i of the audit and of the snapshot describe the same unit: language = i mod L, unit slot
j = i div L (4 paragraphs, a question and an answer per source), every other value a
deterministic hash (splitmix64) of i or j. Texts are built from per-script sentence pools with
realistic lengths (paragraphs 3–6 sentences, questions one, answers a few words); the English
source of a unit is the same in every language. One candidate in 2,000 carries a trailing space
that its recorded hash omits, so verification has whitespace-hinted mismatches to find.
Scores come in three kinds (SCORES): `int` (0–100 integers, a heavy lower tail), `float` (uniform-
ish on 0–100 with 4 decimals: nearly every row its own score) and `mixture` (4 decimals, most
rows high, 15% from a broad low component: a realistic judge with a heavy lower tail).
Layout: <folder>/audit, <folder>/snapshot (Hub layout with README configs) and sources.toml.
Rows are written in BATCH-row record batches and joined by a DuckDB connection capped at
GEN_MEMORY (spilling beside the data), so no size assumes the data fits in RAM.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from judgescope.duck import db
from judgescope.schema import LANGUAGE_NAMES

LANGUAGES = sorted(c for c in LANGUAGE_NAMES if c != "en")
BATCH = 250_000
SCORES = ("int", "float", "mixture")
GEN_MEMORY = "1GB"
POOL = 512  # sentences per language
UNITS = ("paragraph",) * 4 + ("question", "answer")
COLLECTION = "bench"
# Letters of each script; a "word" is 2–4 syllables of 1–3 letters.
SCRIPTS = {
    "latin": "abcdeéfghiíjklmnoópqrstuúvwyzàçãñ", "cyrillic": "абвгдежзийклмнопрстуфхцчшыэюя",
    "greek": "αβγδεζηθικλμνξοπρστυφχψω", "arabic": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "hebrew": "אבגדהוזחטיכלמנסעפצקרשת", "devanagari": "कखगघचछजझटठडढतथदधनपफबभमयरलवशसह",
    "bengali": "কখগঘচছজঝটঠডঢতথদধনপফবভমযরলশসহ", "thai": "กขคงจฉชซญดตถทธนบปผพฟภมยรลวศษสหอฮ",
    "cjk": "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长",
    "hangul": "가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허고노도로모보소오조초",
}
SCRIPT_OF = {"ar": "arabic", "fa": "arabic", "ur": "arabic", "he": "hebrew", "hi": "devanagari",
             "bn": "bengali", "th": "thai", "zh": "cjk", "ja": "cjk", "ko": "hangul",
             "ru": "cyrillic", "uk": "cyrillic", "el": "greek"}
ORIGINS = ("visible explicit SCORE: line", "parsed from JSON", "recovered from truncated output")
EXPLANATIONS = (
    "The translation conveys every fact of the source; names and dates are preserved.",
    "Accurate and complete rendering with appropriate register; only negligible stylistic differences.",
    "One clause is omitted and a date is rendered in the wrong calendar form.",
    "The answer entity is transliterated inconsistently with the paragraph.",
    "Meaning is preserved but the word order reads as a literal calque.",
    "A named entity is mistranslated as a common noun, which changes the fact.",
    "The candidate copies the English source instead of translating it.",
    "Minor terminology drift; the question remains answerable from the paragraph.",
)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64: a deterministic, well-spread hash of uint64 values."""
    with np.errstate(over="ignore"):
        x = (x + np.uint64(0x9E3779B97F4A7C15))
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def _hex(x: np.ndarray, width: int) -> np.ndarray:
    """Hex ids of `width` digits from a uint64 hash (extended by a second hash), vectorised."""
    y = _mix(x ^ np.uint64(0x5DEECE66D))
    raw = np.stack([x, y], axis=1).astype(">u8").view(np.uint8).reshape(len(x), 16)
    digits = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
    out = np.empty((len(x), 32), dtype=np.uint8)
    out[:, 0::2], out[:, 1::2] = digits[raw >> 4], digits[raw & 15]
    data = pa.py_buffer(out[:, :width].tobytes())
    offsets = pa.py_buffer((np.arange(len(x) + 1, dtype=np.int32) * width).tobytes())
    return pa.Array.from_buffers(pa.string(), len(x), [None, offsets, data])


SYSTEMS = ["mt-system-a", "mt-system-b", "mt-system-c"]  # the audit's optional `system` column


def _pick(values, index) -> pa.Array:
    """values[index] as an Arrow string array (index: int array, or bool → 1/0)."""
    return pa.array(values).take(pa.array(np.asarray(index).astype(np.int64)))


def _h(x: np.ndarray, salt: int, mod: int) -> np.ndarray:
    return (_mix(x * np.uint64(64) + np.uint64(salt)) % np.uint64(mod)).astype(np.int64)


def _sentence(rng: random.Random, letters: str, lo: int, hi: int, spaced: bool) -> str:
    out = ""
    while len(out) < rng.randint(lo, hi):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(2, 7 if spaced else 3)))
        out += (" " if out and spaced else "") + word
    return out[:1].upper() + out[1:] + ("." if spaced else "。")


def pools() -> tuple:
    """English runs, per-language runs (see _runs), per-language words, English sentences."""
    rng = random.Random(7)
    english = [_sentence(rng, "etaoinshrdlucmfwypvbgk", 50, 110, True) for _ in range(POOL)]
    sents, words = [], []
    for lang in LANGUAGES:
        letters = SCRIPTS[SCRIPT_OF.get(lang, "latin")]
        spaced = SCRIPT_OF.get(lang) not in ("cjk", "thai")
        lo, hi = (20, 45) if SCRIPT_OF.get(lang) == "cjk" else (50, 110)
        sents += [_sentence(rng, letters, lo, hi, spaced) for _ in range(POOL)]
        words += ["".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(POOL)]
    return (_runs(pa.array(english), 1), _runs(pa.array(sents), len(LANGUAGES)), pa.array(words),
            pa.array(english))


def _runs(pool: pa.Array, groups: int) -> pa.Array:
    """Every run of 1–3 consecutive sentences of each group's pool: index (g*POOL + k)*3 + c-1."""
    sents = pool.to_pylist()
    return pa.array([" ".join(sents[g * POOL + (k + m) % POOL] for m in range(c))
                     for g in range(groups) for k in range(POOL) for c in (1, 2, 3)])


def _text(runs: pa.Array, keys: np.ndarray, group: np.ndarray, count: np.ndarray) -> pa.Array:
    """`count` (1–6) sentences of the key's group: two runs picked by hash, joined."""
    first = np.minimum(count, 3)
    second = count - first
    a = runs.take(pa.array((group * POOL + _h(keys, 10, POOL)) * 3 + first - 1))
    b = runs.take(pa.array((group * POOL + _h(keys, 11, POOL)) * 3 + np.maximum(second, 1) - 1))
    b = pc.if_else(pa.array(second > 0), b, pa.scalar(None, pa.string()))
    return pc.binary_join_element_wise(a, b, " ", null_handling="skip")


def batch(start: int, stop: int, pool, scores: str = "int") -> tuple[pa.Table, pa.Table]:
    """Snapshot rows and audit rows (without hash columns) for audit rows start … stop-1."""
    english, sents, words, plain = pool
    i = np.arange(start, stop, dtype=np.uint64)
    lang = (i % np.uint64(len(LANGUAGES))).astype(np.int64)
    j = i // np.uint64(len(LANGUAGES))
    slot = (j % np.uint64(6)).astype(np.int64)
    src = j // np.uint64(6)
    is_par, is_q = slot < 4, slot == 4
    codes = pa.array(LANGUAGES).take(pa.array(lang))
    unit = pa.array(UNITS).take(pa.array(slot))
    source_id = (_hex(_mix(src + np.uint64(1 << 50)), 24))
    instance_id = pc.binary_join_element_wise(source_id, codes, "_")
    para = _pick(["p0", "p1", "p2", "p3", None, None], slot)
    n_src = np.where(is_par, 3 + _h(j, 1, 4), 1)
    n_cand = np.where(is_par, 3 + _h(i, 2, 4), 1)
    source = _text(english, j, np.zeros_like(lang), n_src)
    cand = _text(sents, i, lang, n_cand)
    answer = pc.binary_join_element_wise(words.take(pa.array(lang * POOL + _h(i, 3, POOL))),
                                         words.take(pa.array(lang * POOL + _h(i, 4, POOL))), " ")
    src_answer = plain.take(pa.array(_h(j, 5, POOL)))
    short = pc.utf8_rtrim_whitespace(pc.utf8_slice_codeunits(src_answer, 0, 12))
    source = pc.if_else(pa.array(slot == 5), short, source)
    cand = pc.if_else(pa.array(slot == 5), answer, cand)
    copied = pa.array((slot == 5) & (_h(i, 7, 50) == 0))  # a name kept as is: an exact copy
    cand = pc.if_else(copied, source, cand)
    spaced = pa.array(_h(i, 6, 2000) == 0)  # recorded hash omits this trailing space
    cand = pc.if_else(spaced, pc.binary_join_element_wise(cand, pa.scalar(""), " "), cand)
    snapshot = pa.table({"instance_id": instance_id, "source_id": source_id,
                         "source_language": _pick(["en"], np.zeros(len(i), dtype=np.int64)),
                         "target_language": codes,
                         "unit": unit, "paragraph_id": para, "source_text": source,
                         "candidate_text": cand})
    audit = _audit_columns(i, j, lang, slot, is_q, snapshot, scores)
    return snapshot, audit


def _scores(i, lang, is_q, kind: str) -> np.ndarray:
    """Deterministic scores of audit rows i (see SCORES)."""
    u = _h(i, 20, 1_000_003) / 1_000_003.0
    penalty = (np.arange(len(LANGUAGES)) * 7 % 13)[lang]
    if kind == "int":
        return np.clip(np.round(100 - 50 * u ** 6 - 6 * u - penalty * u ** 2 - 4 * is_q), 0, 100)
    if kind == "float":
        return np.round(np.clip(100 * u - penalty * u * (1 - u) - 2 * is_q * u, 0, 100), 4)
    if kind != "mixture":
        raise ValueError(f"unknown score kind {kind!r} (one of {', '.join(SCORES)})")
    high = 100 - 25 * u ** 3 - penalty * u ** 2 / 2 - 3 * is_q
    w = _h(i, 26, 1_000_003) / 1_000_003.0
    low = 100 * w ** 1.5 * (1 - 0.3 * u)  # broad, most of its mass below 50
    return np.round(np.clip(np.where(_h(i, 27, 100) < 15, low, high), 0, 100), 4)


def _audit_columns(i, j, lang, slot, is_q, snapshot, kind: str = "int") -> pa.Table:
    score = _scores(i, lang, is_q, kind)
    origin_h, run_h = _h(i, 21, 100), _h(i, 22, 100)
    expl_idx = np.where(score >= 90, _h(i, 23, 2), 2 + _h(i, 23, len(EXPLANATIONS) - 2))
    expl = pa.array(EXPLANATIONS).take(pa.array(expl_idx))
    expl = pc.if_else(pa.array(_h(i, 24, 50) == 0), pa.scalar(None, pa.string()), expl)
    zero, recovery = np.zeros(len(i), dtype=np.int64), run_h >= 85
    return pa.table({
        "judge_record_id": _hex(_mix(i + np.uint64(1 << 40)), 32),
        "dataset_version": _pick(["v2"], zero), "dataset_revision": _pick(["b05ba394ad73"], zero),
        "instance_id": snapshot["instance_id"], "source_id": snapshot["source_id"],
        "source_split": _pick(["validation", "train"], _h(j // np.uint64(6), 25, 10) < 8),
        "source_language": snapshot["source_language"],
        "target_language": snapshot["target_language"], "unit": snapshot["unit"],
        "paragraph_id": snapshot["paragraph_id"],
        "score": pa.array(score.astype(np.int64) if kind == "int" else score),
        "score_origin": _pick(ORIGINS, (origin_h >= 90).astype(int) + (origin_h >= 97)),
        "judge_explanation": expl,
        "system": _pick(SYSTEMS, _h(i, 28, len(SYSTEMS))),
        "requested_judge_model": _pick(["glm-5.2"], zero),
        "resolved_judge_revision": _pick(["glm-5.2-0611", "glm-5.2-0702"], recovery),
        "judge_prompt_version": _pick(["xhqa-judge-pq-v3", "xhqa-judge-a-v2"], slot == 5),
        "judge_prompt_sha256": _pick(["e939a00a" * 8, "1f2e3d4c" * 8], slot == 5),
        "run_group": _pick(["main", "paragraph_question_recovery"], recovery),
        "raw_artifact_sha256": _pick(["a6493179" * 8, "5b8c2e01" * 8], recovery),
        "raw_line_number": pa.array(i.astype(np.int64) + 1),
    })


AUDIT_README = """---
configs:
- config_name: bench_judge
  data_files:
  - split: audit
    path: data/bench_judge-audit.parquet
---

# Scaled synthetic judge audit ({rows:,} rows, {scores} scores), generated by `python -m bench`.
"""
SNAPSHOT_README = """---
configs:
- config_name: bench_snapshot
  data_files:
  - split: train
    path: data/bench_snapshot-train.parquet
---

# Source snapshot of the scaled synthetic audit ({rows:,} rows), generated by `python -m bench`.
"""
MANIFEST = """# Scaled synthetic benchmark data ({rows:,} audit rows), written by python -m bench.
[[collection]]
name = "{collection}"
title = "Benchmark: {rows:,} judge rows ({scores} scores)"
datasets = ["bench_audit", "bench_snapshot"]
join_key = ["instance_id", "target_language", "unit", "paragraph_id"]

[[dataset]]
name = "bench_audit"
kind = "judge_audit"
title = "Scaled synthetic audit"
path = "audit"
synthetic = true

[[dataset]]
name = "bench_snapshot"
kind = "source_snapshot"
title = "Scaled synthetic snapshot"
path = "snapshot"
form = "flat"
synthetic = true
"""
HASHED = """COPY (
  SELECT a.* EXCLUDE (requested_judge_model, resolved_judge_revision, judge_prompt_version,
                      judge_prompt_sha256, run_group, raw_artifact_sha256, raw_line_number),
         sha256(s.source_text) AS source_text_sha256,
         sha256(CASE WHEN suffix(s.candidate_text, ' ') THEN rtrim(s.candidate_text, ' ')
                     ELSE s.candidate_text END) AS candidate_text_sha256,
         a.requested_judge_model, a.resolved_judge_revision, a.judge_prompt_version,
         a.judge_prompt_sha256, a.run_group, a.raw_artifact_sha256, a.raw_line_number
  FROM read_parquet($base) a POSITIONAL JOIN read_parquet($snap) s
) TO $out (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)"""


def manifest_path(folder: Path) -> Path:
    return folder / "sources.toml"


def generate(rows: int, folder: Path, scores: str = "int") -> Path:
    """Write audit + snapshot (Hub layout) and sources.toml into folder; return the manifest."""
    if manifest_path(folder).exists():
        return manifest_path(folder)
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    for part, readme in (("audit", AUDIT_README), ("snapshot", SNAPSHOT_README)):
        (tmp / part / "data").mkdir(parents=True)
        (tmp / part / "README.md").write_text(readme.format(rows=rows, scores=scores),
                                             encoding="utf-8")
    snap = tmp / "snapshot" / "data" / "bench_snapshot-train.parquet"
    base = tmp / "audit_base.parquet"
    pool = pools()
    writers = {}
    for start in range(0, rows, BATCH):
        s, a = batch(start, min(rows, start + BATCH), pool, scores)
        for path, table in ((snap, s), (base, a)):
            if path not in writers:
                writers[path] = pq.ParquetWriter(path, table.schema, compression="zstd")
            writers[path].write_table(table, row_group_size=122_880)
    for w in writers.values():
        w.close()
    con = db.scratch(memory_limit=GEN_MEMORY, temp_dir=tmp / ".spill")
    con.execute(HASHED, {"base": str(base), "snap": str(snap),
                         "out": str(tmp / "audit" / "data" / "bench_judge-audit.parquet")})
    con.close()
    base.unlink()
    shutil.rmtree(tmp / ".spill", ignore_errors=True)
    manifest_path(tmp).write_text(MANIFEST.format(rows=rows, collection=COLLECTION, scores=scores),
                                  encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return manifest_path(folder)
