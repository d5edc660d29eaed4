"""Drift between judge runs on anchors (issue 43 items 2-4): the paired shift, the exact sign
test, Bland–Altman limits and their CIs against a hand computation, verdict flips, McNemar and κ
by hand, the judge vs system split (its identity, its alarm, too few anchors)."""

import math

import numpy as np
import pandas as pd
import pytest

from judgescope.audit import drift, drift_report, drift_split

# Student's t, 0.975 quantile, 9 degrees of freedom, from a printed table (e.g. NIST/SEMATECH
# e-Handbook 1.3.6.7.2): 2.262; the normal 0.975 quantile: 1.959964.
T_975_9, Z_975 = 2.2621571628, 1.959963985


def test_bland_altman_against_a_hand_computation():
    old = np.array([50, 60, 70, 80, 90, 55, 65, 75, 85, 95], dtype=float)
    d = np.arange(1, 11, dtype=float)  # differences 1..10
    out = drift.bland_altman(old, old + d)
    n, bias = 10, 5.5
    sd = math.sqrt(sum((x - bias) ** 2 for x in range(1, 11)) / (n - 1))  # 3.0277
    assert out["bias"] == pytest.approx(bias) and out["sd"] == pytest.approx(sd)
    assert out["loa"] == pytest.approx([bias - Z_975 * sd, bias + Z_975 * sd])  # −0.434, 11.434
    assert out["bias_ci"] == pytest.approx([bias - T_975_9 * sd / math.sqrt(n),
                                            bias + T_975_9 * sd / math.sqrt(n)], rel=1e-6)
    # Bland & Altman (1999): SE of a limit = √((1/n + z²/(2(n−1))) s²); CI = limit ± t(n−1)·SE.
    se = math.sqrt((1 / n + Z_975 ** 2 / (2 * (n - 1))) * sd ** 2)  # 1.695
    assert se == pytest.approx(1.69498, abs=1e-4)
    lower, upper = bias - Z_975 * sd, bias + Z_975 * sd
    assert out["loa_ci"][0] == pytest.approx([lower - T_975_9 * se, lower + T_975_9 * se], rel=1e-6)
    assert out["loa_ci"][1] == pytest.approx([upper - T_975_9 * se, upper + T_975_9 * se], rel=1e-6)
    assert out["too_few_to_decide"]  # 10 < 30 anchors
    assert "Bland & Altman 1999" in out["method"]


def test_exact_sign_test_by_hand():
    # 8 up, 1 down, 1 unchanged: p = 2·P(X ≤ 1), X ~ Bin(9, ½) = 2·(1 + 9)/512.
    out = drift.sign_test([1, 2, 1, 3, 1, 1, 4, 1, 0, -1])
    assert (out["up"], out["down"], out["unchanged"]) == (8, 1, 1)
    assert out["p"] == pytest.approx(20 / 512)
    assert drift.sign_test([0, 0])["p"] is None


def test_shift_mean_ci_and_marking():
    rng = np.random.default_rng(1)
    d = np.rint(rng.normal(4, 3, 200))
    out = drift.shift(d, resamples=4000, seed=7)
    assert out["mean_diff"] == pytest.approx(d.mean())
    assert out["ci"][0] < 4 < out["ci"][1] and out["ci"][1] - out["ci"][0] < 2
    assert out == drift.shift(d, resamples=4000, seed=7)  # seeded
    assert not out["too_few_to_decide"] and drift.shift(d[:29], 500)["too_few_to_decide"]
    assert out["wilcoxon"]["p"] < 1e-6 and out["sign_test"]["p"] < 1e-6


def test_shift_ci_covers_by_simulation():
    rng = np.random.default_rng(3)
    hits = sum(lo <= 2 <= hi for lo, hi in
               (drift.shift(rng.normal(2, 5, 60), 1000, seed=i)["ci"] for i in range(200)))
    assert 0.90 <= hits / 200 <= 0.99


def test_verdict_drift_by_hand():
    # 60 anchors: 40 pass→pass, 8 fail→fail, 9 pass→fail, 3 fail→pass.
    old = [False] * 40 + [True] * 8 + [False] * 9 + [True] * 3
    new = [False] * 40 + [True] * 8 + [True] * 9 + [False] * 3
    out = drift.verdict_drift(old, new, resamples=2000, seed=1)
    assert (out["flips"], out["pass_to_fail"], out["fail_to_pass"]) == (12, 9, 3)
    p, n, z = 12 / 60, 60, Z_975
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert out["flip_ci"] == pytest.approx([centre - half, centre + half])
    assert out["mcnemar_p"] == pytest.approx(2 * sum(math.comb(12, k) for k in range(4)) / 2 ** 12)
    p_o = 48 / 60
    p_e = (49 / 60) * (43 / 60) + (11 / 60) * (17 / 60)  # old pass 49, new pass 43
    assert out["kappa"] == pytest.approx((p_o - p_e) / (1 - p_e))
    assert out["kappa_ci"][0] < out["kappa"] < out["kappa_ci"][1]
    assert out["direction"] == "more anchors went from pass to fail"
    assert not out["too_few_to_decide"] and not out["kappa_too_few_to_decide"]
    assert drift.verdict_drift(old[:45], new[:45])["kappa_too_few_to_decide"]


