"""The calibration's headline findings: each rater's gate verdict (panel first) with its
disagreements, and the agreement among human raters. Pure (no streamlit)."""

from __future__ import annotations

from judgescope import format as fmt
from judgescope.calibration import clustered
from judgescope.calibration import panel as cal
from judgescope.calibration import staleness
from judgescope.calibration.panel import JUDGE_PREFIX
from judgescope.findings import Finding, isolated
from judgescope.numbers import Number

# The headline numbers this domain shows (judgescope/numbers.py says what each field is).
NUMBERS = (
    Number("judge_pi", "Each judge's and the panel's Scott's π against the human majority, gate "
           "verdict and CI", "calibration",
           ("judgescope.calibration.panel.rater_stats", "judgescope.stats.scotts_pi_fraction",
            "judgescope.calibration.exact.clustered_table_ci", "judgescope.calibration.exact.table_ci",
            "judgescope.stats.gate_verdict"),
           ("calib_items", "calib_item_judgements")),
    Number("human_agreement", "Human–human agreement: pairwise Cohen's κ, Fleiss' κ, "
           "Krippendorff's α with CIs", "calibration_humans",
           ("judgescope.calibration.agreement.human_agreement",
            "judgescope.calibration.agreement.pairwise_kappa"), ("calib_items",)),
)

GATE_RULE = ("The verdict is the gate as the release defines it: the exact point estimate π "
             "against the threshold (PASS when π ≥ gate, else FAIL; rounding never makes it "
             "pass). When the 95 % CI includes the gate the same badge adds “· inconclusive”: "
             "more items could change the verdict.")


def gate_label(r: dict) -> str:
    """'PASS', 'FAIL', or either with '· inconclusive' when the 95 % CI includes the gate."""
    if r.get("scotts_pi") is None:
        return "FAIL"
    return r["verdict"] + (" · inconclusive" if r["inconclusive"] else "")


def gate_badge(r: dict) -> tuple[str, str, str]:
    """(badge label, colour, the rule in one sentence) for one rater's gate result.

    The verdict is decided by the exact π against the gate (GATE_RULE); the label and the
    sentence say whether the 95 % CI lies on one side of the gate or includes it."""
    gate = fmt.gate_value(r["gate"])
    if r.get("scotts_pi") is None:
        return ("FAIL", "red", f"π is undefined on {fmt.count(r['n'])} items, so nothing "
                f"shows the gate π ≥ {gate} is met.")
    verdict = r["verdict"]
    sign = "≥" if verdict == "PASS" else "<"
    low, high = r["ci"]
    ci = fmt.interval(low, high, fmt.agreement)
    n = f"(n = {fmt.count(r['n'])} items; 95 % CI by {r['ci_name']})" if "ci_name" in r else \
        f"(n = {fmt.count(r['n'])} items)"
    if low is None:
        tail = f"the 95 % CI is {cal.fmt_ci(r['ci'], r.get('ci_undefined'))} {n}"
        colour = "green" if verdict == "PASS" else "red"
    elif r["inconclusive"]:
        tail = f"the 95 % CI {ci} includes the gate, so more items could change the verdict {n}"
        colour = "orange"
    else:
        side = "above" if verdict == "PASS" else "below"
        tail = f"the 95 % CI {ci} lies {side} the gate {n}"
        colour = "green" if verdict == "PASS" else "red"
    return gate_label(r), colour, f"π = {r['scotts_pi_shown']} {sign} {gate}; {tail}."


def stale_notes(rep: dict, checked: list[dict], panel_name: str = "panel", audit: dict | None = None) -> dict[str, str]:
    """Beside each gate badge whose judge's calibration is stale (calibration.staleness): its
    sentence 'calibrated on X; this run was judged by Y'; the panel carries its stale judges'.
    An audit of the collection judged by another fingerprint (staleness.audit_staleness) is said
    beside every badge."""
    stale = {j["judge_model"]: j["sentence"] for j in checked if j["stale"]}
    out = {name: stale[name] for name in rep["judges"] if name in stale}
    if rep["panel"] and out:
        out[panel_name] = "; ".join(out[name] for name in rep["judges"] if name in out)
    if audit and audit["stale"]:
        names = [panel_name] * bool(rep["panel"]) + list(rep["judges"])
        out = {name: "; ".join(filter(None, (out.get(name), audit["sentence"]))) for name in names}
    return out


def audit_check(run) -> dict:
    """The collection's audit against its calibration (staleness.audit_staleness)."""
    from judgescope.audit import fingerprint
    return staleness.audit_staleness(run("calib_judge_fingerprints"), fingerprint.fingerprint(run("audit_fingerprint")))


