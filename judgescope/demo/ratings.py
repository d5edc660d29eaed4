"""Synthetic multi-rater MQM ratings (the shape of Google's WMT MQM releases): 120 items (40
segments of 4 documents × 3 systems), each rated by 3 of 6 raters, with an MQM score, a verdict
(no_error / minor / major) and the error spans each rater marked in the translation (start and
end character offsets, category, severity). Every figure comes from a seeded draw: each item
has planted errors, a rater finds each with a fixed probability, may misjudge its severity and
sometimes marks a spurious minor error. Nothing here reproduces a published figure; it gives
the Human ratings page (agreement, raters, error spans) a demo."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa

from judgescope.demo.common import write_hub_dataset

SEED = 25_0001
FOLDER, CONFIG, SPLIT = "mqm_ratings", "mqm_ratings", "train"
RATERS = [f"rater{i}" for i in range(1, 7)]
SYSTEMS = ("SystemA", "SystemB", "SystemC")
DOCS = 4
SEGMENTS = 10
RATERS_PER_ITEM = 3
FIND, SEVERITY_FLIP, SPURIOUS = 0.8, 0.15, 0.1
WEIGHTS = {"major": 5.0, "minor": 1.0}  # MQM weights of the WMT MQM releases (Freitag et al. 2021)
CATEGORIES = ("Accuracy/Mistranslation", "Accuracy/Omission", "Fluency/Grammar",
              "Terminology/Inappropriate", "Style/Awkward")
# Per system: expected planted errors per segment and the share of them that are major.
QUALITY = {"SystemA": (0.6, 0.2), "SystemB": (1.0, 0.3), "SystemC": (1.6, 0.45)}

SUBJECTS = ("The committee", "The new bridge", "Our team", "The museum", "The river", "The city",
            "The report", "The company", "The hospital", "The school")
VERBS = ("approved", "opened", "described", "closed", "reviewed", "announced", "rebuilt",
         "praised", "delayed", "funded")
OBJECTS = ("the budget for next year", "a plan for the harbour", "the winter schedule",
           "three new exhibitions", "the damaged road", "a study on air quality",
           "the results of the survey", "the training programme", "its annual report",
           "the old railway station")
DE_SUBJECTS = ("Der Ausschuss", "Die neue Brücke", "Unser Team", "Das Museum", "Der Fluss",
               "Die Stadt", "Der Bericht", "Das Unternehmen", "Das Krankenhaus", "Die Schule")
DE_VERBS = ("genehmigte", "eröffnete", "beschrieb", "schloss", "prüfte", "kündigte an",
            "baute neu", "lobte", "verschob", "finanzierte")
DE_OBJECTS = ("den Haushalt für das nächste Jahr", "einen Plan für den Hafen", "den Winterfahrplan",
              "drei neue Ausstellungen", "die beschädigte Straße", "eine Studie zur Luftqualität",
              "die Ergebnisse der Umfrage", "das Ausbildungsprogramm", "seinen Jahresbericht",
              "den alten Bahnhof")


def _texts(doc: int, seg: int, system: str) -> tuple[str, str]:
    i, j, k = (doc * 7 + seg) % 10, (doc + seg * 3) % 10, (doc * 3 + seg * 7) % 10
    source = f"{SUBJECTS[i]} {VERBS[j]} {OBJECTS[k]} on Monday."
    day = {"SystemA": "am Montag", "SystemB": "Montag", "SystemC": "am Montags"}[system]
    target = f"{DE_SUBJECTS[i]} {DE_VERBS[j]} {day} {DE_OBJECTS[k]}."
    return source, target


def _words(text: str) -> list[tuple[int, int]]:
    out, start = [], None
    for i, ch in enumerate(text + " "):
        if ch.isalnum() and start is None:
            start = i
        elif not ch.isalnum() and start is not None:
            out.append((start, i))
            start = None
    return out


def _planted(rng, target: str, system: str) -> list[dict]:
    rate, major = QUALITY[system]
    words = _words(target)
    picks = rng.choice(len(words), size=min(int(rng.poisson(rate)), len(words)), replace=False)
    out = []
    for w in sorted(int(p) for p in picks):
        start, end = words[w]
        if w + 1 < len(words) and rng.random() < 0.4:  # some errors cover two words
            end = words[w + 1][1]
        if any(s["start"] < end and start < s["end"] for s in out):
            continue
        out.append({"start": start, "end": end, "category": str(rng.choice(CATEGORIES)),
                    "severity": "major" if rng.random() < major else "minor"})
    return out


def _rated(rng, planted: list[dict], target: str) -> list[dict]:
    spans = []
    for e in planted:
        if rng.random() >= FIND:
            continue
        severity = e["severity"]
        if rng.random() < SEVERITY_FLIP:
            severity = "minor" if severity == "major" else "major"
        spans.append(dict(e, severity=severity))
    if rng.random() < SPURIOUS:
        words = _words(target)
        start, end = words[int(rng.integers(len(words)))]
        if not any(s["start"] < end and start < s["end"] for s in spans):
            spans.append({"start": start, "end": end, "category": "Style/Awkward",
                          "severity": "minor"})
    return sorted(spans, key=lambda s: s["start"])


def rows() -> list[dict]:
    rng = np.random.default_rng(SEED)
    out, global_seg = [], 0
    for doc in range(DOCS):
        for seg in range(1, SEGMENTS + 1):
            global_seg += 1
            for system in SYSTEMS:
                source, target = _texts(doc, seg, system)
                planted = _planted(rng, target, system)
                raters = rng.choice(len(RATERS), size=RATERS_PER_ITEM, replace=False)
                for r in sorted(int(x) for x in raters):
                    spans = _rated(rng, planted, target)
                    mqm = sum(WEIGHTS[s["severity"]] for s in spans)
                    verdict = ("major" if any(s["severity"] == "major" for s in spans) else
                               "minor" if spans else "no_error")
                    out.append({"doc": f"demo-doc-{doc + 1}", "doc_seg_id": seg,
                                "global_seg_id": global_seg, "system": system,
                                "rater": RATERS[r], "source_language": "en",
                                "target_language": "de", "source_text": source,
                                "target_text": target, "mqm": mqm, "verdict": verdict,
                                "error_spans": json.dumps(spans)})
    return out


def generate(out_root: Path) -> dict:
    table = pa.Table.from_pylist(rows())
    files = write_hub_dataset(
        Path(out_root) / FOLDER, "Synthetic multi-rater MQM ratings",
        "Synthetic MQM ratings of three systems' German translations: 120 items, each rated by "
        "3 of 6 raters, with the error spans each rater marked (character offsets into the "
        "translation, category, severity). MQM = 5 × major + 1 × minor errors.",
        {CONFIG: {SPLIT: table}})
    return {FOLDER: {"rows": table.num_rows, "files": len(files)}}
