"""The reviewers' summary of an audit in the report, when reviewers have given verdicts: rows
reviewed, verdicts, the share of reviewer calls where the judge was right (Wilson CI) and who
reviewed. The numbers come from the reviews log beside the app (verdict_stats.summary, as
`judgescope reviews summary --json` prints them); check-report recomputes them from the log, so
a verdict given after the report makes it stale (exit 1)."""

from __future__ import annotations

from judgescope import format as fmt
from judgescope.report.ledger import Ledger, bound
from judgescope.reviews import verdict_stats as reviews_stats
from judgescope.reviews import database, verdict_log as reviews

F = "judgescope.reviews.verdict_stats.summary"


def build(ledger: Ledger, dataset: str) -> tuple[dict | None, list[str]]:
    """(section or None, what could not be measured and why)."""
    try:
        latest = reviews.latest(dataset=dataset)
    except (database.ReviewStoreUnavailable, database.ReviewStoreBusy) as err:
        return None, [f"Reviewers' summary: {err}"]
    if latest.empty:
        return None, ["Reviewers' summary: no reviewer has given a verdict on this audit yet "
                      "(verdicts are given on Review and Exact copies)."]
    s = reviews_stats.summary(latest)
    share, ci = s["judge_right_share"], s["ci"]

    def add(key, value, shown):
        return ledger.add(f"reviews.{key}", value, shown, query=None, function=F)

    section = {
        "reviewed": add("reviewed", s["reviewed"], fmt.count(s["reviewed"])),
        "verdicts": [{"verdict": v.replace("_", " "), "rows": add(f"by_verdict.{v}", n, fmt.count(n))}
                     for v, n in s["by_verdict"].items()],
        "decided": add("decided_rows", ci["rows"], fmt.count(ci["rows"])),
        "share": "n/a" if share is None else add("judge_right_share", share, f"{share:.1%}"),
        "ci": "n/a" if share is None else bound("[{}, {}]",
            add("ci.low", ci["low"], f"{ci['low']:.1%}"), add("ci.high", ci["high"], f"{ci['high']:.1%}")),
        "method": f"{ci['method']} {ci['level']:.0%} interval",
        "reviewers": s["reviewers"],
    }
    return section, []
