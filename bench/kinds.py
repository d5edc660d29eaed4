"""The data of the README's other commands at the bench's sizes (issue 45 item 4): an earlier run
of the bench's judge over the same units (`drift`), calibration answers with three human verdicts
and three judges' verdicts on them (`calibrate`), and pairwise ranking decisions of two models
(`rank`). Written beside the bench's data as plain Parquet files, which the commands read as
files (no manifest), so the collection a first open builds stays the audit and its snapshot.

Deterministic, as bench/generate.py is: every value a splitmix64 hash of the row's index, written
in streamed BATCH-row record batches, so no size assumes the rows fit in RAM.

- The earlier run (EARLIER): every row of the bench audit with a new record id, version `v1`, a
  score the earlier judge gave EARLIER_ANSWER_SHIFT points higher on answers (with ±2 points of
  noise elsewhere), and one candidate in CHANGED_EVERY rewritten (a different candidate hash, so
  that unit is not an anchor: its text changed between the runs).
- Calibration: `rows` judgements, i.e. rows // 3 answers (CALIBRATION_ITEMS) × the three judges
  of JUDGES. An answer is correct with probability TRUE_RATE; each human agrees with the truth with
  probability HUMAN_AGREES and says no_answer on one answer in 50; each judge says match with its
  sensitivity on a correct answer and one minus its specificity on a wrong one.
- Ranking: `rows` pairs of two translations of one English source, two human scores and the
  one-step and two-step ranking decisions of two models, in the phrasings the TransEvalnia demo
  uses.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from bench.generate import BATCH, LANGUAGES, _h, _hex, _mix, _pick, _text, pools

EARLIER = "earlier/bench_earlier.parquet"
ITEMS, JUDGEMENTS = "calibration/bench_items.parquet", "calibration/bench_judgements.parquet"
RANKING = "ranking/bench_ranking.parquet"
EARLIER_ANSWER_SHIFT = 3.0
CHANGED_EVERY = 10
JUDGES = {"judge-a": (0.92, 0.80), "judge-b": (0.85, 0.90), "judge-c": (0.70, 0.95)}  # (se, sp)
TRUE_RATE, HUMAN_AGREES = 0.60, 0.90
RANKERS = ("model-a", "model-b")
RANK_METHODS = ("one_step_ranking", "two_step_ranking")
# The phrasings of bench rank decisions (d = the better translation, 1 or 2; 0 a tie; None none).
PHRASES = ("Translation {d} is better.", "Overall, Translation {d} is the best translation.",
           "Both are close, but Translation {d} is marginally better.",
           "I would rank Translation {d} first, though the difference is small.")
TIE, NONE = "Both translations are of equal quality.", \
    "Both translations have strengths and weaknesses in accuracy and style."
ROW_GROUP = 122_880


def calibration_items(rows: int) -> int:
    """Answers of a calibration of `rows` judgements (three judges each), at least one."""
    return max(1, rows // len(JUDGES))


def _u(i: np.ndarray, salt: int) -> np.ndarray:
    """A uniform draw in [0, 1) per index, deterministic."""
    return _h(i, salt, 1_000_003) / 1_000_003.0


def _write(path: Path, batches) -> Path:
    """Write record batches (an iterable of tables) to `path` via a temporary name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    writer = None
    for table in batches:
        if writer is None:
            writer = pq.ParquetWriter(tmp, table.schema, compression="zstd")
        writer.write_table(table, row_group_size=ROW_GROUP)
    writer.close()
    tmp.rename(path)
    return path