def calibration(rep: dict, panel_name: str = "panel", deviations: dict | None = None,
                stale: dict | None = None) -> list[Finding]:
    """The panel's gate result first, then each judge's, with its disagreements counted; a
    deviation the release recorded for a gate (deviations[name]) and a stale calibration
    (stale[name], stale_notes) are shown beside its badge."""
    raters = ([(panel_name, rep["panel"])] if rep["panel"] else []) + list(rep["judges"].items())
    deviations, stale = deviations or {}, stale or {}
    out = []
    for name, r in raters:
        verdict, colour, sentence = gate_badge(r)
        who = ("Panel (strict majority of the judges)" if r is rep["panel"] else f"Judge {isolated(name)}")
        wrong = r.get("fp", 0) + r.get("fn", 0)
        out.append(Finding(f"{who}: {sentence} It disagrees with the human majority on "
                           f"{fmt.count(wrong)} items.", "disagreements",
                           f"{name}'s disagreements",
                           {"judge": name if r is rep["panel"] else JUDGE_PREFIX + name, "cell": "disagree"},
                           verdict, colour,
                           method=f"Scott's π against the human 2-of-3 majority; gate π ≥ "
                                  f"{fmt.gate_value(r['gate'])}.",
                           how=f"{GATE_RULE} Interval: {r['ci_method']}.",
                           note=deviations.get(name, ""), stale=stale.get(name, "")))
    return out


def ratings_findings(result: dict, verdict: str | None) -> list[Finding]:
    """Long-format human ratings: Krippendorff's α per scale, and on verdicts Fleiss' κ and the
    nominal α with their bootstrap CIs."""
    size = (f"{fmt.count(result['items'])} items, {fmt.count(result['raters'])} raters, "
            f"{fmt.count(result['ratings'])} ratings")
    out = []
    alphas = "; ".join(f"{isolated(name)} {fmt.agreement(v)} ({_named_ci(result['alpha_ci'][name])})"
                       for name, v in result["alpha"].items())
    if alphas:
        method = next(iter(result["alpha_ci"].values()))["ci_method"]
        out.append(Finding(f"Krippendorff's α among the raters ({size}): {alphas}.", "human_ratings",
                           "Human ratings", method=f"Krippendorff (2011); intervals: {method}.",
                           how="Items with one rating are unpairable and counted apart."))
    v = result.get("verdicts")
    if verdict and v:
        k, a = v["fleiss_kappa"], v["krippendorff_alpha"]
        out.append(Finding(
            f"On the {isolated(verdict)} labels: Fleiss' κ {fmt.agreement(k['value'])} "
            f"({_named_ci(k)}), Krippendorff's α (nominal) {fmt.agreement(a['value'])} ({_named_ci(a)}).",
            "human_ratings", "Human ratings", method=k.get("ci_method", v.get("ci_method", "")),
            how="κ and α on the verdicts as nominal labels; pairwise Cohen's κ per rater pair on Human ratings."))
    return out


def _named_ci(stat: dict) -> str:
    """'95 % CI [a, b] by <its name>' (clustered.agreement's rule), n/a with its reason."""
    low, high = stat["ci"] or (None, None)
    ci = (fmt.interval(low, high, fmt.agreement) if low is not None
          else cal.fmt_ci([None, None], stat.get("ci_undefined")))
    return f"95 % CI {ci} by {stat['ci_name']}" if stat.get("ci_name") else f"95 % CI {ci}"


def collect_panel(run, deviations: dict | None, audit: bool = False) -> list[Finding]:
    """The judges' and the panel's gate findings from the calibration items (none when the
    collection has no items or no judgements); `deviations` as the manifest records them;
    `audit`: the collection holds a judge audit too, checked against the calibration."""
    items = run("calib_items", **cal.split_params([]))
    judgements = run("calib_item_judgements", **cal.split_params([]))
    if items.empty or judgements.empty:
        return []
    rep = cal.report(items, judgements)
    return calibration(rep, deviations=deviations,
                       stale=stale_notes(rep, staleness.staleness(run("calib_judge_fingerprints")),
                                         audit=audit_check(run) if audit else None))


def collect_ratings(run, missing: set[str]) -> list[Finding]:
    """The human raters' agreement from the long-format ratings; `missing`: the schema columns
    the ratings dataset lacks (its score is `score`, else `mqm`; verdicts only when present)."""
    score = next((c for c in ("score", "mqm") if c not in missing), None)
    verdict = None if "verdict" in missing else "verdict"
    frame = run("ratings_long")
    if frame.empty:
        return []
    return ratings_findings(clustered.agreement(frame, run("ratings_item_clusters"), score, verdict),
                            verdict)
