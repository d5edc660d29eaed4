"""The pages the app registers, read from the one page registry (judgescope/navigation.py), so
new pages are tested automatically."""

from judgescope import navigation

# Which demo collection each navigation section is about; "Collection" pages serve all.
SECTION_COLLECTIONS = {
    "Collection": ("xhotpotqa", "localgate", "transevalnia"),
    "Translation audit": ("xhotpotqa",),
    "Calibration": ("localgate",),
    "Ranking": ("transevalnia",),
}

# A page whose section's collection cannot show what it is for is also opened on one that can:
# Drift on V1 → V2 has no anchors; the re-judged demo has a judge and a system shift.
EXTRA_COLLECTIONS = {"pages/drift.py": ("xhotpotqa_drift",)}


def registered_pages() -> list[tuple[str, str]]:
    """(section, page file) for every page of the registry."""
    return [(p.section, p.path) for p in navigation.PAGES]


def page_cases() -> list[tuple[str, str]]:
    """(page file, collection) pairs to exercise."""
    return [(page, coll) for section, page in registered_pages()
            for coll in SECTION_COLLECTIONS.get(section, ("xhotpotqa",)) + EXTRA_COLLECTIONS.get(page, ())]


def default_page() -> str:
    """The page registered with default=True: Streamlit serves it at the root URL."""
    return next(p.path for p in navigation.PAGES if p.default)


def url_path(page: str) -> str:
    return navigation.page(page).url_path
