"""The audit part of a report: distributions, the language × unit heatmap, weak cells, exact
copies, integrity, excluded rows and explanation themes, from the functions Distributions,
Languages, Integrity, Themes and `report` / `verify` / `themes` use."""

from __future__ import annotations

import math

import pandas as pd

from judgescope.audit import audit_findings
from judgescope import format as fmt
from judgescope.audit import binned, interval_tables
from judgescope.audit import summary as audit
from judgescope.audit import systems as audit_systems
from judgescope.audit import themes as themes_mod
from judgescope.integrity import hashes
from judgescope.report import svg
from judgescope.report.ledger import Ledger, bound, key as idkey
from judgescope.schema import language_name, sort_units
from judgescope.report.calibration_section import _more, short

S = "judgescope.audit.summary."
THEMES_PER_LANGUAGE = 3
MAX_ROWS = 50


def score_bins(counts: pd.DataFrame, top: float) -> list[dict]:
    """Ten equal score bins over the audit's scale, read from its highest score `top` (0–100
    scores: [0, 10), [10, 20), …, [90, 100]). A float audit's score bins (binned.Binned.bins) go
    by their lowest score: their width divides these bins' (h <= 1 on 0–100, <= 0.1 on 0–10)."""
    high = 100.0 if top > 10 else (5.0 if top > 1 else 1.0)
    width = high / 10
    v, c = binned.score_of(counts, "low").to_numpy(float), counts["n"].to_numpy()
    out = []
    for i in range(10):
        lo = i * width
        inside = (v >= lo) & ((v < lo + width) if i < 9 else (v <= high))
        out.append({"lo": lo, "hi": lo + width, "n": int(c[inside].sum()),
                    "label": f"{lo:g}–{lo + width:g}"})
    return out


def build(run, ledger: Ledger, *, name: str, seed: int, resamples: int, explanations: bool,
          snapshot: dict | None, systems: bool = False, stored: bool = False) -> tuple[dict, list[str]]:
    """(the audit section for the template, what it could not measure). `stored`: the store holds
    the default intervals of the first open (read for units, overall and cells where they apply)."""
    counts = audit.score_counts(run)
    if audit.no_rows(counts):
        return {"empty": True}, ["Every audit statistic: the audit has no usable row."]
    q, rep, per = audit.counts_query(counts), ["report", "SUMMARY.json"], audit.count_rows(counts)
    boot_cli = ["report", "BOOTSTRAP.json"]
    units = audit.unit_summary(counts, shares=False)
    ub, whole, cells = interval_tables.intervals(run, counts, [["unit"], [], ["target_language", "unit"]],
                                                 resamples, seed, stored)
    whole = whole.iloc[0]
    n_all = int(per["n"].sum())
    f = S + "bootstrap_table"
    overall = {
        "n": ledger.add("audit.overall.n", n_all, fmt.count(n_all), query=q,
                        function=S + "unit_summary", cli=rep + ["overall", "n"]),
        "mean": ledger.add("audit.overall.mean", whole["mean"], fmt.mean(whole["mean"]), query=q,
                           function=f, cli=rep + ["overall", "mean"]),
        "ci": _ci(ledger, "audit.overall", whole, q, f, boot_cli + ["overall"])}
    rows = _units(ledger, counts, units, ub, per, q, f)
    mf = "judgescope.report.audit_section.build (the method as the report states it)"
    section = {"empty": False, "name": name, "overall": overall, "units": rows,
               "thresholds": audit.threshold_columns(),
               "threshold_labels": [ledger.text(f"audit.threshold.{t}.label", t.replace("_", " "),
                                                S + "threshold_columns")
                                    for t in audit.threshold_columns()],
               "methods": [{"ref": "m-mean", "name": "Mean judge score and its 95 % CI",
                            "text": ledger.text("method.audit.ci", audit.ci_label(
                                resamples, seed, method=audit.interval_rule(counts)) + ".", mf)},
                           {"ref": "m-weak", "name": "Weak cell",
                            "text": ledger.text("method.audit.weak", audit_findings.WEAK_RULE, mf)}]}
    section["heatmap"], section["weak"] = _heatmap(ledger, counts, cells, whole["mean"], q, f, boot_cli)
    _bind_weak(ledger, section["weak"], q)
    section["copies"] = _copies(run, ledger)
    missing = []
    section["integrity"] = _integrity(run, ledger, snapshot, missing)
    section["themes"] = _themes(run, ledger, explanations, missing)
    section["origins"] = _origins(run, ledger)
    section["systems"] = _systems(run, ledger, resamples, seed, section["methods"]) if systems else None
    return section, missing


