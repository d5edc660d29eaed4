"""Compare: the earlier audit version against the current one, per unit and per language."""

import streamlit as st

from judgescope.audit import summary as audit
from judgescope.audit import charts
from judgescope.web import significance as significance_view
from judgescope.web import ui
from judgescope.web import urls
from judgescope.schema import language_name

ui.title("Compare audit versions")
st.caption(f"Previous: {ui.md_literal(ui.dataset_for('audit_previous').spec.name)} · current: "
           f"{ui.md_literal(ui.dataset_for('audit').spec.name)}. Differences are current minus previous.")

overlap = audit.in_unit_order(ui.run("audit_overlap"))
small = audit.overlap_is_small(overlap)
if small:
    st.error("**The samples are unpaired.** " + ui.md_literal(audit.overlap_sentence(overlap), limit=600) + " The two "
             "versions scored (almost) different units, so a difference describes two samples; "
             "it is not a paired, like-for-like change and does not show what caused it.")
else:
    st.success(ui.md_literal(audit.overlap_sentence(overlap), limit=600) + " A paired view on the overlap is below.")
ui.table(overlap)
if any(audit.duplicate_key_counts(overlap)):
    ui.table(ui.run("audit_version_duplicate_keys", limit=1000), key="duplicate_keys")

c = st.columns(2)
resamples = urls.url_number(c[0], "Resamples", 100, 100_000, audit.DEFAULT_RESAMPLES, step=1000,
                          key="resamples", integer=True)
seed = urls.url_number(c[1], "Seed", 0, 2**32 - 1, audit.DEFAULT_SEED, key="seed", integer=True)
label = audit.compare_ci_label(resamples, seed)

previous, current = ui.run("audit_previous_score_counts"), audit.score_counts(ui.run)
fmt = {c: st.column_config.NumberColumn(format="%.3f") for c in
       ("Previous mean", "Current mean", "Diff", "Low", "High")}
st.header("Per unit")
units = audit.unit_compare(previous, current, resamples, seed)
st.plotly_chart(charts.diff_chart(units), key="unit_diff")
st.caption(label)
ui.table(units, column_config=fmt, placeholder="n/a")
ui.export_buttons(units, "compare_units", {"resamples": resamples, "seed": seed})

st.header("Per language (all units together)")
langs = audit.compare_table(previous, current, ["target_language"], resamples, seed)
st.caption(label)
ui.table(langs.assign(target_language=langs.target_language.map(language_name)),
         column_config=fmt, placeholder="n/a")
ui.export_buttons(langs, "compare_languages", {"resamples": resamples, "seed": seed})

if not small:
    st.header("Paired view on the overlapping units")
    paired = audit.paired_table(ui.run("audit_paired_diff_counts"), resamples, seed)
    st.caption(audit.compare_ci_label(resamples, seed, paired=True))
    ui.table(paired, placeholder="n/a")

significance_view.versions_section(ui.run("audit_paired_diff_counts"), resamples, seed)
