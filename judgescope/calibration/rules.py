"""The calibration's naming and counting rules, stated once: rater ids (judges and the panel
in separate namespaces), the "(no split)" choice, and the definitions that shape every judge and
panel figure (panel rule and n, binarisation, three-way human ties) as data and as a sentence."""

from __future__ import annotations

import pandas as pd

from judgescope import defaults

# Rater ids live in one namespace where judges and the panel cannot meet: a judge's id is
# JUDGE_PREFIX + its judge_model, the panel's is PANEL. Frame columns keep them apart too:
# judges `verdict__<judge>` / `binary__<judge>` / `reason__<judge>`, the panel `panel_verdict` /
# `panel_binary` (no `__`), so a judge called "panel" is a judge like any other.
PANEL, JUDGE_PREFIX = "panel", "judge:"
NO_SPLIT = defaults.NO_SPLIT  # the choice that selects items whose split is NULL
TIES_COUNTED, TIES_EXCLUDED = "counted as not match", "excluded"


def judge_id(name: str) -> str:
    return JUDGE_PREFIX + name


def column(rater: str, kind: str) -> str:
    """The frame column of a rater id: kind is verdict, binary or reason."""
    if rater == PANEL:
        return f"panel_{kind}"
    if rater.startswith(JUDGE_PREFIX):
        return f"{kind}__{rater.removeprefix(JUDGE_PREFIX)}"
    raise ValueError(f"not a rater id: {rater!r} (a judge is {JUDGE_PREFIX!r} + its name)")


PANEL_MIN_JUDGES = 3  # one judge is not a panel, and two can only tie or agree


def has_panel(n_judges: int) -> bool:
    """A panel exists for an odd number of judges, three or more."""
    return n_judges >= PANEL_MIN_JUDGES and n_judges % 2 == 1


def panel_label(n_judges: int) -> str:
    return f"panel (strict majority of {n_judges} judges)"


def rater_name(rater: str) -> str:
    """A rater id for display: the judge's name, or 'panel (all judges)' for the panel."""
    return "panel (all judges)" if rater == PANEL else rater.removeprefix(JUDGE_PREFIX)


def split_options(splits) -> list[str]:
    """The split choices: every named split, then NO_SPLIT when some item has none (a split
    literally named like NO_SPLIT would select the NULL-split items too)."""
    values = pd.Series(splits, dtype=object)
    named = sorted(str(v) for v in values.dropna().unique())
    return named + ([NO_SPLIT] if values.isna().any() else [])


def split_params(chosen) -> dict:
    """Query parameters of chosen split options (empty = every item)."""
    chosen = list(chosen)
    return {"splits": [c for c in chosen if c != NO_SPLIT], "no_split": NO_SPLIT in chosen}


def definitions(scored: pd.DataFrame, n_judges: int, n_ties, exclude_ties: bool) -> dict:
    """The rules that shape every judge and panel figure, with the items they concern."""
    panel = None
    if has_panel(n_judges):
        complete = scored["panel_complete"]
        panel = {"rule": f"strict majority ({n_judges // 2 + 1} of {n_judges}) of the judges' "
                         "binary verdicts, on items every judge rated",
                 "n_items": int(complete.sum()), "items_without_all_judges": int((~complete).sum())}
    return {"n_judges": n_judges, "n_scored_items": int(len(scored)), "panel": panel,
            "binarisation": "match = 1, no_match and no_answer = 0",
            "human_majority": "2 of 3 human binary verdicts",
            "three_way_ties": {"n": int(n_ties),
                               "handling": TIES_EXCLUDED if exclude_ties else TIES_COUNTED}}


def definitions_sentence(rep: dict) -> str:
    """The panel rule and n, binarisation and tie handling, in one sentence set for a page."""
    d = rep["definitions"]
    p = d["panel"]
    panel = (f"Panel: {p['rule']}: {p['n_items']} of {d['n_scored_items']} items "
             f"({p['items_without_all_judges']} without all judges)." if p else
             f"No panel: {d['n_judges']} judge{'s' if d['n_judges'] != 1 else ''} (the panel "
             f"needs an odd number, at least {PANEL_MIN_JUDGES}).")
    ties = d["three_way_ties"]
    tie_word = "tie" if ties["n"] == 1 else "ties"
    return (f"{panel} Binary: {d['binarisation']}. Human majority: {d['human_majority']}; "
            f"{ties['n']} three-way human {tie_word} {ties['handling']}.")