def earlier_batch(table: pa.Table) -> pa.Table:
    """The earlier run of bench audit rows (see the module's docstring); row i is raw_line_number − 1."""
    i = (table["raw_line_number"].to_numpy() - 1).astype(np.uint64)
    score = table["score"].to_numpy().astype(np.float64)
    answer = (table["unit"].to_numpy(zero_copy_only=False) == "answer")
    noise = np.round((_u(i, 40) - 0.5) * 4, 4)
    before = np.clip(score + np.where(answer, EARLIER_ANSWER_SHIFT, 0.0) + noise, 0, 100)
    integer = pa.types.is_integer(table.schema.field("score").type)
    before = pa.array(np.round(before).astype(np.int64) if integer else np.round(before, 4),
                      table.schema.field("score").type)
    changed = pa.array(_h(i, 41, CHANGED_EVERY) == 0)
    rewritten = _hex(_mix(i + np.uint64(1 << 45)), 32)
    candidate = pc.if_else(changed, pc.binary_join_element_wise(rewritten, rewritten, ""),
                           table["candidate_text_sha256"])
    out = table
    for name, values in (("judge_record_id", _hex(_mix(i + np.uint64(1 << 44)), 32)),
                         ("dataset_version", _pick(["v1"], np.zeros(len(i), dtype=np.int64))),
                         ("score", before), ("candidate_text_sha256", candidate)):
        out = out.set_column(out.schema.get_field_index(name), name, values)
    return out


def write_earlier(folder: Path) -> Path:
    """EARLIER from the bench audit of `folder`, batch by batch."""
    audit = next((folder / "audit" / "data").glob("*.parquet"))
    source = pq.ParquetFile(audit)
    return _write(folder / EARLIER, (earlier_batch(pa.Table.from_batches([b]))
                                     for b in source.iter_batches(batch_size=BATCH)))


