"""Judge-QA sections of the calibration pages: bias direction per judge and the like-for-like
human ceiling, each with its method next to the numbers."""

from __future__ import annotations

import streamlit as st

from judgescope.calibration import calibration_findings
from judgescope.calibration import staleness
from judgescope.calibration import corrected
from judgescope.calibration import panel as cal
from judgescope.calibration import qa_tables
from judgescope.web import calibration_panels as view
from judgescope.text import md_literal
from judgescope.web import context


def _table(frame) -> None:
    st.dataframe(frame, hide_index=True, width="stretch")


def bias_section(rep: dict) -> None:
    """Judge vs human pass rate, paired CI, exact McNemar on FN vs FP, the direction."""
    raters = cal.rater_reports(rep)
    if not raters:
        return
    st.header("Bias direction")
    for _, label, r in raters:
        st.markdown(f"**{md_literal(label)}**: {r['bias']['sentence']}")
    _table(qa_tables.bias_table(raters))
    b = raters[0][2]["bias"]
    st.caption(f"{b['method']}. A direction is named when p < {b['alpha']}. "
               + qa_tables.MDD_NOTE)


def ceiling_section(rep: dict, judges: bool = True) -> None:
    """Each judge against each single human beside human against human, binary, with CIs."""
    ceiling = rep.get("ceiling")
    if not ceiling:
        return
    st.header("Human ceiling, like for like")
    st.markdown(md_literal(ceiling["sentence"], limit=2_000))  # judge names are data
    _table(qa_tables.mean_table(ceiling) if judges else qa_tables.human_human_table(ceiling))
    if judges:
        with st.expander("Every pair"):
            _table(qa_tables.judge_human_table(ceiling))
            _table(qa_tables.human_human_table(ceiling))
    st.caption(f"Scale: {ceiling['scale']}. {qa_tables.ceiling_methods(ceiling)}")


def budget_section(rep: dict) -> None:
    """For each INCONCLUSIVE gate: how many more labelled items would decide it."""
    undecided = [(label, r["label_budget"]) for _, label, r in cal.rater_reports(rep)
                 if r.get("label_budget")]
    if not undecided:
        return
    st.header("Label budget")
    for label, b in undecided:
        st.markdown(f"**{md_literal(label)}** (INCONCLUSIVE): {b['sentence']}.")
        st.caption("Chance the CI clears the gate, by items added: " + ", ".join(
            f"{c['added']:,}: {c['chance']:.0%}" for c in b["chance"]))
    st.caption(undecided[0][1]["method"])


def corrected_section() -> None:
    """The judges' pass rates on the unlabelled judgements, corrected with the calibration items
    (Rogan–Gladen, PPI, PPI++), the raw rate beside them."""
    st.header("Corrected pass rates")
    _, rep = view.load([])
    rates = corrected.for_report(rep, context.run("calib_unlabelled_counts"))
    if not any(c["n_unlabelled"] for c in rates.values()):
        st.caption("Every judgement is on a calibration item: there are no unlabelled judgements "
                   "to correct.")
        return
    _table(corrected.table(rates))
    st.caption(corrected.METHODS_NOTE)
    stale_note()


def stale_by_rater(rep: dict) -> dict[str, str]:
    """Per judge (and 'panel') whose calibration is stale, the sentence shown beside its badge."""
    audit = calibration_findings.audit_check(context.run) if "audit" in context.roles() else None
    return calibration_findings.stale_notes(rep, staleness.staleness(context.run("calib_judge_fingerprints")),
                                            audit=audit)


def stale_note() -> None:
    """Beside the corrected rates: a judge whose unlabelled run was judged with other settings
    than its calibration items (calibration.staleness)."""
    checked = staleness.staleness(context.run("calib_judge_fingerprints"))
    for judge in (j for j in checked if j["stale"]):
        st.warning("**Stale calibration.** " + md_literal(judge["sentence"], limit=600)
                   + ": its corrected rate assumes the calibration still describes it.")
    if checked and not any(j["stale"] for j in checked):
        st.caption("Each judge's unlabelled judgements were made with the settings it was calibrated with.")
    if checked:
        st.caption("Stale: " + staleness.RULE + ".")


def length_section(rep: dict) -> None:
    """Does each judge's verdict move with the answer's length, human verdict held fixed?"""
    probe = {k: v for k, v in (rep.get("length_probe") or {}).items() if v}
    if not probe:
        return
    st.header("Length probe")
    for name, p in probe.items():
        st.markdown(f"**{md_literal(name)}**: {p['sentence']}.")
    st.caption(next(iter(probe.values()))["method"] + ". Length: characters of the answer "
               "(model_response).")
