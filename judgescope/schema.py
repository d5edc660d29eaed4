"""Vocabulary, defined once: dataset kinds and their columns, language names, unit order, labels."""

from __future__ import annotations

import contextvars
from dataclasses import dataclass, field

# Column types understood by validation. "score" is numeric and must lie in 0–100.
# "digest" is a SHA-256 hex digest, normalised once at validation (lower-case, trimmed).
TEXT, INT, NUMBER, SCORE, VERDICT, BINARY, TEXT_PAIR, NUMBER_PAIR, ANY, DIGEST = (
    "text", "int", "number", "score", "verdict", "binary", "text_pair", "number_pair", "any",
    "digest")

VERDICTS = ("match", "no_match", "no_answer")


@dataclass(frozen=True)
class Column:
    name: str
    type: str = TEXT
    required: bool = False
    nullable: bool = True
    doc: str = ""


@dataclass(frozen=True)
class Schema:
    kind: str
    role: str  # the DuckDB view name this kind is exposed as inside a collection
    columns: tuple[Column, ...]
    unique: tuple[str, ...] = ()
    doc: str = ""
    extra: dict = field(default_factory=dict)
    # Required columns that another name may stand for ({"tgt_texts": ("translations",)}), and
    # groups of which at least one column must be present (kind detection reads both).
    alternatives: dict = field(default_factory=dict)
    any_of: tuple[tuple[str, ...], ...] = ()
    # False for a kind whose columns are another kind's (detection never picks it; --kind does).
    detectable: bool = True

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    @property
    def required(self) -> list[str]:
        return [c.name for c in self.columns if c.required]


def _c(name, type_=TEXT, required=False, nullable=True, doc=""):
    return Column(name, type_, required, nullable, doc)


_AUDIT_COLUMNS = (
    _c("judge_record_id", required=True, nullable=False, doc="Deterministic hash of version and unit identity"),
    _c("dataset_version"), _c("dataset_revision"),
    _c("instance_id"), _c("source_id"), _c("source_split"),
    _c("source_language", doc="Language of the source text (code); shown above it in Review"),
    _c("target_language", required=True, nullable=False), _c("unit", required=True, nullable=False),
    _c("paragraph_id"),
    _c("score", SCORE, required=True, nullable=False, doc="Judge score on 0–100"),
    _c("score_origin"), _c("judge_explanation"),
    _c("source_text_sha256", DIGEST), _c("candidate_text_sha256", DIGEST),
    _c("requested_judge_model"), _c("resolved_judge_revision"),
    _c("judge_prompt_version"), _c("judge_prompt_sha256"), _c("run_group"),
    _c("raw_artifact_sha256"), _c("raw_line_number", INT),
    _c("system", doc="The MT system or model whose output was judged; Distributions splits by it"),
)

# Long-format human ratings: an item is identified by every one of these columns it has.
HUMAN_ITEM_COLUMNS = ("item_id", "doc", "doc_seg_id", "global_seg_id", "segment_id", "system")
HUMAN_RATING_VALUES = ("score", "mqm", "verdict")
HUMAN_RATING_COLUMNS = (
    _c("rater", required=True, nullable=False, doc="Rater id"),
    _c("item_id"), _c("doc"), _c("doc_seg_id", INT), _c("global_seg_id", INT), _c("segment_id"),
    _c("system"), _c("score", NUMBER, doc="Numeric rating (any scale)"),
    _c("mqm", NUMBER, doc="MQM score (errors weighted; lower is better)"),
    _c("verdict", doc="Categorical rating, e.g. no_error / minor / major"),
    _c("error_spans", ANY, doc="The rater's error spans: a JSON list of {start, end, category, "
       "severity}, character offsets into target_text"),
    _c("source_language"), _c("target_language"),
    _c("source_text", doc="The source the item translates (shown with the error spans)"),
    _c("target_text", doc="The translation rated; error_spans point into it"),
)

SCHEMAS: dict[str, Schema] = {s.kind: s for s in (
    Schema("judge_audit", "audit", _AUDIT_COLUMNS, unique=("judge_record_id",),
           doc="One judge score per translated unit (the XHotpotQA judge audit's published schema)."),
    Schema("raw_judge_records", "raw_records",
           tuple(c if c.name != "score" else _c("score", SCORE, required=True) for c in _AUDIT_COLUMNS),
           unique=("judge_record_id",), detectable=False,
           doc="Every record the judge run produced, including runs a release excludes "
               "(the columns of judge_audit: never detected, name it with kind/--kind)."),
    Schema("source_snapshot", "snapshot", (
        _c("instance_id"), _c("source_id"), _c("source_language"), _c("target_language"),
        _c("unit"), _c("paragraph_id"), _c("source_text", required=True), _c("candidate_text", required=True),
    ), doc="The source and translated candidate of each unit (flat form)."),
    Schema("calibration_items", "items", (
        _c("key", required=True, nullable=False), _c("question_id"), _c("rep", INT),
        _c("question"), _c("reference_answer"), _c("model_response"),
        _c("human_1_verdict", VERDICT, required=True, nullable=False),
        _c("human_2_verdict", VERDICT, required=True, nullable=False),
        _c("human_3_verdict", VERDICT, required=True, nullable=False),
        _c("human_correct", BINARY), _c("panel_correct", BINARY), _c("split"), _c("category"),
    ), unique=("key",), doc="Answers with three human verdicts (LocalGate's calibration_items)."),
    Schema("calibration_judgements", "judgements", (
        _c("key", required=True, nullable=False), _c("question_id"), _c("rep", INT),
        _c("judge"), _c("judge_model", required=True, nullable=False),
        _c("verdict", VERDICT, required=True, nullable=False), _c("verdict_binary", BINARY),
        _c("reason"), _c("tokens_in", INT), _c("tokens_out", INT), _c("finish_reason"),
        _c("prompts"), _c("template"), _c("output_mode"), _c("reasoning_effort"),
    ), unique=("key", "judge_model"), doc="One judge verdict per answer (LocalGate's calibration config)."),
    Schema("pairwise_ranking", "ranking", (
        _c("dataset"), _c("src_text", required=True), _c("tgt_texts", TEXT_PAIR, required=True),
        _c("src_lang"), _c("tgt_lang"), _c("src_lang_long"), _c("tgt_lang_long"),
        _c("human_scores", NUMBER_PAIR, required=True),
    ), alternatives={"tgt_texts": ("translations",)},
        doc="Two translations, two human scores, model ranking decisions (TransEvalnia)."),
    Schema("human_verification", "verification", (
        _c("idx", INT), _c("subset"), _c("source", required=True), _c("translation", required=True),
        _c("evaluation", required=True), _c("annotations", ANY), _c("system"),
    ), doc="Model evaluations with vendors' human verification (TransEvalnia)."),
    Schema("human_ratings", "ratings", HUMAN_RATING_COLUMNS,
           any_of=(HUMAN_ITEM_COLUMNS, HUMAN_RATING_VALUES),
           doc="One row per rater per item (long format, e.g. multi-rater MQM): the item is "
               "every item column present, together."),
)}

