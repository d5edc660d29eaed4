"""Reviews: the reviewers' verdicts on this audit — progress, agreement among reviewers, the
judge against its reviewers, disagreements, reviews of rows since changed, and the log."""

import streamlit as st

from judgescope import format as fmt
from judgescope.audit import summary as audit
from judgescope.reviews import checks as reviews_checks
from judgescope.reviews import verdict_stats as reviews_stats
from judgescope.web import blind_review, verdicts
from judgescope import navigation
from judgescope.web import context, export, render, results
from judgescope.web import by_system
from judgescope.web import urls
from judgescope.schema import language_name
from judgescope.text import md_literal

context.title("Reviews")
if verdicts.mode() == "off":
    st.info(verdicts.off_sentence())
    context.stop()
if verdicts.read_only():  # the verdicts are read; saving is off, and why
    st.warning(verdicts.read_only())
verdicts.sharing()
latest = verdicts.reviewed_ids()
if latest.empty:
    st.info("No reviewer has recorded a verdict on this audit yet: open a row on Review to give one.")
    review = navigation.page("review")
    st.page_link(review.path, label="Review", icon=":material/rate_review:",
                 query_params=navigation.link_params(review, collection=context.collection_name()))
    blind_review.section()  # blind labels may be given before any verdict
    context.stop()
for note in reviews_checks.look_alike_groups(latest.reviewer):  # e.g. a Cyrillic а in a shared log
    st.warning(md_literal(note, limit=600, isolate=False))
out, agree = reviews_stats.summary(latest), reviews_stats.agreement(latest)
share, ci = out["judge_right_share"], out["ci"]
m = st.columns(4)
m[0].metric("Reviewed rows", fmt.count(out["reviewed"]))
m[1].metric("Reviewers", len(out["reviewers"]))
m[2].metric("Judge right, every score", fmt.share(share),
            help="Share of reviewed rows with a reviewer call, at any score, where the call is “judge right”.")
m[3].metric("Reviewer agreement", fmt.agreement(agree["kappa"]),
            help=f"{agree['method'] or 'κ'} over {agree['rows']:,} rows reviewed by two or more.")
st.caption(reviews_stats.share_sentence(round((share or 0) * ci["rows"]), ci["rows"], ci["low"], ci["high"],
                                        "reviewed rows with a reviewer call, at every score")
           + " A row's reviewer call is the strict majority of its judge right / too harsh / too lenient "
           "verdicts; unsure verdicts and ties leave it out.")

st.header("Progress per language × unit")
prog = reviews_stats.progress(latest, audit.count_rows(results.audit_counts()))
render.table(prog.assign(target_language=prog.target_language.map(language_name)),
             column_config={"Share": st.column_config.ProgressColumn(min_value=0, max_value=1, format="percent")})

low = reviews_stats.LOW_SCORE
st.header(f"The judge against its reviewers: rows scored below {low}")
base = reviews_stats.low_score_share(latest)
st.caption(reviews_stats.share_sentence(base["right"], base["rows"], base["low"], base["high"],
                                        f"reviewed rows scored below {low} with a reviewer call")
           + " Every table of this section has this base, split by target language (and system).")
by_lang = reviews_stats.judge_share_by_language(latest)
render.table(by_lang.assign(language=by_lang.language.map(language_name)), placeholder="n/a",
             column_config=render.SHARE_COLUMNS)
by_system.reviews_section(latest)

st.header("Rows where reviewers disagree")
disputed = reviews_stats.disagreements(latest)
if disputed.empty:
    st.caption("No row has verdicts that differ.")
else:
    urls.record_table(disputed, "disputed_rows")

notes = reviews_stats.changed_or_gone(latest, context.run("audit_record_digests",
                                                          ids=sorted(latest.judge_record_id.unique())))
stale = latest[notes.notna()].assign(status=notes[notes.notna()])
st.header("Reviews of rows that changed or are gone")
if stale.empty:
    st.caption("Every review was made on the row as it is in this revision.")
else:
    render.table(stale[["judge_record_id", "reviewer", "verdict", "status", "note"]])

st.header("Export")
log = verdicts.log()
filters = {"dataset": latest.dataset.iloc[0]}
st.markdown(f"The whole review log of this audit ({len(log):,} rows, retractions included):")
export.rows(log, "reviews_log", filters)
st.markdown("As a `calibration_judgements` table (the audit judge's low/high call and each "
            "reviewer's implied call, per row):")
export.rows(reviews_stats.calibration_table(latest), "reviews_calibration_judgements", filters)

blind_review.section()  # blind labels: kept apart from the verdicts above
