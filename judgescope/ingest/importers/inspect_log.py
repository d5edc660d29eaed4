"""Inspect AI logs: `.eval` (a zip of header.json and samples/{id}_epoch_{n}.json, members
zstd-compressed by default since inspect_ai 0.3.206, or a chunked sample's
samples/{id}_epoch_{n}/sample.json with its attachments) and `.json` (the whole EvalLog).

Each sample's scores: a verdict (C / I, or a bool) → calibration_judgements, a number →
judge_audit, NaN → unscored (the ledger, with `reason` or the legacy metadata.unscored_reason).
The judge's own value is the first of `history` when the score was edited; each later edit with
`provenance.author` is a human label (→ calibration_items). The judge model is
eval.model_roles.grader, else the grading message's `model`."""

from __future__ import annotations

import re
import struct
import zipfile
import zlib
from pathlib import Path

from judgescope.ingest.importers.import_rows import (JUDGE_UNKNOWN, MAX_MEMBER_BYTES, UNDETERMINED,
                                                 VERDICT_BY_BOOL, Imported, human_items, is_nan,
                                                 number, parse_json, sha256_text, unknown_fields)
from judgescope.ingest.manifest import SourceError

NAME = "inspect"
TITLE = "Inspect AI log"
VERDICTS = {"C": "match", "I": "no_match"}
ZSTD = 93  # the zip compression method id of Zstandard
SAMPLE_MEMBER = re.compile(r"^samples/(.+)_epoch_(\d+)(/sample)?\.json$")
KNOWN_LOG = frozenset({"version", "status", "eval", "plan", "results", "stats", "error",
                       "invalidated", "tags", "metadata", "samples", "reductions", "location",
                       "etag", "eval_set_id", "log_updates"})
KNOWN_SAMPLE = frozenset({"id", "epoch", "input", "choices", "target", "sandbox", "files", "setup",
                          "messages", "output", "scores", "metadata", "store", "events",
                          "model_usage", "role_usage", "started_at", "completed_at", "total_time",
                          "working_time", "uuid", "invalidation", "error", "error_retries",
                          "attachments", "limit", "turn_count", "events_data",
                          "message_refs"})
KNOWN_SCORE = frozenset({"value", "answer", "explanation", "reason", "metadata", "history"})


def sniff(path: Path, head: bytes) -> bool:
    if path.suffix.lower() == ".eval":
        return head.startswith(b"PK")
    return path.suffix.lower() == ".json" and re.match(
        rb'\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:', head) is not None and b'"eval"' in head


def load(path: Path) -> Imported:
    if path.suffix.lower() == ".eval":
        header, samples = _read_zip(path)
    else:
        log = parse_json(path.read_bytes(), "the Inspect log")
        if not isinstance(log, dict) or not isinstance(log.get("eval"), dict):
            raise SourceError("not an Inspect log: no `eval` object")
        header, samples = log, log.get("samples") or []
    ev = header["eval"]
    version = f"inspect_ai {(ev.get('packages') or {}).get('inspect_ai', '?')}, log format {header.get('version')}"
    imp = Imported(f"Inspect AI {'.eval' if path.suffix.lower() == '.eval' else '.json'} log", version)
    unknown_fields(imp, header, KNOWN_LOG, "")
    if not samples:
        imp.notes.append("the log holds no samples (written with log_samples=False?)")
    labels: dict[str, dict] = {}
    items: dict[str, dict] = {}
    for n, sample in enumerate(samples, start=1):
        _sample(imp, ev, n, sample, labels, items)
    _place_unscored(imp)
    human_items(imp, labels, items)
    return imp


def _read_zip(path: Path) -> tuple[dict, list[dict]]:
    try:
        with zipfile.ZipFile(path) as z, path.open("rb") as fh:
            infos = {i.filename: i for i in z.infolist()}
            if "header.json" not in infos:
                raise SourceError("not an Inspect .eval log: no header.json in the zip")
            header = parse_json(_member(fh, infos["header.json"]), "header.json")
            attachments = _chunk_attachments(fh, infos)
            samples = []
            for name, info in sorted(infos.items(), key=lambda kv: _order(kv[0])):
                m = SAMPLE_MEMBER.match(name)
                if m:
                    sample = parse_json(_member(fh, info), name)
                    if m.group(3):  # a chunked sample's shell: metadata beside it, attachments by index
                        prefix = f"samples/{m.group(1)}_epoch_{m.group(2)}"
                        sample["_attachments"] = attachments.get(prefix, [])
                        if f"{prefix}/metadata.json" in infos and "metadata" not in sample:
                            sample["metadata"] = parse_json(_member(fh, infos[f"{prefix}/metadata.json"]),
                                                            f"{prefix}/metadata.json")
                    samples.append(sample)
    except zipfile.BadZipFile as err:
        raise SourceError(f"not a readable .eval zip: {err}") from err
    return header, samples


