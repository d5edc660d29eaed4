"""The sidebar every page shares: the collection picker (titles; the id stays in the
URL), links to the pages this collection can fill, the hash badge, pinned origins."""

import streamlit as st

from judgescope.duck import progress
from judgescope.web import navigation
from judgescope.web import context, results
from judgescope.integrity import hashes as verify
from judgescope.text import md_literal


def draw(current: navigation.PageSpec) -> None:
    cat = context.catalog()
    names = context.visible_collections()
    coll = context.collection_name()
    if st.session_state.get(context.PICKER_KEY) != coll:  # the URL names the collection: the picker follows
        st.session_state[context.PICKER_KEY] = coll
    if st.session_state.pop(context.SWITCHED_KEY, False):
        _start_at_top()
    with st.sidebar:
        st.selectbox("Collection", names, key=context.PICKER_KEY,
                     format_func=lambda n: cat.manifest.collections[n].title,
                     on_change=context.switch_collection, help=f"Collection id in the URL: {coll}")
        _full_title(cat.manifest.collections[coll].title)
        _load(cat, coll)
        _menu(current, coll)
        if context.dataset_for("audit"):  # hash verification is about audits; elsewhere it is noise
            _hash_badge()
        with st.expander("Datasets", expanded=False):
            for loaded in cat.collection_datasets(coll):
                spec = loaded.spec
                pin = f"{spec.hub}@{(spec.revision or '')[:7]}" if spec.hub else spec.path
                mark = ":material/check_circle:" if loaded.ok else ":material/error:"
                st.caption(f"{mark} **{md_literal(spec.name)}** · {md_literal(pin or '')}"
                           + (" · synthetic demo" if spec.synthetic else ""))
            st.caption(f"Manifest: {md_literal(cat.manifest.path.name)}")
        if any(d.spec.synthetic for d in cat.collection_datasets(coll)):
            st.caption(":material/science: **Synthetic demo data**: generated rows that reproduce "
                       "published figures; texts are invented.")


# The picker's box (a one-line input at the sidebar's default width) shows about this many characters
# of a title before cutting it: "XHotpotQA translation audit (GLI". A longer title is also written whole.
SELECT_SHOWS = 24


def _full_title(title: str) -> None:
    """The chosen collection's whole title under the picker, where the box would cut it."""
    if len(title) > SELECT_SHOWS:
        st.caption(md_literal(title))


# Streamlit keeps the main block's scroll position across reruns of a page: a collection switched
# from a chip far down Overview would open mid-page, at whatever stands there in the new one.
_TOP = ("<script>for (const e of document.querySelectorAll('[data-testid=\"stMain\"], "
        "[data-testid=\"stAppViewContainer\"]')) e.scrollTop = 0; window.scrollTo(0, 0);</script>")


def _start_at_top() -> None:
    """After a collection switch: scroll the page to its top (a fixed script, no data in it)."""
    st.html(_TOP, unsafe_allow_javascript=True)


# The picker above is labelled "Collection": the pages every collection has are captioned apart.
MENU_CAPTIONS = {"Collection": "General"}


def _menu(current: navigation.PageSpec, coll: str) -> None:
    """Links to the pages this collection fills, grouped by section, carrying the collection."""
    for section, specs in navigation.by_section(context.roles()).items():
        st.caption(MENU_CAPTIONS.get(section, section))
        for spec in specs:
            st.page_link(spec.path, label=spec.title, icon=spec.icon,
                         query_params={"collection": coll})


def _load(cat, coll: str) -> None:
    """First use validates (and, for Hub datasets, downloads): say so while it happens."""
    pending = cat.pending(coll)
    if not pending and cat.has_store(coll):
        return
    hub = [s.hub for s in pending if s.hub]
    what = f"Downloading {', '.join(hub)} from the Hub and validating" if hub else "Opening the collection"
    bar = st.progress(0.0, text=f"{md_literal(what, 200)}…")

    def show(event: progress.Event) -> None:  # stages, row groups and time left (duck/progress.py)
        bar.progress(event.fraction, text=f"{md_literal(what, 200)}: {md_literal(event.text(), 200)}")

    with progress.reporting(show, attach=_attach):
        cat.collection_datasets(coll)
        cat.store(coll)  # builds the hash verification once per file revision
    bar.empty()


def _attach(thread) -> None:
    """The progress poller updates this session's bar from its own thread."""
    from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx
    add_script_run_ctx(thread, get_script_run_ctx())


def _hash_badge() -> None:
    """Green when every audit row matches the pinned snapshot; red, linking to Integrity, if not."""
    summary, origin, problems = results.verification()
    text, colour = verify.badge(summary, origin)
    if problems:
        text, colour = f"not verified: {problems[0]}", "red"
    if colour == "red":
        # The link is the short part (the number of problems); the sentence wraps below it.
        head, _, rest = text.partition(": ")
        st.page_link(navigation.page("integrity").path, label=f":red[**{md_literal(head, 500)}**]",
                     icon=":material/error:", query_params={"collection": context.collection_name()})
        if rest:
            st.markdown(f":red[{md_literal(rest, 500)}]")
    else:
        st.markdown(f":{colour}[{'✔ ' if colour == 'green' else ''}{md_literal(text, 500)}]")
