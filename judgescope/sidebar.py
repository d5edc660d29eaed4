"""The sidebar every page shares: collection picker, pinned origins, synthetic label."""

import streamlit as st

from judgescope import ui


def draw() -> None:
    cat = ui.catalog()
    names = list(cat.manifest.collections)
    with st.sidebar:
        # Options are the names themselves: a bound widget puts the option's label in the URL.
        st.selectbox("Collection", names, key="collection", bind="query-params")
        st.caption(cat.manifest.collections[ui.collection_name()].title)
        for loaded in cat.collection_datasets(ui.collection_name()):
            spec = loaded.spec
            pin = f"{spec.hub}@{spec.revision[:7]}" if spec.hub else spec.path
            mark = "✅" if loaded.ok else "⚠️"
            st.caption(f"{mark} **{spec.name}** · `{pin}`" + (" · synthetic demo" if spec.synthetic else ""))
        st.caption(f"Manifest: `{cat.manifest.path.name}`")
