"""The one page registry: every page, its section, the dataset roles it needs and the URL
parameters it takes.

app.py builds the navigation from it, the sidebar lists only the pages the current collection
can fill, Overview links come from it, and a URL to a page the collection cannot fill names the
collections that can. Each page declares its URL parameters (PARAMS, judgescope/url_params.py):
web/urls.py reads the URL against them, href() refuses a name the target does not declare.
Pure (no streamlit), so the CLI and the tests read the same declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from judgescope.url_params import Param, choice, flag, number, text


@dataclass(frozen=True)
class PageSpec:
    path: str  # relative to the repository root, as st.Page takes it
    title: str
    icon: str
    section: str
    needs: tuple[str, ...] = ()  # dataset roles (catalog.roles) the page reads
    what: str = ""  # what the page shows, for "this collection cannot fill …"
    default: bool = False
    columns: tuple[str, ...] = ()  # columns every needed dataset must record (not all NULL)
    params: tuple[Param, ...] = ()  # the URL parameters it takes, besides GLOBAL ones

    def param(self, name: str) -> Param:
        """The declaration of URL parameter `name` on this page (UndeclaredParameter if none)."""
        for p in (*GLOBAL, *self.params):
            if p.name == name:
                return p
        raise UndeclaredParameter(f"{self.path} declares no URL parameter {name!r} "
                                  f"(judgescope/navigation.py PARAMS: {', '.join(self.names()) or 'none'})")

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in (*GLOBAL, *self.params))

    @property
    def url_path(self) -> str:
        """The path Streamlit serves the page at ('' for the default page)."""
        return "" if self.default else Path(self.path).stem

    def fits(self, roles) -> bool:
        """The collection has every needed role, and each needed dataset records `columns` (a
        role given without its validation report, as tests do, is taken as recording them)."""
        if not all(r in roles for r in self.needs):
            return False
        reports = [getattr(roles[r], "report", None) for r in self.needs]
        return not any(set(self.columns) & set(rep.get("columns_missing", ())) for rep in reports
                       if isinstance(rep, dict))


class UndeclaredParameter(KeyError):
    """A URL parameter a page does not declare was read or linked to."""


# Every page takes the collection it shows (web/context.py reads it before the page runs).
GLOBAL = (choice("collection", "the manifest's collections, and those opened or uploaded in this session"),)
RESAMPLES = number("resamples", 100, 100_000, 10_000, integer=True)
SEED = number("seed", 0, 2**32 - 1, 20260810, integer=True)
SIGNIFICANCE = (number("sig_resamples", 100, 100_000, 10_000, integer=True),  # significance_panels
                number("sig_seed", 0, 2**32 - 1, 20260810, integer=True))
SPLIT = choice("split", "the calibration items' splits (calibration.panel.split_options)", many=True)
LANG = choice("lang", "the audit's target languages", many=True)
UNIT = choice("unit", "the audit's units", many=True)
REVIEW_STATES = "judgescope.reviews.states.STATES"
INTEGRITY_CLASSES = "the classes present among judgescope.integrity.hashes.CLASSES"

# Each page's URL parameters (GLOBAL ones aside): literal data, the one place a name is declared.
PARAMS: dict[str, tuple[Param, ...]] = {
    "overview": (choice("upload", ("again",)),),
    "excluded": (choice("dataset", "the datasets with excluded rows", many=True),
                 choice("reason", "the reasons rows were excluded", many=True)),
    "integrity": (choice("class", INTEGRITY_CLASSES, "the first problem class present, else verified"),),
    "sql_console": (text("sql", None, box=True),),
    "hub_open": (text("repo", None, box=True), text("revision", None, box=True, default="main"),
                 text("config", None, box=True), text("split", None, box=True)),
    "distributions": (choice("facet", "judgescope.audit.summary.available_facets", "none"),
                      number("t1", 0, 100, 60, integer=True), number("t2", 0, 100, 80, integer=True),
                      number("t3", 0, 100, 90, integer=True), RESAMPLES, SEED, flag("log")),
    "languages": (number("below", 0, 100, 60, integer=True), choice("scale", ("centred", "absolute"), "centred"),
                  number("ref", 0.0, 100.0, None), number("k", 1, 50, 3, integer=True)),
    "review": (choice("lang", "the audit's target languages"), UNIT, number("min", 0.0, 100.0, 0.0),
               number("max", 0.0, 100.0, 100.0), choice("origin", "the audit's score origins", many=True),
               choice("run", "the audit's run groups", many=True),
               choice("system", "the audit's systems (none without a system column)", many=True),
               text("q", 500, box=True), choice("order", ("lowest first", "highest first"), "lowest first"),
               choice("blind", ("1",)), choice("rstate", REVIEW_STATES),
               text("record", 1_000),
               # the list a record was opened from (web/review.py ORIGINS), and its filters
               choice("list", ("exact_copies", "integrity"), opens=True),
               choice("exact_copies_lang", "the audit's target languages", many=True, opens=True),
               choice("exact_copies_unit", "the audit's units", many=True, opens=True),
               choice("integrity_class", INTEGRITY_CLASSES, opens=True),
               # the list's page position (web/pager.py), valid only for the list it was made for
               Param("after", "position", max_chars=2_000, opens=True),
               number("at", 1, 10**12, None, integer=True, opens=True), Param("sig", "hash", opens=True)),
    "themes": (LANG, UNIT, number("threshold", 0.0, 100.0, 60.0),
               number("min_count", 1, 1000, 3, integer=True)),
    "exact_copies": (LANG, UNIT),
    "compare": (RESAMPLES, SEED),
    "drift": (RESAMPLES, SEED, number("threshold", 0, 100, 0)),
    "calibration": (SPLIT, number("judge_gate", 0.0, 1.0, 0.6), number("panel_gate", 0.0, 1.0, 0.8),
                    *SIGNIFICANCE),
    "calibration_humans": (SPLIT,),
    "disagreements": (SPLIT, choice("judge", "the judges' ids (judge:NAME) and the panel's", "the panel"),
                      choice("cell", "the confusion cells (calibration.panel.cell_options)", "disagree"),
                      flag("unanimous"), text("item", 1_000)),
    "judgements": (flag("heldout"),),
    "ranking": (choice("dataset", "the ranking's datasets", "the first"),
                choice("decision", "the ranking's method/model pairs", "the first"),
                choice("outcome", "the cell's outcomes", many=True), *SIGNIFICANCE),
    "position_bias": (choice("dataset", "the ranking's datasets", "the last"),),
    "pairs": (choice("dataset", "the ranking's datasets", many=True),
              choice("human", "judgescope.ranking.tables.HUMAN_LABELS", many=True),
              text("file", 1_000), number("row", 0, 10**9, None, integer=True, opens=True)),
    "verification": (choice("subset", "the verification subsets", many=True),
                     choice("system", "the verification systems", many=True)),
}


def _p(path, title, icon, section, needs=(), what="", default=False, columns=()) -> PageSpec:
    return PageSpec(f"pages/{path}.py", title, f":material/{icon}:", section, tuple(needs),
                    what or title.lower(), default, tuple(columns), PARAMS.get(path, ()))


PAGES: tuple[PageSpec, ...] = (
    _p("overview", "Overview", "dashboard", "Collection", default=True),
    _p("excluded", "Excluded rows", "playlist_remove", "Collection"),
    _p("integrity", "Integrity", "verified", "Collection", ("audit", "snapshot"),
       "hash verification of an audit against its source snapshot"),
    _p("sql_console", "SQL console", "terminal", "Collection"),
    _p("hub_open", "Open from the Hub", "cloud_download", "Collection",
       what="opening a pinned Hub dataset"),
    _p("distributions", "Distributions", "bar_chart", "Translation audit", ("audit",),
       "score distributions of a judge audit"),
    _p("languages", "Languages", "translate", "Translation audit", ("audit",),
       "the language × unit view of a judge audit"),
    _p("review", "Review", "rate_review", "Translation audit", ("audit",),
       "the review list of a judge audit"),
    _p("themes", "Themes", "topic", "Translation audit", ("audit",),
       "the explanation themes of a judge audit"),
    _p("exact_copies", "Exact copies", "content_copy", "Translation audit", ("audit",),
       "exact copies of the source in a judge audit"),
    _p("reviews", "Reviews", "reviews", "Translation audit", ("audit",),
       "the reviewers' verdicts on a judge audit"),
    _p("provenance", "Provenance", "history_edu", "Translation audit", ("audit",),
       "the provenance of a judge audit's scores"),
    _p("compare", "Compare versions", "difference", "Translation audit",
       ("audit", "audit_previous"), "a comparison of two audit versions"),
    _p("drift", "Drift", "compare_arrows", "Translation audit", ("audit", "audit_previous"),
       "drift between two judge runs on byte-identical texts (both audits with source and candidate SHA-256)",
       columns=("source_text_sha256", "candidate_text_sha256")),
    _p("calibration", "Judges vs humans", "gavel", "Calibration", ("items", "judgements"),
       "judges against human verdicts"),
    _p("calibration_humans", "Human agreement", "groups", "Calibration", ("items", "judgements"),
       "agreement among human raters"),
    _p("disagreements", "Disagreements", "call_split", "Calibration", ("items", "judgements"),
       "items where a judge and the humans disagree"),
    _p("judgements", "Bulk judgements", "inventory_2", "Calibration", ("judgements",),
       "a table of judge verdicts"),
    _p("human_ratings", "Human ratings", "grading", "Human ratings", ("ratings",),
       "agreement among raters of long-format human ratings"),
    _p("ranking", "Ranking accuracy", "leaderboard", "Ranking", ("ranking",),
       "pairwise ranking accuracy"),
    _p("position_bias", "Position bias", "swap_horiz", "Ranking", ("ranking",),
       "position bias in pairwise rankings"),
    _p("pairs", "Pairs", "compare", "Ranking", ("ranking",), "the pair browser"),
    _p("verification", "Human verification", "fact_check", "Ranking", ("verification",),
       "human verification of model evaluations"),
)
SECTIONS = tuple(dict.fromkeys(p.section for p in PAGES))
ROLE_NAMES = {"audit": "judge audit", "audit_previous": "earlier audit version (previous)",
              "snapshot": "source snapshot", "items": "calibration items",
              "judgements": "calibration judgements", "ranking": "pairwise ranking",
              "verification": "human verification", "ratings": "human ratings"}


def missing_roles(spec: PageSpec, roles) -> list[str]:
    """Readable names of the datasets a collection lacks for `spec` (or has without the columns
    the page needs)."""
    out = []
    for r in spec.needs:
        report = getattr(roles.get(r), "report", None) if r in roles else None
        lacking = [c for c in spec.columns if isinstance(report, dict) and c in report.get("columns_missing", ())]
        if r not in roles:
            out.append(ROLE_NAMES.get(r, r))
        elif lacking:
            out.append(f"{ROLE_NAMES.get(r, r)} recording {', '.join(lacking)}")
    return out


def page(path_or_stem: str) -> PageSpec:
    """The page declared for a file path ('pages/review.py') or URL path ('review', '')."""
    for spec in PAGES:
        if path_or_stem in (spec.path, spec.url_path, Path(spec.path).stem):
            return spec
    raise KeyError(path_or_stem)


def available(roles) -> list[PageSpec]:
    """The pages a collection with these dataset roles can fill, in registry order."""
    return [p for p in PAGES if p.fits(roles)]


def by_section(roles) -> dict[str, list[PageSpec]]:
    out: dict[str, list[PageSpec]] = {}
    for spec in available(roles):
        out.setdefault(spec.section, []).append(spec)
    return out


def collections_for(spec: PageSpec, roles_by_collection: dict[str, object]) -> list[str]:
    """The collections (in manifest order) whose roles fill `spec`."""
    return [name for name, roles in roles_by_collection.items() if spec.fits(roles)]


def link_params(spec: PageSpec, **params) -> dict:
    """URL parameters for a link to `spec` (st.page_link, st.switch_page): each name must be one
    the page declares, so a link and the page it opens cannot drift apart."""
    for name in params:
        spec.param(name)
    return params


def href(spec: PageSpec, **params) -> str:
    """A relative link to a page with URL parameters it declares (lists become repeated
    parameters); an undeclared name raises UndeclaredParameter.

    Relative, so it works at the site root and under a base path alike; empty values are left
    out, so the link carries only what narrows the view."""
    link_params(spec, **params)
    query_ = urlencode([(k, v) for k, vals in params.items()
                       for v in (vals if isinstance(vals, (list, tuple)) else [vals])
                       if v is not None and v != ""], doseq=False)
    target = spec.url_path or "./"
    return f"{target}?{query_}" if query_ else target