def _units(ledger: Ledger, counts, units, ub, per, q: str, f: str) -> list[dict]:
    """One row per unit: n, mean, CI, median, SD, threshold counts and its histogram."""
    rep, boot_cli, rows = ["report", "SUMMARY.json"], ["report", "BOOTSTRAP.json"], []
    for _, u in units[units.unit != audit.OVERALL].iterrows():
        key, b = u["unit"], ub[ub.unit == u["unit"]].iloc[0]
        row = {"unit": key, "unit_label": ledger.label(f"audit.unit.{idkey(key)}", key),
               "ci": _ci(ledger, f"audit.unit.{idkey(key)}", b, q, f, boot_cli + ["by_unit", key])}
        for col in ["n", "mean", "median", "sd"] + audit.threshold_columns():
            shown = fmt.count(u[col]) if col == "n" or col.startswith(("below", "at_")) else fmt.mean(u[col])
            row[col] = ledger.add(f"audit.unit.{idkey(key)}.{col}", u[col], shown,
                                  query=audit.counts_query(counts, col),
                                  function=S + "unit_summary", cli=rep + ["by_unit", key, col])
        bins = score_bins(per[per.unit == key], float(binned.score_of(per, "high").max()))
        fn = "judgescope.report.audit_section.score_bins"
        for i, b_ in enumerate(bins):
            b_["label"] = ledger.text(f"audit.bin.{i}.label", b_["label"], fn)
            b_["shown"] = ledger.add(f"audit.unit.{idkey(key)}.bin.{b_['label']}", b_["n"], fmt.count(b_["n"]),
                                     query=q, function=fn)
        row["histogram"] = svg.histogram(bins)
        rows.append(row)
    return rows


def _bind_weak(ledger: Ledger, weak: dict, q: str) -> None:
    """The weak cells' count, badge and how many are listed, each bound to its entry."""
    n, fn = weak["count"], "judgescope.audit.audit_findings.weak_cells"
    weak["count_value"] = n
    weak["count"] = ledger.add("audit.weak.count", n, fmt.count(n), query=q, function=fn)
    weak["badge"] = ledger.text("audit.weak.badge", "WEAK CELLS" if n else "NO WEAK CELL", fn)
    weak["listed"] = ledger.add("audit.weak.listed", len(weak["cells"]), fmt.count(len(weak["cells"])),
                                query=None, function="judgescope.report.audit_section (first 50 weak cells)")


def _systems(run, ledger: Ledger, resamples: int, seed: int, methods: list) -> dict:
    """Per system, and per language × system, as Languages and `report`'s BY_SYSTEM.json give them."""
    found = audit_systems.by_system(audit.score_counts(run, "system"), resamples, seed)
    fn, q = "judgescope.audit.systems.by_system", "audit_score_counts (facet = system)"
    cli = ["report", "BY_SYSTEM.json"]
    methods.append({"ref": "m-system", "name": "Per system",
                    "text": ledger.text("method.audit.systems", audit_systems.METHOD + ".", fn)})

    def row(id: str, r: dict, where: list) -> dict:
        return {"system": ledger.label(f"{id}.system", short(r["system"], 80)),
                "language": ledger.label(f"{id}.language", language_name(r.get("target_language"))),
                "n": ledger.add(f"{id}.n", r["n"], fmt.count(r["n"]), query=q, function=fn, cli=cli + where + ["n"]),
                "mean": ledger.add(f"{id}.mean", r["mean"], fmt.mean(r["mean"]), query=q, function=fn,
                                   cli=cli + where + ["mean"]),
                "ci": _ci(ledger, id, {"low": r["ci"][0], "high": r["ci"][1]}, q, fn, cli + where + ["ci"], ("0", "1"))}
    systems = [row(f"audit.system.{i}", r, ["systems", i]) for i, r in enumerate(found["systems"][:MAX_ROWS])]
    by_lang = [row(f"audit.system_language.{i}", r, ["by_language", i])
               for i, r in enumerate(found["by_language"][:MAX_ROWS])]
    return {"systems": systems, "by_language": by_lang,
            "more": _more(ledger, "audit.system_language.more", len(found["by_language"]))}


