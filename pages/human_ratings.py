"""Human ratings (long format): how much raters agree, how each rates, who rated what."""

import streamlit as st

from judgescope.calibration import clustered
from judgescope.calibration import human_ratings as hr
from judgescope.format import count
from judgescope import navigation
from judgescope.web import context, export, rating_items, render, results
from judgescope.calibration.panel import fmt

context.title("Human ratings")
missing = context.missing_columns("ratings")
score = next((c for c in ("score", "mqm") if c not in missing), None)
verdict = None if "verdict" in missing else "verdict"
frame = context.run("ratings_long")
st.caption("One row per rater per item; an item is every item column the dataset has, "
           "together. Krippendorff's α after Krippendorff (2011): items with one rating are "
           "unpairable and counted. Undefined values show as n/a.")
stats = results.ratings_agreement(score, verdict)
m = st.columns(3)
m[0].metric("Items", count(stats["items"]))
m[1].metric("Raters", count(stats["raters"]))
m[2].metric("Ratings", count(stats["ratings"]))
for column, n in stats["missing_values"].items():
    if n:
        st.warning(f"{n:,} ratings have no {column} value and enter no statistic of {column}.")
if stats.get("unpairable_items"):
    st.warning(f"{stats['unpairable_items']:,} items have one rating only and enter no α.")

st.header("Krippendorff's α")
cols = st.columns(max(len(stats["alpha"]), 1))
for col, (name, value) in zip(cols, stats["alpha"].items()):
    col.metric(f"α · {name}", fmt(value))
    col.caption(clustered.headline_caption(stats["alpha_ci"][name]))
if stats["alpha_ci"]:
    st.caption("α intervals: " + next(iter(stats["alpha_ci"].values()))["ci_method"] + ".")
if verdict:
    v = stats["verdicts"]
    st.header("Verdict agreement (nominal)")
    c = st.columns(2)
    c[0].metric("Fleiss' κ", fmt(v["fleiss_kappa"]["value"]))
    c[0].caption(v["fleiss_kappa"].get("note") or clustered.headline_caption(v["fleiss_kappa"]))
    c[1].metric("Krippendorff's α (nominal)", fmt(v["krippendorff_alpha"]["value"]))
    c[1].caption(clustered.headline_caption(v["krippendorff_alpha"]))
    st.caption(clustered.methods_caption(v, stats["verdicts_by_doc"]))
    st.caption("Pairwise Cohen's κ on the items both raters rated")
    render.table(hr.pairwise_frame(v["pairwise"]))

if score and "system" not in missing:
    st.header("By system")
    systems = hr.by_system(context.run("ratings_by_system_items", value=score))
    st.caption(f"Mean {score} per system with its 95% CI: {hr.BY_SYSTEM_METHOD}; "
               f"{systems['method'].iloc[0] if len(systems) else ''}. 10,000 resamples, seed 20260810."
               + (" Lower MQM is better." if score == "mqm" else ""))
    config = {c: st.column_config.NumberColumn(format="%.3f") for c in ("Mean", "95% CI low", "95% CI high")}
    if "audit" in context.roles() and "system" not in context.missing_columns("audit"):
        # The collection's judge audit scored systems too: each one it has opens Review on its rows.
        judged, review = set(context.run("audit_filter_values")["system"]), navigation.page("review")
        systems.insert(1, "review", [navigation.href(review, collection=context.collection_name(), system=s)
                                     if s in judged else None for s in systems["system"]])
        config["Review"] = st.column_config.LinkColumn("Judge's scores", display_text="open in Review")
        st.caption("Judge's scores: the audit's rows of that system on Review (empty: the audit has none).")
    render.table(systems.drop(columns=["method"]), column_config=config)

st.header("Per rater")
per_rater = hr.per_rater(frame, score, verdict)
render.table(per_rater)
export.rows(per_rater, "ratings_per_rater", {"score": score, "verdict": verdict})
st.header("Coverage: items both raters rated")
render.table(hr.coverage(frame))
render.table(hr.ratings_per_item(frame))

rating_items.section(missing)