def test_judge_vs_system_identity_and_alarm():
    rng = np.random.default_rng(5)
    anchors = 4 + rng.normal(0, 2, 300)  # the judge moved +4
    changed = 4 - 6 + rng.normal(0, 2, 100)  # and the system −6 on the changed units
    out = drift_split.decompose(anchors, changed, resamples=3000, seed=2)
    assert out["headline"] == pytest.approx(out["judge_shift"] + out["share_changed"] * out["system_shift"])
    assert out["share_changed"] == pytest.approx(0.25)
    assert out["judge_ci"][0] < 4 < out["judge_ci"][1] and out["system_ci"][0] < -6 < out["system_ci"][1]
    assert out["alarm"] and out["opposite_directions"]
    sentence = drift_split.alarm_sentence(out, "th")
    assert sentence.startswith(f"the judge moved +{out['judge_shift']:.2f} on th; the systems moved −")
    assert f"{abs(out['system_shift']):.2f}" in sentence and "hides opposite changes" in sentence


def test_no_alarm_with_few_anchors_or_an_interval_over_zero():
    rng = np.random.default_rng(6)
    few = drift_split.decompose(4 + rng.normal(0, 1, 20), -2 + rng.normal(0, 1, 100), 1000)
    assert few["too_few_to_decide"] and few["opposite_directions"] and not few["alarm"]
    vague = drift_split.decompose(0.1 + rng.normal(0, 5, 40), -3 + rng.normal(0, 1, 100), 1000)
    assert vague["judge_ci"][0] < 0 < vague["judge_ci"][1] and not vague["alarm"]
    none = drift_split.decompose([], [1.0, 2.0], 100)
    assert none["judge_shift"] is None and none["system_shift"] is None and none["headline"] == 1.5


def _pairs(rows):
    cols = ["unit_id", "target_language", "unit", "paragraph_id", "old_score", "new_score", "anchor",
            "old_record_id", "new_record_id"]
    frame = pd.DataFrame(rows, columns=cols)
    return frame.assign(paired_on="source_id", diff=frame["new_score"] - frame["old_score"], stable=True,
                        old_rows=1, new_rows=1)


def test_report_states_its_definitions_and_verdict_rule():
    pairs = _pairs([(f"s{i}", "th", "answer", None, i % 2, 1, i < 8, f"o{i}", f"n{i}") for i in range(12)])
    fp = pd.DataFrame([{"unit": "answer", "requested_judge_model": "j", "resolved_judge_revision": None,
                        "judge_prompt_version": "v1", "judge_prompt_sha256": None, "n": 12}])
    out = drift_report.report(pairs, fp, fp.assign(judge_prompt_version="v2"), resamples=200)
    assert out["fingerprint"]["difference"]["sentence"].startswith("j / prompt v1 → j / prompt v2")
    assert out["verdicts"]["rule"].startswith("fail = score 0")  # 0/1 scores are verdicts
    assert out["verdicts"]["result"]["flips"] == 4 and out["verdicts"]["result"]["too_few_to_decide"]
    assert out["counts"]["anchors"] == 8 and "SHA-256" in out["counts"]["definition"]
    assert [m["unit_id"] for m in out["moved_most"]] == ["s0", "s2", "s4", "s6"]
    assert drift_report.summary_lines(out)[0].startswith("judge: j / prompt v1 → j / prompt v2")
    scores = drift_report.report(pairs.assign(new_score=50, old_score=40, diff=10), fp, fp, resamples=200)
    assert scores["verdicts"]["result"] is None and "no threshold" in scores["verdicts"]["rule"]


def test_drift_command_on_the_rescore(tmp_path, capsys):
    import json

    from judgescope import cli
    out = tmp_path / "drift.json"
    code = cli.main(["drift", "xhotpotqa_v2_audit", "xhotpotqa_rescore", "--resamples", "500",
                     "--json", str(out)])
    printed = capsys.readouterr().out.splitlines()
    assert code == 0
    assert printed[0] == "xhotpotqa_v2_audit → xhotpotqa_v2_rescore (differences are new − old)"
    assert printed[1].startswith("  judge: same judge: glm-5.2")  # the fingerprint comes first
    result = json.loads(out.read_text())
    # The re-score keeps every text, so every paired unit is an anchor (690 rows, rescore.py).
    assert result["counts"]["anchors"] == result["counts"]["paired_units"] == 690
    by_unit = {r["unit"]: r for r in result["judge_shift"]["by_unit"]}
    assert by_unit["answer"]["ci"][1] < 0  # rescore.py: answers re-scored ANSWER_SHIFT lower


