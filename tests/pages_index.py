"""The pages app.py registers, read from its source (so new pages are tested automatically)."""

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app.py"

# Which demo collection each navigation section is about; "Collection" pages serve all.
SECTION_COLLECTIONS = {
    "Collection": ("xhotpotqa", "localgate", "transevalnia"),
    "Translation audit": ("xhotpotqa",),
    "Calibration": ("localgate",),
    "Ranking": ("transevalnia",),
}


def registered_pages() -> list[tuple[str, str]]:
    """(section, page file) for every st.Page in app.py's navigation dict."""
    tree = ast.parse(APP.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and isinstance(value, ast.List):
                    for call in value.elts:
                        if isinstance(call, ast.Call) and call.args:
                            out.append((key.value, call.args[0].value))
    return out


def page_cases() -> list[tuple[str, str]]:
    """(page file, collection) pairs to exercise."""
    return [(page, coll) for section, page in registered_pages()
            for coll in SECTION_COLLECTIONS.get(section, ("xhotpotqa",))]


def default_page() -> str:
    """The page registered with default=True: Streamlit serves it at the root URL."""
    tree = ast.parse(APP.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and any(k.arg == "default" and getattr(k.value, "value", False)
                                              for k in node.keywords):
            return node.args[0].value
    return ""


def url_path(page: str) -> str:
    return "" if page == default_page() else Path(page).stem