def _order(name: str):
    m = SAMPLE_MEMBER.match(name)
    if not m:
        return (1, "", 0)
    sid = m.group(1)
    return (0, (0, int(sid), "") if sid.isdigit() else (1, 0, sid), int(m.group(2)))


def _chunk_attachments(fh, infos: dict) -> dict[str, list]:
    """A chunked sample's attachments/{start}.json chunks, joined in order: prefix → strings."""
    out: dict[str, list] = {}
    pattern = re.compile(r"^(samples/.+_epoch_\d+)/attachments/(\d+)\.json$")
    chunks = sorted((m.group(1), int(m.group(2)), i) for n, i in infos.items() if (m := pattern.match(n)))
    for prefix, _, info in chunks:
        part = parse_json(_member(fh, info), info.filename)
        out.setdefault(prefix, []).extend(part if isinstance(part, list) else [])
    return out


def _member(fh, info: zipfile.ZipInfo) -> bytes:
    """A zip member's bytes; zstd (method 93) through the `zstandard` package, which Python's
    zipfile (before 3.14) cannot read. The CRC is checked either way."""
    if info.file_size > MAX_MEMBER_BYTES:
        raise SourceError(f"{info.filename} is over {MAX_MEMBER_BYTES >> 20} MB: not read")
    fh.seek(info.header_offset)
    local = fh.read(30)
    if local[:4] != b"PK\x03\x04":
        raise SourceError(f"{info.filename}: broken zip entry")
    name_len, extra_len = struct.unpack("<HH", local[26:30])
    fh.seek(info.header_offset + 30 + name_len + extra_len)
    raw = fh.read(info.compress_size)
    if info.compress_type == zipfile.ZIP_STORED:
        data = raw
    elif info.compress_type == zipfile.ZIP_DEFLATED:
        data = zlib.decompress(raw, -15)
    elif info.compress_type == ZSTD:
        data = _zstd(raw, info)
    else:
        raise SourceError(f"{info.filename}: zip compression method {info.compress_type} is not supported")
    if zlib.crc32(data) != info.CRC:
        raise SourceError(f"{info.filename}: CRC mismatch (the .eval file is damaged)")
    return data


def _zstd(raw: bytes, info: zipfile.ZipInfo) -> bytes:
    try:
        import zstandard
    except ImportError as err:
        raise SourceError("this .eval log's members are zstd-compressed: reading them needs the "
                          "`zstandard` package (pip install 'judgescope[importers]')") from err
    try:
        return zstandard.ZstdDecompressor().decompress(raw, max_output_size=info.file_size)
    except zstandard.ZstdError as err:
        raise SourceError(f"{info.filename}: not readable zstd data ({err})") from err


def _text(value, sample: dict):
    """A sample's input/target/output as text: attachment:// references resolved, a message
    list joined by its texts."""
    if isinstance(value, list):
        parts = [_text(v.get("content") if isinstance(v, dict) else v, sample) for v in value]
        return "\n".join(p for p in parts if p)
    if isinstance(value, dict):  # a content part
        return _text(value.get("text"), sample)
    if isinstance(value, str) and value.startswith("attachment://"):
        ref = value[len("attachment://"):]
        found = (sample.get("attachments") or {}).get(ref)
        if found is None and ref.isdigit() and int(ref) < len(sample.get("_attachments", [])):
            found = sample["_attachments"][int(ref)]
        return found if found is not None else value
    return value


def _output(sample: dict):
    out = sample.get("output") or {}
    if out.get("completion"):
        return _text(out["completion"], sample)
    choices = out.get("choices") or []
    return _text((choices[0].get("message") or {}).get("content"), sample) if choices else None


def _grading(score: dict) -> tuple[str | None, str | None]:
    """(the grader's model, SHA-256 of its prompt) from metadata.grading, where recorded."""
    grading = (score.get("metadata") or {}).get("grading") or []
    model = next((m.get("model") for m in grading if isinstance(m, dict) and m.get("model")), None)
    prompt = next((m.get("content") for m in grading if isinstance(m, dict) and m.get("role") == "user"), None)
    return model, sha256_text(prompt) if isinstance(prompt, str) else None