def _ci(ledger: Ledger, id: str, row, query: str, function: str, cli: list, ends=("low", "high")) -> str:
    low = ledger.add(f"{id}.ci_low", row["low"], fmt.mean(row["low"]), query=query,
                     function=function, cli=cli + [ends[0]])
    high = ledger.add(f"{id}.ci_high", row["high"], fmt.mean(row["high"]), query=query,
                      function=function, cli=cli + [ends[1]])
    return bound("[{}, {}]", low, high)


def _heatmap(ledger: Ledger, counts, cells, overall_mean, q, f, boot_cli):
    table = audit.language_summary(counts)
    table = table[table.unit != audit.OVERALL]
    units = [u for u in sort_units(set(table.unit))]
    langs = sorted(set(table.target_language))
    grid, rows = {}, []
    weak = audit_findings.weak_cells(cells, overall_mean)
    weak_keys = {(w["target_language"], w["unit"]) for w in weak}
    for _, r in table.iterrows():
        lang, unit = r["target_language"], r["unit"]
        b = cells[(cells.target_language == lang) & (cells.unit == unit)].iloc[0]
        id = f"audit.cell.{idkey(lang)}.{idkey(unit)}"
        mean = ledger.add(f"{id}.mean", r["mean"], fmt.mean(r["mean"]), query=q,
                          function=S + "language_summary", cli=["report", "BY_LANGUAGE.csv", lang, unit, "mean"])
        n = ledger.add(f"{id}.n", r["n"], fmt.count(r["n"]), query=q, function=S + "language_summary",
                       cli=["report", "BY_LANGUAGE.csv", lang, unit, "n"])
        ci = _ci(ledger, id, b, q, f, boot_cli + ["by_language", lang, unit])
        cell = {"value": float(r["mean"]), "shown": mean, "n": n, "ci": ci, "lang": lang,
                "language": ledger.label(f"{id}.language", language_name(lang)),
                "unit": ledger.label(f"{id}.unit", unit), "weak": (lang, unit) in weak_keys}
        grid[(lang, unit)] = cell
        rows.append(cell)
    values = [c["value"] for c in rows if c["value"] is not None and not math.isnan(c["value"])]
    chart = svg.heatmap(langs, units, grid, min(values), max(values), labels=[_code(x) for x in langs])
    weak_rows = [grid[(w["target_language"], w["unit"])] for w in weak][:MAX_ROWS]
    fn = "judgescope.report.audit_section._heatmap (the colour scale's ends)"
    return {"chart": chart, "rows": sorted(rows, key=lambda c: (c["value"], c["lang"], c["unit"])),
            "units": units, "lo": ledger.add("audit.heatmap.lowest", min(values), fmt.mean(min(values)), query=q,
                                             function=fn),
            "hi": ledger.add("audit.heatmap.highest", max(values), fmt.mean(max(values)), query=q, function=fn)}, \
        {"cells": weak_rows, "count": len(weak)}


def _code(lang: str) -> str:
    """A language's short label on the heatmap's axis: its code, with the source when the
    audit names one ("zh-en"); the table beside the chart gives the full names."""
    name = language_name(lang)
    return name[name.rindex("(") + 1:-1] if name.endswith(")") and "(" in name else str(lang)


def _copies(run, ledger: Ledger) -> list[dict]:
    copies = run("audit_exact_copy_counts").groupby("unit")[["hashed", "exact_copies"]].sum()
    out = []
    for unit in sort_units(list(copies.index)):
        hashed = int(copies.hashed[unit])
        value = int(copies.exact_copies[unit]) if hashed else None
        shown = fmt.count(value) if hashed else "n/a (no hashes)"
        out.append({"unit": ledger.label(f"audit.exact_copies.{idkey(unit)}", unit), "copies": ledger.add(
            f"audit.exact_copies.{idkey(unit)}", value, shown, query="audit_exact_copy_counts",
            function="judgescope.report.audit_section._copies (summed per unit, as report's SUMMARY.json)",
            cli=["report", "SUMMARY.json", "exact_copies", unit])})
    return out