KINDS = tuple(SCHEMAS)

# Decision columns of pairwise ranking data are named "<method>/<model>".
RANKING_METHODS = ("one_step_ranking", "two_step_ranking", "three_step_ranking", "two_step_scoring")

LANGUAGE_NAMES = {
    "ar": "Arabic", "bn": "Bengali", "de": "German", "el": "Greek", "en": "English",
    "es": "Spanish", "fa": "Persian", "fr": "French", "hi": "Hindi", "id": "Indonesian",
    "it": "Italian", "ja": "Japanese", "ko": "Korean", "nl": "Dutch", "pl": "Polish",
    "pt": "Portuguese", "ru": "Russian", "sv": "Swedish", "sw": "Swahili", "th": "Thai",
    "tr": "Turkish", "ur": "Urdu", "vi": "Vietnamese", "zh": "Mandarin Chinese",
    "he": "Hebrew", "cs": "Czech", "uk": "Ukrainian", "uz": "Uzbek",
}
RTL_LANGUAGES = frozenset({"ar", "fa", "ur", "he", "yi", "ps", "sd", "ug", "dv"})

# Units are ordered from longest to shortest when known; unknown units sort after, by name.
UNIT_ORDER = ("paragraph", "segment", "question", "answer")

NOT_RECORDED = "not recorded"


# Target language → its one source language, for the audit being shown (set per page run by
# the web layer when the audit's rows come from more than one source language, so a label
# says "Mandarin Chinese → English" where "English" alone would hide the direction).
_PAIRS: contextvars.ContextVar[tuple] = contextvars.ContextVar("language_pairs", default=())


def use_language_pairs(pairs: dict[str, str]) -> None:
    _PAIRS.set(tuple(pairs.items()))


def language_pairs(rows) -> dict[str, str]:
    """target → source from (target, source) pairs of an audit: only when its rows come from
    more than one source language, and only for targets translated from exactly one."""
    sources: dict[str, set] = {}
    for target, source in rows:
        if target is not None and source is not None:
            sources.setdefault(str(target), set()).add(str(source))
    if len(set().union(*sources.values()) if sources else set()) < 2:
        return {}
    return {t: next(iter(s)) for t, s in sources.items() if len(s) == 1}


def _plain_name(code: str) -> str | None:
    return LANGUAGE_NAMES.get(str(code).split("-")[0].split("_")[0].lower())


def language_name(code: str | None, pair: bool = True) -> str:
    """'German (de)'; for a target language of an audit with several source languages (and
    `pair`), 'English → German (en-de)'. A source language's own label passes pair=False."""
    if code is None:
        return NOT_RECORDED
    name = _plain_name(code)
    source = dict(_PAIRS.get()).get(str(code)) if pair else None
    if source is not None:
        return f"{_plain_name(source) or source} → {name or code} ({source}-{code})"
    return f"{name} ({code})" if name else str(code)


def unit_sort_key(unit: str) -> tuple[int, str]:
    return (UNIT_ORDER.index(unit) if unit in UNIT_ORDER else len(UNIT_ORDER), str(unit))


def sort_units(units) -> list[str]:
    return sorted(units, key=unit_sort_key)


LABELS = {
    "target_language": "Language", "unit": "Unit", "n": "n", "mean": "Mean",
    "median": "Median", "sd": "SD", "score": "Score", "score_origin": "Score origin",
    "judge_explanation": "Explanation", "run_group": "Run group", "dataset": "Dataset",
    "file": "File", "row": "Row", "column": "Column", "reason": "Reason", "value": "Value",
    "record_id": "Record id", "kind": "Kind", "rows_loaded": "Loaded", "rows_used": "Used",
    "rows_excluded": "Excluded", "ci_low": "95% CI low", "ci_high": "95% CI high",
    "share_low": "Share 95% CI low", "share_high": "Share 95% CI high",
}


def label(column: str) -> str:
    return LABELS.get(column, column.replace("_", " ").capitalize())
