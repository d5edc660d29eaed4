"""Issue #14 item 8: `report` and `rank` print loaded = used + excluded per input and exit 1
when a row was excluded (the README: no row is dropped silently)."""

import json

from judgescope.cli import EXIT_OK, EXIT_PROBLEMS, main
from test_ranking_cli import ROWS


def _audit(path, bad: bool):
    rows = [{"judge_record_id": f"r{i}", "target_language": "th", "unit": "answer", "score": s,
             "score_origin": "explicit"} for i, s in enumerate([20, 80, 95])]
    if bad:
        rows.append({"judge_record_id": "r9", "target_language": "th", "unit": "answer",
                     "score": "not a number", "score_origin": "explicit"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_report_with_excluded_rows_exits_1(tmp_path, capsys):
    src = _audit(tmp_path / "audit.jsonl", bad=True)
    assert main(["report", str(src), "--out", str(tmp_path / "o"), "--resamples", "50"]) == \
        EXIT_PROBLEMS
    out = capsys.readouterr().out
    assert "audit: loaded 4 = used 3 + excluded 1" in out
    assert (tmp_path / "o" / "SUMMARY.json").exists()  # the tables are still written


def test_report_clean_exits_0_and_says_so(tmp_path, capsys):
    src = _audit(tmp_path / "audit.jsonl", bad=False)
    assert main(["report", str(src), "--out", str(tmp_path / "o"), "--resamples", "50"]) == EXIT_OK
    assert "audit: loaded 3 = used 3 + excluded 0" in capsys.readouterr().out


def test_rank_with_excluded_rows_exits_1(tmp_path, capsys):
    bad = {"dataset": "d", "src_text": "s5", "tgt_texts": ["a"], "human_scores": [1, 2]}
    src = tmp_path / "pairs.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in [*ROWS, bad]), encoding="utf-8")
    assert main(["rank", str(src)]) == EXIT_PROBLEMS
    assert "pairs: loaded 5 = used 4 + excluded 1" in capsys.readouterr().out


def test_rank_json_on_stdout_keeps_the_ledger_on_stderr(tmp_path, capsys):
    src = tmp_path / "pairs.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    assert main(["rank", str(src), "--json", "-"]) == EXIT_OK
    captured = capsys.readouterr()
    assert json.loads(captured.out)["rows"] == 4
    assert "pairs: loaded 4 = used 4 + excluded 0" in captured.err


def test_report_shows_bootstrap_progress_on_stderr(tmp_path, capsys):
    """Issue #14 item 12: float scores make the count bootstrap slow; say how far it is."""
    src = _audit(tmp_path / "audit.jsonl", bad=False)
    main(["report", str(src), "--out", str(tmp_path / "o"), "--resamples", "50"])
    err = capsys.readouterr().err
    # one unit: the unit, overall, (th, answer) and th overall = 4 groups, 3 distinct scores
    assert "bootstrap (3 distinct scores, 50 resamples): 4/4 groups" in err
    # captured (not a terminal): plain lines, one per group here, never \r-overwritten text
    assert "\r" not in err and err.count("groups\n") == 4
