"""Hostile text in the data: HTML and script tags, markdown, 1 MB strings, control characters,
right-to-left overrides, zero-width characters. Every page must show it as text, never run it,
never let it form markdown (links, images), and keep rendering.

A collection holding every kind is built in tmp from the demo, its text fields overwritten.
"""

import urllib.parse
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pytest
from google.protobuf.json_format import MessageToDict
from streamlit.testing.v1 import AppTest

from pages_index import registered_pages, url_path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo"
EVIL = "http://127.0.0.1:9/"  # nothing listens there; any request to it is a leak
MARKERS = ("](" + EVIL, "](javascript:")
SCRIPT = '<script>window.__pwned=1;document.title="PWNED"</script>'
HOSTILE = [
    SCRIPT,
    '<img src=x onerror="window.__pwned=1;document.title=\'PWNED\'">',
    "<svg/onload=window.__pwned=1>",
    '</div></td></table><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    f"**bold** [click](javascript:window.__pwned=1) ![pix]({EVIL}pix.png) :red[red] $x^2$\n"
    "# heading\n| a | b |\n|---|---|",
    "ctl\x00\x01\x07\x08\x1b[31mred\x1b[0m\x7f end",
    "abc\u202egnp.exe\u202c tail \u2067isolate\u2069 \u200f",
    "zero\u200b\u200c\u200d\ufeffwidth\u2060",
]
BIG = "A" * 1_000_000  # one unbreakable megabyte
LABEL = f"lbl <b>x</b> [l]({EVIL}l) ![i]({EVIL}i.png) \u202e"  # for names shown as labels
RECORD = f"rid <b>1</b> ![r]({EVIL}r.png)"


