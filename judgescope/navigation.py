"""The one page registry: every page, its section, and the dataset roles it needs.

app.py builds the navigation from it, the sidebar lists only the pages the current collection
can fill, Overview links come from it, and a URL to a page the collection cannot fill names the
collections that can. Pure (no streamlit), so tests read the same declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode


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


def _p(path, title, icon, section, needs=(), what="", default=False, columns=()) -> PageSpec:
    return PageSpec(f"pages/{path}.py", title, f":material/{icon}:", section, tuple(needs),
                    what or title.lower(), default, tuple(columns))


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


def href(spec: PageSpec, **params) -> str:
    """A relative link to a page with URL parameters (lists become repeated parameters).

    Relative, so it works at the site root and under a base path alike; empty values are left
    out, so the link carries only what narrows the view."""
    query = urlencode([(k, v) for k, vals in params.items()
                       for v in (vals if isinstance(vals, (list, tuple)) else [vals])
                       if v is not None and v != ""], doseq=False)
    target = spec.url_path or "./"
    return f"{target}?{query}" if query else target
