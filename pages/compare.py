"""Compare: the earlier audit version against the current one, per unit and per language."""

import streamlit as st

from judgescope.audit import summary as audit
from judgescope.audit import fingerprint, versions
from judgescope.audit import score_charts
from judgescope.web import significance_panels as significance_view
from judgescope.text import md_literal
from judgescope import navigation
from judgescope.web import context, export, render, results
from judgescope.web import urls
from judgescope.schema import language_name

context.title("Compare audit versions")
before, now = context.dataset_for("audit_previous").spec, context.dataset_for("audit").spec
st.caption(f"Previous: {md_literal(before.title)} · current: {md_literal(now.title)}. "
           "Differences are current minus previous.", help=f"Dataset ids: {before.name} → {now.name}")
judges = fingerprint.difference(fingerprint.fingerprint(context.run("audit_previous_fingerprint")),
                                fingerprint.fingerprint(context.run("audit_fingerprint")))
st.markdown("**Judge:** " + md_literal(judges["sentence"], limit=600))
if not judges["same"]:
    st.caption("The judge changed between the versions: a difference below mixes the judge's change with "
               "the systems'. Drift separates them on texts that did not change (anchors).")

overlap = audit.in_unit_order(context.run("audit_overlap"))
small = versions.overlap_is_small(overlap)
if small:
    st.error("**The samples are unpaired.** " + md_literal(versions.overlap_sentence(overlap), limit=600) + " The two "
             "versions scored (almost) different units, so a difference describes two samples; "
             "it is not a paired, like-for-like change and does not show what caused it.")
    for name in context.collections_comparing(now.name):  # another run over this audit's own units
        here = navigation.page("compare")
        st.page_link(here.path, icon=here.icon, query_params=navigation.link_params(here, collection=name),
                     label=f"A paired comparison with this audit: {md_literal(context.title_of(name), 120)}")
else:
    st.success(md_literal(versions.overlap_sentence(overlap), limit=600) + " A paired view on the overlap is below.")
render.table(overlap)
if any(versions.duplicate_key_counts(overlap)):
    render.table(context.run("audit_version_duplicate_keys", limit=1000), key="duplicate_keys")

c = st.columns(2)
resamples = urls.url_number(c[0], "Resamples", step=1000, key="resamples")
seed = urls.url_number(c[1], "Seed", key="seed")
label = versions.compare_ci_label(resamples, seed)

# Both versions' per-score counts, alike (the earlier version has no binned counts).
previous, current = context.run("audit_previous_score_counts"), context.run("audit_score_counts", facet="none")
fmt = {c: st.column_config.NumberColumn(format="%.3f") for c in
       ("Previous mean", "Current mean", "Diff", "Low", "High")}
st.header("Per unit")
units, langs = results.version_tables(previous, current, resamples, seed)
st.plotly_chart(score_charts.diff_chart(units), key="unit_diff")
st.caption(label)
render.table(units, column_config=fmt, placeholder="n/a")
export.rows(units, "compare_units", {"resamples": resamples, "seed": seed})

st.header("Per language (all units together)")
st.caption(label)
render.table(langs.assign(target_language=langs.target_language.map(language_name)),
             column_config=fmt, placeholder="n/a")
export.rows(langs, "compare_languages", {"resamples": resamples, "seed": seed})

if not small:
    st.header("Paired view on the overlapping units")
    paired = versions.paired_table(context.run("audit_paired_diff_counts"), resamples, seed)
    st.caption(versions.compare_ci_label(resamples, seed, paired=True))
    render.table(paired, placeholder="n/a")

significance_view.versions_section(context.run("audit_paired_diff_counts"), resamples, seed)