def _judge(ev: dict, score: dict) -> tuple[str, str | None, str | None]:
    """(judge model or JUDGE_UNKNOWN, why unknown, prompt digest)."""
    role = ((ev.get("model_roles") or {}).get("grader") or {}).get("model")
    model, prompt = _grading(score)
    if role or model:
        return role or model, None, prompt
    return JUDGE_UNKNOWN, "the log names no grader (no eval.model_roles.grader, no model on " \
        "the grading message): a scorer that is no model, or the task's own model", prompt


def _sample(imp: Imported, ev: dict, n: int, sample: dict, labels: dict, items: dict) -> None:
    unknown_fields(imp, {k: v for k, v in sample.items() if k != "_attachments"}, KNOWN_SAMPLE, "sample")
    sid, epoch = sample.get("id"), sample.get("epoch", 1)
    source, target, output = _text(sample.get("input"), sample), _text(sample.get("target"), sample), _output(sample)
    language = (sample.get("metadata") or {}).get("language") or UNDETERMINED
    common = {"source_text_sha256": sha256_text(source), "candidate_text_sha256": sha256_text(output)}
    for name, score in (sample.get("scores") or {}).items():
        unknown_fields(imp, score, KNOWN_SCORE, "score")
        history = score.get("history") or []
        first = history[0] if history and not history[0].get("provenance") else None
        judged = first.get("value") if first else (None if history else score.get("value"))
        key = f"{name}:{sid}#{epoch}"
        judge, why, prompt = _judge(ev, first or score)
        explanation = (first or score).get("explanation")
        if history and not first:
            imp.ignore(f"score {name} of sample {sid}: added by a person, no judge value")
        elif is_nan(judged):
            reason = score.get("reason") or (score.get("metadata") or {}).get("unscored_reason")
            imp.exclude(f"?{name}", n, f"unscored: {reason or 'no reason recorded'}",
                        f"{key}: {explanation or ''}", name)
        elif isinstance(judged, bool) or judged in VERDICTS:
            verdict = VERDICT_BY_BOOL[judged] if isinstance(judged, bool) else VERDICTS[judged]
            imp.add("calibration_judgements", {
                "_row": n, "key": key, "question_id": str(sid), "rep": epoch, "judge": name,
                "judge_model": judge, "verdict": verdict, "verdict_binary": int(verdict == "match"),
                "reason": explanation, "judge_unknown_reason": why, "judge_prompt_sha256": prompt,
                "target_language": language, **common})
        elif number(judged) is not None:
            imp.audit({
                "_row": n, "judge_record_id": f"{ev.get('task')}/{key}", "instance_id": str(sid),
                "target_language": language, "unit": "sample", "score": number(judged),
                "score_origin": name, "judge_explanation": explanation, "requested_judge_model":
                    None if judge == JUDGE_UNKNOWN else judge, "judge_unknown_reason": why,
                "judge_prompt_sha256": prompt, "run_group": ev.get("run_id"),
                "system": ev.get("model"), "dataset_version": ev.get("task"), **common}, source, output)
        else:
            imp.exclude(f"?{name}", n, f"score value {str(judged)[:20]!r} is neither C/I, a bool nor a number",
                        key, name)
        _human_labels(imp, history, key, n, labels)
        items.setdefault(key, {"question_id": str(sid), "rep": epoch, "question": source,
                               "reference_answer": target, "model_response": output,
                               "category": language})


def _place_unscored(imp: Imported) -> None:
    """A scorer's unscored samples join the kind its scored samples took (numbers: the audit;
    verdicts, or none scored at all: the judgements)."""
    numeric = {r["score_origin"] for r in imp.rows.get("judge_audit", [])}
    for pending in [k for k in imp.excluded if k.startswith("?")]:
        kind = "judge_audit" if pending[1:] in numeric else "calibration_judgements"
        imp.excluded.setdefault(kind, []).extend(imp.excluded.pop(pending))


def _human_labels(imp: Imported, history: list, key: str, n: int, labels: dict) -> None:
    """Each author's last edit of the value, in the order the authors first edited."""
    for edit in history:
        author = (edit.get("provenance") or {}).get("author")
        value = edit.get("value")
        if not author or value == "UNCHANGED":
            continue
        verdict = VERDICT_BY_BOOL.get(value) if isinstance(value, bool) else VERDICTS.get(value)
        if verdict is None:
            imp.ignore(f"human edits that are no C/I verdict ({key} by {author})")
            continue
        labels.setdefault(key, {})[author] = (n, verdict)
