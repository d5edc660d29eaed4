"""Provenance: score origins, missing explanations, prompts and models, run groups, exclusions."""

import pandas as pd
import streamlit as st

from judgescope.audit import rows as audit_rows
from judgescope.audit import fingerprint, stability
from judgescope.text import md_literal
from judgescope.web import context, export, render

context.title("Provenance of the scores")
missing = context.missing_columns("audit")
if missing:
    st.caption("Not recorded by this audit (shown as “not recorded”): " + ", ".join(sorted(missing)))

st.header("Score origin")
origins = context.run("audit_origin_counts")
render.table(origins)
gaps = int(origins["missing_explanation"].sum())
st.markdown(f"**{gaps:,}** rows have no explanation.")
if gaps:
    with st.expander("Rows without an explanation"):
        rows = context.run("audit_missing_explanations", limit=5_000)
        render.table(rows, placeholder="not recorded")
        export.rows(rows, "missing_explanations", {"limit": 5_000}, available=gaps)

st.header("Judge fingerprint")
judge = fingerprint.fingerprint(context.run("audit_fingerprint"))
st.markdown("This run was judged by " + md_literal(judge["label"], limit=400) + ".")
if "audit_previous" in context.roles():
    change = fingerprint.difference(fingerprint.fingerprint(context.run("audit_previous_fingerprint")), judge)
    st.markdown("Against the earlier run: " + md_literal(change["sentence"], limit=600) + ".")
st.caption(f"Fingerprint: {judge['definition']}. Decoding settings: {judge['decoding_settings']}. "
           "`judgescope fingerprint AUDIT --against EARLIER` prints the same.")

st.header("Prompt, judge model and run group per unit")
st.caption("Requested = the model string sent to the endpoint; resolved = the checkpoint the "
           "provider reports. A null is shown as “not recorded”.")
models = context.run("audit_model_provenance")
render.table(models, column_config={"Judge prompt sha256": st.column_config.TextColumn(width="large")})
export.rows(models, "prompt_model_provenance", {})

if "audit_previous" in context.roles():
    st.header("Stability against the earlier run")
    pairs = context.run("audit_rerun_pairs")
    rerun = stability.from_pairs(pairs)
    st.markdown(stability.sentence(rerun).replace("units scored more than once", "units in both runs"))
    for line in stability.not_paired(stability.rerun_accounting(context.run("audit_rerun_counts"), len(pairs))):
        st.warning(md_literal(line, limit=600))
    st.caption(f"Repeated unit: {rerun['definition']}. {stability.ICC_METHOD}. `judgescope "
               "stability AUDIT --against EARLIER --threshold T` adds flip rates and lists the "
               "units that flip.")
raw = context.dataset_for("raw_records")
if raw is not None:
    st.header("Stability: units one judge scored more than once")
    result = stability.stability(context.run("audit_repeat_scores"))
    st.markdown(stability.sentence(result))
    unkeyed = stability.unkeyed_records(context.run)
    if left_out := stability.unkeyed_sentence(unkeyed, ids=False):
        st.warning(md_literal(left_out, limit=600))
        with st.expander(f"Listed: the first {len(unkeyed['listed'])} by record id"):
            render.table(pd.DataFrame({"judge_record_id": unkeyed["listed"]}), key="stability_unkeyed")
    st.caption(f"Repeated unit: {stability.REPEAT_DEFINITION}. "
               f"{stability.ICC_METHOD}. Every run group of the raw records counts. Flip rates "
               "need a verdict threshold: `judgescope stability DATASET --threshold T` lists the "
               "units that flip and their records.")

st.header("Raw records excluded from the release")
if raw is None:
    st.info("This collection has no raw judge records dataset, so exclusions from a release "
            "cannot be shown.")
    context.stop()
reasons = context.run("ledger_summary")
reasons = reasons[reasons.dataset == raw.spec.name]
if reasons.empty:
    st.success(f"Every record of {raw.spec.name} is used.")
    context.stop()
st.markdown(f"**{int(reasons['rows'].sum()):,}** records of {md_literal(raw.spec.name)} were excluded, by reason:")
render.table(reasons)
full = audit_rows.excluded_raw_rows(raw)
st.info(audit_rows.excluded_summary(full))
render.table(full, placeholder="not recorded")
export.rows(full, "excluded_raw_records", {"dataset": raw.spec.name}, [raw.spec.name])
