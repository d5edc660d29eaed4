"""Human ratings (long format): how much raters agree, how each rates, who rated what."""

import streamlit as st

from judgescope.calibration import clustered
from judgescope.calibration import human_ratings as hr
from judgescope.web import ui
from judgescope.calibration.panel import fmt, fmt_ci

ui.title("Human ratings")
missing = ui.missing_columns("ratings")
score = next((c for c in ("score", "mqm") if c not in missing), None)
verdict = None if "verdict" in missing else "verdict"
frame = ui.run("ratings_long")
st.caption("One row per rater per item; an item is every item column the dataset has, "
           "together. Krippendorff's α after Krippendorff (2011): items with one rating are "
           "unpairable and counted. Undefined values show as n/a.")
stats = hr.agreement(frame, score, verdict)
m = st.columns(3)
m[0].metric("Items", ui.fmt_n(stats["items"]))
m[1].metric("Raters", ui.fmt_n(stats["raters"]))
m[2].metric("Ratings", ui.fmt_n(stats["ratings"]))
for column, n in stats["missing_values"].items():
    if n:
        st.warning(f"{n:,} ratings have no {column} value and enter no statistic of {column}.")
if stats.get("unpairable_items"):
    st.warning(f"{stats['unpairable_items']:,} items have one rating only and enter no α.")

st.subheader("Krippendorff's α")
cols = st.columns(max(len(stats["alpha"]), 1))
for col, (name, value) in zip(cols, stats["alpha"].items()):
    col.metric(f"α · {name}", fmt(value))
if verdict:
    v = stats["verdicts"]
    st.subheader("Verdict agreement (nominal)")
    c = st.columns(2)
    by_doc = clustered.for_ratings(frame, ui.run("ratings_item_clusters"), verdict)
    c[0].metric("Fleiss' κ", fmt(v["fleiss_kappa"]["value"]))
    c[0].caption(v["fleiss_kappa"].get("note")
                 or clustered.caption(by_doc, "fleiss_kappa", v["fleiss_kappa"]["ci"])
                 or f"95% CI {fmt_ci(v['fleiss_kappa']['ci'])}")
    c[1].metric("Krippendorff's α (nominal)", fmt(v["krippendorff_alpha"]["value"]))
    c[1].caption((clustered.caption(by_doc, "krippendorff_alpha", v["krippendorff_alpha"]["ci"])
                  or f"95% CI {fmt_ci(v['krippendorff_alpha']['ci'])}") + f" · item-level: {v['ci_method']}"
                 + (f" · documents: {by_doc['krippendorff_alpha']['method']}" if by_doc else ""))
    st.caption("Pairwise Cohen's κ on the items both raters rated")
    ui.table(hr.pairwise_frame(v["pairwise"]))

st.subheader("Per rater")
ui.table(hr.per_rater(frame, score, verdict))
st.subheader("Coverage: items both raters rated")
ui.table(hr.coverage(frame))
ui.table(hr.ratings_per_item(frame))
