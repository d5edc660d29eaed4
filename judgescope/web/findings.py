"""The collection's findings (Overview) and, under every page, how its numbers are computed:
the queries the page ran, their views, cached files and pinned sources."""

from __future__ import annotations

import streamlit as st

from judgescope.text import md_literal
from judgescope.web import context, results


def literal(text: str) -> None:
    """A sentence built from data values, shown as text inside markdown (links never form)."""
    st.markdown(md_literal(text, limit=2_000))


@st.cache_data(max_entries=32, show_spinner="Summarising the collection…")
def _findings(manifest: str, collection: str) -> tuple[list, list]:
    from judgescope import findings
    from judgescope.audit import summary as audit
    from judgescope.ranking import decisions as ranking
    from judgescope.integrity import hashes as verify
    from judgescope.calibration import panel as cal

    cat = context.catalog()
    have = cat.roles(collection)
    used: list[str] = []

    def run(query, **params):  # records what the findings read, for "How is this computed"
        used.append(query)
        return cat.store(collection).run(query, **params)
    out = []
    if "audit" in have:
        rep = have["audit"].report or {}
        copies = run("audit_exact_copy_counts")["exact_copies"].sum()
        summary, origin, problems = results.verification_for(collection)
        if summary is not None:
            used.append("verify_summary")
        hashes = verify.badge(summary, origin) if "snapshot" in have else None
        if problems:
            hashes = (f"not verified: {problems[0]}", "red")
        out += findings.audit_findings(
            audit.score_counts(run), excluded=int(rep.get("rows_excluded", 0)),
            loaded=int(rep.get("rows_loaded", 0)), exact_copies=int(copies), hashes=hashes)
    if "items" in have and "judgements" in have:
        items = run("calib_items", **cal.split_params([]))
        judgements = run("calib_item_judgements", **cal.split_params([]))
        if not items.empty and not judgements.empty:
            deviations = cat.manifest.collections[collection].deviations
            out += findings.calibration(cal.report(items, judgements), deviations=deviations)
    if "ranking" in have:
        pairs, decisions = ranking.load(run, have["ranking"].spec.name)
        if not decisions.empty:
            out += findings.ranking_findings(ranking.results(decisions, with_total=True),
                                             ranking.ALL_DATASETS)
        elif not pairs.empty:
            out += findings.pairs_findings(ranking.human_summary(pairs))
    if "ratings" in have:
        from judgescope.calibration import human_ratings as hr

        missing = set(have["ratings"].report["columns_missing"])
        score = next((c for c in ("score", "mqm") if c not in missing), None)
        verdict = None if "verdict" in missing else "verdict"
        frame = run("ratings_long")
        if not frame.empty:
            out += findings.ratings_findings(hr.agreement(frame, score, verdict), verdict)
    return out, list(dict.fromkeys(used))


def findings() -> list:
    """The collection's headline findings (cached per collection)."""
    found, used = _findings(str(context.catalog().manifest.path), context.collection_name())
    for query in used:
        context.record_query(query)
    return found


def report_html(collection: str) -> bytes:
    """The collection's report, the same bytes `python -m judgescope report-html` writes for
    the same data, seed and generation time (now)."""
    from judgescope.report import build, html

    return html.render(build.collect(context.catalog(), collection, generated_at=build.now())).encode("utf-8")


def download_report() -> None:
    """"Download report": one self-contained HTML file to attach to an email (built on click)."""
    name = context.collection_name()
    st.download_button("Download report", lambda: report_html(name), file_name=f"{name}-report.html",
                       mime="text/html", icon=":material/download:", key="download_report",
                       help="One HTML file with the findings, charts, tables and provenance; it "
                            "opens offline, and `python -m judgescope check-report FILE` checks "
                            "it against the pinned data.")


@st.cache_data(max_entries=context.QUERY_CACHE_ENTRIES, show_spinner=False)
def _chain(manifest: str, collection: str, query: str) -> str:
    from judgescope.sources import explain

    return explain.as_text(explain.chain(context.catalog(), collection, query))


def how_computed() -> None:
    """Under every page: each query it ran → the views read → cached files → pinned sources
    (the same chain as `python -m judgescope explain QUERY`)."""
    used = context.queries_this_run()
    if not used:
        return
    with st.expander(f"How is this computed? {len(used)} quer{'y' if len(used) == 1 else 'ies'}, "
                     "their views, cached files and pinned sources", icon=":material/account_tree:"):
        st.caption("Every number on this page comes from these named queries (queries/*.sql), "
                   "over these views, read from these cached files, built from these pinned "
                   "files. `judgescope explain QUERY --collection "
                   f"{md_literal(context.collection_name())}` prints the same.")
        for query in used:
            st.code(_chain(str(context.catalog().manifest.path), context.collection_name(), query), language=None,
                    wrap_lines=True)


BADGE_ICONS = {"PASS": ":material/check_circle:", "FAIL": ":material/cancel:",
               "INCONCLUSIVE": ":material/help:", "ok": ":material/check:",
               "problem": ":material/warning:"}
INCONCLUSIVE_ICON = ":material/help:"


def badge_md(status: str | None, colour: str) -> str:
    """A coloured markdown badge for a fixed status word (never data text); a gate verdict whose
    CI includes the gate reads 'FAIL · inconclusive' with its own icon and colour."""
    word, _, qualifier = (status or "").partition(" · ")
    if word not in BADGE_ICONS:
        return ""
    icon = INCONCLUSIVE_ICON if qualifier else BADGE_ICONS[word]
    label = status if word.isupper() else ""
    return f":{colour}-badge[{icon} {label}]".replace(" ]", "]") + " "


def finding(f) -> None:
    """One finding: a coloured badge (and a recorded deviation beside it), the sentence as text
    whose numbers copy as typed, its method on one line below, the full rule folded, and a link
    to the view proving it."""
    from judgescope.web import navigation

    spec = navigation.page(f.page)
    text, link = st.columns([5, 2], vertical_alignment="top")
    with text:
        st.markdown(badge_md(f.status, f.colour) + md_literal(f.text, limit=2_000, isolate=False))
        if f.note:
            st.markdown(":orange-badge[:material/flag: recorded deviation] "
                        + md_literal(f.note, limit=500))
        if f.method:
            st.caption(md_literal(f.method, limit=300, isolate=False))
        if f.how:
            with st.expander("How", icon=":material/info:"):
                st.caption(md_literal(f.how, limit=3_000, isolate=False))
    link.page_link(spec.path, label=f"{md_literal(f.link, limit=80)} →", icon=spec.icon,
                   query_params={"collection": context.collection_name(), **f.params})


def how(name: str) -> None:
    """A small "how" under a headline number: the functions that compute it (outermost first),
    the queries they read and each query's chain down to the pinned files
    (`judgescope explain NAME` prints the same)."""
    from judgescope import numbers

    n = numbers.number(name)
    with st.popover("how", icon=":material/functions:", help=f"How is this computed: {n.title}"):
        st.markdown(f"**{n.title}**")
        if n.functions:
            st.markdown("Computed by " + " → ".join(f"`{f}`" for f in n.functions)
                        + " from the rows of:")
        else:
            st.markdown("Counted by the query itself, from:")
        for query in n.queries:
            st.code(_chain(str(context.catalog().manifest.path), context.collection_name(), query),
                    language=None, wrap_lines=True)
        st.caption(f"`judgescope explain {n.name} --collection {md_literal(context.collection_name())}` "
                   "prints the same.")
