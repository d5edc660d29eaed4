"""Calibration intervals that are undefined on every resample say so (issue 39 items 2, 6 and 9):
`calibrate` and `report-html` return numbers or "undefined because …", never an exception."""

import json

import numpy as np
import pytest

from calib_tables import write_table
from judgescope.calibration import bias, exact
from judgescope.cli import main

M, N, A = "match", "no_match", "no_answer"
INTERVALS = ("ci", "ci_item", "kappa_ci", "pi_ci", "fleiss_kappa_ci", "krippendorff_alpha_ci")
NOT_AGREEMENT = ("bias", "length_probe", "corrected_rates", "label_budget")

TABLES = {
    # Issue 39 item 2: one judge that says "match" five times; human 1 says match throughout too.
    "one_judge_always_match": ([(M, M, N), (M, N, M), (M, N, A), (M, M, M), (M, N, N)],
                               {"solo": [M] * 5}),
    # Item 6: a judge and the human majority constant in the same class.
    "constant_same_class": ([(N, N, N), (N, N, M), (N, A, N), (N, N, N)], {"solo": [N] * 4}),
    # Item 6: a judge with one item (among three judges).
    "judge_with_one_item": ([(M, M, N), (N, N, M), (M, M, M), (N, N, N)],
                            {"a": [M, N, M, N], "b": [M, M, M, N], "one": [M, None, None, None]}),
    # Item 6: a single-item table.
    "single_item": ([(M, N, M)], {"a": [M], "b": [N], "c": [M]}),
}


def undefined_intervals(node, path=()):
    """(path, reason) of every agreement interval without endpoints in a calibrate --json result;
    fails on an interval whose endpoints are NaN or only half there."""
    out = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in NOT_AGREEMENT:
                continue
            if key in INTERVALS and isinstance(value, list):
                assert (value[0] is None) == (value[1] is None), (path, key, value)
                if value[0] is None:
                    out.append(((*path, key), node.get(f"{key}_undefined")))
                else:
                    assert np.isfinite(value).all() and value[0] <= value[1], (path, key, value)
            else:
                out += undefined_intervals(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += undefined_intervals(value, (*path, i))
    return out


@pytest.mark.parametrize("name", TABLES)
def test_calibrate_states_every_undefined_interval(name, tmp_path, monkeypatch, capsys):
    humans, judges = TABLES[name]
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(write_table(tmp_path / name, humans, judges)))
    out = tmp_path / "cal.json"
    assert main(["calibrate", "tiny_items", "--json", str(out)]) in (0, 1)
    printed = capsys.readouterr()
    assert "Traceback" not in printed.err
    found = undefined_intervals(json.loads(out.read_text()))
    assert found, "each of these tables has at least one undefined interval"
    for path, reason in found:
        assert reason and reason.startswith("undefined because"), path
    assert "n/a (undefined because" in printed.out
    report = tmp_path / "tiny.html"
    assert main(["report-html", "tiny", "--out", str(report), "--generated-at",
                 "2026-01-01T00:00:00Z"]) in (0, 1)
    assert report.stat().st_size > 0


def test_the_item_2_table_names_its_reason():
    """The judge and human 1 both say match on every item: that pair's κ and π have chance
    agreement 1, so every mean over pairs that holds it is undefined, with the reason."""
    judge = np.ones(5)
    humans = {"human 1": np.ones(5), "human 2": np.array([1, 0, 0, 1, 0.]),
              "human 3": np.array([0, 1, 0, 1, 0.])}
    ceiling = bias.human_ceiling({"solo": judge}, humans)
    mean = ceiling["judge_mean_kappa"]["solo"]
    assert mean["ci"] == [None, None] and mean["ci_undefined"] == bias.MEAN_UNDEFINED
    first = ceiling["judge_vs_human"][0]
    assert first["kappa_ci"] == [None, None] and first["kappa_ci_undefined"] == exact.NO_VARIATION
    assert "n/a (undefined because" in bias.ceiling_sentence(ceiling)


@pytest.mark.parametrize("counts", [[5, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 300]])
def test_an_interval_undefined_on_every_resample_is_none_with_a_reason(counts):
    """Exact enumeration ([5, 0, 0, 0], [0, 0, 0, 1]) and Monte Carlo (max_outcomes=0) alike."""
    for max_outcomes in (exact.MAX_OUTCOMES, 0):
        ci = exact.table_ci(counts, exact.kappa_of, max_outcomes=max_outcomes, start=200,
                            max_resamples=400)
        assert (ci["low"], ci["high"]) == (None, None)
        assert ci["undefined"] == exact.NO_VARIATION


def test_a_defined_interval_has_no_reason():
    ci = exact.table_ci([46, 2, 8, 44], exact.pi_of)
    assert ci["undefined"] is None and ci["low"] < 0.8 < ci["high"]