def test_drift_command_refuses_what_is_not_an_audit(capsys):
    from judgescope import cli
    assert cli.main(["drift", "localgate", "xhotpotqa_v2_audit"]) == 2
    assert "collection localgate has no judge audit" in capsys.readouterr().err
    assert cli.main(["drift", "nothing-here.jsonl", "xhotpotqa_v2_audit"]) == 2


def test_repeated_runs_count_a_unit_only_when_stable_within_each_run(tmp_path, capsys):
    """Issue 43 item 4: s0 was scored twice alike in the old run (stable, moved +5), s1 twice
    differently (unstable: left out, counted), s2 once in each run with changed texts."""
    import json

    from judgescope import cli

    def row(rid, source, score, cand="c"):
        return {"judge_record_id": rid, "source_id": source, "target_language": "th", "unit": "answer",
                "score": score, "source_text_sha256": "a" * 64, "candidate_text_sha256": cand * 64}
    old = [row("o1", "s0", 70), row("o2", "s0", 70), row("o3", "s1", 60), row("o4", "s1", 90), row("o5", "s2", 50)]
    new = [row("n1", "s0", 75), row("n2", "s1", 80), row("n3", "s2", 40, cand="d")]
    for name, rows in (("old", old), ("new", new)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "d.json"
    assert cli.main(["drift", str(tmp_path / "old.jsonl"), str(tmp_path / "new.jsonl"), "--resamples", "100",
                     "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    c = result["counts"]
    assert (c["paired_units"], c["anchors"], c["changed"]) == (2, 1, 1)
    assert (c["repeated_within_a_run"], c["unstable_within_a_run"]) == (2, 1)
    assert result["judge_shift"]["overall"]["mean_diff"] == 5
    assert [m["unit_id"] for m in result["moved_most"]] == ["s0"]
    split = result["judge_vs_system"]["overall"]
    assert split["system_shift"] == -10 - 5 and split["headline"] == (5 - 10) / 2
    assert "stable within each run" in c["definition"]


def test_a_repeated_unit_is_an_anchor_only_when_every_repeat_records_one_equal_hash(tmp_path):
    """drift_pairs' anchor rule (both hashes recorded on every row of the unit and one value
    each): s0's repeats agree on both hashes (anchor); s1's repeats hold two candidate hashes
    (changed); s2's second repeat has no candidate hash (changed); s3's differ in the source
    hash only (changed)."""
    import json

    from judgescope import cli

    def row(rid, source, src="a", cand="c"):
        return {"judge_record_id": rid, "source_id": source, "target_language": "th", "unit": "answer",
                "score": 70, "source_text_sha256": src * 64,
                "candidate_text_sha256": None if cand is None else cand * 64}
    old = [row("o1", "s0"), row("o2", "s0"), row("o3", "s1"), row("o4", "s1", cand="d"),
           row("o5", "s2"), row("o6", "s2", cand=None), row("o7", "s3"), row("o8", "s3", src="b")]
    new = [row("n1", "s0"), row("n2", "s1"), row("n3", "s2"), row("n4", "s3")]
    for name, rows in (("old", old), ("new", new)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "d.json"
    cli.main(["drift", str(tmp_path / "old.jsonl"), str(tmp_path / "new.jsonl"), "--resamples", "100",
              "--json", str(out)])
    c = json.loads(out.read_text())["counts"]
    assert (c["paired_units"], c["anchors"], c["changed"]) == (4, 1, 3)


def test_the_result_does_not_depend_on_the_order_the_pairs_came_in():
    """Every figure, the seeded intervals included, is the same for the pairs in any order (each
    resample is a multinomial over distinct values), so drift_pairs' rows need no order and its
    buckets can come in any order."""
    from judgescope.audit import drift_report
    from judgescope.wiring import get_catalog

    run = get_catalog().store("xhotpotqa_drift").run
    pairs = run("drift_pairs", buckets=1, bucket=0)
    old, new = run("audit_previous_fingerprint"), run("audit_fingerprint")
    first = drift_report.report(pairs, old, new, resamples=500)
    shuffled = pairs.sample(frac=1, random_state=3).reset_index(drop=True)
    assert not shuffled.equals(pairs)
    assert drift_report.report(shuffled, old, new, resamples=500) == first