def _hostile(frame: pd.DataFrame, columns, every: int = 5) -> pd.DataFrame:
    frame = frame.copy()
    for col in columns:
        if col not in frame:
            continue
        values = frame[col].astype(object).tolist()
        for i in range(0, len(values), every):
            values[i] = HOSTILE[(i // every) % len(HOSTILE)] + " " + str(values[i])[:80]
        values[1 % len(values)] = BIG
        frame[col] = values
    return frame


def _read(rel: str) -> pd.DataFrame:
    return pd.read_parquet(next((DEMO / rel).glob("data/*.parquet")) if "/" not in rel else DEMO / rel)


def build(folder: Path) -> Path:
    """Write the hostile collection (parquet files + manifest) into folder; return the manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    audit = _hostile(_read("xhotpotqa_judge_v2"), ["judge_explanation", "score_origin"])
    audit.loc[0, "judge_record_id"] = RECORD
    audit.loc[audit.index[:40], "run_group"] = LABEL
    snapshot = _hostile(_read("xhotpotqa_v2_snapshot"), ["source_text", "candidate_text"], every=3)
    items = _hostile(_read("localgate_calibration/data/calibration_items-train.parquet"),
                     ["question", "reference_answer", "model_response", "category"], every=2)
    judgements = _hostile(_read("localgate_calibration/data/calibration-train.parquet"), ["reason"])
    judgements["judge_model"] = judgements["judge_model"].replace({"gptoss": LABEL})
    ranking = _read("transevalnia/data/with_human_ranking-train.parquet")
    decisions = [c for c in ranking if "/" in c and "dim_evals" not in c]
    ranking = _hostile(ranking, ["src_text"] + decisions, every=3)
    ranking["dataset"] = ranking["dataset"].replace({ranking["dataset"].iloc[0]: LABEL})
    ranking["tgt_texts"] = [[HOSTILE[i % len(HOSTILE)], t[1]] if i % 3 == 0 else list(t)
                            for i, t in enumerate(ranking["tgt_texts"])]
    verification = _hostile(_read("transevalnia/data/human_verification-train.parquet"),
                            ["source", "translation", "evaluation"], every=2)
    verification["subset"] = verification["subset"].replace({verification["subset"].iloc[0]: LABEL})
    files = {"audit": (audit, "judge_audit"), "snapshot": (snapshot, "source_snapshot"),
             "items": (items, "calibration_items"), "judgements": (judgements, "calibration_judgements"),
             "ranking": (ranking, "pairwise_ranking"), "verification": (verification, "human_verification")}
    body = '[[collection]]\nname = "hostile"\ntitle = "Hostile text"\ndatasets = [%s]\n' % \
        ", ".join(f'"{n}"' for n in files)
    for name, (frame, kind) in files.items():
        frame.to_parquet(folder / f"{name}.parquet", index=False)
        body += f'\n[[dataset]]\nname = "{name}"\nkind = "{kind}"\npath = "{name}.parquet"\n'
    (folder / "sources.toml").write_text(body, encoding="utf-8")
    return folder / "sources.toml"


@pytest.fixture(scope="module")
def hostile_manifest(tmp_path_factory):
    return build(tmp_path_factory.mktemp("hostile"))


PAGES = [page for _, page in registered_pages()]
# Opened with a URL that shows the hostile detail (a record, a pair).
DETAIL = {"pages/review.py": {"record": RECORD}, "pages/pairs.py": {"file": "ranking.parquet", "row": "1"},
          "pages/disagreements.py": {"judge": LABEL}}


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def _strings(value, path=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, path)
    elif isinstance(value, str):
        yield path, value


# Where text is shown as text or as escaped HTML; every other string (bodies of markdown,
# alerts and headings, labels, help, radio options) is interpreted as markdown.
PLAIN = {"text", "html", "code", "plotly_chart", "arrow_data_frame", "dataframe", "json"}
PLAIN_CHOICES = {"selectbox", "multiselect", "select_slider"}  # radio, pills: markdown options


def markdown_leaks(at: AppTest) -> list[str]:
    leaks = []
    for node in _walk(at._tree):
        proto = getattr(node, "proto", None)
        kind = getattr(node, "type", "")
        if proto is None or kind in PLAIN:
            continue
        for path, text in _strings(MessageToDict(proto)):
            if kind in PLAIN_CHOICES and not path.endswith((".label", ".help")):
                continue  # options and values of these widgets are plain text
            if any(m in text for m in MARKERS):
                leaks.append(f"{kind}{path}: {text[:90]!r}")
    return leaks


@pytest.mark.parametrize("page", PAGES)
def test_page_shows_hostile_text_as_text(hostile_manifest, monkeypatch, page):
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(hostile_manifest))
    at = AppTest.from_file("../app.py", default_timeout=180)
    at.query_params["collection"] = "hostile"
    for key, value in DETAIL.get(page, {}).items():
        at.query_params[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title
    assert not markdown_leaks(at), markdown_leaks(at)
    for el in at.get("html"):
        assert "<script" not in el.proto.body.lower().replace("&lt;script", "")


def test_hostile_collection_is_fully_used(hostile_manifest):
    """The hostile strings are data, not errors: no row of the text fields is excluded for them."""
    from judgescope.sources.catalog import Catalog
    from judgescope.wiring import TABLES
    from judgescope.ingest.manifest import load_manifest

    cat = Catalog(load_manifest(hostile_manifest), providers=TABLES)
    for name in ("audit", "snapshot", "items", "judgements", "verification"):
        rep = cat.dataset(name).report
        assert rep and rep["rows_excluded"] == 0, (name, rep and rep["reasons"])


def test_text_block_and_md_literal_on_hostile_strings():
    from judgescope.text import md_literal, visible_text

    assert visible_text("a\x00b\x1bc\td\ne\r") == "a\u2400b\u241bc\td\ne\r"
    assert visible_text("x\ud800y") == "x\ufffdy"  # a lone surrogate cannot be sent as UTF-8
    literal = md_literal(HOSTILE[4])
    assert "](" not in literal and "\n" not in literal and literal.endswith("…\u2069")
    assert md_literal("a\u202eb").startswith("\u2068")  # an override stays inside

    def app(text):
        from judgescope.web import render
        render.text_block(text, "ar")

    for text in [*HOSTILE, BIG, "x\ud800y", pd.NA, float("nan")]:
        at = AppTest.from_function(app, args=(text,))
        at.run()
        assert not at.exception, repr(text)[:40]
        for el in at.get("html"):
            body = el.proto.body
            assert "<script" not in body and "<img" not in body and "<svg" not in body
            assert 'dir="rtl"' in body


# ---- real headless Chromium: no script ran, nothing fetched from elsewhere, layout holds ----

# One Chromium and one tab for the module's pages: each test opens its URL as a new document in
# that tab (the app's scripts come from the browser's cache, as for a user who opens a second
# link), and listens to that document's requests, console and errors only.
from chromium import browser, needs_chromium  # noqa: E402, F401 (fixture)


@pytest.fixture(scope="module")
def tab(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module")
def hostile_server(hostile_manifest, tmp_path_factory):
    from browser_server import serving

    with serving(tmp_path_factory.mktemp("hostile-log") / "server.log",
                 JUDGESCOPE_SOURCES=str(hostile_manifest),
                 JUDGESCOPE_CACHE=str(tmp_path_factory.mktemp("hostile-cache"))) as base:
        yield base


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize("page", PAGES)
def test_hostile_text_in_chromium(hostile_server, tab, page):
    query = {"collection": "hostile"} | DETAIL.get(page, {})
    _check_page(tab, f"{hostile_server}/{url_path(page)}?{urllib.parse.urlencode(query)}", page)


@contextmanager
def watched(page):
    """(foreign, errors) of the tab's next documents while inside: requests to the address
    planted in the data (a markdown image, a tracking pixel: a leak; Streamlit itself fetches
    Material icons from fonts.gstatic.com, not data-driven), console errors, page errors and
    failed responses."""
    from chromium import BENIGN_404

    foreign: list[str] = []
    errors: list[str] = []
    listeners = {
        "request": lambda r: foreign.append(r.url) if r.url.startswith(EVIL) else None,
        "console": lambda m: errors.append(m.text) if m.type == "error"
        and not m.text.startswith("Failed to load resource") else None,
        "pageerror": lambda e: errors.append(str(e)),
        "response": lambda r: errors.append(f"HTTP {r.status} {r.url}")
        if r.status >= 400 and not BENIGN_404.search(r.url) else None,
    }
    for event, listener in listeners.items():
        page.on(event, listener)
    try:
        yield foreign, errors
    finally:
        for event, listener in listeners.items():
            page.remove_listener(event, listener)


@pytest.mark.browser
@needs_chromium
def test_the_watch_sees_a_planted_fetch_and_a_script_error(tab):
    """The checks below can fail: an image from the planted address and a thrown error in a
    document opened in the shared tab are both seen, and only while watched."""
    with watched(tab) as (foreign, errors):
        tab.set_content(f'<img src="{EVIL}seen.png"><script>throw new Error("seen")</script>')
        tab.wait_for_timeout(300)
    assert any(u.startswith(f"{EVIL}seen.png") for u in foreign), foreign
    assert any("seen" in e for e in errors), errors
    tab.set_content(f'<img src="{EVIL}unseen.png">')
    tab.wait_for_timeout(300)
    assert not any("unseen" in u for u in foreign)


def _check_page(page, url: str, page_file: str) -> None:
    from chromium import SHOTS, wait_until_drawn

    with watched(page) as (foreign, errors):
        page.goto(url, wait_until="domcontentloaded")
        # Every element drawn (a planted image or script would have been inserted, and fetched or
        # run, by then), and a second more for anything deferred.
        wait_until_drawn(page)
        page.wait_for_timeout(1000)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"hostile--{Path(page_file).stem}.png"))
        state = page.evaluate("""() => {
            const main = document.querySelector('[data-testid="stMainBlockContainer"]');
            return {pwned: window.__pwned === 1, title: document.title,
                    exceptions: document.querySelectorAll('[data-testid="stException"]').length,
                    overflow: main ? main.scrollWidth - main.clientWidth : -1,
                    h1: document.querySelectorAll('h1').length};
        }""")
        assert not state["pwned"] and "PWNED" not in state["title"], state
        assert state["exceptions"] == 0 and state["h1"] >= 1, state
        assert state["overflow"] <= 2, f"main block overflows horizontally by {state['overflow']}px"
        assert not foreign, foreign
        assert not errors, errors


URL_MD = f"![u]({EVIL}u.png) [x](javascript:window.__pwned=1)"


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize("page,params", [
    ("pages/verification.py", {"subset": URL_MD, "system": URL_MD}),
    ("pages/position_bias.py", {"dataset": URL_MD}),
    ("pages/review.py", {"lang": URL_MD, "record": URL_MD}),
    ("pages/pairs.py", {"file": URL_MD, "row": "3"}),
])
def test_markdown_in_the_url_is_not_rendered(hostile_server, tab, page, params):
    """A shared link cannot make the page show a link or fetch an image of someone else's."""
    url = f"{hostile_server}/{url_path(page)}?{urllib.parse.urlencode({'collection': 'hostile'} | params)}"
    _check_page(tab, url, page)
