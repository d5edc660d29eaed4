"""The judge fingerprint of a run (issue 43 item 1): the recorded judge and prompt per unit, the
difference between two runs said first, nulls counted as not recorded; its CLI and Provenance."""

import json

import pandas as pd
import pyarrow.parquet as pq

from judgescope import cli
from judgescope.audit import fingerprint
from judgescope.wiring import get_catalog

from apptest import open_page


def _rows(*rows) -> pd.DataFrame:
    cols = ["unit", *fingerprint.FIELDS, "n"]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows], columns=cols)


OLD = _rows(("answer", "glm-5.1", None, "v3", "aa" * 32, 10), ("paragraph", "glm-5.1", None, "v3", "aa" * 32, 30))
NEW = _rows(("answer", "glm-5.2", "glm-5.2-0912", "v4", "bb" * 32, 12),
            ("paragraph", "glm-5.2", "glm-5.2-0912", "v3", "aa" * 32, 30))


def test_fingerprint_lists_each_recorded_value_with_its_rows():
    fp = fingerprint.fingerprint(OLD)
    assert fp["rows"] == 40 and fp["label"] == "glm-5.1 / prompt v3"
    assert fp["fields"]["judge_prompt_version"] == {"values": {"v3": 40}, "rows_not_recorded": 0}
    assert fp["fields"]["resolved_judge_revision"] == {"values": {}, "rows_not_recorded": 40}
    assert "decoding settings" in fp["decoding_settings"]
    new = fingerprint.fingerprint(NEW)
    assert new["label"] == "glm-5.2 (resolved glm-5.2-0912) / prompts v3, v4"
    assert new["fields"]["judge_prompt_version"]["values"] == {"v3": 30, "v4": 12}  # most rows first


def test_difference_is_said_first_and_per_unit():
    diff = fingerprint.difference(fingerprint.fingerprint(OLD), fingerprint.fingerprint(NEW))
    assert not diff["same"]
    assert diff["sentence"].startswith("glm-5.1 / prompt v3 → glm-5.2 (resolved glm-5.2-0912) / prompts v3, v4")
    assert diff["changed_fields"] == list(fingerprint.FIELDS)
    by_unit = {u["unit"]: u for u in diff["by_unit"]}
    assert by_unit["answer"]["new"] == "glm-5.2 (resolved glm-5.2-0912) / prompt v4"
    assert by_unit["paragraph"]["changed"]  # the model changed, the prompt did not
    same = fingerprint.difference(fingerprint.fingerprint(OLD), fingerprint.fingerprint(OLD))
    assert same["same"] and same["sentence"] == "same judge: glm-5.1 / prompt v3"


def test_a_run_recording_no_judge_says_so():
    fp = fingerprint.fingerprint(_rows(("answer", None, None, None, None, 5)))
    assert fp["label"] == "judge not recorded / prompt not recorded"
    assert fp["fields"]["requested_judge_model"]["rows_not_recorded"] == 5
    only_hash = fingerprint.fingerprint(_rows(("answer", "m", None, None, "e939a00a58e2347b60e9", 5)))
    assert only_hash["label"] == "m / prompt sha256 e939a00a58e2…"


def test_fingerprint_query_counts_the_demo_audit_as_pandas_does():
    loaded = get_catalog().dataset("xhotpotqa_v2_audit")
    frame = pq.read_table(loaded.path("clean")).to_pandas()
    fp = fingerprint.fingerprint(get_catalog().store("xhotpotqa").run("audit_fingerprint"))
    assert fp["fields"]["judge_prompt_version"]["values"] == \
        {k: int(v) for k, v in frame["judge_prompt_version"].value_counts().items()}
    assert fp["rows"] == len(frame)


def test_fingerprint_command(tmp_path, capsys):
    out = tmp_path / "fp.json"
    code = cli.main(["fingerprint", "xhotpotqa_v2_rescore", "--against", "xhotpotqa_v2_audit",
                     "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    assert printed.startswith("xhotpotqa_v2_audit → xhotpotqa_v2_rescore: same judge: glm-5.2 / prompts")
    result = json.loads(out.read_text())
    assert result["difference"]["same"] and result["fingerprint"]["rows"] == 690


def test_provenance_shows_the_fingerprint_and_its_difference():
    at = open_page("pages/provenance.py", "xhotpotqa")
    assert any(h.value == "Judge fingerprint" for h in at.header)
    shown = " ".join(m.value for m in at.markdown)
    assert "This run was judged by" in shown and "Against the earlier run" in shown


def test_stability_against_an_earlier_run_says_the_judge_first(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert cli.main(["stability", "xhotpotqa_v2_drift", "--against", "xhotpotqa_v2_audit", "--json", str(out)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("judge: glm-5.2 / prompts") and "→ glm-5.3" in first
    assert not json.loads(out.read_text())["judge"]["same"]