def calibration_batches(start: int, stop: int) -> tuple[pa.Table, pa.Table]:
    """Items start … stop-1 and their judgements (one per judge, in JUDGES' order)."""
    i = np.arange(start, stop, dtype=np.uint64)
    n = len(i)
    key = _hex(_mix(i + np.uint64(1 << 46)), 16)
    correct = _u(i, 50) < TRUE_RATE
    humans = {}
    for h in range(3):
        agrees = _u(i, 51 + h) < HUMAN_AGREES
        says = np.where(agrees, correct, ~correct)
        verdict = np.where(_h(i, 55 + h, 50) == 0, 2, np.where(says, 0, 1))
        humans[f"human_{h + 1}_verdict"] = _pick(["match", "no_match", "no_answer"], verdict)
    items = pa.table({"key": key, "question_id": _hex(_mix(i // np.uint64(3) + np.uint64(1 << 47)), 12),
                      "rep": pa.array((i % np.uint64(3)).astype(np.int64)), **humans,
                      "split": _pick(["calibration", "holdout"], _h(i, 58, 5) == 0),
                      "category": _pick(["factual", "numeric", "multi-hop"], _h(i, 59, 3))})
    parts = []
    for k, (judge, (se, sp)) in enumerate(JUDGES.items()):
        says = np.where(correct, _u(i, 60 + k) < se, _u(i, 60 + k) >= sp)
        parts.append(pa.table({"key": key, "judge_model": _pick([judge], np.zeros(n, dtype=np.int64)),
                               "verdict": _pick(["match", "no_match"], ~says),
                               "verdict_binary": pa.array(says.astype(np.int64))}))
    return items, pa.concat_tables(parts)


def write_calibration(folder: Path, rows: int) -> tuple[Path, Path]:
    """ITEMS and JUDGEMENTS of calibration_items(rows) answers."""
    answers = calibration_items(rows)
    paths = (folder / ITEMS, folder / JUDGEMENTS)
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
    writers = [None, None]
    for start in range(0, answers, BATCH):  # each batch drawn once, written to both files
        for k, table in enumerate(calibration_batches(start, min(answers, start + BATCH))):
            if writers[k] is None:
                writers[k] = pq.ParquetWriter(paths[k].with_name(paths[k].name + ".tmp"), table.schema,
                                              compression="zstd")
            writers[k].write_table(table, row_group_size=ROW_GROUP)
    for path, writer in zip(paths, writers):
        writer.close()
        path.with_name(path.name + ".tmp").rename(path)
    return paths


def _decision(d: np.ndarray, i: np.ndarray, salt: int) -> pa.Array:
    """Decision texts: d = 1 or 2 the better translation (one of PHRASES), 0 a tie, −1 none."""
    phrase = _h(i, salt, len(PHRASES))
    texts = [p.format(d=k) for k in (1, 2) for p in PHRASES] + [TIE, NONE]
    index = np.where(d == 0, 2 * len(PHRASES), np.where(d < 0, 2 * len(PHRASES) + 1,
                                                          (d - 1) * len(PHRASES) + phrase))
    return _pick(texts, index)


def ranking_batch(start: int, stop: int, pool) -> pa.Table:
    """Ranking pairs start … stop-1: an English source, two translations into one language, two
    human scores on 0–100 and each model's decision per method (right about 3 times in 4)."""
    english, sents, _, _ = pool
    i = np.arange(start, stop, dtype=np.uint64)
    lang = (i % np.uint64(len(LANGUAGES))).astype(np.int64)
    count = 1 + _h(i, 70, 3)
    first = _text(sents, i * np.uint64(2), lang, count)
    second = _text(sents, i * np.uint64(2) + np.uint64(1), lang, count)
    h1, h2 = np.round(40 + 60 * _u(i, 71), 1), np.round(40 + 60 * _u(i, 72), 1)
    human = np.where(h1 > h2, 1, np.where(h2 > h1, 2, 0))
    offsets = pa.array(np.arange(len(i) + 1, dtype=np.int32) * 2)
    pair = pa.ListArray.from_arrays(offsets, _interleave(first, second))
    scores = pa.ListArray.from_arrays(offsets, pa.array(np.stack([h1, h2], axis=1).ravel()))
    columns = {"dataset": _pick(["bench"], np.zeros(len(i), dtype=np.int64)),
               "src_text": _text(english, i, np.zeros_like(lang), count), "tgt_texts": pair,
               "src_lang": _pick(["en"], np.zeros(len(i), dtype=np.int64)),
               "tgt_lang": pa.array(LANGUAGES).take(pa.array(lang)), "human_scores": scores}
    for m, model in enumerate(RANKERS):
        for k, method in enumerate(RANK_METHODS):
            salt = 73 + 4 * m + k
            u = _u(i, salt)
            d = np.where(u < 0.75, np.where(human == 0, 1, human), np.where(u < 0.9, 3 - np.maximum(human, 1),
                                                                           np.where(u < 0.97, 0, -1)))
            columns[f"{method}/{model}"] = _decision(d, i, salt + 40)
    return pa.table(columns)


def _interleave(a: pa.Array, b: pa.Array) -> pa.Array:
    """a0, b0, a1, b1, …: the values of a list array of pairs."""
    both = pa.concat_arrays([a, b])
    n = len(a)
    order = np.empty(2 * n, dtype=np.int64)
    order[0::2], order[1::2] = np.arange(n), np.arange(n) + n
    return both.take(pa.array(order))


def write_ranking(folder: Path, rows: int) -> Path:
    pool = pools()
    return _write(folder / RANKING, (ranking_batch(s, min(rows, s + BATCH), pool)
                                     for s in range(0, max(rows, 1), BATCH)))


def ensure(folder: Path, rows: int, commands: list[str]) -> dict[str, float]:
    """The files `commands` (of calibrate, rank, drift) read at this size, written if missing:
    seconds spent writing each, by file."""
    import time
    writers = {"drift": ((EARLIER,), lambda: write_earlier(folder)),
               "calibrate": ((ITEMS, JUDGEMENTS), lambda: write_calibration(folder, rows)),
               "rank": ((RANKING,), lambda: write_ranking(folder, rows))}
    spent = {}
    for name in commands:
        files, write = writers[name]
        if not all((folder / f).exists() for f in files):
            t = time.perf_counter()
            write()
            spent[files[0]] = time.perf_counter() - t
    return spent
