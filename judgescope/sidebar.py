"""The sidebar every page shares: collection picker, pinned origins, synthetic label."""

import streamlit as st

from judgescope import ui, verify


def draw() -> None:
    cat = ui.catalog()
    names = list(cat.manifest.collections)
    with st.sidebar:
        # Options are the names themselves: a bound widget puts the option's label in the URL.
        st.selectbox("Collection", names, key="collection", bind="query-params")
        st.caption(cat.manifest.collections[ui.collection_name()].title)
        _hash_badge()
        for loaded in cat.collection_datasets(ui.collection_name()):
            spec = loaded.spec
            pin = f"{spec.hub}@{spec.revision[:7]}" if spec.hub else spec.path
            mark = "✅" if loaded.ok else "⚠️"
            st.caption(f"{mark} **{spec.name}** · `{pin}`" + (" · synthetic demo" if spec.synthetic else ""))
        st.caption(f"Manifest: `{cat.manifest.path.name}`")


def _hash_badge() -> None:
    """Green when every audit row matches the pinned snapshot; red, linking to Integrity, if not."""
    summary, origin, problems = ui.verification()
    text, colour = verify.badge(summary, origin)
    if problems:
        text, colour = f"not verified: {problems[0]}", "red"
    if colour == "red":
        # The link is the short part (the number of problems); the sentence wraps below it.
        head, _, rest = text.partition(": ")
        st.page_link("pages/integrity.py", label=f":red[**{_md(head)}**]", icon="⚠️",
                     query_params={"collection": ui.collection_name()})
        if rest:
            st.markdown(f":red[{_md(rest)}]")
    else:
        st.markdown(f":{colour}[{'✔ ' if colour == 'green' else ''}{_md(text)}]")


def _md(text: str) -> str:
    """Manifest values (paths, repo ids) shown literally inside markdown."""
    return "".join("\\" + c if c in "\\`*_[]<>$~|#" else c for c in text)