def _integrity(run, ledger: Ledger, snapshot: dict | None, missing: list[str]) -> dict | None:
    if snapshot is None:
        missing.append("Integrity (SHA-256 of every audited text against the source snapshot): "
                       "this collection has no source snapshot.")
        return None
    if snapshot["problems"]:
        missing.append("Integrity: the audit cannot be joined to its snapshot: "
                       + "; ".join(snapshot["problems"]))
        return None
    summary = hashes.summarise(run)
    fn, q = "judgescope.integrity.hashes.summarise", "verify_summary"
    out = {"origin": snapshot["origin"], "rows": [],
           "checked": ledger.add("integrity.checked", summary.checked, fmt.count(summary.checked),
                                 query=q, function=fn, cli=["verify", "--json", "checked"]),
           "verified": ledger.add("integrity.verified", summary.verified, fmt.count(summary.verified),
                                  query=q, function=fn, cli=["verify", "--json", "verified"]),
           "ok": summary.checked > 0 and summary.unverified == 0}
    out["badge"] = ledger.text("integrity.badge", "VERIFIED" if out["ok"] else "HASH PROBLEMS", fn)
    for cls in hashes.PROBLEMS:
        n = summary.counts[cls]
        out["rows"].append({"label": hashes.CLASS_LABELS[cls], "rows": ledger.add(
            f"integrity.{cls}", n, fmt.count(n), query=q, function=fn,
            cli=["verify", "--json", cls, "len"])})
    return out


def _themes(run, ledger: Ledger, explanations: bool, missing: list[str]) -> dict | None:
    if not explanations:
        missing.append("Explanation themes: the audit has no judge_explanation column.")
        return None
    rows = run("audit_theme_texts", languages=[], units=[], threshold=themes_mod.DEFAULT_THRESHOLD,
               per_group=themes_mod.PER_GROUP)
    found = themes_mod.to_json(themes_mod.DEFAULT_THRESHOLD, themes_mod.themes_by_language(rows))
    out = []
    for lang, terms in found["by_language"].items():
        for i, t in enumerate(terms[:THEMES_PER_LANGUAGE]):
            id = f"themes.{idkey(lang)}.{i}"
            out.append({"language": language_name(lang), "term": t["term"],
                        "z": ledger.add(f"{id}.z", t["z"], f"{t['z']:.2f}", query="audit_theme_texts",
                                        function="judgescope.audit.themes.themes_by_language",
                                        cli=["themes", "--json", "by_language", lang, i, "z"]),
                        "low": ledger.add(f"{id}.low_count", t["low_count"], fmt.count(t["low_count"]),
                                          query="audit_theme_texts",
                                          function="judgescope.audit.themes.themes_by_language",
                                          cli=["themes", "--json", "by_language", lang, i, "low_count"])})
    if not out:
        missing.append(f"Explanation themes: no term reaches {themes_mod.MIN_LOW_COUNT} low-score "
                       f"occurrences below {themes_mod.DEFAULT_THRESHOLD:g} in any language.")
    fn = "judgescope.audit.themes (the method as the report states it)"
    return {"rows": out[:MAX_ROWS], "more": _more(ledger, "themes.more", len(out)),
            "method": ledger.text("method.themes", found["method"], fn),
            "threshold": ledger.add("themes.threshold", themes_mod.DEFAULT_THRESHOLD,
                                    f"{themes_mod.DEFAULT_THRESHOLD:g}", query=None, function=fn)}


def _origins(run, ledger: Ledger) -> list[dict]:
    origins = run("audit_origin_counts").groupby("score_origin")["n"].sum().sort_values(ascending=False)
    return [{"origin": short(k), "n": ledger.add(f"audit.score_origin.{idkey(k)}", int(v), fmt.count(v),
                                               query="audit_origin_counts",
                                               function="judgescope.report.audit_section._origins (summed per origin)",
                                               cli=["report", "SUMMARY.json", "score_origin", str(k)])}
            for k, v in list(origins.items())[:MAX_ROWS]]