def _ranking(tmp_path, human, decisions: dict) -> str:
    rows = [{"dataset": "d", "src_text": f"s{i}", "tgt_texts": ["a", "b"], "human_scores": human(i),
             **{k: v for k, v in decisions.items()}} for i in range(12)]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_compare_methods_with_every_human_preference_tied_says_so(tmp_path, capsys):
    """Issue 39 item 9: two decision columns, every human preference tied: before, "one
    method/model only ()"."""
    src = _ranking(tmp_path, lambda i: [2, 2], {"one_step_ranking/a": "Translation 1 is better.",
                                                "one_step_ranking/b": "Translation 2 is better."})
    out = tmp_path / "m.json"
    assert main(["compare-methods", src, "--resamples", "50", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "()" not in printed and "every human preference is tied" in printed
    assert "2 methods/models" in json.loads(out.read_text())["datasets"]["d"]["note"]


def test_compare_methods_with_one_method_names_it(tmp_path, capsys):
    src = _ranking(tmp_path, lambda i: [1, 2] if i % 2 else [2, 1],
                   {"one_step_ranking/only": "Translation 1 is better."})
    assert main(["compare-methods", src, "--resamples", "50"]) == 0
    assert "one method/model only (one_step_ranking/only)" in capsys.readouterr().out


def test_calibrate_names_the_pi_interval_it_shows(tmp_path, monkeypatch, capsys):
    """Issue 39 item 9: the first line names the π intervals' method (here the exact item
    bootstrap: no two items share a question), not the human κ's Monte Carlo item bootstrap; the
    ceiling gives κ and π each their own method."""
    humans, judges = TABLES["judge_with_one_item"]
    monkeypatch.setenv("JUDGESCOPE_SOURCES", str(write_table(tmp_path / "t", humans, judges)))
    out = tmp_path / "cal.json"
    main(["calibrate", "tiny_items", "--json", str(out)])
    first = capsys.readouterr().out.splitlines()[2]
    rep = json.loads(out.read_text())
    assert rep["ci_method"] == rep["pi_ci_method"] == rep["panel"]["ci_method"]
    assert first.endswith(rep["pi_ci_method"]) and "10,000 resamples" not in first
    assert rep["humans"]["ci_method"].startswith("95% percentile bootstrap over items (10,000")
    row = next(r for r in rep["ceiling"]["judge_vs_human"] if r["rater"] == "a")
    assert "ci_method" not in row and row["pi_ci_method"] and row["kappa_ci_method"]


def test_each_ceiling_interval_states_its_own_method():
    """200 items: Monte Carlo, so κ's and π's intervals stop at different resamples and errors;
    each row's π method is π's own (before, the row carried κ's text for both)."""
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2, 200)
    b = np.where(rng.random(200) < 0.8, a, 1 - a)
    row = bias.binary_pair(a, b)
    table = np.bincount(a * 2 + b, minlength=4)
    assert row["pi_ci_method"] == exact.table_ci(table, exact.pi_of)["method"]
    assert row["kappa_ci_method"] == exact.table_ci(table, exact.kappa_of)["method"]
    assert row["pi_ci_method"] != row["kappa_ci_method"]


def test_pairwise_tables_say_why_an_interval_is_missing():
    """Two judges that say match on every shared key: κ and its interval are undefined, said."""
    import pandas as pd

    from judgescope.calibration import bulk
    from judgescope.calibration import human_ratings as hr

    pairs = pd.DataFrame({"judge_a": ["a"], "judge_b": ["b"], "verdict_a": [M], "verdict_b": [M],
                          "n": [5]})
    row = bulk.pair_agreement(pairs, resamples=100).iloc[0]
    assert row["κ 95% CI"] == f"n/a ({exact.NO_VARIATION})"
    wide = pd.DataFrame({"r1": [M, M, M], "r2": [M, M, M]})
    from judgescope.calibration import agreement
    found = agreement.pairwise_kappa(wide, [M, N], resamples=100)
    assert found[0]["ci"] == [None, None] and found[0]["ci_undefined"] == exact.NO_VARIATION
    frame = hr.pairwise_frame(found)
    assert frame["no CI because"].iloc[0] == exact.NO_VARIATION.removeprefix("undefined because ")


def test_alpha_of_one_rater_says_nothing_pairs():
    import pandas as pd

    from judgescope.calibration import agreement

    out = agreement.human_agreement(pd.DataFrame({"r1": [M, N, M]}), [M, N], resamples=50)
    assert out["krippendorff_alpha"]["ci_undefined"] == agreement.UNPAIRABLE
    assert out["fleiss_kappa"]["ci_undefined"].startswith("undefined because one rating per item")
